/**
 * Integers beyond what a column holds (decision 0104). PostgreSQL's id, reference and counter columns
 * are `integer` (at most 2147483647); a larger value in SQL is a 500 there ("out of range for type
 * integer", "invalid input syntax for type integer: 1e+308") while SQLite stored it as given. Both
 * engines now answer alike: an id in a path above the largest is a missing id (404); an integer in a
 * query or a body above it is refused by the validation pipe (422 naming the field); nothing is written.
 * HUB_TEST_DATABASE_URL runs this file on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { agentOf, clientOf, expectFieldRefused, fields, rowCounts, startHub, type TestHub } from './support/app.js';

const TABLES = ['batch', 'command', 'delivery', 'package', 'audit', 'issue_note', 'agent_status', 'command_change'] as const;
const MAX = 2147483647;
const BEYOND = ['2147483648', '9007199254740991', '99999999999999999999'];

describe('ids in paths beyond the largest a table holds: 404 as any missing id, on both engines', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub?.close());

  const ROUTES: [method: 'get' | 'post', path: (id: string) => string, body?: object][] = [
    ['get', (id) => `/batches/${id}`],
    ['post', (id) => `/batches/${id}/cancel`],
    ['post', (id) => `/batches/${id}/revert`],
    ['post', (id) => `/batches/${id}/revert?dry_run=true`],
    ['post', (id) => `/batches/${id}/approve`, {}],
    ['post', (id) => `/batches/${id}/reject`, { reason: 'нет' }],
    ['get', (id) => `/commands/${id}`],
    ['post', (id) => `/commands/${id}/cancel`, {}],
    ['post', (id) => `/commands/${id}/retry`],
    ['post', (id) => `/agent/commands/${id}/result`, { status: 'done', result: {} }],
    ['get', (id) => `/packages/${id}`],
    ['post', (id) => `/packages/${id}/plan`],
    ['post', (id) => `/packages/${id}/apply`],
    ['get', (id) => `/packages/${id}/drift`],
  ];

  it.each(ROUTES.flatMap(([method, path, body]) => BEYOND.slice(0, 2).map((id) => [method.toUpperCase(), path(id), method, body] as const)))(
    '%s %s → 404 not_found, nothing written',
    async (_, path, method, body) => {
      await clientOf(hub).batch([fields('A-1')]); // a batch and a command exist: nothing is answered for them
      const before = await rowCounts(hub, TABLES);
      const res = await hub.http[method](path).send(body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', detail: expect.stringMatching(/^нет объекта с идентификатором «\d+»: идентификатор — целое число от 1 до 2147483647$/) });
      expect(await rowCounts(hub, TABLES)).toEqual(before);
    },
  );

  it('the largest id a table holds is an id like any other: missing, 404 from the service', async () => {
    expect((await hub.http.get(`/batches/${MAX}`).expect(404)).body).toEqual({ error: 'not_found', detail: expect.not.stringContaining('идентификатор —') });
    await hub.http.get(`/commands/${MAX}`).expect(404);
    await hub.http.get(`/packages/${MAX}`).expect(404);
  });
});

describe('id-like query parameters beyond the range: 422 naming the parameter, on both engines', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
    await clientOf(hub).batch([fields('A-1')]);
  });
  afterAll(() => hub?.close());

  const refused = (res: { status: number; body: any }, field: string) => {
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'validation_failed', detail: `${field}: не больше 2147483647`, errors: [{ field, detail: 'не больше 2147483647' }] });
  };

  it.each(BEYOND)('GET /audit?batch_id=%s → 422 naming batch_id', async (value) => {
    refused(await hub.http.get(`/audit?batch_id=${value}`), 'batch_id');
  });

  it.each(['/batches', '/commands?status=failed', '/sync-runs', '/packages', '/audit'].flatMap((path) => BEYOND.map((v) => [path, v])))(
    'GET %s with before_id=%s → 422 naming before_id',
    async (path, value) => {
      refused(await hub.http.get(`${path}${path.includes('?') ? '&' : '?'}before_id=${value}`), 'before_id');
    },
  );

  it('the largest id is a page like any other', async () => {
    expect((await hub.http.get(`/batches?before_id=${MAX}`).expect(200)).body).toHaveLength(1);
    expect((await hub.http.get(`/packages?before_id=${MAX}`).expect(200)).body).toEqual([]);
    expect((await hub.http.get(`/audit?batch_id=${MAX}&before_id=${MAX}`).expect(200)).body).toEqual([]);
  });
});

describe('integers in bodies beyond what a column holds: 422 naming the field, nothing written, on both engines', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub?.close());

  const refused = (res: { status: number; body: object }, field: string) => expectFieldRefused(res, field, 'не больше 2147483647');

  it.each([2147483648, 1e308])('POST /audit with batch_id %s → 422, no audit row', async (batchId) => {
    const before = await rowCounts(hub, TABLES);
    refused(await hub.http.post('/audit').send({ tool: 't', outcome: 'ok', batch_id: batchId }), 'batch_id');
    expect(await rowCounts(hub, TABLES)).toEqual(before);
  });

  it.each([2147483648, 1e308])('POST /agent/claim with settings_version %s → 422; GET /agent shows the version the agent sent before', async (version) => {
    await hub.http.post('/agent/claim').send({ settings_version: 3 }).expect(200);
    refused(await hub.http.post('/agent/claim').send({ settings_version: version }), 'settings_version');
    expect((await hub.http.get('/agent').expect(200)).body.settings_version).toBe(3);
  });

  it('a report with jira_calls, rate_limited, part or claim.settings_version beyond → 422, the command still claimed; the largest is taken', async () => {
    await clientOf(hub).batch([fields('A-1')]);
    const agent = agentOf(hub);
    const { command } = await agent.claim();
    const before = await rowCounts(hub, TABLES);
    refused(await agent.report(command.id, { status: 'done', jira_calls: 2147483648 }), 'jira_calls');
    refused(await agent.report(command.id, { status: 'done', jira_calls: 1e308 }), 'jira_calls');
    refused(await agent.report(command.id, { status: 'done', rate_limited: 1e308 }), 'rate_limited');
    refused(await agent.report(command.id, { status: 'failed', error: 'x', rate_limited: 2147483648 }), 'rate_limited');
    refused(await agent.report(command.id, { status: 'done', claim: { settings_version: 2147483648 } }), 'claim.settings_version');
    refused(await agent.report(command.id, { status: 'done', claim: { settings_version: 1e308 } }), 'claim.settings_version');
    refused(await agent.report(command.id, { status: 'partial', part: 2147483648, result: { issues: [] } }), 'part');
    expect(await rowCounts(hub, TABLES)).toEqual(before);
    expect((await hub.http.get(`/commands/${command.id}`).expect(200)).body).toMatchObject({ status: 'claimed', jira_calls: 0, rate_limited: 0 });

    await agent.report(command.id, { status: 'done', jira_calls: MAX, rate_limited: MAX, result: {} }).expect(200);
    expect((await hub.http.get(`/commands/${command.id}`).expect(200)).body).toMatchObject({ status: 'done', jira_calls: MAX, rate_limited: MAX });
  });

});

describe('the Jira calls of released deliveries add up within the column', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub?.close());

  it('released twice with the largest jira_calls: the sum stops at 2147483647 instead of overflowing the column', async () => {
    const { commands } = await clientOf(hub).batch([fields('A-2')]);
    const agent = agentOf(hub);
    for (let i = 0; i < 2; i++) {
      const { command } = await agent.claim();
      expect(command.id).toBe(commands[0].id);
      await agent.report(command.id, { status: 'released', jira_calls: MAX }).expect(200);
    }
    expect((await clientOf(hub).command(commands[0].id)).jira_calls).toBe(MAX);
  });
});
