import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Db } from '../src/database/db.service.js';
import { LAST_CATALOGUE_COMMAND_SQL, NEXT_RUNNABLE_SQL, OVERVIEW_SQL, REDELIVERED_SQL } from '../src/queue/command.repository.js';
import { DeliveryService } from '../src/delivery/delivery.service.js';
import { SettingsService } from '../src/settings/settings.service.js';
import { agentOf, fields, issue, refreshResult, startHub, tempDir, type TestHub } from './support/app.js';
import { sqliteOnly } from './support/pg.js';

describe('claim (SPEC 6.1–6.4)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  const batch = async (commands: object[], title = 't') => (await hub.http.post('/batches').send({ title, commands }).expect(201)).body;
  const command = async (id: number) => (await hub.http.get(`/commands/${id}`).expect(200)).body;
  const claimedCount = async () =>
    ((await hub.http.get('/batches?limit=200').expect(200)).body as { counts: { claimed: number } }[]).reduce((n, b) => n + b.counts.claimed, 0);

  it('hands out commands one at a time, in queue order, with pacing and settings version', async () => {
    const b1 = await batch([fields('A-1'), fields('A-2')]);
    const b2 = await batch([fields('A-3')]);
    const first = await agent.claim({ agent_version: '1.2.3', settings_version: 1 });
    expect(first).toEqual({
      command: { id: b1.commands[0].id, type: 'ensure_fields', params: { key: 'A-1', duedate: '2026-12-01' }, pause_seconds: 120, batch_id: b1.id, deliveries: 1 },
      settings_version: 1,
    });
    const stored = await command(first.command.id);
    expect(stored).toMatchObject({ status: 'claimed', deliveries: 1, claimed_at: hub.clock.iso(), pause_seconds: 120 });
    const order: number[] = [];
    for (let c = first.command; c; c = (await agent.claim()).command) {
      order.push(c.id);
      await agent.done(c.id, c.type === 'refresh' ? refreshResult([]) : {});
    }
    expect(order).toEqual([...b1.commands.map((c: { id: number }) => c.id), ...b2.commands.map((c: { id: number }) => c.id)]);
    expect((await agent.claim()).command).toBeNull();
    const status = (await hub.http.get('/agent').expect(200)).body;
    expect(status).toMatchObject({ online: true, agent_version: '1.2.3', settings_version: 1, settings_stale: false, current_command_id: null });
  });

  it('scenario 3: a lost claim answer → the same command again with deliveries 2 and the current pacing', async () => {
    const b = await batch([fields('A-1'), fields('A-2')]);
    const first = (await agent.claim()).command;
    await hub.http.patch('/settings').send({ pacing: { ensure_fields: 7 } }).expect(200);
    hub.clock.advance(5000);
    const again = await agent.claim();
    expect(again.command).toMatchObject({ id: first.id, params: first.params, deliveries: 2, pause_seconds: 7 });
    expect(again.settings_version).toBe(2);
    expect(await command(first.id)).toMatchObject({ status: 'claimed', deliveries: 2, claimed_at: hub.clock.iso(), pause_seconds: 7 });
    expect((await hub.http.get('/agent').expect(200)).body.redelivered).toEqual([
      { id: first.id, type: 'ensure_fields', claimed_at: hub.clock.iso(), deliveries: 2 },
    ]);
    expect((await command(b.commands[1].id)).status).toBe('queued');
  });

  it('a claim queued right behind a settings change uses the new pacing and reports its version', async () => {
    await batch([fields('A-1')]);
    const patched = hub.app.get(SettingsService).patch({ pacing: { ensure_fields: 9 } });
    const claimed = await hub.app.get(DeliveryService).claim({});
    await patched;
    expect(claimed).toMatchObject({ command: { pause_seconds: 9 }, settingsVersion: 2 });
  });

  it('scenario 4: past 3 deliveries the command fails with the fixed text and the next one is handed out', async () => {
    const b = await batch([fields('A-1'), fields('A-2')]);
    const id = (await agent.claim()).command.id;
    await agent.claim();
    expect((await agent.claim()).command).toMatchObject({ id, deliveries: 3 });
    const next = await agent.claim();
    expect(next.command.id).toBe(b.commands[1].id);
    expect(await command(id)).toMatchObject({ status: 'failed', error: 'агент не отчитался после 3 выдач', finished_at: hub.clock.iso(), deliveries: 3 });
    expect((await hub.http.get('/agent')).body.current_command_id).toBe(next.command.id);
  });

  it('scenario 14: simultaneous claims on one queued command → one claimed row, same id, deliveries = number of claims', async () => {
    for (const n of [2, 3]) {
      const b = await batch([fields(`A-${n}`)]);
      const answers = await Promise.all(Array.from({ length: n }, () => agent.claim()));
      expect(new Set(answers.map((a) => a.command.id))).toEqual(new Set([b.commands[0].id]));
      expect(await command(b.commands[0].id)).toMatchObject({ status: 'claimed', deliveries: n });
      expect(await claimedCount()).toBe(1);
      expect(await command(b.commands[1].id)).toMatchObject({ type: 'refresh', status: 'queued', deliveries: 0 });
      await agent.done(b.commands[0].id);
      const tail = (await agent.claim()).command;
      await agent.done(tail.id, refreshResult([]));
    }
    expect(await claimedCount()).toBe(0);
  });

  it('scenario 10: a cancelled batch never hands out its queued commands; its claimed one is re-delivered', async () => {
    const b1 = await batch([fields('A-1'), fields('A-2')]);
    const b2 = await batch([fields('A-3')]);
    const first = (await agent.claim()).command;
    await hub.http.post(`/batches/${b1.id}/cancel`).expect(200);
    const view = (await hub.http.get(`/batches/${b1.id}`)).body;
    expect(view.status).toBe('running'); // cancelled_at set, but one command still claimed
    expect(view.commands.map((c: { status: string }) => c.status)).toEqual(['claimed', 'cancelled', 'cancelled']);
    expect((await agent.claim()).command).toMatchObject({ id: first.id, deliveries: 2 });
    await agent.done(first.id);
    expect((await hub.http.get(`/batches/${b1.id}`)).body.status).toBe('cancelled');
    expect((await agent.claim()).command.id).toBe(b2.commands[0].id);
  });

  it('scenario 11 and 6.3: temp keys substituted; a dependent of a failed ensure_issue is skipped and the queue goes on', async () => {
    const b = await batch([
      issue('new:1', 'Первая'),
      issue('new:2', 'Вторая'),
      fields('new:1'),
      fields('new:2'),
      { type: 'ensure_link', params: { source: 'new:1', target: 'new:2', link_type: 'Blocks' } },
    ]);
    const [i1, i2, f1, f2, link, tail] = b.commands.map((c: { id: number }) => c.id);
    expect((await agent.claim()).command.id).toBe(i1);
    await agent.done(i1, { key: 'A-10', created: true });
    expect((await agent.claim()).command.id).toBe(i2);
    await agent.report(i2, { status: 'failed', error: 'HTTP 400: summary too long' }).expect(200);
    const c = (await agent.claim()).command;
    expect(c).toMatchObject({ id: f1, params: { key: 'A-10' } });
    expect((await command(f1)).params.key).toBe('A-10');
    await agent.done(f1, { changed: ['duedate'] });
    const next = (await agent.claim()).command;
    expect(next).toMatchObject({ id: tail, params: { keys: ['A-10'] } });
    expect(await command(f2)).toMatchObject({ status: 'skipped', error: 'задача new:2 не создана', finished_at: hub.clock.iso() });
    expect(await command(link)).toMatchObject({ status: 'skipped', error: 'задача new:2 не создана' });
  });

  it('a temp key resolved in an earlier batch is accepted and substituted later', async () => {
    const b1 = await batch([issue('new:5', 'Отчёт')]);
    const c = (await agent.claim()).command;
    await agent.done(c.id, { key: 'A-55', created: true });
    const tail = (await agent.claim()).command;
    expect(tail.params).toEqual({ keys: ['A-55'] });
    await agent.done(tail.id, refreshResult([{ key: 'A-55' }]));
    const b2 = await batch([fields('new:5')]);
    expect((await agent.claim()).command).toMatchObject({ id: b2.commands[0].id, params: { key: 'A-55' } });
    expect(b1.id).toBeLessThan(b2.id);
  });

  it('a refresh whose temp keys all failed is skipped', async () => {
    await batch([issue('new:1', 'X')]);
    const c = (await agent.claim()).command;
    await agent.report(c.id, { status: 'failed' }).expect(200);
    expect((await command(c.id)).error).toBe('агент не сообщил причину');
    expect((await agent.claim()).command).toBeNull();
    const b = (await hub.http.get('/batches')).body[0];
    expect(b.counts).toMatchObject({ failed: 1, skipped: 1 });
    expect(b.status).toBe('done');
  });

  it('remaining_seconds counts unfinished commands of the batch and of every batch ahead', async () => {
    const b1 = await batch([fields('A-1')]); // 120 + 60
    const b2 = await batch([{ type: 'ensure_comment', params: { key: 'A-2', body: 'x' } }]); // 150 + 60
    expect((await hub.http.get(`/batches/${b2.id}`)).body.remaining_seconds).toBe(180 + 210);
    const c = (await agent.claim()).command;
    await agent.done(c.id);
    expect((await hub.http.get(`/batches/${b1.id}`)).body.remaining_seconds).toBe(60);
    expect((await hub.http.get(`/batches/${b2.id}`)).body.remaining_seconds).toBe(60 + 210);
    expect((await hub.http.get(`/batches/${b2.id}`)).body.estimate_seconds).toBe(210);
    const listed = (await hub.http.get('/batches')).body;
    expect(listed.map((b: { remaining_seconds: number }) => b.remaining_seconds)).toEqual([60 + 210, 60]);
  });

  it('auto-refresh: when idle and due, the claim creates «Автообновление» and hands out its refresh', async () => {
    expect((await agent.claim()).command).toBeNull();
    await hub.http.patch('/settings').send({ auto_refresh: { interval_minutes: 30, jql: 'project = AURORA' } }).expect(200);
    const c = (await agent.claim()).command;
    expect(c).toMatchObject({ type: 'refresh', params: { jql: 'project = AURORA' }, deliveries: 1 });
    const b = (await hub.http.get(`/batches/${c.batch_id}`)).body;
    expect(b).toMatchObject({ title: 'Автообновление', author: 'hub' });
    expect(b.commands).toHaveLength(1);
    await agent.done(c.id, refreshResult([]));
    hub.clock.advance(29 * 60_000);
    expect((await agent.claim()).command).toBeNull();
    hub.clock.advance(2 * 60_000);
    expect((await agent.claim()).command).toMatchObject({ type: 'refresh' });
  });

  it('auto-refresh: a failed command\'s missing keys (decision 1448) are recorded in a sync run that is no refresh: the interval still counts from the last refresh', async () => {
    await hub.http.patch('/settings').send({ auto_refresh: { interval_minutes: 30, jql: 'project = AURORA' } }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([]));
    hub.clock.advance(29 * 60_000);
    const b = await batch([fields('A-1')]);
    const c = (await agent.claim()).command;
    await agent.report(c.id, { status: 'failed', error: 'Jira: задачи A-1 нет (HTTP 404)', missing_keys: ['A-1'] }).expect(200);
    expect((await hub.http.get('/sync-runs')).body[0]).toMatchObject({ command_id: c.id, missing: ['A-1'] });
    await hub.http.post(`/batches/${b.id}/cancel`).send({}).expect(200); // its tail refresh would be a refresh
    hub.clock.advance(2 * 60_000);
    expect((await agent.claim()).command).toMatchObject({ type: 'refresh', params: { jql: 'project = AURORA' } });
  });

  it('last_jira_call_at is stored in UTC', async () => {
    await agent.claim({ last_jira_call_at: '2026-11-30T13:00:00+03:00' });
    expect((await hub.http.get('/agent')).body.last_jira_call_at).toBe('2026-11-30T10:00:00.000Z');
  });

  it('bad claim bodies → 422, nothing handed out', async () => {
    await batch([fields('A-1')]);
    await hub.http.post('/agent/claim').send({ wait_seconds: 61 }).expect(422);
    await hub.http.post('/agent/claim').send({ wait_seconds: -1 }).expect(422);
    await hub.http.post('/agent/claim').send({ settings_version: 'x' }).expect(422);
    await hub.http.post('/agent/claim').send({ last_jira_call_at: 'yesterday' }).expect(422);
    await hub.http.post('/agent/claim').send({ last_jira_call_at: '2026-11-30' }).expect(422);
    expect((await hub.http.get('/batches')).body[0].counts.claimed).toBe(0);
  });

  // SQLite's EXPLAIN QUERY PLAN; PostgreSQL's planner scans tables this small whatever the indexes.
  // Each statement runs on every claim or every GET /agent: one probe of its index, never a walk through the commands.
  sqliteOnly(it, it.skip).each([
    ['the next runnable command is one probe of idx_command_runnable: no scan, no sort (SPEC 15.2 order)', NEXT_RUNNABLE_SQL, 'idx_command_runnable'],
    ['the last catalogue refresh a claim looks at is one probe of idx_command_catalogue (SPEC 16.1)', LAST_CATALOGUE_COMMAND_SQL, 'idx_command_catalogue'],
    ['the re-delivered commands GET /agent lists are read through idx_command_claimed (SPEC 10)', REDELIVERED_SQL, 'idx_command_claimed'],
    // The Queue page's counts, on every refresh of a dashboard: the unfinished, failed and skipped commands only.
    ['the Queue page counts the queued commands through idx_command_queued', OVERVIEW_SQL.queued, 'idx_command_queued'],
    ['the Queue page counts the claimed commands through idx_command_claimed', OVERVIEW_SQL.claimed, 'idx_command_claimed'],
    ['the Queue page counts the failed and skipped commands through idx_command_failed', OVERVIEW_SQL.failedOrSkipped, 'idx_command_failed'],
    ['the Queue page counts all commands of the batches with one queued, through idx_command_queued and idx_command_batch', OVERVIEW_SQL.totals, 'idx_command_batch'],
  ])('%s', async (_title, query, index) => {
    const plan: { detail: string }[] = await hub.app.get(Db).read((m) => m.query(`EXPLAIN QUERY PLAN ${query}`));
    const details = plan.map((p) => p.detail).join(' | ');
    expect(details).toContain(index);
    expect(details).not.toMatch(/TEMP B-TREE|SCAN command(?! USING)/);
  });
});
