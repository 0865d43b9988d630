import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { DataSource, QueryRunner } from 'typeorm';
import { HubDataSource } from './engine-schema.js';
import { ConfigError, fileSystemReason } from '../common/index.js';
import { sqliteOptions } from './data-source.js';
import { notSqliteReason, sqliteRefusal } from './database-file.js';
import { migrate, MIGRATIONS_TABLE } from './migrate.js';
import { QUEUE_LOCK_KEY, WRITE_LOCK_KEY } from './postgres.js';
import { snapshotDatabaseFile } from './sqlite-snapshot.js';
import { join as joinSql, list, one, raw, run, sql } from './sql.js';

/**
 * The tables' base order: these first, the rest by name; each table then moves after the tables its
 * foreign keys name in the source (tablesOf), so a table added later (delivery, command_change) needs no entry here.
 */
const FIRST = ['setting', 'issue', 'issue_link', 'issue_note', 'batch', 'command', 'sync_run', 'agent_status'];
/** Rows a freshly migrated, empty hub database holds. */
const SEEDED = new Set(['setting', 'agent_status']);
const ROWS_PER_INSERT = 500;

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

/** `file` is a SQLite database: a regular file that starts with SQLite's header (an empty one would be read as a new, empty hub). */
export function assertSqliteFile(file: string): void {
  if (!existsSync(file)) throw new ConfigError(`${file}: нет такого файла базы SQLite`);
  let problem: string | undefined;
  try {
    problem = notSqliteReason(file, false);
    // Read as the copy will read it (snapshotDatabaseFile: nothing is left beside the file), into a folder of its own.
    if (!problem) withSnapshot(file, (copy) => withDatabase(copy, (db) => db.prepare('SELECT count(*) FROM sqlite_master').get()));
  } catch (err) {
    throw unreadable(file, err);
  }
  if (problem) throw new ConfigError(`${problem}; укажите файл базы SQLite хаба (обычно data/hub.sqlite)`);
}

/** Why the SQLite file to copy from cannot be read, for a person (SQLite's other failures as sqliteRefusal says them; a bug stays one). */
function unreadable(file: string, err: unknown): unknown {
  const code = String((err as { code?: unknown })?.code ?? '');
  if (code === 'SQLITE_READONLY_DIRECTORY') {
    return new ConfigError(`файл базы SQLite ${file} в режиме WAL, а в его папку ${dirname(file)} не записать (SQLite создаёт рядом ${basename(file)}-shm даже для чтения): скопируйте файл в папку, куда можно писать, и переносите копию`);
  }
  if (/^E[A-Z0-9]+$/.test(code)) return new ConfigError(`файл базы SQLite ${file} не прочитать: ${fileSystemReason(err, 'read')}`);
  return sqliteRefusal(file, err) ?? err;
}

/**
 * `jira-hub migrate --from-sqlite <file>`: copies a SQLite hub into an empty PostgreSQL database
 * (issue 13). The file itself is never changed, nor anything made beside it (decision 1440): a copy is
 * migrated to this hub's schema version first (any version, v1 included), then every table's rows go
 * over in one transaction under the write
 * lock — ids as they are, each id sequence set past its largest id — and the row counts of every table
 * are compared. A target holding any hub data is refused.
 */
