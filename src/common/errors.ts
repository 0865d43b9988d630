/**
 * Domain errors: plain classes with a machine `code` and a Russian `detail` for a person.
 * Services throw them; the one global filter (error.filter.ts) maps each code to HTTP.
 */
export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'validation_failed'
  | 'duplicate_summary'
  | 'plan_failed'
  | 'not_claimed'
  | 'claimed'
  | 'finished'
  | 'conflict'
  | 'idempotency_mismatch'
  | 'payload_too_large'
  | 'bad_json'
  | 'bad_request'
  | 'headers_too_large'
  | 'request_timeout'
  | 'unavailable';

export interface FieldError {
  field: string;
  detail: string;
}

/** One finding of the checks of a plan (SPEC 16.2), as an error answer lists them. */
export interface FindingError {
  seq: number;
  param: string;
  code: string;
  detail: string;
  suggestion?: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  constructor(readonly detail: string) {
    super(detail);
    this.name = new.target.name;
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized' as const;
  constructor(detail = 'нужен действительный токен в заголовке Authorization: Bearer') {
    super(detail);
  }
}

export class ForbiddenError extends DomainError {
  readonly code = 'forbidden' as const;
  constructor(detail = 'этот токен не даёт доступа к этому маршруту') {
    super(detail);
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'not_found' as const;
}

/**
 * A path the hub has, asked with a method it does not take (decision 1436): `allowed` goes to the
 * `Allow` header, the detail names them too.
 */
export class MethodNotAllowedError extends DomainError {
  readonly code = 'method_not_allowed' as const;
  constructor(
    method: string,
    path: string,
    readonly allowed: string[],
  ) {
    super(`путь ${path} не принимает метод ${method}; он принимает ${allowed.join(', ')}`);
  }
}

export class ValidationFailedError extends DomainError {
  readonly code = 'validation_failed' as const;
  constructor(
    detail: string,
    readonly errors: FieldError[] = [],
    /** a batch body's findings (SPEC 16.2), every one */
    readonly findings: FindingError[] = [],
  ) {
    super(detail);
  }
}

export class DuplicateSummaryError extends DomainError {
  readonly code = 'duplicate_summary' as const;
  constructor(
    detail: string,
    readonly errors: FieldError[] = [],
    readonly findings: FindingError[] = [],
  ) {
    super(detail);
  }
}

/** SPEC 16.2: a submitted plan Jira would refuse (its limits, the catalogue); every finding is in `findings`. */
export class PlanFailedError extends DomainError {
  readonly code = 'plan_failed' as const;
  constructor(
    detail: string,
    readonly errors: FieldError[] = [],
    readonly findings: FindingError[] = [],
  ) {
    super(detail);
  }
}

/** SPEC 6.7: a batch whose commands all ended, never cancelled, keeps its history. */
export class BatchFinishedError extends DomainError {
  readonly code = 'finished' as const;
  constructor(id: number) {
    super(`пакет #${id} уже завершён: все его команды закончены, отменять нечего (история пакета не меняется)`);
  }
}

export class NotClaimedError extends DomainError {
  readonly code = 'not_claimed' as const;
  constructor(id: number) {
    super(`команда #${id} ещё не выдана агенту`);
  }
}

export class ClaimedError extends DomainError {
  readonly code = 'claimed' as const;
  constructor(id: number) {
    super(`команда #${id} выдана агенту; отменить её можно только с force: true`);
  }
}

export class FinishedError extends DomainError {
  readonly code = 'finished' as const;
  constructor(id: number, status: string) {
    super(`команда #${id} уже завершена (статус ${status})`);
  }
}

export class ConflictError extends DomainError {
  readonly code = 'conflict' as const;
}

/** SPEC 15.4: an Idempotency-Key already used with another body. */
export class IdempotencyMismatchError extends DomainError {
  readonly code = 'idempotency_mismatch' as const;
  constructor(key: string, batchId: number) {
    super(`ключ идемпотентности «${key}» уже использован с другим телом запроса (пакет #${batchId}); для другого пакета возьмите новый ключ`);
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly code = 'payload_too_large' as const;
  constructor(detail = 'тело запроса слишком большое') {
    super(detail);
  }
}

export class BadJsonError extends DomainError {
  readonly code = 'bad_json' as const;
  constructor(detail = 'тело запроса не является корректным JSON') {
    super(detail);
  }
}

/** A request Node's HTTP parser refused before any route (a raw non-ASCII character in the URL, say). */
export class BadRequestError extends DomainError {
  readonly code = 'bad_request' as const;
}

export class HeadersTooLargeError extends DomainError {
  readonly code = 'headers_too_large' as const;
}

export class RequestTimeoutError extends DomainError {
  readonly code = 'request_timeout' as const;
}

/** The database server cannot be reached right now (PostgreSQL restarting, say); the request may be repeated. */
export class UnavailableError extends DomainError {
  readonly code = 'unavailable' as const;
  constructor(detail = 'база данных хаба сейчас недоступна; повторите запрос через несколько секунд') {
    super(detail);
  }
}

/**
 * PostgreSQL: a newer hub (another replica, or `jira-hub migrate`) has migrated the database past the schema this
 * process knows (decision 1432). It neither reads nor writes it until it is updated and started again; the
 * request may be repeated on another replica.
 */
export class SchemaNewerError extends UnavailableError {
  constructor(found: number, known: number) {
    super(
      `базу данных обновила более новая версия хаба (схема v${found}, эта реплика знает схемы до v${known}): реплика не читает и не пишет базу, пока её не обновят и не перезапустят; повторите запрос на другой реплике`,
    );
  }
}

/** A request that comes while the hub stops (decision 1429): the client tries again, on the restarted hub or another replica. */
export class HubStoppingError extends UnavailableError {
  constructor() {
    super('хаб останавливается и новых запросов не принимает; повторите запрос через несколько секунд (после перезапуска хаба или на другой его реплике)');
  }
}
