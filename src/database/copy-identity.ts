/**
 * Whose copies a backups folder holds when it names no owner (decision 1420): the first batch of a copy
 * and of the database itself, each read as a whole database file (as `migrate --from-sqlite` reads one),
 * outside the hub's repositories.
 */
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A batch or schema copy (SPEC 3.1, 3.2), by its name. */
const COPY_NAME = /^\d{8}-\d{6}-(batch-\d+|schema-v\d+)\.sqlite$/;

/** The first batch of a database file (id, time, title), or null when it has none; read-only. */
function firstBatch(file: string): string | null {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT id, created_at, title FROM batch ORDER BY id LIMIT 1').get();
    return row === undefined ? null : JSON.stringify(row);
  } finally {
    db.close();
  }
}

/**
 * Whether the copies already in a folder that names no owner (made before owners were recorded) are
 * copies of this database: the newest of them starts with the same first batch. A copy that cannot be
 * read is taken for another database's, whose files must not be rotated away.
 */
export function copiesAreOf(dbFile: string, root: string): boolean {
  const copies = readdirSync(root).filter((n) => COPY_NAME.test(n)).sort();
  if (copies.length === 0) return true;
  try {
    return firstBatch(join(root, copies[copies.length - 1])) === firstBatch(dbFile);
  } catch {
    return false;
  }
}
