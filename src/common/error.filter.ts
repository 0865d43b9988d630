import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import {
  DomainError,
  ErrorCode,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationFailedError,
} from './errors.js';

/** HTTP status of each domain error code (SPEC 11.1). The switch is exhaustive: a new code will not compile without a status. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'validation_failed':
    case 'duplicate_summary':
    case 'plan_failed':
    case 'idempotency_mismatch':
      return 422;
    case 'not_claimed':
    case 'claimed':
    case 'finished':
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'bad_json':
    case 'bad_request':
      return 400;
    case 'request_timeout':
      return 408;
    case 'headers_too_large':
      return 431;
    case 'unavailable':
      return 503;
  }
}

export interface ErrorBody {
  error: string;
  detail: string;
  errors?: unknown[];
  findings?: unknown[];
}

export function errorBody(err: DomainError): ErrorBody {
  const body: ErrorBody = { error: err.code, detail: err.detail };
  const errors = (err as { errors?: unknown[] }).errors;
  if (errors && errors.length > 0) body.errors = errors;
  const findings = (err as { findings?: unknown[] }).findings;
  if (findings && findings.length > 0) body.findings = findings;
  return body;
}

/**
 * Errors raised by Nest or a library, turned into domain errors. (Body-parser's own errors never get
 * here: Nest would wrap them and lose their type, so app.ts answers them first, with the same body.)
 */
function fromForeign(exception: unknown): DomainError | undefined {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === HttpStatus.NOT_FOUND) return new NotFoundError('такого маршрута нет');
    if (status === HttpStatus.PAYLOAD_TOO_LARGE) return new PayloadTooLargeError();
    if (status === HttpStatus.UNAUTHORIZED) return new UnauthorizedError();
    if (status === HttpStatus.FORBIDDEN) return new ForbiddenError();
    // Any other client error Nest or a library raises: the request is wrong.
    if (status >= 400 && status < 500) return new ValidationFailedError('некорректный запрос');
  }
  return undefined;
}

/** The one global filter: domain errors → their status and body; anything unknown → 500 without a stack trace. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const known = exception instanceof DomainError ? exception : fromForeign(exception);
    if (res.headersSent) return;
    if (known) {
      // RFC 6750: a 401 names the scheme it wants (MCP clients read it to ask for a token).
      if (known.code === 'unauthorized') res.set('WWW-Authenticate', 'Bearer realm="jira-hub"');
      // RFC 9110: a 405 lists the methods the path takes.
      if (known instanceof MethodNotAllowedError) res.set('Allow', known.allowed.join(', '));
      res.status(statusOf(known.code)).json(errorBody(known));
      return;
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    res.status(500).json({ error: 'internal', detail: 'внутренняя ошибка хаба; подробности в журнале сервера' });
  }
}
