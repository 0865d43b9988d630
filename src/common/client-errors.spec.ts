import { describe, expect, it } from '@jest/globals';
import { clientErrorOf } from './client-errors.js';
import { statusOf } from './error.filter.js';

describe('clientErrorOf: what a request refused by the HTTP parser is answered', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large', /16 КБ/],
    ['HPE_INVALID_URL', 400, 'bad_request', /закодируйте процентами/],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout', /вовремя/],
    ['HPE_INVALID_METHOD', 400, 'bad_request', /HPE_INVALID_METHOD/],
    [undefined, 400, 'bad_request', /неизвестная ошибка/],
  ])('%s → %i %s', (code, status, error, detail) => {
    const e = clientErrorOf(code);
    expect(statusOf(e.code)).toBe(status);
    expect(e.code).toBe(error);
    expect(e.detail).toMatch(detail);
  });
});
