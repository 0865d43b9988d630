import { describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDatabaseFileInBackground, CopyError, stamp } from './sqlite-copy.js';

describe('stamp (SPEC 3.1, 3.2): YYYYMMDD-HHMMSS in UTC', () => {
  it.each([
    ['2026-11-30T08:55:22.000Z', '20261130-085522'],
    ['2026-01-02T03:04:05.999Z', '20260102-030405'],
    ['2026-12-31T23:59:59.999Z', '20261231-235959'],
    ['2026-10-13T10:00:00.000+03:00', '20261013-070000'],
    ['2026-03-01T01:30:00.000+05:00', '20260228-203000'],
    ['2000-02-29T00:00:00.000Z', '20000229-000000'],
  ])('%s → %s', (iso, expected) => {
    expect(stamp(new Date(iso))).toBe(expected);
  });

  it('has the shape of a backup file name prefix', () => {
    expect(stamp(new Date())).toMatch(/^\d{8}-\d{6}$/);
  });
});

describe('copyDatabaseFileInBackground: copies in one worker thread kept between them', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'jira-hub-copy-'));
  const withRows = (file: string, rows: number) => {
    const db = new Database(file);
    db.exec('CREATE TABLE t (n INTEGER)');
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    for (let n = 1; n <= rows; n++) insert.run(n);
    db.close();
  };
  const count = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  /** What keeps this process's event loop alive that a worker thread would show as. */
  const threadsHolding = () => process.getActiveResourcesInfo().filter((r) => /worker|messageport/i.test(r)).length;

  it('makes several copies at once, each whole, and holds the process only while one is under way', async () => {
    const dir = folder();
    try {
      withRows(join(dir, 'a.sqlite'), 50);
      const copies = [1, 2, 3].map((i) => copyDatabaseFileInBackground(join(dir, 'a.sqlite'), join(dir, 'copies', `c${i}.sqlite`)));
      expect(threadsHolding()).toBe(1); // one thread for the three
      await Promise.all(copies);
      for (const i of [1, 2, 3]) expect(count(join(dir, 'copies', `c${i}.sqlite`))).toBe(50);
      expect(threadsHolding()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails a copy of a file that is not there with the reason, leaves no partial file, and copies again after it', async () => {
    const dir = folder();
    try {
      withRows(join(dir, 'a.sqlite'), 3);
      await expect(copyDatabaseFileInBackground(join(dir, 'nothing.sqlite'), join(dir, 'b.sqlite'))).rejects.toThrow(CopyError);
      expect(existsSync(join(dir, 'b.sqlite'))).toBe(false);
      expect(existsSync(join(dir, 'b.sqlite.partial'))).toBe(false);
      await copyDatabaseFileInBackground(join(dir, 'a.sqlite'), join(dir, 'c.sqlite'));
      expect(count(join(dir, 'c.sqlite'))).toBe(3);
      expect(threadsHolding()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
