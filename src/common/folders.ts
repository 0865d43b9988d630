/**
 * Folders made for paths people give (the database's folder, export's output folder) and the file
 * system's failures in words for a person: each refusal is one Russian line (ConfigError), never Node's
 * English error. Decision 0108.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './config.js';

/** What Node's error codes mean, for a person. */
const REASONS: Record<string, string> = {
  EACCES: 'нет прав на запись',
  EPERM: 'нет прав на запись',
  EROFS: 'файловая система доступна только для чтения',
  ENOSPC: 'на диске не осталось места',
  EDQUOT: 'дисковая квота исчерпана',
  EFBIG: 'файл больше, чем позволено',
  EIO: 'ошибка ввода-вывода диска',
  ENOTDIR: 'часть пути — файл, а не папка',
  EISDIR: 'это папка, а не файл',
  ENAMETOOLONG: 'слишком длинный путь',
  ELOOP: 'символические ссылки в пути ведут по кругу',
  ENOENT: 'нет такого файла или папки',
};

/**
 * The reason of a file system failure for a person: known codes in words, another by its code. `doing`:
 * whether the path was read or written, which a missing right (EACCES, EPERM) is a right to.
 */
export function fileSystemReason(err: unknown, doing: 'read' | 'write' = 'write'): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (doing === 'read' && (code === 'EACCES' || code === 'EPERM')) return 'нет прав на чтение';
  return (code ? REASONS[code] : undefined) ?? `сбой файловой системы${code ? ` (${code})` : ''}`;
}

/** What is at `path`: undefined when nothing is. */
const statOf = (path: string) => statSync(path, { throwIfNoEntry: false });

/**
 * `mkdir -p folder`, one level at a time from the nearest folder that exists. Node 20's recursive mkdir
 * loops for ever where the file system answers ENOENT for a new child of a folder that exists (/proc,
 * /sys); here that is a refusal naming the folder. `what` names the folder for a person ("папку базы данных").
 */
export function makeFolder(folder: string, what: string): void {
  const missing: string[] = [];
  let existing = resolve(folder);
  const refuse = (reason: string) => new ConfigError(`${what} ${folder} создать нельзя: ${reason}`);
  try {
    for (let found = statOf(existing); !found?.isDirectory(); found = statOf(existing)) {
      if (found) throw refuse(`${existing} — файл, а не папка`);
      missing.unshift(existing);
      existing = dirname(existing);
    }
    for (const dir of missing) {
      try {
        mkdirSync(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST' && statOf(dir)?.isDirectory()) continue; // made meanwhile
        // ENOENT for a child of a folder that exists: a file system that holds no folders of ours.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw refuse(`${dirname(dir)} — служебная папка системы, не на диске, и папок в ней не создать`);
        throw err;
      }
    }
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw refuse(fileSystemReason(err));
  }
}
