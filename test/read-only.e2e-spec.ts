/** Started on a read-only folder, the hub says so in one line and exits non-zero (issue 9, item 7). */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { tempDir } from './support/app.js';

/**
 * Runs `fn` as an unprivileged user when the tests run as root (root writes into any folder whatever
 * its mode), so that a folder's mode 0555 makes it read-only as it is for a user.
 */
async function asUser<T>(fn: () => Promise<T>): Promise<T> {
  const root = process.geteuid?.() === 0;
  if (root) process.seteuid!(65534);
  try {
    return await fn();
  } finally {
    if (root) process.seteuid!(0);
  }
}

describe('a read-only database folder', () => {
  const dirs: string[] = [];
  afterEach(() => {
    jest.restoreAllMocks();
    for (const d of dirs.splice(0)) {
      chmodSync(join(d, 'ro'), 0o755);
      rmSync(d, { recursive: true, force: true });
    }
  });

  const readOnlyFolder = () => {
    const dir = tempDir();
    dirs.push(dir);
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'ro'), { mode: 0o555 });
    chmodSync(join(dir, 'ro'), 0o555);
    return join(dir, 'ro');
  };

  it.each(['serve', 'migrate'])('`jira-hub %s` prints one line that names the folder and exits with 2, no stack trace', async (command) => {
    const folder = readOnlyFolder();
    const printed: string[] = [];
    jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    const code = await asUser(() => main([command], { HUB_DB_PATH: join(folder, 'hub.sqlite'), HUB_PORT: '0', HUB_LOG_LEVEL: 'error' }));
    expect(code).toBe(2);
    expect(printed).toEqual([
      `jira-hub: папка базы данных ${folder} доступна только для чтения: хабу нужно писать в неё базу, её журнал и резервные копии`,
    ]);
  });
});
