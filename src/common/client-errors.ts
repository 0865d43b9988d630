import type { Duplex } from 'node:stream';
import { BadRequestError, DomainError, HeadersTooLargeError, RequestTimeoutError } from './errors.js';
import { errorBody, statusOf } from './error.filter.js';

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The error of a request Node's HTTP parser refused, by the parser's code; texts for people are Russian. */
export function clientErrorOf(code: string | undefined): DomainError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HeadersTooLargeError('строка запроса и заголовки вместе длиннее 16 КБ; сократите адрес или заголовки (длинный список ключей в keys у GET /issues разбейте на несколько запросов)');
    case 'HPE_INVALID_URL':
      return new BadRequestError(
        'в адресе запроса недопустимые символы: кириллицу, пробелы и другие символы вне ASCII закодируйте процентами, ' +
          'например /issues?q=%D0%B2%D1%8B%D0%B3%D1%80%D1%83%D0%B7 вместо /issues?q=выгруз (curl -G --data-urlencode "q=выгруз", encodeURIComponent в JavaScript)',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestTimeoutError('запрос не пришёл целиком вовремя');
    default:
      return new BadRequestError(`HTTP-запрос не удалось разобрать (${code ?? 'неизвестная ошибка'}); проверьте строку запроса и заголовки`);
  }
}

/**
 * The server's `clientError` handler: Node's parser answers a bare 400 or 431 with no body; this one
 * writes the spec's `{error, detail}` body (SPEC 11.1) and closes the connection, as Node does.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // As Node's own handler: nothing is written where a response has already begun (a pipelined request).
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  const error = clientErrorOf(err.code);
  const status = statusOf(error.code);
  const body = JSON.stringify(errorBody(error));
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
