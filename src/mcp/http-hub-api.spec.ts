import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HubError } from './hub-api.js';
import { HttpHubApi, idempotencyHeader } from './http-hub-api.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP server that records each request and answers with `answer`. */
async function fakeHub(answer: (req: Seen, res: ServerResponse) => void): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      answer(s, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen, server };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('HttpHubApi', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  it("marks every request as the assistant's, passes the token and the idempotency key, and reads a replay", async () => {
    const hub = await fakeHub((_, res) => json(res, 200, { id: 5 }, { 'Idempotent-Replayed': 'true' }));
    server = hub.server;
    const api = new HttpHubApi({ baseUrl: hub.url, authorization: 'Bearer s3cret' });
    const body = { title: 'П', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] };
    expect(await api.createBatch(body, 'key-1')).toEqual({ batch: { id: 5 }, replayed: true });
    const [req] = hub.seen;
    expect(req).toMatchObject({ method: 'POST', url: '/batches' });
    expect(req.headers).toMatchObject({ 'x-hub-source': 'assistant', authorization: 'Bearer s3cret', 'idempotency-key': 'key-1', 'content-type': 'application/json' });
    expect(JSON.parse(req.body)).toEqual(body);
  });

  it('builds list queries without empty values and escapes keys in paths', async () => {
    const hub = await fakeHub((_, res) => json(res, 200, []));
    server = hub.server;
    const api = new HttpHubApi({ baseUrl: hub.url });
    await api.listIssues({ keys: ['A-1', 'A-2'], q: 'отчёт', status: undefined, limit: 5 });
    await api.listIssues({ keys: [] });
    await api.getNote('new:1');
    expect(hub.seen.map((s) => s.url)).toEqual([
      '/issues?keys=A-1%2CA-2&q=%D0%BE%D1%82%D1%87%D1%91%D1%82&limit=5&fold=true&count=true',
      '/issues?fold=true&count=true',
      '/notes/new%3A1',
    ]);
    expect(hub.seen[0].headers.authorization).toBeUndefined();
  });

  it('encodes an idempotency key the header cannot carry (issue 22, defect 1); a key it can stays as it is', async () => {
    expect(idempotencyHeader('plan-1')).toBe('plan-1');
    expect(idempotencyHeader('спринт-2')).toMatch(/^mcp-sha256-[0-9a-f]{64}$/);
    expect(idempotencyHeader('спринт-2')).toBe(idempotencyHeader('спринт-2'));
    expect(idempotencyHeader('a b')).not.toBe(idempotencyHeader('a  b'));
    expect(idempotencyHeader('x'.repeat(201))).toMatch(/^mcp-sha256-/);
    expect(idempotencyHeader('x'.repeat(200))).toBe('x'.repeat(200));
  });

  it('HUB_URL naming the MCP endpoint (…/mcp) calls the REST API at the root', async () => {
    const hub = await fakeHub((_, res) => json(res, 200, []));
    server = hub.server;
    await new HttpHubApi({ baseUrl: `${hub.url}/mcp/` }).listBatches({});
    expect(hub.seen.map((s) => s.url)).toEqual(['/batches']);
  });

  it('sends a package as multipart files notes.csv and links.csv', async () => {
    const hub = await fakeHub((_, res) => json(res, 200, { notes: 0 }));
    server = hub.server;
    await new HttpHubApi({ baseUrl: hub.url }).importPackage({ links: 'from,type,to\n' });
    const [req] = hub.seen;
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.body).toContain('name="links"; filename="links.csv"');
    expect(req.body).not.toContain('name="notes"');
  });

  it.each([
    [404, { error: 'not_found', detail: 'пакета #9 нет' }, 'not_found', 'пакета #9 нет'],
    [502, 'Bad Gateway', 'http_error', 'хаб ответил 502 на GET /batches/9'],
  ])('an answer %i becomes a HubError with the Russian detail', async (status, body, code, detail) => {
    const hub = await fakeHub((_, res) => (typeof body === 'string' ? res.writeHead(status).end(body) : json(res, status, body)));
    server = hub.server;
    const err = await new HttpHubApi({ baseUrl: hub.url }).getBatch(9).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubError);
    expect(err).toMatchObject({ status, code, detail });
  });

  it('a hub that does not answer in time gives a timeout error, not a hung call', async () => {
    const hub = await fakeHub(() => undefined); // never answers
    server = hub.server;
    const err = await new HttpHubApi({ baseUrl: hub.url, timeoutMs: 200 }).agentStatus().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, code: 'timeout', detail: `хаб по адресу ${hub.url.replace(/\/$/, '')} не ответил за 0.2 с на GET /agent` });
  });

  it('a submit whose connection drops says it may have been done and how to repeat it safely; a read or a dry run says nothing of the kind', async () => {
    const hub = await fakeHub((_, res) => res.socket?.destroy());
    server = hub.server;
    const api = new HttpHubApi({ baseUrl: hub.url });
    const submit = await api.createBatch({ title: 'П', commands: [] }, 'k').catch((e: unknown) => e);
    expect(submit).toMatchObject({ code: 'unavailable' });
    expect((submit as HubError).detail).toMatch(/ECONNRESET; .*; запрос мог дойти до хаба и выполниться: .*submit_batch с тем же idempotency_key повторять безопасно/);
    const reads = await Promise.all([api.getBatch(1), api.planBatch({ title: 'П', commands: [] }), api.revertBatch(1, true)].map((p) => p.catch((e: unknown) => e as HubError)));
    for (const read of reads) expect(read).toMatchObject({ code: 'unavailable', detail: expect.not.stringMatching(/мог дойти/) });
  });

  it('a write without an answer in time says the same', async () => {
    const hub = await fakeHub(() => undefined);
    server = hub.server;
    const err = await new HttpHubApi({ baseUrl: hub.url, timeoutMs: 200 }).cancelBatch(3).catch((e: unknown) => e);
    expect((err as HubError).detail).toMatch(/^хаб по адресу .* не ответил за 0\.2 с на POST \/batches\/3\/cancel; запрос мог дойти до хаба/);
  });
});
