import type { IncomingMessage } from 'node:http';

/** Whether a request carries a body: chunked, or a Content-Length above 0 (an empty POST has none). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * How deep a JSON body may nest. Plans and Jira's documents (ADF) stay far below it; past a few
 * thousand levels class-transformer's recursion overflows the stack.
 */
export const MAX_JSON_DEPTH = 100;

/** Whether a parsed JSON value nests deeper than `max` levels (an array or object is one level); iterative. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
