import { afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertSqliteFile } from './from-sqlite.js';
import { snapshotDatabaseFile } from './sqlite-snapshot.js';

describe('snapshotDatabaseFile: a consistent copy of a WAL database that leaves its folder as it was (decision 1440)', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'jira-hub-snapshot-'));
    dirs.push(dir);
    return dir;
  };
  /** A database in WAL mode with `rows` rows; the connection is left open (a running hub) or closed (a stopped one). */
  const walDatabase = (file: string, rows: number, keepOpen = false) => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0'); // the rows stay in the -wal while it is open
    db.exec('CREATE TABLE t (n INTEGER)');
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    for (let n = 1; n <= rows; n++) insert.run(n);
    if (!keepOpen) db.close();
    return db;
  };
  const rowsOf = (file: string) => {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const listing = (dir: string) => readdirSync(dir).sort().map((name) => `${name}:${statSync(join(dir, name)).size}`);

  it('a stopped hub’s file: copied whole, and no -wal or -shm is left beside it (migrate --from-sqlite’s check left both, empty)', () => {
    const dir = folder();
    const source = join(dir, 'hub.sqlite');
    walDatabase(source, 3);
    const before = listing(dir);
    expect(before).toEqual([expect.stringMatching(/^hub\.sqlite:\d+$/)]);
    assertSqliteFile(source);
    expect(listing(dir)).toEqual(before);
    const copy = join(folder(), 'copy.sqlite');
    snapshotDatabaseFile(source, copy);
    expect(listing(dir)).toEqual(before);
    expect(rowsOf(copy)).toBe(3);
  });

  it('a running hub’s file: its rows still in the -wal are read, and its -wal and -shm stay as they are', () => {
    const dir = folder();
    const source = join(dir, 'hub.sqlite');
    const hub = walDatabase(source, 5, true);
    try {
      const before = listing(dir);
      expect(before.map((l) => l.split(':')[0])).toEqual(['hub.sqlite', 'hub.sqlite-shm', 'hub.sqlite-wal']);
      assertSqliteFile(source);
      const copy = join(folder(), 'copy.sqlite');
      snapshotDatabaseFile(source, copy);
      expect(rowsOf(copy)).toBe(5);
      expect(listing(dir)).toEqual(before);
      hub.prepare('INSERT INTO t (n) VALUES (6)').run(); // the hub still writes
    } finally {
      hub.close();
    }
    expect(readdirSync(dir)).toEqual(['hub.sqlite']);
  });

  it('a -wal left without its -shm (a crash, a copied folder): its committed rows are in the copy, nothing is added beside it', () => {
    const dir = folder();
    const source = join(dir, 'hub.sqlite');
    const running = join(folder(), 'running.sqlite');
    const hub = walDatabase(running, 4, true);
    try {
      copyFileSync(running, source);
      copyFileSync(`${running}-wal`, `${source}-wal`);
    } finally {
      hub.close();
    }
    const before = listing(dir);
    expect(before.map((l) => l.split(':')[0])).toEqual(['hub.sqlite', 'hub.sqlite-wal']);
    const copy = join(folder(), 'copy.sqlite');
    snapshotDatabaseFile(source, copy);
    expect(listing(dir)).toEqual(before);
    expect(rowsOf(copy)).toBe(4);
  });

  it('a file not in WAL mode is read through SQLite, as before', () => {
    const dir = folder();
    const source = join(dir, 'hub.sqlite');
    const db = new Database(source);
    db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)');
    db.close();
    const copy = join(folder(), 'copy.sqlite');
    snapshotDatabaseFile(source, copy);
    expect(readdirSync(dir)).toEqual(['hub.sqlite']);
    expect(rowsOf(copy)).toBe(1);
  });
});
