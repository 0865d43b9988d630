/**
 * Issue 27: a web page must not reach the hub — not by DNS rebinding (a foreign Host), not by a
 * cross-site request (a foreign Origin) — on any route of the OpenAPI document, /events and /mcp
 * included; every answer carries the security headers. Tokens mode keeps its rules; localhost works
 * as before. The browser side (framing, the dashboard and /docs under the CSP) is in
 * security-browser.e2e-spec.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { fields, startHub, type TestHub } from './support/app.js';

const TOKENS = { HUB_CLIENT_TOKEN: 'client-secret', HUB_AGENT_TOKEN: 'agent-secret', HUB_ASSISTANT_TOKEN: 'assistant-secret' };
const CYRILLIC = /[а-яё]/i;
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
interface Route {
  method: Method;
  path: string;
}

/** Every row of every table the hub declares, so "nothing written" compares the whole database. */
async function snapshot(hub: TestHub): Promise<Record<string, unknown[]>> {
  const ds = hub.app.get(DataSource);
  const tables = [...new Set(ds.entityMetadatas.map((m) => m.tableName))].sort();
  const out: Record<string, unknown[]> = {};
  for (const t of tables) out[t] = await ds.query(`SELECT * FROM "${t}" ORDER BY 1`);
  return out;
}

/** A body that would write if the request were served. */
function bodyFor({ method, path }: Route): object | undefined {
  if (path === '/batches' || path === '/batches/plan') return { title: 'со страницы', commands: [fields('EVIL-1')] };
  if (path === '/batches/{id}/reject') return { reason: 'со страницы' };
  if (path === '/settings') return { backup_keep: 3 };
  if (path === '/notes/{key}') return { comment: 'со страницы' };
  if (path === '/agent/commands/{id}/result') return { status: 'done', result: {} };
  if (path === '/mcp') return INITIALIZE;
  return method === 'get' ? undefined : {};
}