export async function copyFromSqlite(file: string, target: DataSource): Promise<TableCount[]> {
  assertSqliteFile(file);
  const dir = mkdtempSync(join(tmpdir(), 'jira-hub-from-sqlite-'));
  try {
    const copy = join(dir, 'hub.sqlite');
    snapshotDatabaseFile(file, copy);
    await migrateFile(copy);
    // Tables the hub does not make (an operator's own) have nowhere to go: refused before the target is touched.
    const empty = join(dir, 'empty.sqlite');
    await migrateFile(empty);
    const source = new Database(copy, { readonly: true, fileMustExist: true });
    try {
      const hubTables = new Set(withDatabase(empty, tablesOf));
      const foreign = tablesOf(source).filter((t) => !hubTables.has(t));
      if (foreign.length) {
        throw new ConfigError(`в файле SQLite есть таблицы не хаба: ${foreign.join(', ')} — в PostgreSQL им места нет; перенесите их сами и удалите из копии файла, которую переносите`);
      }
      await migrate(target, { file: null });
      return await copyTables(source, target);
    } finally {
      source.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Brings the SQLite file at `file` (made when missing) to this hub's schema. */
async function migrateFile(file: string): Promise<void> {
  const ds = await new HubDataSource(sqliteOptions({ dbPath: file })).initialize();
  try {
    await migrate(ds, { file: null });
  } finally {
    await ds.destroy();
  }
}

/** `read` given a snapshot of `file` (snapshotDatabaseFile) in a temporary folder, removed after. */
function withSnapshot<T>(file: string, read: (copy: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'jira-hub-from-sqlite-'));
  try {
    const copy = join(dir, 'hub.sqlite');
    snapshotDatabaseFile(file, copy);
    return read(copy);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function withDatabase<T>(file: string, read: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * The tables to copy. SQLite's full-text index (the FTS5 virtual table `issue_fts` and its shadow
 * tables) has no rows of its own to copy: PostgreSQL's search column is generated from each issue.
 */
function tablesOf(source: Database.Database): string[] {
  const all = source.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string; sql: string | null }[];
  const virtual = all.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? '')).map((t) => t.name);
  const names = all
    .map((r) => r.name)
    .filter((n) => n !== MIGRATIONS_TABLE && !virtual.some((v) => n === v || n.startsWith(`${v}_`)));
  const base = [...FIRST.filter((t) => names.includes(t)), ...names.filter((t) => !FIRST.includes(t)).sort()];
  const refers = new Map(
    base.map((t) => {
      const fks = source.prepare(`SELECT "table" AS ref FROM pragma_foreign_key_list(?)`).all(t) as { ref: string }[];
      return [t, new Set(fks.map((f) => f.ref).filter((r) => r !== t && base.includes(r)))];
    }),
  );
  // The base order, each table only once every table it refers to is placed (PostgreSQL checks each row's keys as it is inserted).
  const ordered: string[] = [];
  while (ordered.length < base.length) {
    const next = base.find((t) => !ordered.includes(t) && [...refers.get(t)!].every((r) => ordered.includes(r)));
    if (next === undefined) throw new Error(`from-sqlite: the foreign keys of ${base.filter((t) => !ordered.includes(t)).join(', ')} form a cycle`);
    ordered.push(next);
  }
  return ordered;
}

async function count(q: QueryRunner, table: string): Promise<number> {
  const [row]: { n: number }[] = await q.query(`SELECT count(*) AS n FROM "${table}"`);
  return Number(row.n);
}

async function refuseNonEmpty(q: QueryRunner, tables: string[]): Promise<void> {
  for (const table of tables) {
    if (!(await q.hasTable(table))) continue;
    const n = SEEDED.has(table)
      ? Number((await q.query(table === 'setting' ? `SELECT count(*) AS n FROM setting WHERE key <> 'schema_version'` : `SELECT count(*) AS n FROM agent_status WHERE last_seen_at IS NOT NULL`))[0].n)
      : await count(q, table);
    if (n > 0) throw new ConfigError(`целевая база PostgreSQL не пуста (в таблице ${table} есть строки); укажите пустую базу`);
  }
}

async function copyTables(source: Database.Database, target: DataSource): Promise<TableCount[]> {
  const tables = tablesOf(source);
  const q = target.createQueryRunner();
  try {
    await q.query('BEGIN');
    // Both writers' locks: no unit of any replica writes meanwhile (decision 1202).
    await run(q.manager, sql`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY}), pg_advisory_xact_lock(${QUEUE_LOCK_KEY})`);
    await refuseNonEmpty(q, tables);
    for (const table of tables) {
      if (!(await q.hasTable(table))) throw new Error(`table ${table} of the SQLite database has no counterpart in PostgreSQL`); // refused before (copyFromSqlite)
      if (SEEDED.has(table)) await q.query(`DELETE FROM "${table}"`);
      const rows = source.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
      if (rows.length === 0) continue;
      const columns = Object.keys(rows[0]);
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const part = rows.slice(i, i + ROWS_PER_INSERT);
        const values = joinSql(part.map((r) => sql`(${list(columns.map((c) => r[c]))})`), ', ');
        // issue_label rows are made by the trigger as each issue comes over; the copy only checks them (the counts).
        const derived = raw(table === 'issue_label' ? ' ON CONFLICT DO NOTHING' : '');
        await run(q.manager, sql`INSERT INTO ${raw(`"${table}"`)} (${raw(columns.map((c) => `"${c}"`).join(', '))}) VALUES ${values}${derived}`);
      }
      if (columns.includes('id')) {
        const seq = await one<{ s: string | null }>(q.manager, sql`SELECT pg_get_serial_sequence(${table}, 'id') AS s`);
        if (seq?.s) await run(q.manager, sql`SELECT setval(${seq.s}, (SELECT coalesce(max(id), 0) + 1 FROM ${raw(`"${table}"`)}), false)`);
      }
    }
    const counts: TableCount[] = [];
    for (const table of tables) {
      const sourceRows = (source.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
      counts.push({ table, source: sourceRows, target: await count(q, table) });
    }
    const wrong = counts.filter((c) => c.source !== c.target);
    if (wrong.length) throw new Error(`row counts differ after the copy: ${wrong.map((c) => `${c.table} ${c.source} → ${c.target}`).join(', ')}`);
    await q.query('COMMIT');
    return counts;
  } catch (err) {
    await q.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await q.release();
  }
}
