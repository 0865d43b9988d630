/** The database module's public surface: what other modules import of it. */
export { BackupService } from './backup.service.js';
export { assertDatabaseUsable, dataSourceOptions, databaseName, openDataSource, openMigrated } from './data-source.js';
export { DatabaseModule } from './database.module.js';
export { Db } from './db.service.js';
export { engineOf } from './engine.js';
export type { Engine } from './engine.js';
export { parseJson } from './json.js';
export type { StoredJson } from './json.js';
export { assertCurrentSchema, migrate } from './migrate.js';
export { SCHEMA_VERSION } from './migrations.js';
export { lockQueueOrder } from './postgres.js';
export { MAX_BROADCAST, Notifier } from './notifier.js';
export type { RowOf } from './row.js';
export { join, list, one, prepared, raw, rows, run, sql } from './sql.js';
export type { Sql } from './sql.js';
export { databaseFile } from './sqlite-copy.js';
export { REMOVED_MARKS } from './search-fold.js';

/** `jira-hub migrate --from-sqlite`: loaded on its first call, never at start. */
export async function copyFromSqlite(...args: Parameters<typeof import('./from-sqlite.js').copyFromSqlite>): ReturnType<typeof import('./from-sqlite.js').copyFromSqlite> {
  return (await import('./from-sqlite.js')).copyFromSqlite(...args);
}
/** Refuses what is not a SQLite database file, before `migrate --from-sqlite` connects to PostgreSQL. */
export async function assertSqliteFile(file: string): Promise<void> {
  (await import('./from-sqlite.js')).assertSqliteFile(file);
}
export type { TableCount } from './from-sqlite.js';
