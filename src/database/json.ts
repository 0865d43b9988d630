/**
 * A JSON column as read back: JSON text on SQLite (and in TEXT columns on PostgreSQL), the parsed value
 * where PostgreSQL stores `jsonb` (`command.params`, `command.result`: the pg driver parses jsonb).
 * Writes always pass JSON text; both engines store it as their column's type.
 */
export type StoredJson = string | { readonly [key: string]: unknown } | readonly unknown[];

/** A JSON column's value (SPEC 3), as text or as the driver's parsed jsonb; `fallback` for NULL or empty text. */
export function parseJson<T>(stored: StoredJson | null | undefined, fallback: T): T {
  if (stored === null || stored === undefined || stored === '') return fallback;
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as T;
}
