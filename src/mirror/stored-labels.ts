import { parseJson, type StoredJson } from '../database/index.js';

/**
 * An issue's labels as stored: a JSON array of strings. A value that is not one (a v1 database edited by
 * hand held `a,b`) reads as no labels, as the search migration's label index already reads it, instead of
 * failing every read of that issue.
 */
export function storedLabels(stored: StoredJson | null | undefined): string[] {
  let value: unknown;
  try {
    value = parseJson<unknown>(stored, []);
  } catch {
    return [];
  }
  return Array.isArray(value) ? value.filter((l): l is string => typeof l === 'string') : [];
}
