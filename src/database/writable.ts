import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, makeFolder } from '../common/index.js';
import { databaseFile } from './sqlite-copy.js';

const READ_ONLY = new Set(['EACCES', 'EPERM', 'EROFS']);

function readOnly(err: unknown): boolean {
  return READ_ONLY.has((err as NodeJS.ErrnoException)?.code ?? '');
}

/**
 * Checked before the hub opens its database: SQLite writes the database, its WAL and its shared
 * memory file beside it, and backups under it, so a read-only folder (or database file) is refused
 * with one clear line instead of a driver's stack trace. A probe file is written rather than asking
 * access(2): that answers for the real user id, and says nothing of a read-only mount. The folder is
 * made a level at a time (makeFolder): under /proc a refusal, not Node 20's endless mkdir -p.
 */
export function assertWritableDatabase(dbPath: string): void {
  const file = databaseFile(dbPath);
  if (!file) return;
  const folder = dirname(file);
  makeFolder(folder, 'папку базы данных');
  try {
    const probe = join(folder, `.jira-hub-write-test-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    if (!readOnly(err)) throw err;
    throw new ConfigError(
      `папка базы данных ${folder} доступна только для чтения: хабу нужно писать в неё базу, её журнал и резервные копии (the database folder is read-only)`,
    );
  }
  try {
    closeSync(openSync(file, 'r+'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // a new database
    if (!readOnly(err)) throw err;
    throw new ConfigError(`файл базы данных ${file} доступен только для чтения: хабу нужно писать в него (the database file is read-only)`);
  }
}
