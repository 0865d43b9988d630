/**
 * JSON-RPC errors for /mcp before any route runs: a body that is not JSON, nests too deep or is too
 * large gets the protocol's error object (what an MCP client reads), not the REST `{error, detail}`.
 * Free of the SDK: app.ts's body checks call it at every request.
 */
import type { Request, Response } from 'express';

/** JSON-RPC 2.0's codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** What the MCP SDK's transport answers its own refusals with (406, an unsupported protocol version). */
export const SERVER_ERROR = -32000;

/** A POST whose Accept does not take both of Streamable HTTP's answers (the transport's rule), in Russian. */
export const NOT_ACCEPTABLE = 'запрос должен принимать оба вида ответа: заголовок Accept: application/json, text/event-stream';

/** Why a body that is JSON but no JSON-RPC 2.0 message is refused (-32600), in the stdio server's words. */
export const NOT_A_MESSAGE = 'тело не является сообщением JSON-RPC 2.0 (или их списком): нужны поля jsonrpc: "2.0", method и id (у запроса)';

/** Whether a request goes to the MCP endpoint (Express ignores the path's letter case, so does this). */
export const isMcpRequest = (req: Request): boolean => /^\/mcp\/?$/i.test(req.path);

/** Answers `status` with a JSON-RPC error (id null: the request's id could not be read). */
export function answerRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
