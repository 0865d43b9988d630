/**
 * Issue 21.4: reads never wait behind a write (decision 0800). A write transaction is held open by the
 * test; a unit of `Db.read` and GET /issues answer meanwhile, and see the last commit, not the open write.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Db } from '../src/database/db.service.js';
import { agentOf, refreshResult, startHub, type TestHub } from './support/app.js';
import { sqliteOnly } from './support/pg.js';

/** `work`'s answer, or 'still waiting' once the write has been held for `ms` (a deadline, not a pause: the test ends at the answer). */
const within = <T>(work: Promise<T>, ms = 5000) =>
  Promise.race([work, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms).unref())]);

describe('reads beside the writer (issue 21.4)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { jql: 'project = A' } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'A-1', summary: 'Отчёт о продажах' }]));
  });
  afterEach(() => hub.close());

  /** A write transaction that has written a note and stays open until `release`. */
  async function heldWrite(db: Db) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const done = db.transaction(async (m) => {
      await m.query(`INSERT INTO issue_note (key, comment, source, updated_at) VALUES ('A-1', 'пишется', 'test', '2026-12-01T00:00:00.000Z')`);
      opened();
      await held;
    });
    await open;
    return { release, done };
  }

  it('a read unit answers while a write transaction is open, from the last commit', async () => {
    const db = hub.app.get(Db);
    const write = await heldWrite(db);
    try {
      const notes = db.read((m) => m.query('SELECT key FROM issue_note') as Promise<{ key: string }[]>);
      expect(await within(notes)).toEqual([]);
    } finally {
      write.release();
      await write.done;
    }
    expect(await db.read((m) => m.query('SELECT key FROM issue_note'))).toEqual([{ key: 'A-1' }]);
  });

  it('GET /issues?q= and GET /issues/A-1 answer while a write transaction is open', async () => {
    const write = await heldWrite(hub.app.get(Db));
    try {
      const search = hub.http.get('/issues?q=отч').then((res) => res.body.map((i: { key: string }) => i.key));
      expect(await within(search)).toEqual(['A-1']);
      const issue = hub.http.get('/issues/A-1').then((res) => res.body.note);
      expect(await within(issue)).toBeNull();
    } finally {
      write.release();
      await write.done;
    }
  });

  it('reads that fail leave the read lane usable', async () => {
    const db = hub.app.get(Db);
    await expect(db.read((m) => m.query('SELECT * FROM no_such_table'))).rejects.toThrow();
    expect(await db.read((m) => m.query('SELECT key FROM issue'))).toEqual([{ key: 'A-1' }]);
  });
});

sqliteOnly(describe, describe.skip)('the reader closes before the writer (SQLite file)', () => {
  it('a stopped hub leaves its data in the file itself: no WAL left beside it, and a copy of the file alone holds the batch', async () => {
    const hub = await startHub();
    try {
      await hub.http.post('/batches').send({ title: 'в файле', commands: [{ type: 'refresh', params: { jql: 'project = A' } }] }).expect(201);
      await hub.http.get('/batches').expect(200); // a read: the read-only connection is open
      await hub.app.close();
      expect(readdirSync(hub.dir).sort()).toEqual(['hub.sqlite']);
      copyFileSync(join(hub.dir, 'hub.sqlite'), join(hub.dir, 'copy.sqlite'));
      const copy = new Database(join(hub.dir, 'copy.sqlite'), { readonly: true });
      expect(copy.prepare('SELECT title FROM batch').all()).toEqual([{ title: 'в файле' }]);
      copy.close();
    } finally {
      rmSync(hub.dir, { recursive: true, force: true });
    }
  });

  it('a read that comes while the hub shuts down runs on the writer once the reader is closed', async () => {
    const hub = await startHub();
    try {
      const db = hub.app.get(Db);
      expect(await db.read((m) => m.query('SELECT count(*) AS n FROM batch'))).toEqual([{ n: 0 }]);
      await db.beforeApplicationShutdown();
      expect(await db.read((m) => m.query('SELECT count(*) AS n FROM batch'))).toEqual([{ n: 0 }]);
    } finally {
      await hub.close();
    }
  });
});
