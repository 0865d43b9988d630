import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * The two database engines the hub runs on, and the few places where their SQL differs. The stores
 * write one SQL text with `?` placeholders (SQLite's); on PostgreSQL the query runners of `Db` rewrite
 * them to `$1, $2, …` (`positional`) — SQL written with the `sql` template (sql.ts) is placed natively
 * instead. Where the engines' SQL differs, each runs its own (no SQLite function is emulated on PostgreSQL).
 */
export type Engine = 'sqlite' | 'postgres';

export function engineOf(ds: DataSource): Engine {
  return ds.options.type === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * `?` → `$n` outside string literals, quoted identifiers and comments. A `$n` already there (TypeORM's
 * query builder) is left alone; the two are never mixed in one statement.
 */
export function positional(sql: string): string {
  if (!sql.includes('?')) return sql;
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      const end = closing(sql, i, ch);
      out += sql.slice(i, end);
      i = end - 1;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (ch === '?') {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  return out;
}

/** The index just past the quote that closes the one at `start` (a doubled quote is an escaped one). */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

/** Makes a PostgreSQL query runner accept the stores' `?` placeholders. */
export function acceptQuestionMarks(q: QueryRunner): QueryRunner {
  const query = q.query.bind(q);
  q.query = ((sql: string, params?: unknown[], structured?: boolean) => query(positional(sql), params, structured as true)) as QueryRunner['query'];
  return q;
}

/**
 * Runs an INSERT of one row into a table with an `id` key and returns the new id: better-sqlite3
 * answers an INSERT with its last row id, PostgreSQL with the rows of a RETURNING clause.
 */
export async function insertReturningId(m: EntityManager, sql: string, params: unknown[]): Promise<number> {
  if (engineOf(m.connection) === 'postgres') {
    const rows: { id: number }[] = await m.query(`${sql} RETURNING id`, params);
    return Number(rows[0].id);
  }
  return Number(await m.query(sql, params));
}

/**
 * The rows of an UPDATE … RETURNING: better-sqlite3 answers with the rows, TypeORM's PostgreSQL runner
 * with `[rows, affected]` for an UPDATE or DELETE.
 */
export async function updateReturning<T>(m: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const raw: unknown = await m.query(`${sql} RETURNING *`, params);
  return (engineOf(m.connection) === 'postgres' ? (raw as [T[], number])[0] : raw) as T[];
}
