/** SPEC 15.3: one delivery row per handout, closed by the report, a re-delivery, the limit or a force-cancel. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { agentOf, fields, startHub, type TestHub } from './support/app.js';

describe('delivery history (SPEC 15.3)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  const submit = async () => (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;
  const history = async (id: number) => (await hub.http.get(`/commands/${id}`).expect(200)).body.history;
  const at = (s: number) => new Date(Date.parse('2026-11-30T10:00:00.000Z') + s * 1000).toISOString();

  it('a command lost twice and then reported has three rows: lost, lost, reported_done', async () => {
    const b = await submit();
    const id = b.commands[0].id;
    expect(b.commands[0].history).toEqual([]);
    expect((await agent.claim({ agent_version: '1.0.0' })).command.id).toBe(id);
    hub.clock.advance(10_000);
    expect((await agent.claim({ agent_version: '1.0.1' })).command).toMatchObject({ id, deliveries: 2 });
    hub.clock.advance(10_000);
    expect((await agent.claim()).command).toMatchObject({ id, deliveries: 3 });
    hub.clock.advance(5_000);
    const report = (await agent.report(id, { status: 'done', result: {}, jira_calls: 4 }).expect(200)).body;
    const expected = [
      { n: 1, handed_out_at: at(0), agent_version: '1.0.0', outcome: 'lost', reported_at: null, jira_calls: null },
      { n: 2, handed_out_at: at(10), agent_version: '1.0.1', outcome: 'lost', reported_at: null, jira_calls: null },
      { n: 3, handed_out_at: at(20), agent_version: '1.0.1', outcome: 'reported_done', reported_at: at(25), jira_calls: 4 },
    ];
    expect(report.history).toEqual(expected);
    expect(await history(id)).toEqual(expected);
    expect((await hub.http.get(`/batches/${b.id}`).expect(200)).body.commands[0].history).toEqual(expected);
    // a repeated report changes nothing
    await agent.report(id, { status: 'failed', error: 'поздно' }).expect(200);
    expect(await history(id)).toEqual(expected);
  });

  it('the delivery limit ends the last one expired; a failure is reported_failed', async () => {
    const b = await submit();
    const id = b.commands[0].id;
    for (let i = 0; i < 3; i++) await agent.claim();
    const next = (await agent.claim()).command; // the limit: the first command fails, the tail refresh is handed out
    expect(next.id).toBe(b.commands[1].id);
    expect((await history(id)).map((d: { outcome: string }) => d.outcome)).toEqual(['lost', 'lost', 'expired']);
    await agent.report(next.id, { status: 'failed', error: 'Jira 500', jira_calls: 2 }).expect(200);
    expect(await history(next.id)).toEqual([expect.objectContaining({ n: 1, outcome: 'reported_failed', jira_calls: 2, reported_at: expect.any(String) })]);
  });

  it('a force-cancel while out ends it cancelled', async () => {
    const b = await submit();
    const id = (await agent.claim()).command.id;
    await hub.http.post(`/commands/${id}/cancel`).send({ force: true }).expect(200);
    expect(await history(id)).toEqual([expect.objectContaining({ n: 1, outcome: 'cancelled', reported_at: null })]);
    expect(b.commands[0].id).toBe(id);
  });
});
