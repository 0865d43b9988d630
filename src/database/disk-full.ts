import { statfsSync } from 'node:fs';
import { UnavailableError } from '../common/index.js';

/** What a client hears when a write found the database's disk full: it may repeat the request once there is room. */
export const DISK_FULL_DETAIL = 'на диске базы данных хаба не осталось места: изменение не сохранено; освободите место и повторите запрос';

/**
 * A write that failed because the database's disk is full: SQLite's SQLITE_FULL, an I/O error of SQLite
 * while `folder` (the database file's) has no free block left (the WAL or its shared-memory file could
 * not grow), or PostgreSQL's 53100 disk_full. TypeORM's QueryFailedError carries the driver's error.
 */
export function isDiskFull(err: unknown, folder?: string): boolean {
  const codes = [err, (err as { driverError?: unknown } | null)?.driverError].map((e) => (e as { code?: unknown } | null)?.code).filter((c): c is string => typeof c === 'string');
  if (codes.some((c) => c.startsWith('SQLITE_FULL') || c === '53100')) return true;
  return folder !== undefined && codes.some((c) => c.startsWith('SQLITE_IOERR')) && noFreeBlocks(folder);
}

function noFreeBlocks(folder: string): boolean {
  try {
    return statfsSync(folder).bavail === 0;
  } catch {
    return false;
  }
}

/** What a client hears when another process held the SQLite file locked past the busy timeout. */
export const DATABASE_BUSY_DETAIL = 'база данных хаба занята другим процессом: изменение не сохранено; повторите запрос позже';

/** SQLite's SQLITE_BUSY (another process holds the file's lock past the busy timeout), on the error or its driver's. */
export function isBusy(err: unknown): boolean {
  return [err, (err as { driverError?: unknown } | null)?.driverError].some((e) => {
    const code = (e as { code?: unknown } | null)?.code;
    return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
  });
}

/**
 * The error a unit of work throws for `err`: 503 `unavailable` for a full disk or a database another
 * process keeps locked (the hub goes on; the same request succeeds later), else `err` itself.
 */
export function unavailableFor(err: unknown, folder?: string): unknown {
  if (isDiskFull(err, folder)) return new UnavailableError(DISK_FULL_DETAIL);
  return isBusy(err) ? new UnavailableError(DATABASE_BUSY_DETAIL) : err;
}
