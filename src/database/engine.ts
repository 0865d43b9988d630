import type { DataSource } from 'typeorm';

/**
 * The two database engines the hub runs on. Every statement is written once with the `sql` template
 * (sql.ts), which places its parameters in each engine's own syntax (`?` on SQLite, `$1, $2, …` on
 * PostgreSQL); where the engines' SQL differs, each runs its own (a repository per engine, or a branch
 * in one), and no SQLite function is emulated on PostgreSQL.
 */
export type Engine = 'sqlite' | 'postgres';

export function engineOf(ds: DataSource): Engine {
  return ds.options.type === 'postgres' ? 'postgres' : 'sqlite';
}
