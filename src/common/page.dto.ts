import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { decimalInteger } from './integers.js';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * A query parameter read as an integer only when written in decimal digits (a sign at most): `0x1`,
 * `1e0`, `1.0` and ` 1` stay text, which `@IsInt()` refuses with 422 naming the parameter, as the
 * HUB_* variables refuse them (decision 1407). For every integer of a query DTO, instead of
 * class-transformer's `@Type(() => Number)`, whose Number() takes them all.
 */
export const QueryInteger = (): PropertyDecorator => Transform(({ value }) => decimalInteger(value));

/** Newest-first paging of lists keyed by id: `limit` rows with an id below `before_id`. */
export class PageQuery {
  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 500 })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional({ description: 'only rows with a smaller id (the next page)', minimum: 1, maximum: 2147483647 })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(2147483647) // MAX_INTEGER (common/integers.ts), written out for the OpenAPI metadata
  before_id?: number;
}

/**
 * The query of a route that takes no parameters (`GET /notes`): any parameter is refused with 422 as an
 * unknown field, as on every route with a query (`GET /notes?limit=10` would otherwise answer every
 * note as if the limit held, and `POST /batches?dry_run=true` would make the batch).
 */
export class NoQuery {}

/**
 * The body of a route that takes none (`POST /batches/1/cancel`): none or `{}` is taken, any field is refused
 * with 422 as an unknown field (`POST /batches/1/revert {"dry_run": true}` would otherwise make the revert).
 */
export class NoBody {}
