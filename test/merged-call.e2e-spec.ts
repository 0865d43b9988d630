/**
 * The merged call (issue 9, item 6): a report that carries `claim` also claims the next command in the
 * same transaction, with every rule of SPEC 6.2–6.5; a refused report claims nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { agentOf, clientOf, fields, issue, startHub, type TestHub } from './support/app.js';

describe('report + claim in one call', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  const batch = (commands: object[]) => clientOf(hub).batch(commands);
  const command = (id: number) => clientOf(hub).command(id);
  const status = async () => (await hub.http.get('/agent').expect(200)).body;

  it('answers the finished command and the next one, handed out as a claim would: pacing, history, agent status', async () => {
    const b = await batch([fields('A-1'), fields('A-2')]);
    const [first, second] = b.commands;
    expect((await agent.claim()).command.id).toBe(first.id);
    hub.clock.advance(1000);
    const res = await agent.report(first.id, { status: 'done', result: {}, jira_calls: 2, claim: { agent_version: '2.0.0', settings_version: 1 } }).expect(200);
    expect(res.body).toMatchObject({ id: first.id, status: 'done', jira_calls: 2, finished_at: hub.clock.iso() });
    expect(res.body.history).toEqual([expect.objectContaining({ n: 1, outcome: 'reported_done' })]);
    expect(res.body.next).toEqual({
      command: { id: second.id, type: 'ensure_fields', params: { key: 'A-2', duedate: '2026-12-01' }, pause_seconds: 120, batch_id: b.id, deliveries: 1 },
      settings_version: 1,
    });
    expect(await command(second.id)).toMatchObject({ status: 'claimed', deliveries: 1, claimed_at: hub.clock.iso() });
    expect((await command(second.id)).history).toEqual([expect.objectContaining({ n: 1, outcome: 'pending', agent_version: '2.0.0' })]);
    expect(await status()).toMatchObject({ agent_version: '2.0.0', current_command_id: second.id, last_seen_at: hub.clock.iso() });
  });

  it('the last command: next is null and the agent holds nothing', async () => {
    const b = await batch([fields('A-1')]);
    const ids: number[] = b.commands.map((c: { id: number }) => c.id); // A-1 and the tail refresh
    let c = (await agent.claim()).command;
    expect(c.id).toBe(ids[0]);
    c = (await agent.report(c.id, { status: 'done', result: {}, claim: {} }).expect(200)).body.next.command;
    expect(c).toMatchObject({ id: ids[1], type: 'refresh' });
    const last = await agent.report(c.id, { status: 'done', result: { issues: [], links: [] }, claim: {} }).expect(200);
    expect(last.body.next).toEqual({ command: null, settings_version: 1 });
    expect((await status()).current_command_id).toBeNull();
  });

  it('a failed report claims the next command too', async () => {
    const b = await batch([fields('A-1'), fields('A-2')]);
    await agent.claim();
    const res = await agent.report(b.commands[0].id, { status: 'failed', error: 'HTTP 400: нет поля', claim: {} }).expect(200);
    expect(res.body).toMatchObject({ status: 'failed', error: 'HTTP 400: нет поля' });
    expect(res.body.next.command).toMatchObject({ id: b.commands[1].id, deliveries: 1 });
  });

  it('a lost answer: the next claim hands the same command out again (deliveries 2)', async () => {
    const b = await batch([fields('A-1'), fields('A-2')]);
    await agent.claim();
    await agent.report(b.commands[0].id, { status: 'done', result: {}, claim: {} }).expect(200); // answer lost
    expect((await agent.claim()).command).toMatchObject({ id: b.commands[1].id, deliveries: 2 });
  });

  it('a repeated report with claim (its first answer lost) re-delivers what the first handed out', async () => {
    const b = await batch([fields('A-1'), fields('A-2')]);
    await agent.claim();
    await agent.report(b.commands[0].id, { status: 'done', result: {}, claim: {} }).expect(200);
    const again = await agent.report(b.commands[0].id, { status: 'done', result: {}, claim: {} }).expect(200);
    expect(again.body).toMatchObject({ id: b.commands[0].id, status: 'done' });
    expect(again.body.next.command).toMatchObject({ id: b.commands[1].id, deliveries: 2 });
  });

  it('temp keys: the next command gets the key the report just resolved', async () => {
    const b = await batch([issue('new:1', 'Задача'), fields('new:1')]);
    await agent.claim();
    const res = await agent.report(b.commands[0].id, { status: 'done', result: { key: 'A-77', created: true }, claim: {} }).expect(200);
    expect(res.body.next.command).toMatchObject({ id: b.commands[1].id, params: { key: 'A-77', duedate: '2026-12-01' } });
  });

  describe('a refused report claims nothing', () => {
    const refused: [string, (ids: number[]) => [number, Record<string, unknown>], number, string][] = [
      ['a command never handed out', (ids) => [ids[1], { status: 'done', result: {}, claim: {} }], 409, 'not_claimed'],
      ['an unknown command', () => [999, { status: 'done', result: {}, claim: {} }], 404, 'not_found'],
      ['claim with a partial report', (ids) => [ids[0], { status: 'partial', part: 1, result: { issues: [], links: [] }, claim: {} }], 422, 'validation_failed'],
      ['claim that is not an object', (ids) => [ids[0], { status: 'done', result: {}, claim: 'yes' }], 422, 'validation_failed'],
      ['an unknown field in claim', (ids) => [ids[0], { status: 'done', result: {}, claim: { wait_seconds: 5 } }], 422, 'validation_failed'],
      ['a bad date in claim', (ids) => [ids[0], { status: 'done', result: {}, claim: { last_jira_call_at: 'вчера' } }], 422, 'validation_failed'],
      ['ensure_issue done without a key', (ids) => [ids[0], { status: 'done', result: {}, claim: {} }], 422, 'validation_failed'],
    ];
    it.each(refused)('%s: refused, nothing written', async (_, request, code, error) => {
      const b = await batch([issue('new:1', 'Задача'), fields('A-2')]);
      const ids: number[] = b.commands.map((c: { id: number }) => c.id);
      await agent.claim();
      const before = await Promise.all([...ids.map(command), status()]);
      const [id, body] = request(ids);
      const res = await agent.report(id, body).expect(code);
      expect(res.body).toMatchObject({ error, detail: expect.any(String) });
      expect(await Promise.all([...ids.map(command), status()])).toEqual(before);
    });
  });
});
