/**
 * The largest integer a table column holds on both engines: PostgreSQL's `integer` (int4), the type of
 * every id, reference and counter column there (SQLite's INTEGER would hold 2^63−1). An id above it
 * cannot exist (IdPipe: 404, as for any missing id); an integer field of a body or a query above it is
 * refused by the validation pipe (422 naming the field). Decision 0104.
 *
 * The DTOs write it out as `@Max(2147483647)`: the OpenAPI metadata takes only literals.
 * test/integer-fields.e2e-spec.ts keeps every `@IsInt()` field of every DTO at or below it.
 */
export const MAX_INTEGER = 2_147_483_647;

/** Whole numbers as people write them: digits, a sign at most (Number() would also take 0x10, 1e3, 0b1, 1.0 and ' 1'). */
export const DECIMAL_INTEGER = /^[+-]?\d+$/;

/** A decimal integer written as text, as a number; anything else as it came (decision 1407). */
export function decimalInteger(value: unknown): unknown {
  return typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value;
}
