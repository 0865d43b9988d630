import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';

export class FieldErrorView {
  @ApiProperty({ example: 'commands.0.params.key' }) field!: string;
  @ApiProperty({ example: 'нужен ключ Jira (ABC-123) или временный ключ (new:N)' }) detail!: string;
}

/** Every error answer (SPEC 11.1). */
export class ErrorBodyView {
  @ApiProperty({
    example: 'validation_failed',
    enum: ['unauthorized', 'forbidden', 'not_found', 'validation_failed', 'duplicate_summary', 'idempotency_mismatch', 'not_claimed', 'claimed', 'finished', 'conflict', 'payload_too_large', 'bad_json', 'internal'],
  })
  error!: string;
  @ApiProperty({ example: 'commands.0.params.key: нужен ключ Jira (ABC-123) или временный ключ (new:N)' }) detail!: string;
  @ApiPropertyOptional({ type: [FieldErrorView], description: 'one entry per field, for 422' }) errors?: FieldErrorView[];
}

const MEANING: Record<number, string> = {
  400: 'bad_json: the body is not JSON',
  401: 'unauthorized: no token, or a wrong one',
  403: "forbidden: the other role's token",
  404: 'not_found',
  409: 'not_claimed, claimed, finished or conflict (see detail)',
  413: 'payload_too_large',
  422: 'validation_failed (or duplicate_summary, idempotency_mismatch for POST /batches); nothing was written',
};

/** Documents error answers of a route or controller with the spec's error body. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, type: ErrorBodyView, description: MEANING[status] })));
