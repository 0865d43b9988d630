/**
 * The stdio server's lines before the SDK reads them. The SDK's StdioServerTransport answers nothing
 * to a line it cannot read (it reports it to `onerror` and goes on), and a line longer than its buffer
 * closes the transport, which ends `jira-hub mcp` for the assistant. Here a line over the limit is
 * dropped and answered -32600 (the server keeps serving), and an unreadable line gets JSON-RPC's
 * -32700 (not JSON) or -32600 (JSON, but not a JSON-RPC message), with id null: its id is unknown.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { INVALID_REQUEST, PARSE_ERROR } from './json-rpc.js';

const NEWLINE = 0x0a;

/** The error answer for a line whose id could not be read, framed as the transport frames (one line). */
export const rpcErrorLine = (code: number, message: string): string => `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`;

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} МиБ`;

/**
 * Passes whole lines of at most `limit` bytes (the newline not counted) through in order, each as one
 * chunk; a longer line is dropped up to its newline, and `answer` gets its -32600 line once, when the
 * limit is passed. A line is held here until its newline: a part already passed on could not be taken back.
 */
export function lineLimit(limit: number, answer: (line: string) => void): Transform {
  let held: Buffer[] = []; // the current line's bytes so far
  let length = 0;
  let dropping = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(NEWLINE, start);
        const end = newline === -1 ? chunk.length : newline;
        length += end - start;
        if (!dropping && length > limit) {
          dropping = true;
          held = [];
          answer(rpcErrorLine(INVALID_REQUEST, `сообщение длиннее ${mib(limit)}: сервер его не читает; отправьте данные частями`));
        }
        if (!dropping) held.push(chunk.subarray(start, newline === -1 ? end : end + 1));
        if (newline === -1) break;
        if (!dropping) this.push(held.length === 1 ? held[0] : Buffer.concat(held));
        held = [];
        start = newline + 1;
        length = 0;
        dropping = false;
      }
      done();
    },
  });
}

/** The answer to a line the SDK could not read (its `onerror`): undefined for other errors. */
export function unreadableLineAnswer(error: unknown): string | undefined {
  if (error instanceof SyntaxError) return rpcErrorLine(PARSE_ERROR, 'строка не является JSON: каждое сообщение — один объект JSON-RPC 2.0 в строке');
  if (error instanceof Error && Array.isArray((error as { issues?: unknown }).issues)) {
    return rpcErrorLine(INVALID_REQUEST, 'строка не является сообщением JSON-RPC 2.0: нужны поля jsonrpc: "2.0", method и id (у запроса)');
  }
  return undefined;
}
