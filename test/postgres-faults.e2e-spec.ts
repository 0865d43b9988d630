/**
 * PostgreSQL faults (issue 13): the server restarted under running hubs, and a replica killed with
 * SIGKILL mid-drain. Runs alone after the other PostgreSQL tests (`npm run test:pg`): stopping the
 * server would break tests running beside it. Needs root and `pg_ctlcluster` (the CI machines) for
 * the restart, and the built CLI (`npm run build`, done by test:pg) for the replica in a child process.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { Waiters } from '../src/delivery/claim.service.js';
import { Notifier } from '../src/database/notifier.js';
import { agentOf, fields, refreshResult, startHub, tempDir, type TestHub } from './support/app.js';
import { freshSchema, onPostgres, TEST_DATABASE_URL } from './support/pg.js';
import { waitFor } from './support/wait.js';

const CLUSTER = (process.env.HUB_TEST_PG_CLUSTER ?? '15 main').split(' ');
const canRestart = onPostgres && process.getuid?.() === 0 && existsSync('/usr/bin/pg_ctlcluster');
const CLI = join(process.cwd(), 'dist/src/cli.js');

const pgctl = (action: string) => execFileSync('pg_ctlcluster', [...CLUSTER, action, ...(action === 'stop' ? ['-m', 'fast'] : [])], { stdio: 'ignore' });

(canRestart ? describe : describe.skip)('PostgreSQL restarted while hubs run (issue 13)', () => {
  let hubs: TestHub[] = [];
  afterEach(async () => {
    for (const hub of hubs.splice(0)) await hub.close();
  });

  it('requests get 503 {error, detail} while it is down and are served again after, with no restart of the hubs', async () => {
    const url = await freshSchema();
    hubs = [await startHub({ HUB_DATABASE_URL: url }), await startHub({ HUB_DATABASE_URL: url })];
    const [a, b] = hubs;
    const first = (await a.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;
    pgctl('stop');
    try {
      for (const res of [await a.http.get('/batches'), await b.http.post('/agent/claim').send({}), await b.http.post('/batches').send({ title: 't', commands: [fields('A-2')] })]) {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'unavailable', detail: expect.stringMatching(/недоступна/) });
      }
    } finally {
      pgctl('start');
    }
    await waitFor('the hub to serve again', async () => ((await a.http.get('/batches')).status === 200 ? true : undefined), 30_000);
    expect((await agentOf(b).claim()).command.id).toBe(first.commands[0].id);
    // The LISTEN connection came back too: a long poll on one replica wakes for a batch on the other.
    await agentOf(a).done(first.commands[0].id);
    await agentOf(a).done((await agentOf(a).claim()).command.id, refreshResult([])); // the tail refresh
    await waitFor('the LISTEN connections back', async () => (hubs.every((h) => h.app.get(Notifier).listening) ? true : undefined), 10_000);
    // The test clock never reaches the poll's deadline: only the other replica's wake-up answers it.
    const held = agentOf(a).claim({ wait_seconds: 20 });
    await waitFor('the claim to wait', async () => (a.app.get(Waiters).size === 1 ? true : undefined));
    const next = (await b.http.post('/batches').send({ title: 't', commands: [fields('A-3')] }).expect(201)).body;
    expect((await held).command.id).toBe(next.commands[0].id);
  }, 90_000);
});

(onPostgres && existsSync(CLI) ? describe : describe.skip)('a replica killed with SIGKILL mid-drain (issue 13)', () => {
  let dir: string;
  let hub: TestHub | undefined;
  let child: ChildProcess | undefined;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    await hub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The hub CLI in a child process on `url`; resolves with its base URL once it listens. */
  const spawnReplica = (url: string) =>
    new Promise<string>((resolve, reject) => {
      child = spawn(process.execPath, [CLI, 'serve'], {
        // Like the test hubs (support/app.ts): no refresh_catalogue of its own among the fake agent's commands.
        env: { ...process.env, HUB_DATABASE_URL: url, HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_LOG_LEVEL: 'error', HUB_CATALOGUE_AUTO_REFRESH: 'off' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const m = /слушает (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`the replica exited with ${code}`)));
    });

  it('the other replica re-delivers what the killed one handed out; nothing is lost', async () => {
    const url = await freshSchema();
    hub = await startHub({ HUB_DATABASE_URL: url });
    const other = request(await spawnReplica(url));
    const batch = (await hub.http.post('/batches').send({ title: 't', commands: Array.from({ length: 10 }, (_, i) => fields(`A-${i + 1}`)) }).expect(201)).body;
    const agent = agentOf(hub);
    // Half the drain through the child replica, then it dies with a claim answered but never reported.
    for (let i = 0; i < 5; i++) {
      const { command } = (await other.post('/agent/claim').send({}).expect(200)).body;
      await other.post(`/agent/commands/${command.id}/result`).send({ status: 'done', result: {} }).expect(200);
    }
    const lost = (await other.post('/agent/claim').send({}).expect(200)).body.command;
    const inFlight = other.post('/agent/claim').send({}).then(
      () => undefined,
      () => undefined,
    );
    child!.kill('SIGKILL');
    await inFlight;
    const again = (await agent.claim()).command;
    expect(again.id).toBe(lost.id);
    expect(again.deliveries).toBeGreaterThanOrEqual(2);
    for (let c = again; c; c = (await agent.claim()).command) await agent.done(c.id, c.type === 'refresh' ? { issues: [], links: [] } : {});
    const view = (await hub.http.get(`/batches/${batch.id}`).expect(200)).body;
    expect(view.commands).toHaveLength(11);
    expect(view.commands.every((c: { status: string }) => c.status === 'done')).toBe(true);
  }, 60_000);
});

