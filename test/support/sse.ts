import type { TestHub } from './app.js';
import { waitFor } from './wait.js';

export interface SseMessage {
  id?: string;
  event: string;
  data: unknown;
  /** a comment line (": heartbeat …") */
  comment?: string;
}

/** A GET /events stream read over real HTTP: every message and comment as it arrives. */
export interface SseStream {
  status: number;
  headers: Headers;
  messages: SseMessage[];
  /** resolves with the first message (after `from`) the predicate accepts */
  next(predicate: (m: SseMessage) => boolean, from?: number): Promise<SseMessage>;
  close(): void;
}

export function parseSse(block: string): SseMessage {
  const m: SseMessage = { event: 'message', data: undefined };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) m.comment = line.slice(1).trim();
    else if (line.startsWith('event: ')) m.event = line.slice(7);
    else if (line.startsWith('id: ')) m.id = line.slice(4);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length) m.data = JSON.parse(data.join('\n'));
  else if (m.comment !== undefined) m.event = 'comment';
  return m;
}

export async function openEvents(hub: TestHub, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(`${hub.url}/events`, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  if (res.body && res.headers.get('content-type')?.startsWith('text/event-stream')) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            messages.push(parseSse(buffer.slice(0, end)));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  }
  return {
    status: res.status,
    headers: res.headers,
    messages,
    next: (predicate, from = 0) => waitFor('an event', () => messages.slice(from).find(predicate), 5_000),
    close: () => controller.abort(),
  };
}