describe('a hub in open mode serves only its own pages (issue 27)', () => {
  let hub: TestHub;
  let routes: Route[];
  let batchId: number;
  let commandId: number;

  beforeAll(async () => {
    hub = await startHub();
    const doc = (await hub.http.get('/docs/json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method as Method, path })));
    // Something each writing route would change: an assistant's batch waiting for approval, a note.
    const batch = (await hub.http.post('/batches').set('X-Hub-Source', 'assistant').send({ title: 'ждёт', commands: [fields('A-1'), fields('A-2')] }).expect(201)).body;
    batchId = batch.id;
    commandId = batch.commands[0].id;
    await hub.http.put('/notes/A-1').send({ comment: 'своя заметка' }).expect(200);
  });
  afterAll(() => hub?.close());

  const send = ({ method, path }: Route, headers: Record<string, string>): Test => {
    const url = path.replace('{id}', String(path.startsWith('/batches') ? batchId : commandId)).replace('{key}', 'A-1');
    const req = hub.http[method](url).set('Accept', 'application/json, text/event-stream');
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    const body = bodyFor({ method, path });
    return body === undefined ? req : req.send(body);
  };

  /** The hub's refusal: 403 `forbidden` with a Russian detail; on POST /mcp the MCP SDK's own JSON-RPC refusal. */
  const expectRefused = (route: Route, res: { status: number; body: any }, header: 'Host' | 'Origin') => {
    expect({ route, status: res.status }).toEqual({ route, status: 403 });
    // MCP clients read a JSON-RPC error: the same Russian words in it.
    if (route.path === '/mcp') expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining(header === 'Host' ? 'HUB_ALLOWED_HOSTS' : 'HUB_ALLOWED_ORIGINS') }, id: null });
    else expect(res.body).toEqual({ error: 'forbidden', detail: expect.stringMatching(CYRILLIC) });
  };

  it('the OpenAPI document lists the routes a page would aim at, /events and /mcp among them', () => {
    const paths = routes.map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /batches', 'POST /batches/{id}/approve', 'GET /events', 'POST /mcp', 'PATCH /settings', 'POST /agent/claim', 'PUT /notes/{key}']));
    expect(routes.length).toBeGreaterThan(20);
  });

  it('every route: a foreign Host (DNS rebinding) → 403, nothing written', async () => {
    const before = await snapshot(hub);
    for (const route of routes) expectRefused(route, await send(route, { Host: `evil.example:${hub.port}` }), 'Host');
    expect(await snapshot(hub)).toEqual(before);
  }, 60_000);

  it('every route: a foreign Origin on the hub’s own Host → 403, nothing written', async () => {
    const before = await snapshot(hub);
    for (const route of routes) expectRefused(route, await send(route, { Origin: 'http://evil.example' }), 'Origin');
    for (const origin of ['null', `http://127.0.0.1:${hub.port + 1}`, `http://127.0.0.1.evil.example:${hub.port}`]) {
      expectRefused({ method: 'post', path: '/batches' }, await send({ method: 'post', path: '/batches' }, { Origin: origin }), 'Origin');
    }
    expect(await snapshot(hub)).toEqual(before);
  }, 60_000);

  it('the three requests of the issue → 403 with a foreign name, and as before with localhost', async () => {
    const evil = { Host: `evil.example:${hub.port}`, Origin: `http://evil.example:${hub.port}` };
    const batch = { title: 'rebinding', commands: [fields('EVIL-1')] };
    const before = await snapshot(hub);
    expect((await hub.http.post('/batches').set(evil).send(batch).expect(403)).body.detail).toContain('HUB_ALLOWED_HOSTS');
    await hub.http.get('/batches').set(evil).expect(403);
    await hub.http.post('/mcp').set(evil).set('Accept', 'application/json, text/event-stream').send(INITIALIZE).expect(403);
    expect(await snapshot(hub)).toEqual(before);

    const local = { Host: `localhost:${hub.port}`, Origin: `http://localhost:${hub.port}` };
    const created = (await hub.http.post('/batches').set(local).send({ ...batch, title: 'с localhost' }).expect(201)).body;
    expect(created).toMatchObject({ source: 'client', status: 'queued' });
    expect((await hub.http.get('/batches').set(local).expect(200)).body.map((b: { id: number }) => b.id)).toContain(created.id);
    const init = await hub.http.post('/mcp').set(local).set('Accept', 'application/json, text/event-stream').send(INITIALIZE).expect(200);
    expect(init.body.result.serverInfo.name).toBe('jira-hub');
    // The page the hub served under the other loopback name, [::1], and a request with no Origin at all.
    await hub.http.get('/batches').set({ Host: `127.0.0.1:${hub.port}`, Origin: `http://localhost:${hub.port}` }).expect(200);
    await hub.http.get('/health').set('Host', `[::1]:${hub.port}`).expect(200);
    await hub.http.get('/health').set('Host', `LOCALHOST:${hub.port}`).expect(200);
    // A loopback name on another port is another site (another local server's page).
    await hub.http.get('/health').set('Host', `localhost:${hub.port + 1}`).expect(403);
  });

  it('POST /mcp serves every spelling of a loopback Host the rest of the hub serves, not the SDK’s English «Invalid Host header»', async () => {
    for (const host of [`LOCALHOST:${hub.port}`, `127.1:${hub.port}`, `LocalHost:${hub.port}`]) {
      await hub.http.get('/health').set('Host', host).expect(200);
      const init = await hub.http.post('/mcp').set({ Host: host, Accept: 'application/json, text/event-stream' }).send(INITIALIZE);
      expect({ host, status: init.status, body: init.body.result?.serverInfo?.name ?? init.body }).toEqual({ host, status: 200, body: 'jira-hub' });
    }
  });

  it('the MCP SDK’s client with a foreign Origin is refused by the transport; without it, it connects', async () => {
    const connect = async (headers: Record<string, string>) => {
      const client = new Client({ name: 'page', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${hub.url}/mcp`), { requestInit: { headers } }));
      return client;
    };
    await expect(connect({ Origin: 'http://evil.example' })).rejects.toMatchObject({ code: 403, message: expect.stringContaining('запрос со страницы http://evil.example отклонён') });
    const own = await connect({ Origin: hub.url });
    expect((await own.listTools()).tools.length).toBeGreaterThan(0);
    await own.close();
  });

  it('keeps what was right: a text/plain cross-site POST is 400, nothing written', async () => {
    const before = await snapshot(hub);
    const res = await hub.http.post('/batches').set('Content-Type', 'text/plain').send(JSON.stringify({ title: 't', commands: [fields('A-9')] })).expect(400);
    expect(res.body.error).toBe('bad_json');
    expect(await snapshot(hub)).toEqual(before);
  });

  it('security headers on every answer: JSON, refusals, 404, the dashboard’s path, /docs', async () => {
    const answers = [
      await hub.http.get('/health').expect(200),
      await hub.http.get('/batches').set('Origin', 'http://evil.example').expect(403),
      await hub.http.get('/no-such-route').expect(404),
      await hub.http.get('/'),
      await hub.http.get('/docs/json').expect(200),
    ];
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    expect(answers[0].headers['content-security-policy']).toContain("style-src 'self';");
    // Swagger UI's page carries inline styles (security-browser.e2e-spec.ts shows it renders).
    expect((await hub.http.get('/docs/').expect(200)).headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
  });
});

describe('HUB_ALLOWED_HOSTS and HUB_ALLOWED_ORIGINS: a hub behind a reverse proxy', () => {
  let hub: TestHub;
  afterEach(() => hub?.close());

  it('open mode: the proxy’s name is served, its https origin is the hub’s own, an extra origin is allowed', async () => {
    hub = await startHub({ HUB_ALLOWED_HOSTS: 'hub.example.com, 10.0.0.5:8080', HUB_ALLOWED_ORIGINS: 'http://localhost:5173' });
    const batch = { title: 'через прокси', commands: [fields('A-1')] };
    await hub.http.post('/batches').set({ Host: 'hub.example.com', Origin: 'https://hub.example.com' }).send(batch).expect(201);
    await hub.http.get('/batches').set('Host', '10.0.0.5:8080').expect(200);
    await hub.http.get('/batches').set('Host', '10.0.0.5').expect(403);
    await hub.http.get('/batches').set('Origin', 'http://localhost:5173').expect(200);
    await hub.http.get('/batches').set('Origin', 'https://evil.example').expect(403);
    await hub.http.get('/batches').set('Host', `127.0.0.1:${hub.port}`).expect(200);
    const mcp = (host: string) => hub.http.post('/mcp').set({ Host: host, Accept: 'application/json, text/event-stream' }).send(INITIALIZE);
    await mcp('hub.example.com').expect(200);
    // In the hub's words, as a JSON-RPC error (the SDK's transport said «Invalid Host header» in English).
    expect((await mcp('other.example.com').expect(403)).body).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('хаб не отвечает на имя «other.example.com»') }, id: null });
  });

  it('with tokens: any Host as before unless HUB_ALLOWED_HOSTS is set, then loopback and those only', async () => {
    const auth = { Authorization: `Bearer ${TOKENS.HUB_CLIENT_TOKEN}` };
    hub = await startHub(TOKENS);
    await hub.http.get('/batches').set({ ...auth, Host: 'hub.internal:3000' }).expect(200);
    await hub.http.get('/batches').set({ Host: 'hub.internal:3000' }).expect(401);
    await hub.close();
    hub = await startHub({ ...TOKENS, HUB_ALLOWED_HOSTS: 'hub.example.com' });
    await hub.http.get('/batches').set({ ...auth, Host: 'hub.example.com' }).expect(200);
    await hub.http.get('/batches').set({ ...auth, Host: `localhost:${hub.port}` }).expect(200);
    expect((await hub.http.get('/batches').set({ ...auth, Host: 'hub.internal:3000' }).expect(403)).body.detail).toMatch(CYRILLIC);
  });
});

describe('tokens mode: the Origin check applies, the rest is unchanged', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(TOKENS);
  });
  afterAll(() => hub?.close());
  const client = { Authorization: `Bearer ${TOKENS.HUB_CLIENT_TOKEN}` };

  it('a foreign Origin → 403 even with a valid token, nothing written; the own origin and no Origin are served', async () => {
    const batch = { title: 'с токеном', commands: [fields('A-1')] };
    const before = await snapshot(hub);
    const res = await hub.http.post('/batches').set({ ...client, Origin: 'https://evil.example' }).send(batch).expect(403);
    expect(res.body).toEqual({ error: 'forbidden', detail: expect.stringContaining('HUB_ALLOWED_ORIGINS') });
    await hub.http.post('/agent/claim').set({ Authorization: `Bearer ${TOKENS.HUB_AGENT_TOKEN}`, Origin: 'https://evil.example' }).send({}).expect(403);
    const mcp = await hub.http
      .post('/mcp')
      .set({ Authorization: `Bearer ${TOKENS.HUB_ASSISTANT_TOKEN}`, Origin: 'https://evil.example', Accept: 'application/json, text/event-stream' })
      .send(INITIALIZE)
      .expect(403);
    expect(mcp.body).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('HUB_ALLOWED_ORIGINS') }, id: null });
    expect(await snapshot(hub)).toEqual(before);
    await hub.http.post('/batches').set({ ...client, Origin: hub.url }).send(batch).expect(201);
    await hub.http.post('/batches').set(client).send(batch).expect(201);
  });

  it('tokens as before: none → 401, a wrong one → 401, a role’s limits → 403', async () => {
    await hub.http.get('/batches').expect(401);
    await hub.http.get('/batches').set('Authorization', 'Bearer nope').expect(401);
    await hub.http.get('/batches').set(client).expect(200);
    await hub.http.get('/batches').set('Authorization', `Bearer ${TOKENS.HUB_AGENT_TOKEN}`).expect(403);
    await hub.http.get('/health').expect(200);
  });
});
