import Database from 'better-sqlite3';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { copiesAreOf } from './copy-identity.js';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

export const IN_MEMORY = ':memory:';

/** The file of a database path, or null for an in-memory database. */
export function databaseFile(dbPath: string): string | null {
  return dbPath === IN_MEMORY || dbPath === '' ? null : resolve(dbPath);
}

/** In a backups folder: the file name of the database whose copies lie directly in it (decision 1420). */
const BACKUPS_OWNER = '.owner';

/**
 * The folder of a file database's copies (SPEC 3.1, 3.2): `<database folder>/backups`. Two databases
 * in one folder would share it: each would take the other's copy of a batch with the same id for its
 * own, and rotation would delete the other's copies. So the folder belongs to the first database that
 * copies into it (its file name in `backups/.owner`), and any other database of that folder keeps its
 * copies in `backups/<its file name>/`. A folder that already holds copies of another database but
 * names no owner (copies made before owners were recorded) is given an empty `.owner`: those copies
 * stay where they are, never rotated, and every database copies into its own sub-folder.
 * `claim` (before a copy is written): make the folder and take it when no database has; a folder that
 * cannot be written fails here as the copy itself would.
 */
export function backupsFolder(dbFile: string, claim = false): string {
  const root = join(dirname(dbFile), 'backups');
  const name = basename(dbFile);
  const marker = join(root, BACKUPS_OWNER);
  if (claim) {
    mkdirSync(root, { recursive: true });
    if (!existsSync(marker)) takeFolder(marker, copiesAreOf(dbFile, root) ? `${name}\n` : '');
  }
  let owner: string;
  try {
    owner = readFileSync(marker, 'utf8').trim();
  } catch (err) {
    // Only a marker that is not there means "no owner yet"; one that cannot be read fails the copy (and is
    // warned about) rather than letting this database rotate another's copies.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    // No owner yet (a re-delivery right after an upgrade looks before any copy claims the folder): copies
    // already there are this database's only when they are copies of it.
    return existsSync(root) && !copiesAreOf(dbFile, root) ? join(root, name) : root;
  }
  return owner === name ? root : join(root, name);
}

/**
 * Writes the owner marker whole or not at all: written aside, then linked into place, so another hub
 * starting at the same moment never reads it half-made (an empty marker means "another database's").
 */
function takeFolder(marker: string, content: string): void {
  const aside = `${marker}.${process.pid}.${Date.now()}`;
  writeFileSync(aside, content);
  try {
    linkSync(aside, marker);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** `YYYYMMDD-HHMMSS` in UTC, the prefix of every backup file name (SPEC 3.1, 3.2). */
export function stamp(date: Date): string {
  const iso = date.toISOString(); // 2026-11-30T08:55:22.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/**
 * Where a copy is written before it gets its name: a copy that fails half-way (a full disk) must
 * leave nothing under a copy's name, which rotation would count and which would open as an empty
 * database (SPEC 3.2). The suffix keeps it out of the backup name patterns; one left by a crash is
 * swept by the next rotation (BackupService).
 */
export function partialName(target: string): string {
  return `${target}.partial`;
}

/** Renames a finished partial copy to its name; a failed one is removed. */
function settle(target: string, error: unknown): void {
  if (error === undefined) return renameSync(partialName(target), target);
  rmSync(partialName(target), { force: true });
  throw error;
}

/**
 * A consistent copy of a database file through a separate read-only connection (`VACUUM INTO`):
 * it reads one snapshot, so writers on other connections neither disturb it nor are blocked by it.
 * Written under a partial name and renamed when whole.
 */
export function copyDatabaseFile(source: string, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  let error: unknown;
  try {
    const db = new Database(source, { readonly: true, fileMustExist: true });
    try {
      db.prepare('VACUUM INTO ?').run(partialName(target));
    } finally {
      db.close();
    }
  } catch (err) {
    error = err;
  }
  settle(target, error);
}

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * The copies of `copyDatabaseFile`, run in a worker thread so that the hub keeps answering meanwhile:
 * one thread for the process, started at the first copy and kept for the next ones (a new thread
 * per copy cost ~50 ms of CPU to boot and to load the driver, more than the copy of a small
 * database). It holds the process open only while a copy is under way. The worker answers with the
 * failure's text: an error thrown across the thread boundary arrives as a plain object (which logs as
 * `[object Object]`).
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
parentPort.on('message', ({ id, source, target }) => {
  try {
    const db = new Database(source, { readonly: true, fileMustExist: true });
    try { db.prepare('VACUUM INTO ?').run(target); } finally { db.close(); }
    parentPort.postMessage({ id, ok: true });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, message: String(err && err.message || err), code: err && err.code });
  }
});
`;

/** Why a copy failed, with SQLite's or the system's code when there is one (SQLITE_FULL, ENOSPC). */
export class CopyError extends Error {}

interface Pending {
  resolve: () => void;
  reject: (err: CopyError) => void;
}

/** The copy thread and the copies it has been asked for, by id. */
class CopyThread {
  private worker: Worker | undefined;
  private lastId = 0;
  private readonly pending = new Map<number, Pending>();

  copy(source: string, target: string): Promise<void> {
    const worker = this.worker ?? this.start();
    const id = ++this.lastId;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref(); // a copy under way keeps the process (a CLI command awaiting its backup) alive
      worker.postMessage({ id, source, target });
    });
  }

  private start(): Worker {
    const worker = new Worker(WORKER, { eval: true, workerData: { driver: DRIVER } });
    worker.on('message', (m: { id: number; ok: boolean; message?: string; code?: string }) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (m.ok) waiting?.resolve();
      else waiting?.reject(new CopyError(m.code ? `${m.message} (${m.code})` : String(m.message)));
    });
    // A thread that fails (the driver would not load) or ends fails the copies it had; the next copy starts another.
    const fail = (reason: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(new CopyError(reason));
      this.pending.clear();
    };
    worker.on('error', (err) => fail(err instanceof Error ? err.message : JSON.stringify(err)));
    worker.on('exit', (code) => fail(`the copy stopped with code ${code}`));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

const copyThread = new CopyThread();

function copyInWorker(source: string, target: string): Promise<void> {
  return copyThread.copy(source, target);
}

export async function copyDatabaseFileInBackground(source: string, target: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  let error: unknown;
  await copyInWorker(source, partialName(target)).catch((err: unknown) => (error = err));
  settle(target, error);
}
