/**
 * A method a path does not take: 405 `method_not_allowed` with the `Allow` header (decision 1436), not a
 * 404 that says the path does not exist; a path that does not exist stays 404. OPTIONS on a path answers
 * 204 with the same `Allow`; HEAD on a GET route answers as the GET does.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fields, rowCounts, startHub, type TestHub } from './support/app.js';

const TABLES = ['batch', 'command', 'delivery', 'issue_note', 'agent_status', 'setting', 'sync_run', 'idempotency_key'] as const;

describe('a method the path does not take (405)', () => {
  let hub: TestHub;
  let batch: number;
  beforeAll(async () => {
    hub = await startHub();
    batch = (await hub.http.post('/batches').send({ title: 'Сроки', commands: [fields('A-1')] }).expect(201)).body.id;
  });
  afterAll(() => hub?.close());

  const call = (method: string, path: string) => (hub.http as unknown as Record<string, (p: string) => ReturnType<TestHub['http']['get']>>)[method](path);

  it.each([
    ['delete', '/batches', 'GET, HEAD, POST'],
    ['put', '/agent/claim', 'POST'],
    ['get', '/agent/claim', 'POST'],
    ['post', '/issues', 'GET, HEAD'],
    ['delete', '/batches/1', 'GET, HEAD'],
    ['put', '/batches/1/cancel', 'POST'],
    ['delete', '/notes/A-1', 'GET, HEAD, PUT'],
    ['post', '/settings', 'GET, HEAD, PATCH'],
    ['patch', '/agent/commands/1/result', 'POST'],
  ])('%s %s → 405 with Allow: %s, in the spec body, nothing written', async (method, path, allow) => {
    const before = await rowCounts(hub, TABLES);
    // A body a write there would take (a GET's body is refused before any route, 400 bad_request).
    const sent = method === 'get' ? call(method, path) : call(method, path).send({ title: 'x', commands: [fields('A-2')], body: 'заметка', wait_seconds: 0 });
    const res = await sent.expect(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.body).toEqual({ error: 'method_not_allowed', detail: `путь ${path} не принимает метод ${method.toUpperCase()}; он принимает ${allow}` });
    expect(await rowCounts(hub, TABLES)).toEqual(before);
  });

  it('leaves the batch as it was', async () => {
    const before = (await hub.http.get(`/batches/${batch}`).expect(200)).body;
    await hub.http.delete(`/batches/${batch}`).expect(405);
    await hub.http.put('/agent/claim').send({}).expect(405);
    const after = (await hub.http.get(`/batches/${batch}`).expect(200)).body;
    expect(after).toEqual(before);
    expect(after).toMatchObject({ cancelled_at: null, status: 'queued' });
  });

  it('a HEAD on a route that takes only POST is a 405 too, without a body', async () => {
    const res = await hub.http.head('/agent/claim').expect(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('a path that does not exist stays 404, whatever the method', async () => {
    for (const method of ['get', 'post', 'delete', 'put']) {
      expect((await call(method, '/nope').expect(404)).body).toMatchObject({ error: 'not_found', detail: expect.any(String) });
    }
    expect((await hub.http.delete('/batches/1/nothing').expect(404)).body.error).toBe('not_found');
  });

  it('HEAD on a GET route answers as the GET does; OPTIONS answers 204 with Allow', async () => {
    const head = await hub.http.head('/batches').expect(200);
    expect(head.headers['content-type']).toMatch(/application\/json/);
    await hub.http.head('/health').expect(200);
    await hub.http.head('/nope').expect(404);
    const options = await hub.http.options(`/batches/${batch}`).expect(204);
    expect(options.headers.allow).toBe('GET, HEAD');
    expect((await hub.http.options('/batches').expect(204)).headers.allow).toBe('GET, HEAD, POST');
    expect((await hub.http.options('/nope').expect(404)).body.error).toBe('not_found');
  });

  it('/mcp keeps its own JSON-RPC 405', async () => {
    const res = await hub.http.delete('/mcp').expect(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.body.jsonrpc).toBe('2.0');
  });
});

/**
 * Paths served outside Nest's router — Swagger UI and the OpenAPI document (src/docs.ts), the dashboard's
 * files (@nestjs/serve-static) — take GET and HEAD: another method there is the same 405 with Allow (decision 1442).
 */
describe('a method the docs and the dashboard\'s files do not take (405)', () => {
  let hub: TestHub;
  let asset: string;
  beforeAll(async () => {
    hub = await startHub();
    asset = /(?:src|href)="(\/assets\/[^"]+)"/.exec((await hub.http.get('/').expect(200)).text)![1];
  });
  afterAll(() => hub?.close());

  const call = (method: string, path: string) => (hub.http as unknown as Record<string, (p: string) => ReturnType<TestHub['http']['get']>>)[method](path);
  const paths = () => ['/docs', '/docs/', '/docs/json', '/docs/yaml', '/docs/swagger-ui.css', '/', '/index.html', asset];

  it.each(['post', 'put', 'delete', 'patch'])('%s on each → 405 with Allow: GET, HEAD, in the spec body', async (method) => {
    for (const path of paths()) {
      const res = await call(method, path);
      expect([path, res.status, res.headers.allow]).toEqual([path, 405, 'GET, HEAD']);
      expect(res.body).toEqual({ error: 'method_not_allowed', detail: `путь ${path} не принимает метод ${method.toUpperCase()}; он принимает GET, HEAD` });
    }
  });

  it('OPTIONS on each → 204 with Allow: GET, HEAD', async () => {
    for (const path of paths()) expect([path, (await hub.http.options(path).expect(204)).headers.allow]).toEqual([path, 'GET, HEAD']);
  });

  it('GET and HEAD answer as before; the dashboard renders only at /, and a path nothing serves stays 404 whatever the method', async () => {
    expect((await hub.http.get('/docs').expect(200)).text).toContain('swagger');
    expect((await hub.http.get('/docs/json').expect(200)).body.openapi).toEqual(expect.any(String));
    expect((await hub.http.get('/docs/yaml').expect(200)).text).toMatch(/^openapi:/m);
    await hub.http.head('/docs/json').expect(200);
    expect((await hub.http.get('/').expect(200)).text).toContain('<div id="root">');
    await hub.http.head('/').expect(200);
    await hub.http.get(asset).expect(200);
    await hub.http.head(asset).expect(200);
    for (const path of ['/assets/nope.js', '/docs/nope', '/nope.html', '/assets/', '/assets', '/.builds.json']) {
      for (const method of ['get', 'post', 'delete']) expect([method, path, (await call(method, path)).status]).toEqual([method, path, 404]);
    }
  });
});
