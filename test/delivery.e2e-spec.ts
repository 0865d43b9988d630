import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ClaimService, Waiters } from '../src/delivery/claim.service.js';
import { DeliveryService } from '../src/delivery/delivery.service.js';
import { agentOf, fields, refreshResult, startHub, type TestHub } from './support/app.js';
import { drainLossily, expectLossyInvariants } from './support/lossy.js';
import { waitFor } from './support/wait.js';
import { onPostgres } from './support/pg.js';

/** Waits until `cond` holds (a slow machine gets time, a bug does not pass). */
const until = (cond: () => boolean) => waitFor('the condition', () => (cond() ? true : undefined), 5000);

describe('long poll (SPEC 6.2)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub({ HUB_CLAIM_MAX_WAIT_SECONDS: '2' });
  });
  afterEach(() => hub.close());

  it('a new batch wakes a waiting claim at once', async () => {
    const waiting = hub.http.post('/agent/claim').send({ wait_seconds: 30 });
    const answer = new Promise<{ body: { command: { id: number } } }>((resolve, reject) => waiting.then(resolve, reject));
    await until(() => hub.app.get(Waiters).size === 1);
    const b = (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;
    expect(hub.app.get(Waiters).size).toBe(0); // woken by the commit, before the batch's answer
    const res = await answer;
    expect(res.body.command.id).toBe(b.commands[0].id); // the clock never moved: not the final look at the 2 s cap
  });

  it('returns null when the time passes, capped by HUB_CLAIM_MAX_WAIT_SECONDS', async () => {
    let answered = false;
    const waiting = hub.http
      .post('/agent/claim')
      .send({ wait_seconds: 60 })
      .then((res) => ((answered = true), res));
    await until(() => hub.app.get(Waiters).size === 1);
    hub.clock.advance(1999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    expect(hub.app.get(Waiters).size).toBe(1);
    hub.clock.advance(1); // 2 s: the cap, not the asked 60 s
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.command).toBeNull();
    expect(hub.clock.pending).toBe(0);
  });

  it('a closed connection releases its waiter', async () => {
    const { port } = hub;
    const controller = new AbortController();
    const req = fetch(`http://127.0.0.1:${port}/agent/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wait_seconds: 30 }),
      signal: controller.signal,
    }).catch(() => undefined);
    await until(() => hub.app.get(Waiters).size === 1);
    controller.abort();
    await req;
    await until(() => hub.app.get(Waiters).size === 0);
    // nothing was handed out to the closed connection
    const b = (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] })).body;
    expect((await hub.http.get(`/commands/${b.commands[0].id}`)).body.status).toBe('queued');
  });

  it('a settings change wakes a waiting claim: an auto-refresh switched on is handed out at once', async () => {
    const waiting = hub.http.post('/agent/claim').send({ wait_seconds: 30 });
    const answer = new Promise<{ body: { command: { type: string } | null } }>((resolve, reject) => waiting.then(resolve, reject));
    await until(() => hub.app.get(Waiters).size === 1);
    await hub.http.patch('/settings').send({ auto_refresh: { interval_minutes: 30, jql: 'project = A' } }).expect(200);
    expect(hub.app.get(Waiters).size).toBe(0); // woken by the commit, before the PATCH's answer
    // the clock never moved: not the final look at the 2 s cap
    expect((await answer).body.command).toMatchObject({ type: 'refresh', params: { jql: 'project = A' } });
  });

  it('claims once more when the time passes: an auto-refresh that came due meanwhile is handed out', async () => {
    const agent = agentOf(hub);
    await hub.http.patch('/settings').send({ auto_refresh: { interval_minutes: 30, jql: 'project = A' } }).expect(200);
    const first = (await agent.claim()).command;
    await agent.done(first.id, refreshResult([]));
    const waiting = hub.http.post('/agent/claim').send({ wait_seconds: 60 });
    const answer = new Promise<{ body: { command: { id: number; type: string } | null } }>((resolve, reject) => waiting.then(resolve, reject));
    await until(() => hub.app.get(Waiters).size === 1);
    hub.clock.advance(31 * 60_000); // no event: only the time makes it due
    const { command } = (await answer).body;
    expect(command).toMatchObject({ type: 'refresh' });
    expect(command!.id).not.toBe(first.id);
  });

  it('a wake-up between a claim and its wait is not lost', async () => {
    const waiters = hub.app.get(Waiters);
    const ticket = waiters.ticket();
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    await expect(waiters.wait(30_000, ticket)).resolves.toBe('woken');
    const waiting = waiters.wait(50, waiters.ticket());
    hub.clock.advance(50);
    await expect(waiting).resolves.toBe('timeout');
  });
});

describe('shutdown with a claim held (SPEC 6.2)', () => {
  it('answers the held claim with command null before the server closes', async () => {
    const hub = await startHub({ HUB_CLAIM_MAX_WAIT_SECONDS: '30' });
    const { port } = hub;
    const held = fetch(`http://127.0.0.1:${port}/agent/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wait_seconds: 30 }),
    });
    await until(() => hub.app.get(Waiters).size === 1);
    await hub.close(); // the test clock never moves: only the shutdown can answer the claim
    const res = await held;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ command: null });
  });
});

