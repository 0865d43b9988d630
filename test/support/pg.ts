import { afterAll } from '@jest/globals';
import pg from 'pg';

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

const schemas = new Map<string, string>();
let admin: pg.Client | undefined;

async function adminClient(): Promise<pg.Client> {
  if (!admin) {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  }
  return admin;
}

/** A connection string whose connections use `schema`. */
export function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** A new empty schema on the test server; dropped after the file's tests. */
export async function freshSchema(): Promise<string> {
  const schema = `hub_test_${process.pid}_${Date.now().toString(36)}_${schemas.size}`;
  await (await adminClient()).query(`CREATE SCHEMA ${schema}`);
  schemas.set(`:fresh:${schema}`, schema);
  return withSchema(TEST_DATABASE_URL!, schema);
}

/**
 * The hub's environment for a test: unchanged on SQLite; on PostgreSQL HUB_DATABASE_URL pointing at
 * the schema that stands for HUB_DB_PATH (a new one for `:memory:` or a path seen first).
 */
export async function testDatabaseEnv<E extends Record<string, string | undefined>>(env: E): Promise<E> {
  if (!onPostgres || env.HUB_DATABASE_URL) return env;
  const path = env.HUB_DB_PATH;
  if (path && path !== ':memory:' && schemas.has(path)) return { ...env, HUB_DATABASE_URL: withSchema(TEST_DATABASE_URL!, schemas.get(path)!) };
  const url = await freshSchema();
  if (path && path !== ':memory:') schemas.set(path, new URL(url).searchParams.get('options')!.split('=')[1]);
  return { ...env, HUB_DATABASE_URL: url };
}

afterAll(async () => {
  if (!admin) return;
  for (const schema of new Set(schemas.values())) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
  admin = undefined;
});
