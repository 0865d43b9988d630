import { describe, expect, it, jest } from '@jest/globals';
import { BadRequestException, Logger, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { ErrorFilter } from './error.filter.js';
import {
  BadJsonError,
  ClaimedError,
  ConflictError,
  IdempotencyMismatchError,
  DuplicateSummaryError,
  FinishedError,
  ForbiddenError,
  NotClaimedError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnavailableError,
  ValidationFailedError,
} from './errors.js';

function run(exception: unknown) {
  const res = { headersSent: false, statusCode: 0, body: undefined as unknown, headers: {} as Record<string, string> };
  const response = {
    set(name: string, value: string) {
      res.headers[name] = value;
      return this;
    },
    get headersSent() {
      return res.headersSent;
    },
    status(code: number) {
      res.statusCode = code;
      return this;
    },
    json(body: unknown) {
      res.body = body;
      return this;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
  new ErrorFilter().catch(exception, host);
  return res;
}

describe('ErrorFilter', () => {
  it.each([
    [new UnauthorizedError(), 401, 'unauthorized'],
    [new ForbiddenError(), 403, 'forbidden'],
    [new NotFoundError('нет'), 404, 'not_found'],
    [new ValidationFailedError('плохо', [{ field: 'title', detail: 'пусто' }]), 422, 'validation_failed'],
    [new DuplicateSummaryError('повторяется тема ensure_issue: «Отчёт»'), 422, 'duplicate_summary'],
    [new NotClaimedError(7), 409, 'not_claimed'],
    [new ClaimedError(7), 409, 'claimed'],
    [new FinishedError(7, 'done'), 409, 'finished'],
    [new ConflictError('нельзя'), 409, 'conflict'],
    [new IdempotencyMismatchError('k-1', 7), 422, 'idempotency_mismatch'],
    [new PayloadTooLargeError(), 413, 'payload_too_large'],
    [new BadJsonError(), 400, 'bad_json'],
    [new UnavailableError(), 503, 'unavailable'],
    [new NotFoundException(), 404, 'not_found'],
    [new PayloadTooLargeException(), 413, 'payload_too_large'],
    [new BadRequestException('Unexpected field'), 422, 'validation_failed'],
  ])('%p → %i %s', (exception, status, code) => {
    const res = run(exception);
    expect(res.statusCode).toBe(status);
    expect(res.body).toMatchObject({ error: code, detail: expect.any(String) });
  });

  it('keeps per-field errors of a validation failure', () => {
    expect(run(new ValidationFailedError('плохо', [{ field: 'title', detail: 'пусто' }])).body).toEqual({
      error: 'validation_failed',
      detail: 'плохо',
      errors: [{ field: 'title', detail: 'пусто' }],
    });
  });

  it('an unknown error → 500 internal without its message or stack', () => {
    // The operator's log keeps the stack (quietly here); the answer never does.
    const log = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const res = run(new TypeError('secret path /etc/passwd at line 3'));
    expect(log).toHaveBeenCalledWith(expect.stringContaining('secret path /etc/passwd'));
    log.mockRestore();
    expect(res.statusCode).toBe(500);
    expect(res.body).toEqual({ error: 'internal', detail: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });
});
