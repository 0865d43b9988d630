import type { StoredJson } from '../common/index.js';

export type { StoredJson };

/** A JSON column's value (SPEC 3), as text or as the value the driver parsed from a `json` column; `fallback` for NULL or empty text. */
export function parseJson<T>(stored: StoredJson | null | undefined, fallback: T): T {
  if (stored === null || stored === undefined || stored === '') return fallback;
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as T;
}
