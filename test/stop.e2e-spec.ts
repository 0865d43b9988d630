/**
 * Stopping the hub (a replica restarted, SIGTERM or SIGINT of `jira-hub serve`, `app.close()`): the bounded
 * drain of src/drain.ts (decision 1429). Requests go over node:http, so a body can be sent in two halves
 * and a connection kept alive on purpose.
 */
import { describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DRAIN_MS } from '../src/drain.js';
import { fields, startHub, tempDir, type TestHub } from './support/app.js';
import { waitFor } from './support/wait.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request whose body goes in two halves: the first now, the second when `rest()` is called. */
function halfSent(hub: TestHub, method: string, path: string, body: object, agent: Agent) {
  const text = Buffer.from(JSON.stringify(body));
  const half = Math.floor(text.length / 2);
  // The hub has the request (its headers, not all of its body): it is in flight.
  const received = new Promise<void>((resolve) => {
    const server = hub.app.getHttpServer();
    const seen = (req: { method?: string; url?: string }) => {
      if (req.method !== method || req.url !== path) return;
      server.off('request', seen);
      resolve();
    };
    server.on('request', seen);
  });
  const req = request(`${hub.url}${path}`, { method, agent, headers: { 'content-type': 'application/json', 'content-length': text.length } });
  const answer = answerOf(req);
  req.write(text.subarray(0, half));
  return { received, answer, rest: () => req.end(text.subarray(half)) };
}

function answerOf(req: ReturnType<typeof request>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
  });
}

function get(hub: TestHub, path: string, agent: Agent): Promise<Answer> {
  const req = request(`${hub.url}${path}`, { agent });
  req.end();
  return answerOf(req);
}

/** GET /events open (its `hello` came); `ended` says how it ended: by the hub (`end`) or cut off (`cut`). */
function openStream(hub: TestHub, agent: Agent): Promise<{ ended: Promise<'end' | 'cut'> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${hub.url}/events`, { agent });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET /events: ${res.statusCode}`));
      const ended = new Promise<'end' | 'cut'>((done) => {
        res.on('end', () => done('end'));
        res.on('error', () => done('cut'));
        res.on('aborted', () => done('cut'));
      });
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('event: hello')) resolve({ ended });
      });
    });
    req.end();
  });
}

/** A connection of its own, written by hand: what came back so far, and whether the hub has closed it. */
function rawConnection(hub: TestHub) {
  const conn = { socket: connect(hub.port, '127.0.0.1'), received: '', closed: false };
  conn.socket.setEncoding('utf8');
  conn.socket.on('data', (chunk: string) => (conn.received += chunk));
  conn.socket.on('close', () => (conn.closed = true));
  return conn;
}

/** The first whole answer in `text` (its head and Content-Length bytes of body), once it is all there. */
function whole(text: string): string | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text.slice(0, end));
  if (!length) return undefined;
  const size = end + 4 + Number(length[1]);
  return text.length >= size ? text.slice(0, size) : undefined;
}

/** The stop has begun: the hub no longer listens for connections. */
const stopBegun = (hub: TestHub) => waitFor('the stop to begin', () => (hub.app.getHttpServer().listening ? undefined : true));

const batch = (title: string) => ({ title, commands: [fields('A-1'), fields('A-2')] });

