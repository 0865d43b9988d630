/**
 * A consistent copy of a SQLite database that someone else owns (`migrate --from-sqlite`), made without
 * leaving anything beside it (decision 1440).
 */
import { closeSync, copyFileSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { ConfigError } from '../common/index.js';
import { copyDatabaseFile } from './sqlite-copy.js';

/** Raw copies tried before giving up on a file that keeps changing. */
const ATTEMPTS = 3;

/** Bytes 18 and 19 of the header (file format write and read versions) are 2 in WAL mode. */
function inWalMode(file: string): boolean {
  const head = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return head[18] === 2 && head[19] === 2;
}

/** A file as it is on disk (identity, size, times to the nanosecond), or `-` when there is none. */
function state(file: string): string {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : '-';
}

/**
 * Copies the database `source` to `target` (whose folder exists; `target` and `target-wal` are replaced).
 *
 * SQLite opens a WAL-mode file, even read-only, through its `-wal` and `-shm` files, and makes them when they
 * are missing; a read-only connection cannot remove them when it closes, so reading a stopped hub's file
 * would leave two empty files beside it. URI options that avoid them (`immutable=1`, `nolock=1`) are off in
 * better-sqlite3's build (SQLITE_USE_URI=0, switched on only for a whole process by an environment variable).
 * - Not in WAL mode, or both files there (a running hub's, or a crashed one's): a read-only connection
 *   (VACUUM INTO) uses what is there, makes nothing, and reads one snapshot while a hub writes.
 * - Otherwise no connection has the file open in WAL mode: the file (and a `-wal` left without its `-shm`) is
 *   copied as bytes, and the copy is kept only if nothing of the three files changed meanwhile — a hub that
 *   started during the copy writes to its new `-wal`, which is seen; then the copy is made again, by the first
 *   way now that the files are there.
 */
export function snapshotDatabaseFile(source: string, target: string): void {
  const wal = `${source}-wal`;
  const shm = `${source}-shm`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (!inWalMode(source) || (existsSync(wal) && existsSync(shm))) return copyDatabaseFile(source, target);
    const before = [state(source), state(wal), state(shm)];
    rmSync(`${target}-wal`, { force: true });
    copyFileSync(source, target);
    if (before[1] !== '-') copyFileSync(wal, `${target}-wal`);
    if ([state(source), state(wal), state(shm)].join() === before.join()) return;
  }
  rmSync(target, { force: true });
  rmSync(`${target}-wal`, { force: true });
  throw new ConfigError(`файл базы SQLite ${source} менялся всё время, пока его копировали (${ATTEMPTS} раза): остановите хаб, который с ним работает, и повторите`);
}
