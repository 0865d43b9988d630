/** SPEC 15.2: batches that wait for a person's approval; approve, reject, queue order, remaining_seconds. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Waiters } from '../src/delivery/claim.service.js';
import { agentOf, fields, startHub, type TestHub } from './support/app.js';
import { waitFor } from './support/wait.js';

const until = (cond: () => boolean) => waitFor('the condition', () => (cond() ? true : undefined), 5000);
const AS_ASSISTANT = { 'X-Hub-Source': 'assistant' };

describe('approval (SPEC 15.2)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub({ HUB_CLAIM_MAX_WAIT_SECONDS: '5' });
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  const submit = async (key: string, headers: Record<string, string> = {}) =>
    (await hub.http.post('/batches').set(headers).send({ title: `пакет ${key}`, commands: [fields(key)] }).expect(201)).body;
  const batch = async (id: number) => (await hub.http.get(`/batches/${id}`).expect(200)).body;

  it('an assistant batch waits: never claimed, adds nothing to the remaining time of others, its own counts everything runnable', async () => {
    const waiting = await submit('A-1', AS_ASSISTANT);
    expect(waiting).toMatchObject({ status: 'awaiting_approval', source: 'assistant', approved_by: null, approved_at: null, rejected_reason: null, runnable_at: null });
    expect(waiting.commands.map((c: { status: string }) => c.status)).toEqual(['queued', 'queued']);
    // nothing the agent could take: no "commands in the queue" warning for an agent never seen
    expect((await hub.http.get('/agent').expect(200)).body.warning).toBeNull();
    expect((await agent.claim()).command).toBeNull();
    const person = await submit('A-2');
    expect(person.remaining_seconds).toBe(180); // its own 120 + 60 only
    expect((await batch(waiting.id)).remaining_seconds).toBe(180 + 180); // everything runnable, then its own
    expect((await hub.http.get('/batches?status=awaiting_approval').expect(200)).body.map((b: { id: number }) => b.id)).toEqual([waiting.id]);
    const claimed = (await agent.claim()).command;
    expect(claimed.batch_id).toBe(person.id);
  });

  it('X-Hub-Source sent twice, or listing several values, is the assistant’s when any value names it: the header only lowers rights', async () => {
    // Two header lines (supertest's types take a list for Cookie only; Node's client sends any list as lines).
    const twice = (await hub.http.post('/batches').set('X-Hub-Source', ['assistant', 'assistant'] as unknown as string).send({ title: 'дважды', commands: [fields('A-1')] }).expect(201)).body;
    expect(twice).toMatchObject({ source: 'assistant', status: 'awaiting_approval' });
    expect(await submit('A-2', { 'X-Hub-Source': 'client, Assistant' })).toMatchObject({ source: 'assistant', status: 'awaiting_approval' });
    expect(await submit('A-3', { 'X-Hub-Source': 'client' })).toMatchObject({ source: 'client', status: 'queued' });
  });

  it('an approved batch runs after every batch runnable at approval, before later ones; the order of remaining_seconds agrees', async () => {
    const a = await submit('A-1', AS_ASSISTANT);
    const b = await submit('A-2');
    hub.clock.advance(1000);
    const approved = (await hub.http.post(`/batches/${a.id}/approve`).send({ by: 'ivanov' }).expect(200)).body;
    expect(approved).toMatchObject({ status: 'queued', approved_by: 'ivanov', approved_at: '2026-11-30T10:00:01.000Z', runnable_at: '2026-11-30T10:00:01.000Z' });
    expect(approved.awaiting_approval_since).toBe('2026-11-30T10:00:00.000Z');
    const c = await submit('A-3');
    const listed = (await hub.http.get('/batches').expect(200)).body.map((x: { id: number; remaining_seconds: number }) => [x.id, x.remaining_seconds]);
    expect(listed).toEqual([[c.id, 540], [b.id, 180], [a.id, 360]]);
    const order: number[] = [];
    for (;;) {
      const cmd = (await agent.claim()).command;
      if (!cmd) break;
      order.push(cmd.batch_id);
      await agent.done(cmd.id, cmd.type === 'refresh' ? { issues: [], links: [] } : {});
    }
    expect(order).toEqual([b.id, b.id, a.id, a.id, c.id, c.id]);
  });

  it('approving wakes a waiting claim; an assistant submit does not', async () => {
    const answer = hub.http.post('/agent/claim').send({ wait_seconds: 5 }).then((r) => r);
    await until(() => hub.app.get(Waiters).size === 1);
    const a = await submit('A-1', AS_ASSISTANT);
    expect(hub.app.get(Waiters).size).toBe(1);
    await hub.http.post(`/batches/${a.id}/approve`).expect(200);
    expect(hub.app.get(Waiters).size).toBe(0); // woken by the approval's commit
    expect((await answer).body.command.id).toBe(a.commands[0].id);
  });

  it('reject cancels the batch with its reason; it never reaches the agent; approve or reject again → 409 conflict', async () => {
    const a = await submit('A-1', AS_ASSISTANT);
    for (const body of [{}, { reason: '   ' }, { reason: 5 }, { reason: 'x'.repeat(1001) }]) {
      const bad = await hub.http.post(`/batches/${a.id}/reject`).send(body).expect(422);
      expect(bad.body).toMatchObject({ error: 'validation_failed', detail: expect.stringMatching(/[а-я]/) });
    }
    expect((await batch(a.id)).status).toBe('awaiting_approval');
    const rejected = (await hub.http.post(`/batches/${a.id}/reject`).send({ reason: ' не тот спринт ' }).expect(200)).body;
    expect(rejected).toMatchObject({ status: 'cancelled', rejected_reason: 'не тот спринт', cancelled_at: expect.any(String), approved_at: null });
    expect(rejected.commands.map((c: { status: string }) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect((await agent.claim()).command).toBeNull();
    for (const [path, body] of [['approve', {}], ['reject', { reason: 'ещё раз' }]] as const) {
      const res = await hub.http.post(`/batches/${a.id}/${path}`).send(body).expect(409);
      expect(res.body).toEqual({ error: 'conflict', detail: expect.stringContaining('не ждёт одобрения') });
    }
  });

  it('a batch that never waited, an approved one and an unknown one', async () => {
    const b = await submit('A-1');
    expect((await hub.http.post(`/batches/${b.id}/approve`).expect(409)).body.error).toBe('conflict');
    const a = await submit('A-2', AS_ASSISTANT);
    const approved = (await hub.http.post(`/batches/${a.id}/approve`).send({ by: 'Анна' }).expect(200)).body.approved_at as string;
    // Who and when, for a person: how long ago and the UTC time to the second, not the raw ISO text.
    const detail = (await hub.http.post(`/batches/${a.id}/approve`).expect(409)).body.detail as string;
    expect(detail).toContain(`уже одобрен: его одобрил Анна 0 с назад, ${approved.slice(0, 10)} ${approved.slice(11, 19)} UTC`);
    expect(detail).not.toContain(approved);
    expect((await hub.http.post(`/batches/${a.id}/reject`).send({ reason: 'поздно' }).expect(409)).body.error).toBe('conflict');
    await hub.http.post('/batches/999/approve').expect(404);
  });

  it('a cancelled waiting batch cannot be approved', async () => {
    const a = await submit('A-1', AS_ASSISTANT);
    expect((await hub.http.post(`/batches/${a.id}/cancel`).set(AS_ASSISTANT).expect(200)).body.status).toBe('cancelled');
    expect((await hub.http.post(`/batches/${a.id}/approve`).expect(409)).body.detail).toContain('отменён');
  });

  it('a waiting batch whose commands are all cancelled one by one is cancelled: nothing is left to approve', async () => {
    const a = await submit('A-1', AS_ASSISTANT);
    const [first, ...rest] = a.commands as { id: number }[];
    await hub.http.post(`/commands/${first.id}/cancel`).expect(200);
    expect((await batch(a.id)).status).toBe('awaiting_approval'); // one open command left: still the person's to decide
    for (const c of rest) await hub.http.post(`/commands/${c.id}/cancel`).expect(200);
    const after = await batch(a.id);
    expect(after).toMatchObject({ status: 'cancelled', counts: { cancelled: a.commands.length } });
    expect((await hub.http.get('/batches?status=awaiting_approval').expect(200)).body.map((b: { id: number }) => b.id)).not.toContain(a.id);
    expect((await hub.http.post(`/batches/${a.id}/approve`).expect(409)).body.detail).toContain('отменён');
  });

  it('the approval setting decides per source: client batches wait when it says so, assistant ones run when it says not', async () => {
    await hub.http.patch('/settings').send({ approval: { client: true, assistant: false } }).expect(200);
    expect((await submit('A-1')).status).toBe('awaiting_approval');
    expect((await submit('A-2', AS_ASSISTANT)).status).toBe('queued');
  });

  it('a retry follows the rule of its own source', async () => {
    const b = await submit('A-1');
    await hub.http.post(`/commands/${b.commands[0].id}/cancel`).send({}).expect(200);
    const byAssistant = (await hub.http.post(`/commands/${b.commands[0].id}/retry`).set(AS_ASSISTANT).expect(201)).body;
    expect(byAssistant).toMatchObject({ source: 'assistant', status: 'awaiting_approval' });
    const byPerson = (await hub.http.post(`/commands/${b.commands[0].id}/retry`).expect(201)).body;
    expect(byPerson).toMatchObject({ source: 'client', status: 'queued' });
  });

  it('an auto-refresh with hub approval waits, and no second one is made while it waits', async () => {
    await hub.http.patch('/settings').send({ approval: { hub: true }, auto_refresh: { interval_minutes: 1, jql: 'project = A' } }).expect(200);
    await submit('A-9', AS_ASSISTANT); // another source's waiting batch does not hold the auto-refresh back
    expect((await agent.claim()).command).toBeNull();
    hub.clock.advance(5 * 60_000);
    expect((await agent.claim()).command).toBeNull();
    const hubBatches = (await hub.http.get('/batches').expect(200)).body.filter((x: { source: string }) => x.source === 'hub');
    expect(hubBatches).toHaveLength(1);
    expect(hubBatches[0]).toMatchObject({ title: 'Автообновление', author: 'hub', status: 'awaiting_approval' });
    await hub.http.post(`/batches/${hubBatches[0].id}/approve`).expect(200);
    expect((await agent.claim()).command).toMatchObject({ type: 'refresh', batch_id: hubBatches[0].id });
  });
});
