/**
 * The same answers whichever engine the hub runs on: what the REST API (and so MCP and the dashboard) shows
 * on SQLite it shows on PostgreSQL too. Runs on SQLite by `npm test` and on PostgreSQL by `npm run test:pg`.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { agentOf, startHub, type TestHub } from './support/app.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The text of a JSON value as the hub answered it: its keys in the order of the answer. */
const text = (value: unknown) => JSON.stringify(value);

describe('a command shows its params and result as they were written, on both engines (decision 1431)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  // Longer keys before shorter ones, nested objects, numbers, an empty string, null: jsonb gave its own order back.
  const params = {
    temp_key: 'new:1',
    summary: 'Отчёт «ёлка»',
    issue_type: 'Task',
    fields: { zeta_long_name: 1, alpha: { yy: [1.5, { bb: null, a: '' }], x: true }, ключ: 'значение', b: 1e21 },
  };
  const link = { target: 'A-2', source: 'new:1', link_type: 'Blocks' };
  const result = { key: 'A-7', created: true, transitions: ['In Progress', 'Done'], before: { summary: 'old', labels: [] }, id: '10042' };

  it('in the batch, the command, the claim, the report and the lists, their keys in the order submitted and reported', async () => {
    const agent = agentOf(hub);
    const created = (await hub.http.post('/batches').send({ title: 't', commands: [{ type: 'ensure_issue', params }, { type: 'ensure_link', params: link }] }).expect(201)).body;
    const [issueId, linkId] = created.commands.map((c: Json) => c.id as number);
    expect(text(created.commands[0].params)).toBe(text(params));
    expect(text((await hub.http.get(`/batches/${created.id}`).expect(200)).body.commands[0].params)).toBe(text(params));
    expect(text((await hub.http.get(`/commands/${issueId}`).expect(200)).body.params)).toBe(text(params));
    expect(text((await hub.http.get('/agent').expect(200)).body.next_command.params)).toBe(text(params));

    const claimed = (await agent.claim()).command;
    expect(claimed.id).toBe(issueId);
    expect(text(claimed.params)).toBe(text(params));
    const reported = await agent.done(issueId, result);
    expect(text(reported.params)).toBe(text(params));
    expect(text(reported.result)).toBe(text(result));
    expect(text((await hub.http.get(`/commands/${issueId}`).expect(200)).body.result)).toBe(text(result));

    // The temp key substituted at the claim: the params written again, in their order.
    const next = (await agent.claim()).command;
    expect(next.id).toBe(linkId);
    expect(text(next.params)).toBe(text({ ...link, source: 'A-7' }));
    const failure = { status: 400, body: { errors: { link_type_name: 'нет такого типа', b: '2' }, errorMessages: [] } };
    await agent.report(linkId, { status: 'failed', error: 'Jira ответила 400', result: failure }).expect(200);
    const failed = (await hub.http.get('/commands?status=failed').expect(200)).body as Json[];
    expect(failed.map((c) => [text(c.params), text(c.result)])).toEqual([[text({ ...link, source: 'A-7' }), text(failure)]]);
  });
});
