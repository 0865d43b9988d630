import type { IncomingMessage } from 'node:http';

/** Whether a request carries a body: chunked, or a Content-Length above 0 (an empty POST has none). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}
