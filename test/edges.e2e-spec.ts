import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { startHub, type TestHub } from './support/app.js';

/** Sends raw bytes (what supertest would encode) and reads the whole answer: status line and body. */
function rawRequest(port: number, raw: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: body ? JSON.parse(body) : undefined });
    });
  });
}

/** JSON nested `levels` deep around `inner`. */
const deep = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);

describe('rough edges a new user meets (issue 11, item 6; issue 9, item 7)', () => {
  let hub: TestHub;
  let port: number;
  beforeAll(async () => {
    hub = await startHub();
    port = hub.port;
  });
  afterAll(() => hub.close());

  const nothingWritten = async () => expect((await hub.http.get('/batches').expect(200)).body).toEqual([]);

  it('Cyrillic typed raw into a query string: 400 with the error body, telling how to encode it', async () => {
    const res = await rawRequest(port, 'GET /issues?q=выгруз HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'bad_request', detail: expect.stringContaining('%D0%B2%D1%8B%D0%B3%D1%80%D1%83%D0%B7') });
  });

  it.each([
    ['get', '/batches/%ZZ'],
    ['get', '/notes/AURORA-%'],
    ['put', '/notes/%C0%AF'],
    ['post', '/batches/%E0%A4%A/cancel'],
    ['get', '/%ZZ'],
  ] as const)('%s %s (a broken %-escape in the path): 400 bad_request naming the path and how to escape, nothing written', async (method, path) => {
    const res = await hub.http[method](path).send(method === 'get' ? undefined : {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'bad_request', detail: expect.stringContaining(`«${path}» неверная %-последовательность`) });
    expect(res.body.detail).toContain('%25');
    await nothingWritten();
    expect((await hub.http.get('/notes').expect(200)).body).toEqual([]);
  });

  it.each([
    ['/issues?q=%EE%F2%F7', 'q=%EE%F2%F7'], // «отч» in Windows-1251: decoded to U+FFFD, it matched every issue
    ['/issues?status=%D0', 'status=%D0'],
    ['/batches?limit=20&status=%ZZ', 'status=%ZZ'],
    ['/issues?q=50%', 'q=50%'],
  ])('GET %s (a broken %-escape in the query): 400 bad_request naming the parameter, not a search for other text', async (url, shown) => {
    const res = await hub.http.get(url).expect(400);
    expect(res.body).toEqual({ error: 'bad_request', detail: expect.stringContaining(`«${shown}» неверная %-последовательность`) });
    expect(res.body.detail).toContain('%25');
  });

  it('valid escapes and a plus in the query are read as before', async () => {
    await hub.http.get('/issues?q=%D0%BE%D1%82%D1%87+%D0%BF%D1%80%D0%BE%D0%B4&limit=%32%30').expect(200);
  });

  it('a valid escape in the path is decoded as before', async () => {
    await hub.http.put('/notes/AURORA%2D1').send({ comment: 'x' }).expect(200);
    expect((await hub.http.get('/notes/AURORA-1').expect(200)).body.comment).toBe('x');
    await hub.http.put('/notes/AURORA-1').send({ comment: null }).expect(200);
  });

  it('a request line plus headers over 16 KB: 431 with the error body', async () => {
    const res = await rawRequest(port, `GET /issues?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ error: 'headers_too_large', detail: expect.stringContaining('16 КБ') });
    // No route takes in a POST body what GET /issues?keys= takes: the advice is to split the list.
    const { detail } = res.body as { detail: string };
    expect(detail).not.toContain('POST');
    expect(detail).toContain('разбейте на несколько запросов');
    const header = await rawRequest(port, `GET /batches HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(17_000)}\r\n\r\n`);
    expect(header.status).toBe(431);
  });

  it('a request the parser cannot read at all: 400 with the error body', async () => {
    const res = await rawRequest(port, 'NOT HTTP\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad_request', detail: expect.stringContaining('HTTP-запрос не удалось разобрать') });
  });

  it.each(['/batches/abc', '/commands/abc', '/batches/abc/cancel'])('%s names abc, not NaN', async (path) => {
    const res = path.endsWith('cancel') ? await hub.http.post(path).expect(404) : await hub.http.get(path).expect(404);
    expect(res.body).toEqual({ error: 'not_found', detail: 'нет объекта с идентификатором «abc»: идентификатор — целое число от 1 до 2147483647' });
  });

  it('{} to POST /batches: one message per missing field, no length or count limits', async () => {
    const res = await hub.http.post('/batches').send({}).expect(422);
    expect(res.body).toEqual({
      error: 'validation_failed',
      detail: 'title: обязательное поле; commands: обязательное поле',
      errors: [
        { field: 'title', detail: 'обязательное поле' },
        { field: 'commands', detail: 'обязательное поле' },
      ],
    });
    await nothingWritten();
  });

  it('a field of the wrong kind gets only that message', async () => {
    const res = await hub.http.post('/batches').send({ title: 5, commands: 'x' }).expect(422);
    expect(res.body.errors).toEqual([
      { field: 'title', detail: 'нужна строка' },
      { field: 'commands', detail: 'нужен массив' },
    ]);
  });

  it('a list query of the wrong kind gets one message per field', async () => {
    const res = await hub.http.get('/issues?limit=abc').expect(422);
    expect(res.body.errors).toEqual([{ field: 'limit', detail: 'нужно целое число' }]);
  });

  it.each([
    ['/batches?status=queued&status=done', ['status']],
    ['/issues?limit=1&limit=2&q=a', ['limit']],
    ['/audit?batch_id=1&batch_id=2&limit=1&limit=2', ['batch_id', 'limit']],
    ['/catalogue/statuses?issue_type=Bug&issue_type=Task', ['issue_type']],
  ])('a query parameter given twice is named as repeated, not as a value of the wrong kind: %s', async (path, fields) => {
    const res = await hub.http.get(path).expect(422);
    const detail = 'параметр указан несколько раз: нужно одно значение';
    expect(res.body).toEqual({ error: 'validation_failed', detail: fields.map((f) => `${f}: ${detail}`).join('; '), errors: fields.map((field) => ({ field, detail })) });
  });

  it.each([
    ['/notes?foo=1&foo=2', 'foo', 'неизвестное поле'],
    ['/batches?limit=abc&limit=2', 'limit', 'нужно целое число'],
  ])('a repeated parameter that is wrong by its first value is named for that: %s', async (path, field, detail) => {
    const res = await hub.http.get(path).expect(422);
    expect(res.body.errors).toEqual([{ field, detail }]);
  });

  it('{"title":"t","commands":[[]]} → 422 naming the command, not 500', async () => {
    const res = await hub.http.post('/batches').send({ title: 't', commands: [[]] }).expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'commands', detail: 'шаг 1: нужен объект {type, params}, а не массив' }] });
    const mixed = await hub.http.post('/batches').send({ title: 't', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }, [{ type: 'refresh' }]] }).expect(422);
    expect(mixed.body.detail).toContain('шаг 2: нужен объект');
    await nothingWritten();
  });

  it.each([
    ['post', '/batches'],
    ['post', '/agent/claim'],
    ['post', '/agent/commands/1/result'],
    ['patch', '/settings'],
    ['put', '/notes/AURORA-1'],
  ] as const)('JSON nested 2,000 levels deep to %s %s: 400, not a stack overflow', async (method, path) => {
    const res = await hub.http[method](path).set('Content-Type', 'application/json').send(deep(2000)).expect(400);
    expect(res.body).toEqual({ error: 'bad_json', detail: 'JSON вложен глубже 100 уровней; хаб такие тела не принимает' });
    const inside = await hub.http[method](path).set('Content-Type', 'application/json').send(`{"title":"t","commands":[{"type":"refresh","params":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}]}`);
    expect(inside.status).toBe(400);
    await nothingWritten();
  });

  it('JSON within the depth limit is read as before', async () => {
    const body = { title: 't', commands: [{ type: 'ensure_comment', params: { key: 'A-1', body: 'x', marker: 'm' } }] };
    await hub.http.post('/batches').set('Content-Type', 'application/json').send(JSON.stringify(body)).expect(201);
    await hub.http.post('/batches/1/cancel').expect(200);
    const res = await hub.http.post('/batches').send({ title: 't', commands: [{ type: 'ensure_fields', params: { key: 'A-1', x: JSON.parse(deep(90)) } }] }).expect(422);
    expect(res.body.error).toBe('validation_failed'); // the catalogue's answer about the param, not the depth check
  });

  it.each(['99999999999999999999', '9007199254740992'])('GET /issues?offset=%s → 422, not 500', async (offset) => {
    const res = await hub.http.get(`/issues?offset=${offset}`).expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'offset', detail: 'не больше 9007199254740991' }] });
  });

  // Decision 1407: a query integer is decimal digits, as HUB_* variables are; Number() would read all of these as 1 (or 1e19).
  it.each([
    ['/batches?limit=0x1', 'limit'],
    ['/batches?limit=1e0', 'limit'],
    ['/batches?limit=1.0', 'limit'],
    ['/batches?limit=%201', 'limit'],
    ['/batches?before_id=0b1', 'before_id'],
    ['/issues?offset=1e19', 'offset'],
    ['/issues?limit=0x10', 'limit'],
    ['/commands?status=failed&limit=1e1', 'limit'],
    ['/audit?batch_id=0x1', 'batch_id'],
    ['/catalogue/users?limit=2e1', 'limit'],
    ['/sync-runs?limit=+0x1', 'limit'],
  ])('GET %s → 422: not decimal digits, so not an integer', async (path, field) => {
    const res = await hub.http.get(path).expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed', errors: [{ field, detail: 'нужно целое число' }] });
  });

  it.each([
    ['/notes?limit=10', 'limit'],
    ['/notes?limit=abc', 'limit'],
    ['/issues/AURORA-1/changes?since=2026-01-01', 'since'],
  ])('GET %s → 422: a route that takes no query names the parameter as unknown instead of ignoring it', async (path, field) => {
    const res = await hub.http.get(path).expect(422);
    expect(res.body).toEqual({ error: 'validation_failed', detail: `${field}: неизвестное поле`, errors: [{ field, detail: 'неизвестное поле' }] });
  });

  it('a query integer may carry a sign (%2B, since + in a query is a space), and leading zeros are read as decimal', async () => {
    await hub.http.get('/batches?limit=%2B5').expect(200);
    await hub.http.get('/batches?limit=010').expect(200);
    expect((await hub.http.get('/batches?limit=-1').expect(422)).body.errors).toEqual([{ field: 'limit', detail: 'не меньше 1' }]);
  });

  it('GET /issues?offset past the end is an empty page', async () => {
    expect((await hub.http.get('/issues?offset=9007199254740991').expect(200)).body).toEqual([]);
  });

  it('GET /batches?before_id=99999999999999999999 → 422 naming before_id, not a 500 (decision 0104)', async () => {
    const res = await hub.http.get('/batches?before_id=99999999999999999999').expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'before_id', detail: 'не больше 2147483647' }] });
    expect((await hub.http.get('/batches?before_id=2147483647').expect(200)).body).toHaveLength(1);
  });
});

describe('the OpenAPI document (/docs)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub.close());

  const CODES: Record<string, string[]> = {
    '400': ['bad_json'],
    '401': ['unauthorized'],
    '403': ['forbidden'],
    '404': ['not_found'],
    '409': ['not_claimed', 'claimed', 'finished', 'conflict'],
    '413': ['payload_too_large'],
    '422': ['validation_failed', 'duplicate_summary'],
  };

  it('every error answer of every route has an example of its own status', async () => {
    const doc = (await hub.http.get('/docs/json').expect(200)).body;
    let checked = 0;
    const wrong: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: { error: string } }> }> }>>)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (!CODES[status]) continue;
          const example = response.content?.['application/json']?.example;
          if (!CODES[status].includes(example?.error ?? '')) wrong.push(`${method} ${path} ${status}: ${example?.error}`);
          checked++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('lists the notes routes once, and describes the tokens as opaque bearer tokens', async () => {
    const doc = (await hub.http.get('/docs/json').expect(200)).body;
    for (const path of ['/notes', '/notes/{key}']) {
      for (const op of Object.values(doc.paths[path]) as { tags: string[] }[]) expect(op.tags).toHaveLength(1);
    }
    for (const scheme of Object.values(doc.components.securitySchemes) as Record<string, string>[]) {
      expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(scheme).not.toHaveProperty('bearerFormat');
    }
  });
});
