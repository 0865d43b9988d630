/**
 * `jira-hub` refusing to start, as a process (decision 0108): one Russian line on stderr naming what is
 * wrong, exit code 2, nothing else on stderr (no log line, no stack), never a hang. Only what a process
 * shows is spawned here (each child costs seconds of CPU, decision 1402).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './support/app.js';
import { type ChildOptions, runCli } from './support/cli-process.js';

/** The child's exit code and its stderr's lines, once it has ended. */
async function ended(hub: ReturnType<typeof runCli>): Promise<{ code: number | null; err: string[] }> {
  return { code: await hub.exited, err: hub.stderr().trimEnd().split('\n') };
}

describe('jira-hub refuses to start in one Russian line (a process)', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const folder = () => {
    const dir = tempDir();
    dirs.push(dir);
    return dir;
  };
  const cli = (args: string[], env: Record<string, string>, options?: ChildOptions) => {
    const hub = runCli(args, { HUB_PORT: '0', ...env }, options);
    children.push(hub.child);
    return hub;
  };

  // Node 20's recursive mkdir loops for ever under /proc: the old hub never ended (the test's timeout failed it).
  it.each([
    ['serve', () => ['serve', '--db', '/proc/jira-hub-test/hub.sqlite'], 'папку базы данных /proc/jira-hub-test'],
    ['export', (db: string) => ['export', '/proc/jira-hub-test', '--jql', 'project = AURORA', '--db', db], 'папку для пакета /proc/jira-hub-test'],
  ])('%s under /proc: a refusal, not a hang', async (_command, argsWith, what) => {
    const db = join(folder(), 'hub.sqlite');
    writeFileSync(db, ''); // an empty file is a new database: export opens it and finds nothing
    const hub = cli(argsWith(db), {});
    expect(await ended(hub)).toEqual({ code: 2, err: [`jira-hub: ${what} создать нельзя: /proc — служебная папка системы, не на диске, и папок в ней не создать`] });
    expect(existsSync('/proc/jira-hub-test')).toBe(false);
  });
});
