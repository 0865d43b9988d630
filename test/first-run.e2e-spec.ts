/**
 * A first run as the README shows it (issue 23, defect 14): `npm run demo -- --keep` leaves the hub, the
 * simulator and the agent running with a dashboard that answers, in Russian; the hub prints a line when it
 * stops. The sources run directly (support/ts-register.mjs), as the MCP tests run `jira-hub mcp`.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './support/app.js';
import { runSource as run } from './support/cli-process.js';

describe('first run', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('the hub prints where it listens, in Russian, and one line with an ISO time when it is stopped', async () => {
    const hub = run('src/cli.ts', ['serve'], { HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_DB_PATH: join(tempDir(), 'hub.sqlite') });
    child = hub.child;
    const [, url] = await hub.until(/^Jira Hub слушает (http:\/\/127\.0\.0\.1:\d+)\n(?:  .*\n){5}/m);
    hub.child.kill('SIGTERM');
    await hub.exited;
    // What is printed for people (stdout without the log's lines) is Russian but for names and addresses.
    const said = hub.stdout().split('\n').filter((l) => l && !l.startsWith('[Nest]'));
    expect(said.slice(0, 6).map((l) => l.replace(/^ +/, '').replace(/:.*/, ''))).toEqual(['Jira Hub слушает http', 'панель', 'база данных', 'Swagger UI', 'доступ', 'MCP']);
    expect(said).toContain(`  MCP: ${url}/mcp — все инструменты`);
    expect(said.filter((l) => /\b(listening|database|open mode|tools|stopped)\b/.test(l))).toEqual([]);
    expect(said.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z Jira Hub остановлен \(SIGTERM\)$/);
  }, 60_000);

  it('a reader of its output that went away (`jira-hub serve | head -1`): the hub goes on serving and stops as ever (it died on its next log line with an EPIPE stack, exit 1; decision 1443)', async () => {
    const hub = run('src/cli.ts', ['serve'], { HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_DB_PATH: join(tempDir(), 'hub.sqlite') });
    child = hub.child;
    const [, url] = await hub.until(/^Jira Hub слушает (http:\/\/127\.0\.0\.1:\d+)\n(?:  .*\n){5}/m);
    hub.child.stdout!.destroy(); // the reader's end of the pipe closed: each write of the hub now fails with EPIPE
    const post = (path: string, body: unknown) => fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/batches', { title: 'EPIPE', commands: [{ type: 'refresh', params: { keys: ['AURORA-1'] } }] })).status).toBe(201);
    // A log line to the closed pipe (the first EPIPE, which Node's console swallows), and the hub still answers.
    expect(await (await post('/agent/claim', { wait_seconds: 0 })).json()).toMatchObject({ command: { type: 'refresh' } });
    expect((await fetch(`${url}/health`)).status).toBe(200);
    hub.child.kill('SIGTERM'); // the stop line is the next write to the closed pipe
    expect(await hub.exited).toBeNull(); // ended by the signal, as Nest's shutdown hooks end it
    expect(hub.stderr()).toBe('');
  }, 60_000);

  it('npm run demo stopped by Ctrl+C half-way: everything stops and its temporary database goes too (the folder was left behind)', async () => {
    const demo = run('src/demo.ts', [], { HUB_PORT: '0' });
    child = demo.child;
    const [, dir] = await demo.until(/временная база (\S+)\)/);
    expect(existsSync(dir)).toBe(true);
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(130);
    expect(existsSync(dir)).toBe(false);
    expect(demo.output()).toContain('Останавливаем демо…');
    expect(demo.stderr()).toBe('');
  }, 60_000);

  it('npm run demo -- --keep: the hub, simulator and agent stay up, the dashboard answers, a failing batch and a paced one to watch; Russian output', async () => {
    const demo = run('src/demo.ts', ['--keep'], { HUB_PORT: '0' });
    child = demo.child;
    const [, url] = await demo.until(/Панель: (http:\/\/127\.0\.0\.1:\d+)\//);
    await demo.until(/Остановить: Ctrl\+C\./);
    const get = async (path: string) => {
      const res = await fetch(url + path);
      expect(res.status).toBe(200);
      return res;
    };
    expect(await (await get('/')).text()).toContain('<div id="root">');
    const batches: { title: string; status: string; counts: Record<string, number> }[] = await (await get('/batches')).json();
    expect(batches.find((b) => b.title === 'Демо: пакет с ошибкой')).toMatchObject({ status: 'done', counts: expect.objectContaining({ failed: 1 }) });
    expect(batches.find((b) => b.title === 'Демо: план ассистента')).toMatchObject({ status: 'awaiting_approval' });
    const agent = await (await get('/agent')).json();
    expect(agent.online).toBe(true);
    expect(agent.current_command ?? agent.next_command).not.toBeNull(); // the paced batch is going on
    // The demo's own lines are Russian (the agent's log lines are the agent's, in English like every log).
    const own = demo.output().split('\n').map((l) => l.replace(/https?:\/\/\S+/g, '')).filter((l) => l.trim() && !/агент:/.test(l) && !/^[─\s]+$/.test(l));
    expect(own.filter((l) => /\b(batch|commands|mirror|pacing|simulator|agent stopped)\b/i.test(l))).toEqual([]);
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    expect(demo.output()).toContain('Останавливаем демо…');
  }, 90_000);
});
