import type { EntityManager } from 'typeorm';
import { engineOf, type Engine } from './engine.js';

/**
 * SQL written once as a template and placed natively for each engine: every `${value}` becomes a
 * parameter in the engine's own syntax (`?` on SQLite, `$1, $2, …` on PostgreSQL), so no query
 * runner rewrites statements. A value that is itself `Sql` (another `sql` template, `raw`, `list`,
 * `join`) is inlined with its own parameters, numbered in order.
 *
 *   await rows<CommandRow>(m, sql`SELECT * FROM command WHERE batch_id = ${id} AND status IN (${list(statuses)})`);
 */
export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
    /** PostgreSQL: run as a named prepared statement (`prepared`) */
    readonly prepare = false,
  ) {}

  /** The statement text and its parameters for `engine`. */
  render(engine: Engine): { text: string; params: unknown[] } {
    const params: unknown[] = [];
    const text = this.write(engine, params);
    return { text, params };
  }

  private write(engine: Engine, params: unknown[]): string {
    let text = this.strings[0];
    for (let i = 0; i < this.values.length; i++) {
      const value = this.values[i];
      if (value instanceof Sql) text += value.write(engine, params);
      else {
        params.push(value);
        text += engine === 'postgres' ? `$${params.length}` : '?';
      }
      text += this.strings[i + 1];
    }
    return text;
  }
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings, values);
}

/** Text inlined as it is: identifiers and keywords chosen by code, never a value from outside. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

/** `a, b, c` as parameters, for `IN (…)`. An empty list is `NULL`, so `IN (NULL)` matches nothing. */
export function list(values: readonly unknown[]): Sql {
  if (!values.length) return raw('NULL');
  return new Sql(['', ...values.slice(1).map(() => ', '), ''], values);
}

/** Fragments joined by `separator` (`, `, ` AND `, …). */
export function join(parts: readonly Sql[], separator: string): Sql {
  if (!parts.length) return raw('');
  return new Sql(['', ...parts.slice(1).map(() => separator), ''], parts);
}

/**
 * PostgreSQL: `statement` prepared once per connection and then only bound and run, for the statements of
 * every agent call. Planning a statement of many parts costs more than running it (the merged call's
 * report took less than half as long prepared, decision 1201). Only for statements whose text is one of a few
 * shapes — each distinct text is a prepared statement on every pooled connection — and whose best plan
 * does not depend on the values (PostgreSQL may switch to a generic plan after five runs). SQLite: as is.
 */
export function prepared(statement: Sql): Sql {
  return new Sql(statement.strings, statement.values, true);
}

/** The name of each prepared text; past the bound a text runs unprepared (no connection collects statements without end). */
const preparedNames = new Map<string, string>();
const MAX_PREPARED = 64;

function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED) preparedNames.set(text, (name = `hub_${preparedNames.size + 1}`));
  return name;
}

interface Outcome {
  records?: unknown[];
  affected?: number;
}

/** The pg driver's client under a PostgreSQL query runner (TypeORM's `connect()`): its query with a named statement. */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * Runs a statement on the manager's query runner (the unit of work's connection) and answers TypeORM's
 * structured result, which has the same shape on both drivers: the rows, and how many rows changed.
 */
async function execute(m: EntityManager, statement: Sql): Promise<Outcome> {
  const engine = engineOf(m.connection);
  const { text, params } = statement.render(engine);
  const name = statement.prepare && engine === 'postgres' && m.queryRunner ? preparedName(text) : undefined;
  if (name) {
    const found = await ((await m.queryRunner!.connect()) as PgClient).query({ name, text, values: params });
    return { records: found.rows, affected: found.rowCount ?? 0 };
  }
  if (m.queryRunner) return (await m.queryRunner.query(text, params, true)) as Outcome;
  const runner = m.connection.createQueryRunner();
  try {
    return (await runner.query(text, params, true)) as Outcome;
  } finally {
    await runner.release();
  }
}

/** The statement's rows (a SELECT, or a write with RETURNING), the same shape on both engines. */
export async function rows<T>(m: EntityManager, statement: Sql): Promise<T[]> {
  return ((await execute(m, statement)).records ?? []) as T[];
}

/** The first row, or undefined. */
export async function one<T>(m: EntityManager, statement: Sql): Promise<T | undefined> {
  return (await rows<T>(m, statement))[0];
}

/** Runs a write without RETURNING; answers how many rows it changed. */
export async function run(m: EntityManager, statement: Sql): Promise<number> {
  return (await execute(m, statement)).affected ?? 0;
}

