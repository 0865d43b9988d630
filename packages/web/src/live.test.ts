import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveClient, parseBlock, type LiveMessage } from './live';

/** A response body of these chunks; `open`: it stays open, as a live stream does. */
function stream(chunks: string[], open = false): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc.encode(chunk));
      if (!open) c.close();
    },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('parseBlock', () => {
  it('reads an event with JSON data, and skips comments', () => {
    expect(parseBlock('id: 3\nevent: batch\ndata: {"batch_id":1}')).toEqual({ event: 'batch', data: { batch_id: 1 } });
    expect(parseBlock(': heartbeat 2026-11-30T10:00:00Z')).toBeNull();
    expect(parseBlock('event: x\ndata: not json')).toBeNull();
  });
});

describe('LiveClient', () => {
  it('says to resync each time the stream opens, delivers events split across chunks, and reconnects when the stream ends', async () => {
    const answers = [
      () => new Response(stream(['retry: 2000\nevent: hello\ndata: {}\n\n', 'event: batch\nda', 'ta: {"batch_id":7}\n\n: heartbeat\n\n']), { status: 200 }),
      () => new Response(null, { status: 502 }),
      () => new Response(stream(['event: hello\ndata: {}\n\nevent: settings\ndata: {"version":2}\n\n'], true), { status: 200 }),
    ];
    const fetchMock = vi.fn(async () => answers.shift()!());
    vi.stubGlobal('fetch', fetchMock);
    const client = new LiveClient();
    const seen: LiveMessage[] = [];
    client.subscribe((m) => seen.push(m));
    const states: string[] = [];
    client.onState((s) => states.push(s));
    client.start();
    await vi.waitFor(() => expect(seen.map((m) => m.event)).toEqual(['resync', 'batch', 'resync', 'settings']), { timeout: 5000 });
    expect(seen[1].data).toEqual({ batch_id: 7 });
    expect(states).toContain('offline');
    expect(states.at(-1)).toBe('open');
    client.stop();
  });

  it('takes a stream silent past its heartbeats for dead, says so and connects again', async () => {
    const answers = [
      // Opened, then nothing more: not even the heartbeat comment due every 0.2 s.
      () => new Response(stream(['event: hello\ndata: {"heartbeat_seconds":0.2}\n\n'], true), { status: 200 }),
      () => new Response(stream(['event: hello\ndata: {"heartbeat_seconds":15}\n\n'], true), { status: 200 }),
    ];
    const fetchMock = vi.fn(async () => answers.shift()!());
    vi.stubGlobal('fetch', fetchMock);
    const client = new LiveClient();
    const seen: string[] = [];
    client.subscribe((m) => seen.push(m.event));
    const states: string[] = [];
    client.onState((s) => states.push(s));
    client.start();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2), { timeout: 5000 });
    await vi.waitFor(() => expect(seen).toEqual(['resync', 'resync']));
    expect(states).toEqual(['connecting', 'open', 'offline', 'open']); // «нет связи» from the drop until the stream is open again
    client.stop();
  });

  it('gives up a request that never says hello (a hung hub, a proxy holding the stream) and connects again', async () => {
    const answers = [
      // Taken, never answered: settles only when the client gives up.
      (init?: RequestInit) => new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      () => Promise.resolve(new Response(stream(['event: hello\ndata: {"heartbeat_seconds":15}\n\n'], true), { status: 200 })),
    ];
    const fetchMock = vi.fn((_url: string, init?: RequestInit) => answers.shift()!(init));
    vi.stubGlobal('fetch', fetchMock);
    const client = new LiveClient('/events', () => undefined, 200);
    const states: string[] = [];
    client.onState((s) => states.push(s));
    client.start();
    await vi.waitFor(() => expect(client.state).toBe('open'), { timeout: 5000 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(states).toEqual(['connecting', 'offline', 'open']);
    client.stop();
  });

  it('stops and reports when the hub refuses the token', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 401 })));
    const refused = vi.fn();
    const client = new LiveClient('/events', refused);
    client.start();
    await vi.waitFor(() => expect(refused).toHaveBeenCalledTimes(1));
    expect(client.state).toBe('offline');
  });
});