describe('a claim that comes while the hub shuts down', () => {
  it('answers null and hands nothing out', async () => {
    const hub = await startHub();
    try {
      const b = (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;
      const claims = hub.app.get(ClaimService);
      await claims.beforeApplicationShutdown();
      expect(await claims.claim({}, 0)).toEqual({ command: null, settingsVersion: 1 });
      // the service itself asks before each look at the queue (a claim that waited for a copy, say)
      expect(await hub.app.get(DeliveryService).claim({}, () => true)).toEqual({ command: null, settingsVersion: 1 });
      expect((await hub.http.get(`/commands/${b.commands[0].id}`).expect(200)).body).toMatchObject({ status: 'queued', deliveries: 0 });
    } finally {
      await hub.close();
    }
  });
});

// SQLite only by nature (here and below): they open the file copies in backups/. On PostgreSQL the
// hub copies nothing (postgres.e2e-spec.ts).
(onPostgres ? describe.skip : describe)('backups before a batch writes (SPEC 3.2)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('no claim is answered before the copy exists, not even a re-delivery made while it runs', async () => {
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    const folder = join(hub.dir, 'backups');
    const copies = () => (existsSync(folder) ? readdirSync(folder).filter((n) => n.includes('-batch-')) : []);
    // What the copy holds when a claim is answered: it must be whole, and from before the re-delivery.
    const copied = () => {
      const names = copies();
      if (names.length !== 1) return { copies: names.length, deliveries: null };
      const db = new Database(join(folder, names[0]), { readonly: true, fileMustExist: true });
      try {
        return { copies: 1, deliveries: (db.prepare('SELECT deliveries FROM command ORDER BY id LIMIT 1').get() as { deliveries: number }).deliveries };
      } finally {
        db.close();
      }
    };
    const seen: { deliveries: number; copy: ReturnType<typeof copied> }[] = [];
    await Promise.all(
      [0, 1].map(async () => {
        const { command } = (await hub.http.post('/agent/claim').send({}).expect(200)).body;
        seen.push({ deliveries: command.deliveries, copy: copied() });
      }),
    );
    expect(seen.map((s) => s.deliveries).sort()).toEqual([1, 2]);
    expect(seen.map((s) => s.copy)).toEqual([
      { copies: 1, deliveries: 1 },
      { copies: 1, deliveries: 1 },
    ]);
  });
});

(onPostgres ? describe.skip : describe)('backups and claims queued behind the one that starts the copy (SPEC 3.2)', () => {
  it('two claims at once through the service: the copy holds neither the re-delivery nor a later state', async () => {
    const hub = await startHub();
    try {
      await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
      const delivery = hub.app.get(DeliveryService);
      const answers = await Promise.all([delivery.claim({}), delivery.claim({})]);
      expect(answers.map((a) => a.command?.deliveries)).toEqual([1, 2]);
      const folder = join(hub.dir, 'backups');
      const [name] = readdirSync(folder).filter((n) => n.includes('-batch-'));
      const db = new Database(join(folder, name), { readonly: true, fileMustExist: true });
      try {
        expect(db.prepare('SELECT status, deliveries FROM command ORDER BY id LIMIT 1').get()).toEqual({ status: 'claimed', deliveries: 1 });
      } finally {
        db.close();
      }
    } finally {
      await hub.close();
    }
  });
});

describe('GET /agent (SPEC 10)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('warns when the agent is offline while work is queued, and when its settings are stale', async () => {
    expect((await hub.http.get('/agent')).body).toMatchObject({ online: false, last_seen_at: null, warning: null, redelivered: [], rate_limited_24h: 0 });
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] });
    expect((await hub.http.get('/agent')).body.warning).toContain('ни разу не выходил на связь');
    await agentOf(hub).claim({ settings_version: 1 });
    expect((await hub.http.get('/agent')).body).toMatchObject({ online: true, warning: null, settings_stale: false });
    await hub.http.patch('/settings').send({ backup_keep: 5 });
    const stale = (await hub.http.get('/agent')).body;
    expect(stale.settings_stale).toBe(true);
    expect(stale.warning).toContain('версии 1');
    hub.clock.advance(121_000);
    expect((await hub.http.get('/agent')).body.online).toBe(false);
    expect((await hub.http.get('/agent')).body.warning).toContain('не выходил на связь уже');
  });
});

/** A small deterministic PRNG so that a failure can be replayed. */
describe('lossy agent (issue 3 acceptance)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('300 commands drained with 20% of claim answers and 20% of reports lost', async () => {
    expectLossyInvariants(await drainLossily([hub]));
  }, 240_000);

  it('the same with the merged call (each report claims the next command), 20% of its answers lost too', async () => {
    expectLossyInvariants(await drainLossily([hub], { merged: true }));
  }, 240_000);
});
