/**
 * GET /events read with fetch (an EventSource cannot send the Authorization header): messages go
 * to subscribers; when the stream ends (a hub restart) it connects again. Each time the stream opens,
 * the first time too, subscribers hear `resync`: events may have been missed — while the hub was away,
 * or, on the first open, between a page's first load and the stream's start — so pages load again
 * what they show. A stream silent for longer than its heartbeats allow (`hello` says how often they come)
 * is taken for dead — a laptop that slept, a network that dropped without closing the connection — and
 * opened again, instead of the page saying «обновляется само» while nothing arrives.
 */
import { authHeaders } from './api';

export interface LiveMessage {
  event: string;
  data: any;
}
export type LiveState = 'connecting' | 'open' | 'offline';

/** How many heartbeat periods of silence end a stream (the hub's heartbeat is a comment every `heartbeat_seconds`). */
export const SILENT_HEARTBEATS = 2.5;

export function parseBlock(block: string): LiveMessage | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0) return null; // a comment (heartbeat) or an empty block
  try {
    return { event, data: JSON.parse(data.join('\n')) };
  } catch {
    return null;
  }
}

export class LiveClient {
  private readonly listeners = new Set<(m: LiveMessage) => void>();
  private readonly stateListeners = new Set<(s: LiveState) => void>();
  private controller: AbortController | null = null;
  private stopped = true;
  private delay = 500;
  /** How long a stream may stay silent (known from the last `hello`; 0 before the first) */
  private silentMs = 0;
  /** Gives up a request that has not said `hello` yet */
  private helloTimer: ReturnType<typeof setTimeout> | undefined;
  state: LiveState = 'offline';

  constructor(
    private readonly url = '/events',
    private readonly onUnauthorized: () => void = () => {},
    /** before the first `hello`, how long a request may wait for it */
    private readonly helloTimeoutMs = 30_000,
  ) {}

  subscribe(listener: (m: LiveMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onState(listener: (s: LiveState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.state = 'connecting';
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
  }

  private setState(s: LiveState): void {
    this.state = s;
    for (const l of this.stateListeners) l(s);
  }

  private emit(m: LiveMessage): void {
    for (const l of this.listeners) l(m);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      // After a drop the page says «нет связи» until the stream is open again: a retry that hangs (a hub
      // that stopped answering) is no fresh start.
      if (this.state !== 'offline') this.setState('connecting');
      const controller = (this.controller = new AbortController());
      // A hub that takes the request and never says hello (hung, or a proxy holding the stream back) is given
      // up as a silent stream is, after its heartbeats' allowance, or helloTimeoutMs before any hello.
      this.helloTimer = setTimeout(() => controller.abort(), this.silentMs || this.helloTimeoutMs);
      try {
        const res = await fetch(this.url, { headers: { ...authHeaders(), accept: 'text/event-stream' }, signal: this.controller.signal });
        if (res.status === 401 || res.status === 403) {
          this.stopped = true;
          this.setState('offline');
          this.onUnauthorized();
          return;
        }
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        await this.read(res.body);
      } catch {
        // the hub went away or is not up yet
      }
      clearTimeout(this.helloTimer);
      if (this.stopped) break;
      this.setState('offline');
      await new Promise((r) => setTimeout(r, this.delay));
      this.delay = Math.min(this.delay * 2, 4000);
    }
    this.setState('offline');
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let silentMs = 0; // known once `hello` says how often heartbeats come
    let silence: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(silence);
      if (silentMs > 0) silence = setTimeout(() => void reader.cancel(), silentMs); // read() then ends: the loop connects again
    };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        watch();
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const m = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (!m) continue;
          if (m.event === 'hello') {
            this.delay = 500;
            const heartbeat = Number(m.data?.heartbeat_seconds);
            silentMs = heartbeat > 0 ? heartbeat * SILENT_HEARTBEATS * 1000 : 0;
            this.silentMs = silentMs;
            clearTimeout(this.helloTimer);
            watch();
            this.setState('open');
            this.emit({ event: 'resync', data: null });
          } else this.emit(m);
        }
      }
    } finally {
      clearTimeout(silence);
    }
  }
}
