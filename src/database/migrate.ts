import { Logger } from '@nestjs/common';
import { join } from 'node:path';
import { DataSource, QueryRunner, Table } from 'typeorm';
import { ConfigError } from '../common/index.js';
import { engineOf } from './engine.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { createSearchFunctions, QUEUE_LOCK_KEY, WRITE_LOCK_KEY } from './postgres.js';
import { backupsFolder, copyDatabaseFile, stamp } from './sqlite-copy.js';
import { run, sql } from './sql.js';

export const MIGRATIONS_TABLE = 'migrations';

export interface MigrateOptions {
  /** The database file, or null for an in-memory database (never copied). */
  file: string | null;
  now?: () => Date;
  logger?: Pick<Logger, 'log'>;
}

export interface MigrateResult {
  from: number;
  to: number;
  applied: string[];
  adopted: string[];
  backup: string | null;
}

async function readSchemaVersion(q: QueryRunner): Promise<number> {
  if (!(await q.hasTable('setting'))) return 0;
  const rows: { value: string }[] = await q.query(`SELECT value FROM setting WHERE key = 'schema_version'`);
  if (!rows.length) return 0;
  const version = /^\d+$/.test(String(rows[0].value).trim()) ? Number(rows[0].value) : NaN;
  if (!Number.isSafeInteger(version)) {
    throw new ConfigError(`версия схемы в базе данных непонятна («${rows[0].value}»): это не база хаба или она повреждена`);
  }
  return version;
}

/**
 * A command that must not change the database (`plan`, `export`) refuses one whose schema is older than
 * this hub's, instead of migrating it in passing (with a schema copy in backups/) under a hub that may
 * still run the old version. One line, naming the versions and the command that migrates.
 */
export async function assertCurrentSchema(ds: DataSource, database: string, command: string): Promise<void> {
  const q = ds.createQueryRunner();
  let version: number;
  try {
    version = await readSchemaVersion(q);
  } finally {
    await q.release();
  }
  // 0: no hub's schema at all — the start's own checks refuse that in their words (another program's tables).
  if (version > 0 && version < SCHEMA_VERSION) {
    throw new ConfigError(`база данных ${database} — схемы v${version}, а этому хабу нужна v${SCHEMA_VERSION}; ${command} базу не меняет: сначала обновите её командой jira-hub migrate (или запустите хаб)`);
  }
}

/** The tables the first schema made: one of them in a database with no schema version is another program's. */
const FIRST_TABLES = ['setting', 'issue', 'issue_link', 'issue_note', 'batch', 'command', 'sync_run', 'agent_status'];

/**
 * A database with no schema version is new and empty; one that already holds a table of the hub's names
 * belongs to another program (or to a hub that failed in a way no migration made): refused in one line
 * instead of failing inside the first migration with the driver's words and a stack.
 */
async function refuseForeignTables(q: QueryRunner): Promise<void> {
  const found: string[] = [];
  for (const table of FIRST_TABLES) if (await q.hasTable(table)) found.push(table);
  if (found.length > 0) {
    throw new ConfigError(`в базе данных уже есть таблицы ${found.join(', ')}, но нет версии схемы хаба: это не база хаба; укажите файл базы хаба или новый файл (--db или HUB_DB_PATH)`);
  }
}

