import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { Waiters } from '../src/agent/waiters.js';
import { agentOf, fields, issue, refreshResult, startHub, type TestHub } from './support/app.js';

describe('long poll (SPEC 6.2)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub({ HUB_CLAIM_MAX_WAIT_SECONDS: '2' });
  });
  afterEach(() => hub.close());

  it('a new batch wakes a waiting claim at once', async () => {
    const started = Date.now();
    const waiting = hub.http.post('/agent/claim').send({ wait_seconds: 30 });
    const answer = new Promise<{ body: { command: { id: number } } }>((resolve, reject) => waiting.then(resolve, reject));
    await new Promise((r) => setTimeout(r, 200));
    expect(hub.app.get(Waiters).size).toBe(1);
    const b = (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;
    const res = await answer;
    expect(res.body.command.id).toBe(b.commands[0].id);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('returns null when the time passes, capped by HUB_CLAIM_MAX_WAIT_SECONDS', async () => {
    const started = Date.now();
    const res = await hub.http.post('/agent/claim').send({ wait_seconds: 60 }).expect(200);
    expect(res.body.command).toBeNull();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(4000);
  });

  it('a closed connection releases its waiter; shutdown releases all', async () => {
    await new Promise<void>((resolve) => hub.app.getHttpServer().listen(0, '127.0.0.1', () => resolve()));
    const { port } = hub.app.getHttpServer().address() as AddressInfo;
    const controller = new AbortController();
    const req = fetch(`http://127.0.0.1:${port}/agent/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wait_seconds: 30 }),
      signal: controller.signal,
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    expect(hub.app.get(Waiters).size).toBe(1);
    controller.abort();
    await req;
    await new Promise((r) => setTimeout(r, 200));
    expect(hub.app.get(Waiters).size).toBe(0);
    // nothing was handed out to the closed connection
    const b = (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] })).body;
    expect((await hub.http.get(`/commands/${b.commands[0].id}`)).body.status).toBe('queued');
    const waiters = hub.app.get(Waiters);
    const pending = waiters.wait(30_000);
    waiters.onApplicationShutdown();
    await expect(pending).resolves.toBe(false);
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
    expect((await hub.http.get('/agent')).body.warning).toContain('не выходил на связь с');
  });
});

/** A small deterministic PRNG so that a failure can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

describe('lossy agent (issue 3 acceptance)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('300 commands drained with 20% of claim answers and 20% of reports lost', async () => {
    const random = prng(20261130);
    const commands = [];
    for (let i = 1; i <= 150; i++) {
      commands.push(issue(`new:${i}`, `Задача ${i}`), fields(`new:${i}`));
    }
    for (let i = 0; i < 3; i++) {
      await hub.http.post('/batches').send({ title: `b${i}`, commands: commands.slice(i * 100, (i + 1) * 100) }).expect(201);
    }
    const terminalSeen = new Set<number>();
    let handedAfterTerminal = 0;
    let maxDeliveries = 0;
    let rounds = 0;
    for (;;) {
      rounds += 1;
      expect(rounds).toBeLessThan(5000);
      const { command } = (await hub.http.post('/agent/claim').send({}).expect(200)).body;
      if (!command) break;
      if (terminalSeen.has(command.id)) handedAfterTerminal += 1;
      maxDeliveries = Math.max(maxDeliveries, command.deliveries);
      if (random() < 0.2) continue; // the claim answer is lost: the agent never saw it
      const result = command.type === 'ensure_issue' ? { key: `A-${1000 + command.id}`, created: true } : command.type === 'refresh' ? refreshResult([]) : {};
      if (random() < 0.2) continue; // the report is lost before it reaches the hub
      const res = await hub.http.post(`/agent/commands/${command.id}/result`).send({ status: 'done', result }).expect(200);
      if (res.body.status !== 'claimed') terminalSeen.add(command.id);
    }
    const batches = (await hub.http.get('/batches?limit=100')).body;
    const all = [];
    for (const b of batches) all.push(...(await hub.http.get(`/batches/${b.id}`)).body.commands);
    expect(all.length).toBe(303);
    expect(all.filter((c: { status: string }) => ['queued', 'claimed'].includes(c.status))).toEqual([]);
    expect(handedAfterTerminal).toBe(0);
    expect(maxDeliveries).toBeLessThanOrEqual(3);
    expect(Math.max(...all.map((c: { deliveries: number }) => c.deliveries))).toBeLessThanOrEqual(3);
    const failed = all.filter((c: { status: string }) => c.status === 'failed');
    expect(failed.every((c: { error: string }) => c.error === 'агент не отчитался после 3 выдач')).toBe(true);
    expect(all.filter((c: { status: string }) => c.status === 'done').length).toBeGreaterThan(200);
    const skipped = all.filter((c: { status: string }) => c.status === 'skipped');
    expect(skipped.every((c: { error: string }) => /^задача new:\d+ не создана$/.test(c.error))).toBe(true);
  }, 120_000);
});
