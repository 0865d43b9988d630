import type { StoredJson } from '../common/index.js';

/**
 * Row types derived from entities (issue 9, scope 4): a raw SQL row has the entity's columns under their
 * database names. Every entity names its columns in snake_case of the property (`issueType` →
 * `issue_type`; test/schema.e2e-spec.ts checks it), so the row type is the entity with its keys
 * snake-cased and its relation properties (objects) left out — the shape of a table is written once.
 */
type SnakeCase<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}`
  : S;

type ColumnValue = string | number | boolean | null | StoredJson;
type ColumnKeys<E> = { [K in keyof E]-?: E[K] extends ColumnValue ? (K extends string ? K : never) : never }[keyof E];

/** The raw row of an entity's table: its columns (no relations) under their snake_case names. */
export type RowOf<E> = { [K in ColumnKeys<E> as SnakeCase<K>]: E[K] };

/** `issueType` → `issue_type`: the database name of a property. */
export const snakeCase = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