async function ensureMigrationsTable(q: QueryRunner): Promise<boolean> {
  if (await q.hasTable(MIGRATIONS_TABLE)) return false;
  // The same shape TypeORM's own migration executor uses, so its tooling reads our records.
  await q.createTable(
    new Table({
      name: MIGRATIONS_TABLE,
      columns: [
        { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        { name: 'timestamp', type: 'bigint', isNullable: false },
        { name: 'name', type: 'varchar', isNullable: false },
      ],
    }),
  );
  return true;
}

async function record(q: QueryRunner, name: string): Promise<void> {
  const timestamp = Number(name.slice(-13));
  await q.manager.createQueryBuilder().insert().into(MIGRATIONS_TABLE).values({ timestamp, name }).execute();
}

/**
 * Brings the database to SCHEMA_VERSION (SPEC 3.1). Everything happens under one write lock
 * (`BEGIN IMMEDIATE` on SQLite, a transaction-scoped advisory lock on PostgreSQL), and the version is
 * read inside it, so two processes starting on one database never both migrate: the second waits for
 * the first and then finds nothing to do. A SQLite database made by an earlier hub (a schema_version,
 * no migrations table) is adopted: the migrations up to its version are recorded as applied. An
 * existing file is copied to backups/ before its first change. PostgreSQL's DDL is transactional:
 * a failed migration leaves the schema as it was.
 */
export async function migrate(ds: DataSource, options: MigrateOptions): Promise<MigrateResult> {
  if (engineOf(ds) === 'postgres') return migratePostgres(ds, options);
  const q = ds.createQueryRunner();
  // A future migration that rebuilds a table (SQLite's way of altering) must not trip foreign keys; the pragma is a no-op inside a transaction.
  await q.query('PRAGMA foreign_keys = OFF');
  await q.query('BEGIN IMMEDIATE');
  try {
    const result = await migrateLocked(q, options, true);
    await q.query('COMMIT');
    return { ...result, to: await readSchemaVersion(q) };
  } catch (err) {
    await q.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await q.query('PRAGMA foreign_keys = ON');
  }
}

async function migratePostgres(ds: DataSource, options: MigrateOptions): Promise<MigrateResult> {
  const q = ds.createQueryRunner();
  try {
    await q.query('BEGIN');
    // A server open only for reading (a standby, default_transaction_read_only) would start a hub whose every write fails.
    const [readOnly] = (await q.query(`SELECT current_setting('transaction_read_only') AS on`)) as { on: string }[];
    if (readOnly?.on === 'on') throw Object.assign(new Error('the transaction is read-only'), { code: '25006' });
    // Both writers' locks: no unit of any replica writes meanwhile (decision 1202).
    await run(q.manager, sql`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY}), pg_advisory_xact_lock(${QUEUE_LOCK_KEY})`);
    await createSearchFunctions(q);
    const result = await migrateLocked(q, { ...options, file: null }, false);
    await q.query('COMMIT');
    return { ...result, to: await readSchemaVersion(q) };
  } catch (err) {
    await q.query('ROLLBACK').catch(() => undefined);
    throw schemaRefusal(err) ?? err;
  } finally {
    await q.release();
  }
}

/**
 * A PostgreSQL that will not hold the hub's tables, in one line for the operator (a ConfigError: exit 2,
 * no stack): no schema to create them in (the address's search_path names none that exists), a user
 * without the right to create in it or to replace the hub's functions, a server open only for reading
 * (a standby, default_transaction_read_only), or objects of someone else's (a view) on a column a migration
 * changes. Anything else: undefined.
 */
function schemaRefusal(err: unknown): ConfigError | undefined {
  type PgError = { code?: string; message?: string; detail?: string };
  const e = (err as { driverError?: PgError } | null)?.driverError ?? (err as PgError | null);
  if (e?.code === '3F000') {
    return new ConfigError('в PostgreSQL нет схемы для таблиц хаба: схемы из search_path в адресе (options=-c search_path=…) в базе нет — создайте её (CREATE SCHEMA) или уберите search_path из адреса');
  }
  if (e?.code === '42501') {
    // A new database (no tables yet), or a schema of an older hub to bring up to date (its tables and functions are its owner's).
    return new ConfigError(
      `пользователю PostgreSQL не хватает прав, чтобы создать или обновить схему хаба (${e.message ?? 'permission denied'}): один раз выполните jira-hub migrate владельцем базы (или выдайте этому пользователю CREATE на схему — GRANT CREATE ON SCHEMA …), после этого хаб запускается и под этим пользователем`,
    );
  }
  // A view (or rule) of the operator's on a hub table blocks a column change: PostgreSQL names it in `detail`.
  if (e?.code === '2BP01' || (e?.code === '0A000' && /view or rule/.test(e.message ?? ''))) {
    return new ConfigError(
      `схему хаба не обновить: от её таблиц зависят объекты, созданные не хабом (${e.detail ?? e.message}); удалите их (например, DROP VIEW …), запустите хаб или jira-hub migrate и создайте их снова — база не изменена`,
    );
  }
  if (e?.code === '25006') {
    return new ConfigError(
      `PostgreSQL по этому адресу открыт только для чтения (${e.message ?? 'read-only transaction'}): хабу нужно писать в базу — укажите основной сервер, а не реплику, и уберите default_transaction_read_only из адреса и настроек пользователя`,
    );
  }
  return undefined;
}

/** The migration itself, inside the caller's transaction and lock; `to` is filled in after the commit. */
async function migrateLocked(q: QueryRunner, options: MigrateOptions, adopt: boolean): Promise<MigrateResult> {
  const now = options.now ?? (() => new Date());
  const from = await readSchemaVersion(q);
  // A database made by a newer hub is not touched: its schema has changes this hub does not know. A
  // refusal (ConfigError): one line from main, also when it comes from inside Nest's start (decision 0108).
  if (from > SCHEMA_VERSION) {
    throw new ConfigError(`база данных создана более новой версией хаба (схема v${from}, этот хаб знает схемы до v${SCHEMA_VERSION}): обновите хаб`);
  }
  if (from === 0) await refuseForeignTables(q);
  const created = await ensureMigrationsTable(q);
  const adopted: string[] = [];
  if (created && adopt) {
    for (const m of MIGRATIONS.filter((m) => m.schemaVersion <= from)) {
      await record(q, m.name);
      adopted.push(m.name);
    }
  }
  const done = new Set((await q.query(`SELECT name FROM ${MIGRATIONS_TABLE}`)).map((r: { name: string }) => r.name));
  const pending = MIGRATIONS.filter((m) => !done.has(m.name));
  let backup: string | null = null;
  if (pending.length > 0 && options.file && from > 0) {
    backup = join(backupsFolder(options.file, true), `${stamp(now())}-schema-v${from}.sqlite`);
    copyDatabaseFile(options.file, backup);
    options.logger?.log(`copied schema v${from} database to ${backup} before migrating`);
  }
  for (const m of pending) {
    await new m().up(q);
    await record(q, m.name);
    options.logger?.log(`applied migration ${m.name}`);
  }
  return { from, to: from, applied: pending.map((m) => m.name), adopted, backup };
}
