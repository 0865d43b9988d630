import type { DataSource, DataSourceOptions } from 'typeorm';
import { HubDataSource } from './engine-schema.js';
import { ConfigError, type HubConfig } from '../common/index.js';
import { DELIVERY_ENTITIES } from '../delivery/entities.js';
import { CATALOGUE_ENTITIES } from '../catalogue/entities.js';
import { MIRROR_ENTITIES } from '../mirror/entities.js';
import { PACKAGE_ENTITIES } from '../packages/entities.js';
import { QUEUE_ENTITIES } from '../queue/entities.js';
import { AUDIT_ENTITIES } from '../audit/entities.js';
import { SETTINGS_ENTITIES } from '../settings/entities.js';
import { migrate, type MigrateOptions, type MigrateResult } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { describeConnectFailure, postgresOptions, type PostgresDataSourceOptions, redactUrl, usePgDriver, withConnectionErrorListeners } from './postgres.js';
import { databaseFile, IN_MEMORY } from './sqlite-copy.js';
import { assertDatabaseFile, sqliteRefusal } from './database-file.js';

/**
 * Every table of the schema, registered by the module that owns it. The entities are the schema's source
 * of truth: columns, indexes, keys and checks as the migrations make them (test/schema.e2e-spec.ts).
 */
export const ENTITIES = [...SETTINGS_ENTITIES, ...MIRROR_ENTITIES, ...QUEUE_ENTITIES, ...DELIVERY_ENTITIES, ...CATALOGUE_ENTITIES, ...PACKAGE_ENTITIES, ...AUDIT_ENTITIES];

/** TypeORM's options of its `better-sqlite3` driver, as its index exports them (one member of the DataSourceOptions union). */
type BetterSqlite3DataSourceOptions = Extract<DataSourceOptions, { type: 'better-sqlite3' }>;

/** Milliseconds a statement waits for another process's write lock before giving up. */
export const BUSY_TIMEOUT_MS = 10_000;

/** PostgreSQL when HUB_DATABASE_URL is set, else the embedded SQLite store. */
export function dataSourceOptions(config: Pick<HubConfig, 'dbPath' | 'databaseUrl'>): BetterSqlite3DataSourceOptions | PostgresDataSourceOptions {
  if (config.databaseUrl) return { ...postgresOptions(config.databaseUrl), entities: ENTITIES, migrations: [...MIGRATIONS] };
  return sqliteOptions(config);
}

/**
 * The embedded SQLite store (better-sqlite3: TypeORM 1.x has no node-sqlite3 driver). WAL with
 * `synchronous=FULL`: a committed transaction is on disk before the hub answers 2xx (SPEC 3).
 * Never `synchronize`: the schema is the migrations' (database/migrate.ts). Options only: whoever opens
 * the hub's database checks its path first, once (assertDatabaseUsable: createApp, withHub, migrate).
 */
export function sqliteOptions(config: Pick<HubConfig, 'dbPath'>): BetterSqlite3DataSourceOptions {
  const file = databaseFile(config.dbPath);
  return {
    type: 'better-sqlite3',
    database: file ?? IN_MEMORY,
    entities: ENTITIES,
    migrations: [...MIGRATIONS],
    synchronize: false,
    migrationsRun: false,
    statementCacheSize: 200,
    timeout: BUSY_TIMEOUT_MS,
    prepareDatabase: (db) => {
      if (file) db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      // Unicode-aware lower() for case-insensitive search in Russian text (SQLite's own is ASCII only).
      db.function('hub_lower', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s) as string | null);
    },
  };
}

/**
 * Opens the data source (on PostgreSQL with the `pg` driver loaded now: usePgDriver). A PostgreSQL server that cannot be reached or refuses the hub stops the start
 * with one line naming the server (password hidden) and the reason: ConfigError, printed without a stack;
 * so does a SQLite file or disk that fails (full, an I/O error, not a database: sqliteRefusal).
 */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  if (options.type === 'postgres') options = { ...options, driver: withConnectionErrorListeners(await usePgDriver()) };
  try {
    return await new HubDataSource(options).initialize();
  } catch (err) {
    if (options.type === 'postgres') throw new ConfigError(describeConnectFailure(String(options.url), err));
    throw sqliteRefusal(String(options.database), err) ?? err;
  }
}

/**
 * The data source opened and brought to the current schema (`serve`'s module, `migrate`); closed again
 * when the migration fails, and a SQLite file or disk that fails there (a full disk) is one line too.
 */
export async function openMigrated(options: DataSourceOptions, logger?: MigrateOptions['logger']): Promise<{ ds: DataSource; result: MigrateResult }> {
  const ds = await openDataSource(options);
  const file = options.type === 'postgres' ? null : databaseFile(String(options.database));
  try {
    return { ds, result: await migrate(ds, { file, logger }) };
  } catch (err) {
    await ds.destroy().catch(() => undefined);
    throw (file && sqliteRefusal(file, err)) || err;
  }
}

/**
 * Before Nest starts (`serve`, `import`, the package commands), so that each failure is one line, not
 * that line after two logged Nest errors with stack traces (TypeOrmModule's and the ExceptionHandler's,
 * issue 21.9): the SQLite file's checks (assertDatabaseFile), or on PostgreSQL a server that cannot be
 * reached or refuses the hub (openDataSource's line; one connection, closed at once).
 */
export async function assertDatabaseUsable(config: Pick<HubConfig, 'dbPath' | 'databaseUrl'>, options: { existing?: boolean } = {}): Promise<void> {
  if (!config.databaseUrl) return assertDatabaseFile(config.dbPath);
  const client = new (await usePgDriver()).Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: postgresOptions(config.databaseUrl).connectTimeoutMS });
  client.on('error', () => undefined);
  try {
    try {
      await client.connect();
    } catch (err) {
      throw new ConfigError(describeConnectFailure(config.databaseUrl, err));
    }
    // `existing`: a command that works on a hub's data (import, plan, apply, export) makes no new hub in a
    // database or schema that holds none — a mistyped address, as a missing SQLite file is.
    if (options.existing && !(await client.query(`SELECT to_regclass('setting') IS NOT NULL AS hub`)).rows[0]?.hub) {
      throw new ConfigError(
        `в PostgreSQL ${redactUrl(config.databaseUrl)} нет базы хаба (в схеме из search_path нет его таблиц): укажите базу хаба (HUB_DATABASE_URL); новую базу создаёт jira-hub serve или jira-hub migrate`,
      );
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The database for a person: the file, `:memory: (временная)`, or the PostgreSQL URL without its password. */
export function databaseName(config: Pick<HubConfig, 'dbPath' | 'databaseUrl'>): string {
  if (config.databaseUrl) return redactUrl(config.databaseUrl);
  return databaseFile(config.dbPath) ?? ':memory: (временная)';
}