describe('stopping the hub (a replica restarted): the bounded drain', () => {
  it('a POST /batches whose body is still arriving when the stop begins is finished: 201 with Connection: close, and its batch is there after the restart', async () => {
    const dir = tempDir(); // its own folder: the first hub's close must not take the database with it
    const dbPath = join(dir, 'hub.sqlite');
    const hub = await startHub({ HUB_DB_PATH: dbPath });
    const agent = new Agent({ keepAlive: true });
    try {
      const post = halfSent(hub, 'POST', '/batches', batch('в полёте'), agent);
      await post.received;
      const closed = hub.close();
      await stopBegun(hub);
      post.rest();
      const res = await post.answer;
      expect(res.status).toBe(201);
      // The client does not send its next request on a connection the stopping hub is about to close.
      expect(res.headers.connection).toBe('close');
      const made = JSON.parse(res.body) as { id: number };
      await closed;
      const again = await startHub({ HUB_DB_PATH: dbPath });
      try {
        expect((await again.http.get(`/batches/${made.id}`).expect(200)).body).toMatchObject({ title: 'в полёте', commands: [{ params: { key: 'A-1' } }, { params: { key: 'A-2' } }, { type: 'refresh' }] });
      } finally {
        await again.close();
      }
    } finally {
      agent.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a request that comes on a kept-alive connection after the stop began gets 503 unavailable with Connection: close, and the connection is closed; the request in flight is still answered', async () => {
    const hub = await startHub();
    const client = new Agent({ keepAlive: true });
    const conn = rawConnection(hub);
    try {
      conn.socket.write(`GET /batches HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\n\r\n`);
      const first = await waitFor('the first answer', () => whole(conn.received));
      expect(first).toMatch(/^HTTP\/1\.1 200 [^]*\r\nConnection: keep-alive\r\n/i);
      // The next request has begun (half its head sent): the connection is not idle, so the stop leaves it open.
      conn.socket.write(`GET /batches HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\n`);
      const post = halfSent(hub, 'POST', '/batches', batch('пока хаб останавливается'), client); // holds the stop
      await post.received;
      const closed = hub.close();
      await stopBegun(hub);
      conn.socket.write('\r\n'); // the request is whole only now, after the stop began
      await waitFor('the hub to close the connection', () => conn.closed || undefined);
      const second = conn.received.slice(first.length);
      expect(second).toMatch(/^HTTP\/1\.1 503 /);
      expect(second).toMatch(/\r\nConnection: close\r\n/i);
      expect(second).toMatch(/\r\nContent-Type: application\/json/i);
      expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'unavailable', detail: expect.stringContaining('хаб останавливается') });
      post.rest();
      expect((await post.answer).status).toBe(201);
      await closed;
    } finally {
      conn.socket.destroy();
      client.destroy();
    }
  });

  it('an event stream whose page keeps connecting again does not hold the stop: once the request in flight is answered, the stop ends well within the bound', async () => {
    const hub = await startHub();
    const page = new Agent({ keepAlive: true, maxSockets: 1 });
    const client = new Agent({ keepAlive: true });
    try {
      const stream = await openStream(hub, page);
      const post = halfSent(hub, 'POST', '/batches', batch('пока панель переподключается'), client); // holds the stop meanwhile
      await post.received;
      const closed = hub.close();
      expect(await stream.ended).toBe('end'); // ended by the hub, not cut off
      // As the dashboard does: it connects again at once, and again, until the hub is not there.
      const seen: string[] = [];
      for (;;) {
        const outcome = await get(hub, '/events', page).then(
          (res) => `${res.status}`,
          (err: NodeJS.ErrnoException) => err.code ?? err.message,
        );
        seen.push(outcome);
        if (outcome !== '503') break;
      }
      // 503 on the kept-alive connection, which it then closes; a new connection is refused. No stream opened.
      expect(seen).toEqual(['503', 'ECONNREFUSED']);
      const answered = performance.now();
      post.rest();
      expect((await post.answer).status).toBe(201);
      await closed;
      expect(performance.now() - answered).toBeLessThan(DRAIN_MS / 2);
    } finally {
      page.destroy();
      client.destroy();
    }
  });

  it('a request still running when the bound has passed is cut off, not before, and the stop ends', async () => {
    const bound = 300;
    const hub = await startHub({}, undefined, 0, { drainMs: bound });
    const agent = new Agent({ keepAlive: true });
    try {
      const post = halfSent(hub, 'POST', '/batches', batch('не дошёл'), agent); // the rest of the body never comes
      await post.received;
      const started = performance.now();
      const cut = post.answer.then(
        () => 'answered',
        () => performance.now() - started,
      );
      await hub.close();
      const after = await cut;
      // Timers fire no earlier than asked; a millisecond or two of rounding between the clocks is allowed.
      expect(after).toBeGreaterThanOrEqual(bound - 5);
      expect(after).toBeLessThan(bound + DRAIN_MS / 2);
    } finally {
      agent.destroy();
    }
  });
});
