/**
 * Issue 21.8: a JSON string with a lone UTF-16 surrogate (`"\udc00x"`) is text UTF-8 cannot hold —
 * SQLite stored it as invalid UTF-8 and every reader of the row failed after; PostgreSQL's driver turns
 * it into U+FFFD. Every text input refuses it with 422 naming the field, before anything is written, on
 * both engines (HUB_TEST_DATABASE_URL runs this file on PostgreSQL). A surrogate pair (an emoji) is text.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { agentOf, expectFieldRefused, fields, issue, startHub, type TestHub } from './support/app.js';

const LONE = '\udc00x';

describe('text with a lone surrogate is refused on every input (issue 21.8)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub?.close());

  const refused = (res: { status: number; body: object }, field: string) => expectFieldRefused(res, field, 'текст содержит одиночный суррогат');
  /** PATCH /settings names a key as sent and says in words what it is: «link_types.Blocks (тип связи Jira …): …». */
  const settingRefused = (res: { status: number; body: { detail?: unknown; errors?: unknown } }, field: string) => {
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')} \\([^)]+\\): текст содержит одиночный суррогат`));
    expect(res.body.errors).toEqual([{ field, detail: expect.stringContaining('текст содержит одиночный суррогат') }]);
  };

  it('a batch: its title, a command’s params, a label in a list, a key of params; the plan too — nothing written', async () => {
    refused(await hub.http.post('/batches').send({ title: LONE, commands: [fields('A-1')] }), 'title');
    refused(await hub.http.post('/batches').send({ title: 't', author: 'x\ud83d', commands: [fields('A-1')] }), 'author');
    refused(await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1'), issue('new:1', LONE)] }), 'commands.1.params.summary');
    refused(await hub.http.post('/batches').send({ title: 't', commands: [issue('new:1', 's', { labels: ['ok', '\ud800'] })] }), 'commands.0.params.labels.1');
    refused(await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1', { ['x\udc00']: 1 })] }), 'commands.0.params.x\\udc00');
    refused(await hub.http.post('/batches/plan').send({ title: LONE, commands: [fields('A-1')] }), 'title');
    refused(await hub.http.post('/batches').set('Idempotency-Key', 'k1').send({ title: LONE, commands: [fields('A-1')] }), 'title');
    expect((await hub.http.get('/batches').expect(200)).body).toEqual([]);
  });

  it('a note, a rejection’s reason, an approval’s name, settings, the agent’s report — nothing written', async () => {
    refused(await hub.http.put('/notes/A-1').send({ comment: LONE }), 'comment');
    await hub.http.get('/notes/A-1').expect(404);
    const before = (await hub.http.get('/settings').expect(200)).body;
    settingRefused(await hub.http.patch('/settings').send({ link_types: { Blocks: LONE } }), 'link_types.Blocks');
    settingRefused(await hub.http.patch('/settings').send({ fields: ['duedate', LONE] }), 'fields.1');
    expect((await hub.http.get('/settings').expect(200)).body).toEqual(before);

    const batch = (await hub.http.post('/batches').set('X-Hub-Source', 'assistant').send({ title: 'ждёт', commands: [fields('A-1')] }).expect(201)).body;
    refused(await hub.http.post(`/batches/${batch.id}/reject`).send({ reason: LONE }), 'reason');
    refused(await hub.http.post(`/batches/${batch.id}/approve`).send({ by: LONE }), 'by');
    expect((await hub.http.get(`/batches/${batch.id}`).expect(200)).body.status).toBe('awaiting_approval');
    await hub.http.post(`/batches/${batch.id}/approve`).send({}).expect(200);

    const agent = agentOf(hub);
    const { command } = await agent.claim();
    refused(await agent.report(command.id, { status: 'done', result: { changed: [LONE] } }), 'result.changed.0');
    refused(await agent.report(command.id, { status: 'failed', error: LONE }), 'error');
    expect((await hub.http.get(`/commands/${command.id}`).expect(200)).body.status).toBe('claimed');
  });

  it('a surrogate pair is text: an emoji, sent escaped or not, is stored and read back unchanged', async () => {
    const title = 'Спринт \ud83d\ude80 и 😀';
    const created = (await hub.http.post('/batches').send({ title, commands: [fields('A-2')] }).expect(201)).body;
    expect((await hub.http.get(`/batches/${created.id}`).expect(200)).body.title).toBe(title);
    await hub.http.put('/notes/A-2').send({ comment: '👍' }).expect(200);
    expect((await hub.http.get('/notes/A-2').expect(200)).body.comment).toBe('👍');
  });
});

describe('text with U+0000 is refused on every input: PostgreSQL holds it in neither text nor jsonb (issue 21.3)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub?.close());

  const refused = (res: { status: number; body: object }, field: string) => expectFieldRefused(res, field, 'текст содержит нулевой символ');

  it("a batch's title and params, the agent's report — 422 naming the field, nothing written, on both engines", async () => {
    refused(await hub.http.post('/batches').send({ title: 't\u0000', commands: [fields('A-1')] }), 'title');
    refused(await hub.http.post('/batches').send({ title: 't', commands: [{ type: 'ensure_comment', params: { key: 'A-1', body: 'a\u0000b' } }] }), 'commands.0.params.body');
    expect((await hub.http.get('/batches').expect(200)).body).toEqual([]);
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    const agent = agentOf(hub);
    const { command } = await agent.claim();
    refused(await agent.report(command.id, { status: 'done', result: { changed: ['a\u0000'] } }), 'result.changed.0');
    expect((await hub.http.get(`/commands/${command.id}`).expect(200)).body.status).toBe('claimed');
  });

  it.each([
    ['get', '/issues/A-1%00', 'A-1\\u0000'],
    ['get', '/issues/%00', '\\u0000'],
    ['get', '/notes/A-1%00', 'A-1\\u0000'],
    ['get', '/notes/%00', '\\u0000'],
    ['put', '/notes/A-1%00', 'A-1\\u0000'],
    ['get', '/issues/A-1%00/changes', 'A-1\\u0000'],
  ] as const)('a key in a path with U+0000: %s %s → 422 naming key, as PUT /notes answers (decision 0105)', async (method, path, shown) => {
    const res = await hub.http[method](path).send(method === 'put' ? { comment: 'x' } : undefined);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'validation_failed',
      detail: expect.stringContaining(`key: «${shown}» — `),
      errors: [{ field: 'key', detail: expect.stringContaining(`«${shown}» — `) }],
    });
    expect((await hub.http.get('/notes').expect(200)).body).toEqual([]);
  });

  it('a lone surrogate cannot reach a path: its percent-encoding (CESU-8) is no UTF-8, and the router refuses the path before any route', async () => {
    for (const path of ['/issues/A-1%ED%B0%80', '/notes/%ED%B0%80', '/issues/%ED%B0%80/changes']) {
      expect((await hub.http.get(path).expect(400)).body).toEqual({ error: 'bad_request', detail: expect.stringContaining(`«${path}» неверная %-последовательность`) });
    }
    await hub.http.put('/notes/%ED%B0%80').send({ comment: 'x' }).expect(400);
    expect((await hub.http.get('/notes').expect(200)).body).toEqual([]);
  });
});