/** How long the hub's connections are terminated in the test below (the issue's chaos run: a minute). */
const CHAOS_SECONDS = Number(process.env.HUB_TEST_CHAOS_SECONDS ?? 20);

(onPostgres && existsSync(CLI) ? describe : describe.skip)('the hub’s connections terminated every 50 ms (issue 21.9)', () => {
  let child: ChildProcess | undefined;
  let admin: pg.Client | undefined;
  afterEach(async () => {
    child?.kill('SIGKILL');
    await admin?.end();
  });

  it('clients posting get only 201 or 503, the agent never 500; the process stays up and logs no ERROR or stack; served again after', async () => {
    const url = await freshSchema();
    const output: string[] = [];
    child = spawn(process.execPath, [CLI, 'serve'], { env: { ...process.env, HUB_DATABASE_URL: url, HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_CATALOGUE_AUTO_REFRESH: 'off' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    const base = await waitFor('the hub to listen', () => /слушает (http:\/\/\S+)/.exec(output.join(''))?.[1], 30_000);
    const http = request(base);
    const alive = () => child!.exitCode === null && child!.signalCode === null;

    // Every 50 ms, every connection of the hub (its pool and its LISTEN connection) is terminated (57P01).
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    admin.on('error', () => undefined);
    await admin.connect();
    const until = Date.now() + CHAOS_SECONDS * 1000;
    let terminated = 0;
    const chaos = (async () => {
      while (Date.now() < until && alive()) {
        const { rows } = await admin!.query(
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND application_name LIKE 'jira-hub%' AND pid <> pg_backend_pid()`,
        );
        terminated += rows[0].n;
        await new Promise((resolve) => setTimeout(resolve, 50)); // the fault's rate, not a wait for a condition
      }
    })();

    const seen: Record<string, number> = {};
    const count = (what: string, status: number) => (seen[`${what} ${status}`] = (seen[`${what} ${status}`] ?? 0) + 1);
    const call = (req: request.Test) => req.then((res) => res, () => ({ status: -1, body: {} }) as { status: number; body: any });
    const client = async () => {
      while (Date.now() < until && alive()) count('POST /batches', (await call(http.post('/batches').send({ title: 'хаос', commands: [fields('A-1')] }))).status);
    };
    const agent = async () => {
      while (Date.now() < until && alive()) {
        const claim = await call(http.post('/agent/claim').send({}));
        count('claim', claim.status);
        const command = claim.status === 200 ? claim.body.command : null;
        if (command) count('report', (await call(http.post(`/agent/commands/${command.id}/result`).send({ status: 'done', result: command.type === 'refresh' ? { issues: [], links: [] } : {} }))).status);
      }
    };
    await Promise.all([chaos, client(), client(), client(), agent()]);

    expect(alive()).toBe(true);
    expect(terminated).toBeGreaterThan(CHAOS_SECONDS * 2);
    const statuses = Object.keys(seen);
    expect(statuses.filter((s) => s.startsWith('POST /batches') && !['POST /batches 201', 'POST /batches 503'].includes(s))).toEqual([]);
    expect(statuses.filter((s) => !/ (200|201|409|503)$/.test(s))).toEqual([]);
    expect(seen['POST /batches 201']).toBeGreaterThan(0);
    const log = output.join('');
    expect(log).not.toMatch(/ERROR/);
    expect(log).not.toMatch(/\n\s+at \S/);
    // The faults stopped: served again, with no restart.
    await waitFor('the hub to serve again', async () => ((await http.post('/batches').send({ title: 't', commands: [fields('A-2')] })).status === 201 ? true : undefined), 10_000);
    expect(alive()).toBe(true);
  }, (CHAOS_SECONDS + 60) * 1000);
});
