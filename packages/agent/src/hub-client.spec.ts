import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HubClient, HubHttpError, HubStoppedError } from './hub-client.js';

describe('hub-client', () => {
  let closedUrl: string;
  let server: Server;
  let url: string;
  const seen: Array<{ method?: string; url?: string; auth?: string; body: string }> = [];

  beforeAll(async () => {
    // A port that refuses connections: listen, note the port, close.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
        if (req.url === '/agent/settings') {
          res.writeHead(403, { 'Content-Type': 'application/json' });
          return res.end(JSON.stringify({ error: 'forbidden', detail: 'токен клиента' }));
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ command: null, settings_version: 3 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  describe('HubClient', () => {
    it('sends the claim with the bearer token', async () => {
      const hub = new HubClient({ baseUrl: `${url}/`, token: 't0k' });
      const answer = await hub.claim({ agent_version: '1', settings_version: 2, last_jira_call_at: null, wait_seconds: 0 });
      expect(answer).toEqual({ command: null, settings_version: 3 });
      expect(seen.at(-1)).toEqual({
        method: 'POST',
        url: '/agent/claim',
        auth: 'Bearer t0k',
        body: JSON.stringify({ agent_version: '1', settings_version: 2, last_jira_call_at: null, wait_seconds: 0 }),
      });
    });

    it('throws HubHttpError on a refusal, without retrying', async () => {
      const sleeps: number[] = [];
      const hub = new HubClient({ baseUrl: url, sleep: async (ms) => void sleeps.push(ms) });
      const error = await hub.settings().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HubHttpError);
      expect((error as HubHttpError).status).toBe(403);
      expect((error as Error).message).toBe('хаб ответил HTTP 403: токен клиента');
      expect(sleeps).toEqual([]);
    });

    it('backs off exponentially while the hub is unreachable, until stopped', async () => {
      const stop = new AbortController();
      const sleeps: number[] = [];
      const lines: string[] = [];
      const hub = new HubClient({
        baseUrl: closedUrl,
        stopSignal: stop.signal,
        retryBaseMs: 1000,
        retryMaxMs: 4000,
        log: (l) => lines.push(l),
        sleep: async (ms) => {
          sleeps.push(ms);
          if (sleeps.length === 5) stop.abort();
        },
      });
      await expect(hub.report(1, { status: 'done', result: {} })).rejects.toBeInstanceOf(HubStoppedError);
      expect(sleeps).toEqual([1000, 2000, 4000, 4000, 4000]);
      expect(lines[0]).toMatch(/^hub POST \/agent\/commands\/1\/result failed/);
    });

    it('a report sent again after a lost answer goes without its claim: the next command is not handed out once per repeat', async () => {
      const bodies: unknown[] = [];
      const hub = new HubClient({
        baseUrl: 'http://hub.invalid',
        sleep: async () => undefined,
        fetch: (async (_input: string, init: RequestInit) => {
          bodies.push(JSON.parse(String(init.body)));
          if (bodies.length < 3) throw new TypeError('fetch failed'); // the hub took it; the answer was lost
          return new Response(JSON.stringify({ id: 7, status: 'done' }), { status: 200 });
        }) as typeof fetch,
      });
      const answer = await hub.report(7, { status: 'done', result: {}, claim: { agent_version: '1' } });
      expect(answer).toEqual({ id: 7, status: 'done' });
      expect(bodies).toEqual([
        { status: 'done', result: {}, claim: { agent_version: '1' } },
        { status: 'done', result: {} },
        { status: 'done', result: {} },
      ]);
    });

    it("a claim's end signal ends that long poll alone; a report in flight on the same client is finished", async () => {
      // The hub holds both requests until the test lets the report through.
      let releaseReport!: () => void;
      const reportHeld = new Promise<void>((resolve) => (releaseReport = resolve));
      const held = (signal: AbortSignal, until: Promise<void>, answer: unknown): Promise<Response> =>
        new Promise((resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          void until.then(() => resolve(new Response(JSON.stringify(answer), { status: 200 })));
        });
      const never = new Promise<void>(() => undefined);
      const hub = new HubClient({
        baseUrl: url,
        stopSignal: new AbortController().signal,
        fetch: (async (input: string, init: RequestInit) =>
          input.endsWith('/agent/claim') ? held(init.signal!, never, {}) : held(init.signal!, reportHeld, { id: 7, status: 'done' })) as typeof fetch,
      });
      const end = new AbortController();
      const claim = hub.claim({ wait_seconds: 30 }, end.signal);
      const report = hub.report(7, { status: 'done', result: {} });
      end.abort();
      await expect(claim).rejects.toBeInstanceOf(HubStoppedError);
      releaseReport();
      await expect(report).resolves.toEqual({ id: 7, status: 'done' });
    });
  });
});
