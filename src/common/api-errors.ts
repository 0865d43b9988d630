import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';

export class FieldErrorView {
  /** @example 'commands.0.params.key' */
  field!: string;
  /** @example 'нужен ключ Jira (ABC-123) или временный ключ (new:N)' */
  detail!: string;
}

/** One finding of the checks of a plan (SPEC 16.2). */
export class FindingView {
  /**
   * the command's place in the body, from 1 (as the plan text shows it)
   * @example 3
   */
  seq!: number;
  /** @example 'link_type' */
  param!: string;
  /** @example 'unknown_link_type' */
  code!: string;
  /** @example 'типа связи «Blokcs» в Jira нет; есть: Blocks (blocks / is blocked by), Relates (relates to / relates to)' */
  detail!: string;
  /** @example 'может быть, Blocks?' */
  suggestion?: string;
  /**
   * a planning package's apply: the file the command comes from
   * @example 'links.csv'
   */
  file?: string;
  /**
   * and its row (the header is row 1)
   * @example 3
   */
  row?: number;
  /** and its column, when one cell made the command */
  column?: string;
}

/** Every error answer (SPEC 11.1). */
export class ErrorBodyView {
  @ApiProperty({
    example: 'validation_failed',
    enum: ['unauthorized', 'forbidden', 'not_found', 'method_not_allowed', 'validation_failed', 'duplicate_summary', 'plan_failed', 'idempotency_mismatch', 'not_claimed', 'claimed', 'finished', 'conflict', 'payload_too_large', 'bad_json', 'bad_request', 'headers_too_large', 'request_timeout', 'internal'],
  })
  error!: string;
  /** @example 'commands.0.params.key: нужен ключ Jira (ABC-123) или временный ключ (new:N)' */
  detail!: string;
  /** one entry per field, for 422 */
  errors?: FieldErrorView[];
  /** a batch body's findings (SPEC 16.2), every one: {seq (1-based), param, code, detail, suggestion?} */
  findings?: FindingView[];
}

const MEANING: Record<number, string> = {
  400: 'bad_json: the body is not JSON',
  401: 'unauthorized: no token, or a wrong one',
  403: "forbidden: the other role's token",
  404: 'not_found',
  409: 'not_claimed, claimed, finished or conflict (see detail)',
  413: 'payload_too_large',
  422: 'validation_failed (or duplicate_summary, plan_failed with every finding, idempotency_mismatch for POST /batches); nothing was written',
};

/** An answer of each status as the hub gives it (each status its own code and text, not one shared example). */
export const ERROR_EXAMPLES: Record<number, { error: string; detail: string; errors?: { field: string; detail: string }[] }> = {
  400: { error: 'bad_json', detail: 'тело запроса не является корректным JSON' },
  401: { error: 'unauthorized', detail: 'нужен действительный токен в заголовке Authorization: Bearer' },
  403: { error: 'forbidden', detail: 'этот токен не даёт доступа к этому маршруту' },
  404: { error: 'not_found', detail: 'пакета #42 нет' },
  409: { error: 'claimed', detail: 'команда #42 выдана агенту; отменить её можно только с force: true' },
  413: { error: 'payload_too_large', detail: 'тело запроса слишком большое' },
  422: {
    error: 'validation_failed',
    detail: 'commands.0.params.key: нужен ключ Jira (ABC-123) или временный ключ (new:N)',
    errors: [{ field: 'commands.0.params.key', detail: 'нужен ключ Jira (ABC-123) или временный ключ (new:N)' }],
  },
};

/** Documents error answers of a route or controller with the spec's error body and an example that fits each status. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, type: ErrorBodyView, description: MEANING[status], example: ERROR_EXAMPLES[status] })));
