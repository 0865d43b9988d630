/**
 * The SQLite database file a person names (HUB_DB_PATH, --db): checked before the hub opens it, and
 * SQLite's failures on it in words for a person. Each refusal is one Russian line naming the path
 * (ConfigError), not a driver's stack trace (decision 0108).
 */
import { closeSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, fileSystemReason, makeFolder } from '../common/index.js';
import { isDiskFull } from './disk-full.js';
import { databaseFile } from './sqlite-copy.js';

const READ_ONLY = new Set(['EACCES', 'EPERM', 'EROFS']);

function readOnly(err: unknown): boolean {
  return READ_ONLY.has((err as NodeJS.ErrnoException)?.code ?? '');
}

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Why what is at `file` cannot be a SQLite database, for a person; undefined when it can be or nothing is
 * there. `emptyIsNew`: an empty file is a new database, as SQLite takes it (the hub's own file); a file to
 * copy from must hold one.
 */
export function notSqliteReason(file: string, emptyIsNew: boolean): string | undefined {
  const found = statSync(file, { throwIfNoEntry: false });
  if (!found) return undefined;
  if (found.isDirectory()) return `${file} — папка, а не файл базы SQLite`;
  if (!found.isFile()) return `${file} — не обычный файл (устройство, канал или сокет), а базе SQLite нужен файл`;
  if (found.size === 0 && emptyIsNew) return undefined;
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return head.equals(SQLITE_HEADER) ? undefined : `${file} — не база SQLite (в начале файла нет заголовка «SQLite format 3»)`;
}

/**
 * Checked before the hub opens its database: the path is a SQLite file or nothing yet; its folder is made
 * (makeFolder: a level at a time, so /proc is a refusal, not a hang); SQLite writes the database, its WAL
 * and its shared memory file beside it, and backups under it, so a read-only folder (or database file) is
 * refused. A probe file is written rather than asking access(2): that answers for the real user id, and
 * says nothing of a read-only mount.
 */
export function assertDatabaseFile(dbPath: string): void {
  const file = databaseFile(dbPath);
  if (!file) return;
  // resolve() drops the slash: `--db data/` would make a database file named after the folder meant.
  if (dbPath.endsWith('/')) {
    throw new ConfigError(`${dbPath} — путь к папке (кончается на «/»), а нужен файл базы SQLite: укажите файл базы хаба (--db или HUB_DB_PATH), например ${join(file, 'hub.sqlite')}`);
  }
  const folder = dirname(file);
  let problem: string | undefined;
  try {
    problem = notSqliteReason(file, true);
  } catch (err) {
    problem = `файл базы данных ${file} не прочитать: ${fileSystemReason(err, 'read')}`;
  }
  if (problem) throw new ConfigError(`${problem}; укажите файл базы хаба (--db или HUB_DB_PATH)`);
  makeFolder(folder, 'папку базы данных');
  try {
    const probe = join(folder, `.jira-hub-write-test-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    if (!readOnly(err)) throw new ConfigError(`в папку базы данных ${folder} не записать: ${fileSystemReason(err)}`);
    throw new ConfigError(`папка базы данных ${folder} доступна только для чтения: хабу нужно писать в неё базу, её журнал и резервные копии`);
  }
  try {
    closeSync(openSync(file, 'r+'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // a new database
    if (!readOnly(err)) throw new ConfigError(`файл базы данных ${file} не открыть: ${fileSystemReason(err)}`);
    throw new ConfigError(`файл базы данных ${file} доступен только для чтения: хабу нужно писать в него`);
  }
}

/** SQLite's result codes (better-sqlite3's `code`, by prefix) that speak of the file or its disk, for a person. */
const SQLITE_REASONS: [prefix: string, reason: string][] = [
  ['SQLITE_FULL', 'на диске не осталось места'],
  ['SQLITE_NOTADB', 'это не база SQLite'],
  ['SQLITE_CORRUPT', 'файл базы повреждён'],
  ['SQLITE_READONLY', 'база доступна только для чтения'],
  ['SQLITE_IOERR', 'ошибка ввода-вывода: диск или файловая система не дают читать или писать файл'],
  ['SQLITE_CANTOPEN', 'файл базы не открывается'],
  ['SQLITE_PERM', 'нет прав на файл базы'],
  ['SQLITE_BUSY', 'база занята: другой процесс держит её заблокированной дольше 10 с; остановите его (или дождитесь, пока он закончит) и запустите снова'],
];

/**
 * A failure to open or migrate the database `file` that is the file's or its disk's (a full disk, an I/O
 * error, not a database), as a refusal naming the file; undefined for any other failure (a bug stays one).
 */
export function sqliteRefusal(file: string, err: unknown): ConfigError | undefined {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return undefined;
  // A full disk as a running hub tells it (disk-full.ts): SQLITE_FULL, or an I/O error with no free block left.
  const full = isDiskFull(err, dirname(file));
  const reason = full ? SQLITE_REASONS[0][1] : /^E[A-Z0-9]+$/.test(code) ? fileSystemReason(err) : SQLITE_REASONS.find(([prefix]) => code.startsWith(prefix))?.[1];
  return reason === undefined ? undefined : new ConfigError(`база данных ${file}: ${reason}`);
}

