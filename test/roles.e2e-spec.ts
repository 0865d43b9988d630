/** SPEC 15.1: the assistant's role beside the client's and the agent's, with tokens and in open mode. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { agentOf, expectFieldRefused, fields, rowCounts, startHub, type TestHub } from './support/app.js';
import { waitFor } from './support/wait.js';

const CLIENT = 'client-secret';
const AGENT = 'agent-secret';
const ASSISTANT = 'assistant-secret';
type Call = ReturnType<TestHub['http']['get']>;

describe('the assistant token (SPEC 15.1)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub({ HUB_CLIENT_TOKEN: CLIENT, HUB_AGENT_TOKEN: AGENT, HUB_ASSISTANT_TOKEN: ASSISTANT });
  });
  afterAll(() => hub.close());

  const call = (method: string, path: string, token: string): Call =>
    (hub.http as unknown as Record<string, (p: string) => Call>)[method](path).set('Authorization', `Bearer ${token}`);
  const submit = async (token: string) =>
    (await call('post', '/batches', token).send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;

  it.each([
    ['get', '/batches'],
    ['get', '/settings'],
    ['get', '/agent'],
    ['get', '/issues'],
    ['get', '/notes'],
    ['get', '/sync-runs'],
  ])('reads what a client reads: %s %s', async (method, path) => {
    await call(method, path, ASSISTANT).expect(200);
  });

  it.each([
    ['patch', '/settings', { backup_keep: 3 }],
    ['post', '/batches/1/approve', {}],
    ['post', '/batches/1/reject', { reason: 'нет' }],
    ['post', '/agent/claim', {}],
    ['get', '/agent/settings', undefined],
    ['post', '/agent/commands/1/result', { status: 'failed' }],
  ])('%s %s → 403 forbidden in Russian, nothing changed', async (method, path, body) => {
    const before = (await call('get', '/settings', CLIENT).expect(200)).body;
    const req = call(method, path, ASSISTANT);
    const res = await (body ? req.send(body) : req).expect(403);
    expect(res.body).toEqual({ error: 'forbidden', detail: expect.stringMatching(/[а-я]/) });
    expect((await call('get', '/settings', CLIENT).expect(200)).body).toEqual(before);
  });

  it.each([
    ['get', '/audit'],
    ['post', '/batches/7/approve'],
    ['patch', '/settings'],
    ['post', '/catalogue/refresh'],
  ])('a client-only route refused to the assistant names itself: %s %s', async (method, path) => {
    const res = await call(method, path, ASSISTANT).send({}).expect(403);
    expect(res.body).toEqual({ error: 'forbidden', detail: `ассистенту недоступно ${method.toUpperCase()} ${path}: это может только человек (с токеном клиента)` });
  });

  it('submits (source assistant, waiting for approval), cancels a queued command, retries it, writes a note, imports', async () => {
    const b = await submit(ASSISTANT);
    expect(b).toMatchObject({ source: 'assistant', author: 'assistant', status: 'awaiting_approval', awaiting_approval_since: expect.any(String) });
    const cancelled = (await call('post', `/commands/${b.commands[0].id}/cancel`, ASSISTANT).send({}).expect(200)).body;
    expect(cancelled.status).toBe('cancelled');
    const retry = (await call('post', `/commands/${b.commands[0].id}/retry`, ASSISTANT).expect(201)).body;
    expect(retry).toMatchObject({ source: 'assistant', status: 'awaiting_approval' });
    await call('put', '/notes/A-1', ASSISTANT).send({ comment: 'от ассистента' }).expect(200);
    await call('post', '/import', ASSISTANT).attach('notes', Buffer.from('key,comment\nA-2,x\n'), 'notes.csv').expect(200);
    await call('post', '/batches/plan', ASSISTANT).send({ title: 't', commands: [fields('A-1')] }).expect(200);
    await call('post', `/batches/${retry.id}/cancel`, ASSISTANT).expect(200);
  });

  it('a tool call the assistant\'s token reports over POST /audit is recorded as reported (mcp_stdio), never as one the hub saw; a client cannot report one', async () => {
    await call('post', '/audit', ASSISTANT).send({ tool: 'submit_batch', outcome: 'ok', batch_id: 1 }).expect(204);
    await call('post', '/audit', CLIENT).send({ tool: 'submit_batch', outcome: 'ok' }).expect(403);
    const rows = (await call('get', '/audit?limit=5', CLIENT).expect(200)).body as { channel: string; tool: string; route: string | null }[];
    expect(rows.filter((r) => r.tool === 'submit_batch' && r.route === null)).toEqual([expect.objectContaining({ channel: 'mcp_stdio', tool: 'submit_batch' })]);
  });

  it.each([
    ['tool', { tool: '', outcome: 'ok' }],
    ['tool', { tool: ' \t\n\u3000', outcome: 'ok' }],
    ['outcome', { tool: 'submit_batch', outcome: '' }],
    ['outcome', { tool: 'submit_batch', outcome: '   ' }],
  ])('POST /audit with a blank %s → 422 naming it, no audit row', async (field, body) => {
    const before = await rowCounts(hub, ['audit']);
    expectFieldRefused(await call('post', '/audit', ASSISTANT).send(body), field, 'нужна непустая строка');
    expect(await rowCounts(hub, ['audit'])).toEqual(before);
  });

  it('force-cancel is a person\'s: the assistant gets 403 and the command stays out', async () => {
    const b = await submit(CLIENT);
    const claimed = (await call('post', '/agent/claim', AGENT).send({}).expect(200)).body.command;
    expect(claimed.batch_id).toBe(b.id);
    const res = await call('post', `/commands/${claimed.id}/cancel`, ASSISTANT).send({ force: true }).expect(403);
    expect(res.body.detail).toContain('force');
    expect((await call('get', `/commands/${claimed.id}`, CLIENT).expect(200)).body.status).toBe('claimed');
    await call('post', `/commands/${claimed.id}/cancel`, ASSISTANT).send({}).expect(409);
    await call('post', `/commands/${claimed.id}/cancel`, CLIENT).send({ force: true }).expect(200);
    await call('post', `/batches/${b.id}/cancel`, CLIENT).expect(200);
  });

  it("a refused retry or cancel of a command is audited on the command's batch (its answer names none); an unknown command on none", async () => {
    const b = await submit(ASSISTANT);
    const id = b.commands[0].id as number;
    await call('post', `/commands/${id}/retry`, ASSISTANT).expect(409); // queued: nothing to retry
    await call('post', `/commands/${id}/cancel`, ASSISTANT).send({ force: true }).expect(403);
    await call('post', `/commands/${id}/cancel`, ASSISTANT).send({}).expect(200);
    await call('post', `/commands/${id}/cancel`, ASSISTANT).send({}).expect(409); // finished
    await call('post', '/commands/987654/retry', ASSISTANT).expect(404);
    type Row = { channel: string; route: string; outcome: string; status: number; batch_id: number | null; arguments: string };
    const onBatch = await waitFor('the refused calls on the batch', async () => {
      const rows = (await call('get', `/audit?batch_id=${b.id}`, CLIENT).expect(200)).body as Row[];
      return rows.length >= 5 ? rows : undefined;
    });
    expect(onBatch.map((r) => [r.channel, r.route, r.outcome, r.status])).toEqual([
      ['rest', 'POST /commands/:id/cancel', 'finished', 409],
      ['rest', 'POST /commands/:id/cancel', 'ok', 200],
      ['rest', 'POST /commands/:id/cancel', 'forbidden', 403],
      ['rest', 'POST /commands/:id/retry', 'conflict', 409],
      ['rest', 'POST /batches', 'ok', 201],
    ]);
    const unknown = await waitFor('the refused call on an unknown command', async () => {
      const rows = (await call('get', '/audit?limit=20', CLIENT).expect(200)).body as Row[];
      return rows.find((r) => r.arguments.includes('/commands/987654/retry'));
    });
    expect(unknown).toMatchObject({ outcome: 'not_found', status: 404, batch_id: null });
    await call('post', `/batches/${b.id}/cancel`, ASSISTANT).expect(200);
  });

  it('a client token that declares X-Hub-Source: assistant is the assistant (a step down, never up)', async () => {
    const b = (await call('post', '/batches', CLIENT).set('X-Hub-Source', 'assistant').send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;
    expect(b).toMatchObject({ source: 'assistant', status: 'awaiting_approval' });
    await call('post', `/batches/${b.id}/approve`, CLIENT).set('X-Hub-Source', 'assistant').expect(403);
    await call('patch', '/settings', ASSISTANT).set('X-Hub-Source', 'client').send({ backup_keep: 3 }).expect(403);
    await call('post', `/batches/${b.id}/reject`, CLIENT).send({ reason: 'проверка' }).expect(200);
  });

  it.each([
    ['post', '/audit', CLIENT, 'этот маршрут доступен только с токеном ассистента'],
    ['post', '/mcp', CLIENT, 'этот маршрут доступен только с токеном ассистента'],
    ['get', '/batches', AGENT, 'этот маршрут доступен только с токеном клиента или ассистента'],
    ['patch', '/settings', AGENT, 'этот маршрут доступен только с токеном клиента'],
  ])('%s %s with the wrong token: 403 names the tokens the route takes', async (method, path, token, detail) => {
    const res = await call(method, path, token).send({});
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'forbidden', detail });
  });

  it('the client and the agent tokens keep their routes; the agent token cannot act as the assistant', async () => {
    expect((await submit(CLIENT)).source).toBe('client');
    await call('get', '/batches', AGENT).expect(403);
    await call('post', '/batches/plan', AGENT).send({ title: 't', commands: [fields('A-1')] }).expect(403);
    await call('get', '/agent/settings', CLIENT).expect(403);
  });

  it('the OpenAPI document names the assistant scheme', async () => {
    const doc = (await hub.http.get('/docs/json').expect(200)).body;
    expect(doc.components.securitySchemes).toHaveProperty('assistant');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/batches/plan', '/batches/{id}/approve', '/batches/{id}/reject']));
  });
});

describe('open mode and X-Hub-Source (SPEC 15.1)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub.close());

  it('a request declaring itself the assistant\'s gets its source and its limits; without the header it is a person', async () => {
    const b = (await hub.http.post('/batches').set('X-Hub-Source', 'Assistant').send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;
    expect(b).toMatchObject({ source: 'assistant', author: 'assistant', status: 'awaiting_approval' });
    await hub.http.post(`/batches/${b.id}/approve`).set('X-Hub-Source', 'assistant').expect(403);
    await hub.http.patch('/settings').set('X-Hub-Source', 'assistant').send({ backup_keep: 3 }).expect(403);
    await hub.http.post('/agent/claim').set('X-Hub-Source', 'assistant').send({}).expect(403);
    const person = (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-2')] }).expect(201)).body;
    expect(person).toMatchObject({ source: 'client', author: 'api', status: 'queued', awaiting_approval_since: null });
    const approved = (await hub.http.post(`/batches/${b.id}/approve`).expect(200)).body;
    expect(approved).toMatchObject({ status: 'queued', approved_by: 'api', approved_at: expect.any(String) });
    expect((await agentOf(hub).claim()).command.batch_id).toBe(person.id);
  });
});
