import { afterAll } from '@jest/globals';
import pg from 'pg';
import type { DataSource, MigrationInterface } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { HubDataSource } from '../../src/database/engine-schema.js';
import { MIGRATIONS_TABLE } from '../../src/database/migrate.js';

/**
 * The e2e suites run on SQLite by default and on PostgreSQL when HUB_TEST_DATABASE_URL is set
 * (`npm run test:pg`). On PostgreSQL each SQLite file a test would use stands for a schema of its own
 * (`search_path` in the connection string): a hub restarted on the same HUB_DB_PATH finds its data
 * again, and every test file's schemas are dropped after its last test.
 */
export const TEST_DATABASE_URL = process.env.HUB_TEST_DATABASE_URL?.trim() || undefined;
export const onPostgres = TEST_DATABASE_URL !== undefined;

/** `it` on SQLite, `it.skip` on PostgreSQL: for what only a database file has (copies, v1 adoption, WAL). */
export const sqliteOnly = <T>(run: T, skip: T): T => (onPostgres ? skip : run);

/** Every schema made by this file, by the HUB_DB_PATH it stands for (or a unique name for fresh ones). */
const schemas = new Map<string, Promise<string>>();
let made = 0;

/** One statement on the test server, on a connection of its own (a restart of the server in a test must not break the next one). */
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A connection string whose connections use `schema`. */
export function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

function createSchema(key: string): Promise<string> {
  const schema = `hub_test_${process.pid}_${Date.now().toString(36)}_${++made}`;
  const created = admin(`CREATE SCHEMA ${schema}`).then(() => schema);
  schemas.set(key, created);
  return created;
}

/** A new empty schema on the test server; dropped after the file's tests. */
export async function freshSchema(): Promise<string> {
  return withSchema(TEST_DATABASE_URL!, await createSchema(`:fresh:${process.hrtime.bigint()}`));
}

/**
 * The hub's environment for a test: unchanged on SQLite; on PostgreSQL HUB_DATABASE_URL pointing at
 * the schema that stands for HUB_DB_PATH (a new one for `:memory:` or a path seen first).
 */
export async function testDatabaseEnv<E extends Record<string, string | undefined>>(env: E): Promise<E> {
  if (!onPostgres || 'HUB_DATABASE_URL' in env) return env; // given (empty: SQLite, whatever the run)
  const path = env.HUB_DB_PATH;
  const key = path && path !== ":memory:" ? path : `:memory:${process.hrtime.bigint()}`;
  const schema = await (schemas.get(key) ?? createSchema(key));
  return { ...env, HUB_DATABASE_URL: withSchema(TEST_DATABASE_URL!, schema) };
}

/** The databases made by this file (icuDatabase), dropped after its tests. */
const databases = new Set<string>();

/**
 * A new database on the test server whose default collation is ICU's (`en-US`): there lower(), the order of
 * text and the character classes of regular expressions follow ICU, not the C library. Null when the server
 * was built without ICU. Dropped after the file's tests.
 */
export async function icuDatabase(): Promise<string | null> {
  const name = `hub_test_icu_${process.pid}_${Date.now().toString(36)}_${++made}`;
  try {
    await admin(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`);
  } catch (err) {
    if (/ICU is not supported/i.test(String(err))) return null;
    throw err;
  }
  databases.add(name);
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  for (const name of databases) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  databases.clear();
  if (schemas.size === 0) return;
  const all = new Set(await Promise.all(schemas.values()));
  // One schema a statement: dropping a file's every schema at once takes a lock per table and index of each
  // in one transaction, and a file with many tests runs out of the server's lock table ("out of shared memory").
  for (const schema of all) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  schemas.clear();
});

/** The hub's data source on the PostgreSQL database at `url`, for a test reaching past the hub (the caller destroys it). */
export function dataSourceOn(url: string): Promise<DataSource> {
  return new HubDataSource(dataSourceOptions({ dbPath: '', databaseUrl: url })).initialize();
}

/** Undoes `migration` on `ds` (its down(), and TypeORM's record of it): the database as the version before it left it. */
export async function undoMigration(ds: DataSource, migration: { new (): MigrationInterface; name: string }): Promise<void> {
  const q = ds.createQueryRunner();
  try {
    await new migration().down(q);
  } finally {
    await q.release();
  }
  await ds.query(`DELETE FROM ${MIGRATIONS_TABLE} WHERE name = $1`, [migration.name]);
}
