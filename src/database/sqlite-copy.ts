import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

export const IN_MEMORY = ':memory:';

/** The file of a database path, or null for an in-memory database. */
export function databaseFile(dbPath: string): string | null {
  return dbPath === IN_MEMORY || dbPath === '' ? null : resolve(dbPath);
}

export function backupsFolder(dbFile: string): string {
  return join(dirname(dbFile), 'backups');
}

/** `YYYYMMDD-HHMMSS` in UTC, the prefix of every backup file name (SPEC 3.1, 3.2). */
export function stamp(date: Date): string {
  const iso = date.toISOString(); // 2026-11-30T08:55:22.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/**
 * A consistent copy of a database file through a separate read-only connection (`VACUUM INTO`):
 * it reads one snapshot, so writers on other connections neither disturb it nor are blocked by it.
 */
export function copyDatabaseFile(source: string, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
}

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/** The copy of `copyDatabaseFile`, run in a worker thread so that the hub keeps answering meanwhile. */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.source, { readonly: true, fileMustExist: true });
try { db.prepare('VACUUM INTO ?').run(workerData.target); } finally { db.close(); }
parentPort.postMessage('done');
`;

export function copyDatabaseFileInBackground(source: string, target: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { driver: DRIVER, source, target } });
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the copy stopped with code ${code}`))));
  });
}
