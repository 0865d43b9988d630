import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SLICE_MS, UnavailableError } from '../common/index.js';
import { Db } from './db.service.js';
import { DATABASE_BUSY_DETAIL } from './disk-full.js';

describe('Db lanes: the agent is not starved by batch creation', () => {
  let ds: DataSource;
  let db: Db;
  beforeAll(async () => {
    ds = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await ds.query('CREATE TABLE t (v TEXT)');
    db = new Db(ds);
  });
  afterAll(() => ds.destroy());

  it('units run one at a time; a normal unit runs before bulk units that are still waiting, each lane in arrival order', async () => {
    const order: string[] = [];
    let inside = 0;
    const unit = (name: string) => async () => {
      expect(++inside).toBe(1);
      await new Promise((r) => setImmediate(r));
      order.push(name);
      inside--;
    };
    const all = [
      db.transaction(unit('bulk 1'), 'bulk'), // starts at once: nothing else waits
      db.transaction(unit('bulk 2'), 'bulk'),
      db.transaction(unit('bulk 3'), 'bulk'),
      db.transaction(unit('claim 1')),
      db.read(unit('read')),
      db.transaction(unit('claim 2')),
    ];
    await Promise.all(all);
    expect(order).toEqual(['bulk 1', 'claim 1', 'read', 'claim 2', 'bulk 2', 'bulk 3']);
  });

  it('the event loop runs between units: a request read meanwhile gets in before the bulk units still waiting', async () => {
    const order: string[] = [];
    // Units that only await the database (microtasks), as real ones do.
    const unit = (name: string) => async (m: import('typeorm').EntityManager) => {
      await m.query(`INSERT INTO t (v) VALUES (?)`, [name]);
      order.push(name);
    };
    const bulk = [1, 2, 3, 4].map((i) => db.transaction(unit(`bulk ${i}`), 'bulk'));
    // A claim that arrives from a socket while the first batch is written: an event-loop callback.
    const claim = new Promise((resolve) => setImmediate(() => resolve(db.transaction(unit('claim')))));
    await Promise.all([...bulk, claim]);
    expect(order).toEqual(['bulk 1', 'claim', 'bulk 2', 'bulk 3', 'bulk 4']);
    await db.transaction((m) => m.query('DELETE FROM t'));
  });

  it('a long unit lets the event loop in between its statements (every SLICE_MS), and stays one transaction', async () => {
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const failed = db.transaction(async (m) => {
      const start = performance.now();
      while (performance.now() - start < 20 * SLICE_MS) await m.query('INSERT INTO t (v) VALUES (?)', ['slice']);
      throw new Error('rolled back');
    }, 'bulk');
    await expect(failed).rejects.toThrow('rolled back');
    running = false;
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(await db.read((m) => m.query(`SELECT count(*) AS n FROM t WHERE v = 'slice'`))).toEqual([{ n: 0 }]);
  });

  it('a failed unit rolls back and the next one runs', async () => {
    const failed = db.transaction(async (m) => {
      await m.query(`INSERT INTO t (v) VALUES ('gone')`);
      throw new Error('no');
    }, 'bulk');
    const next = db.transaction((m) => m.query(`INSERT INTO t (v) VALUES ('kept')`));
    await expect(failed).rejects.toThrow('no');
    await next;
    expect(await db.read((m) => m.query('SELECT v FROM t'))).toEqual([{ v: 'kept' }]);
  });
});

describe('Db: a database file another process keeps locked', () => {
  it('a write that cannot get the lock in time is 503 unavailable saying so; the next write, once the lock is gone, is made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-busy-'));
    const file = join(dir, 'hub.sqlite');
    // The hub waits 10 s (BUSY_TIMEOUT_MS) for a lock; this data source 50 ms, with the same driver and file.
    const ds = await new DataSource({ type: 'better-sqlite3', database: file, timeout: 50 }).initialize();
    const other = new Database(file);
    try {
      await ds.query('CREATE TABLE t (v TEXT)');
      const db = new Db(ds);
      other.exec('BEGIN EXCLUSIVE');
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      try {
        await expect(db.transaction((m) => m.query("INSERT INTO t VALUES ('x')"))).rejects.toEqual(new UnavailableError(DATABASE_BUSY_DETAIL));
        // one line for the operator, not a stack
        expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^another process holds the database locked: a write was rolled back/));
      } finally {
        warn.mockRestore();
      }
      other.exec('ROLLBACK');
      await db.transaction((m) => m.query("INSERT INTO t VALUES ('y')"));
      expect(await ds.query('SELECT v FROM t')).toEqual([{ v: 'y' }]);
    } finally {
      other.close();
      await ds.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
