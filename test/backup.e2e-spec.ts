/**
 * Backups before a batch writes (SPEC 3.2 as amended): a copy lost to a crash is made at the next
 * delivery; a failed copy (a full disk) leaves no file under a copy's name, is logged with its reason,
 * shows in GET /agent and does not stop the queue.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, fields, startHub, type TestHub } from './support/app.js';
import { onPostgres } from './support/pg.js';

// Copies of the SQLite file; on PostgreSQL the hub copies no files (test/postgres.e2e-spec.ts checks GET /agent has no backup warning there).
(onPostgres ? describe.skip : describe)('backups before a batch writes (SPEC 3.2 as amended)', () => {
  let hub: TestHub;
  let folder: string;
  const copies = () => (existsSync(folder) ? readdirSync(folder).filter((n) => n.includes('-batch-')) : []);
  beforeEach(async () => {
    hub = await startHub();
    folder = join(hub.dir, 'backups');
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await hub.close();
  });

  it('a re-delivery makes no second copy when the batch has one', async () => {
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    expect((await agent.claim()).command.deliveries).toBe(1);
    expect(copies()).toEqual(['20261130-100000-batch-1.sqlite']);
    hub.clock.advance(5000);
    expect((await agent.claim()).command.deliveries).toBe(2);
    expect(copies()).toEqual(['20261130-100000-batch-1.sqlite']);
  });

  it('a copy lost to a crash (after the claim committed, before the copy ended) is made at the next delivery, before the command is handed out', async () => {
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1'), fields('A-2')] }).expect(201);
    const first = (await agent.claim()).command;
    // The crash state: the claim is committed (command claimed, delivery 1), the copy never finished.
    rmSync(folder, { recursive: true });
    hub.clock.advance(5000);
    const again = (await agent.claim()).command;
    expect(again).toMatchObject({ id: first.id, deliveries: 2 });
    // Answered after the copy: it exists and is a whole database holding the batch.
    expect(copies()).toEqual(['20261130-100005-batch-1.sqlite']);
    const db = new Database(join(folder, copies()[0]), { readonly: true, fileMustExist: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM command WHERE batch_id = 1').get()).toEqual({ n: 3 }); // its two commands and the tail refresh
    } finally {
      db.close();
    }
    // The batch's later commands make none.
    await agent.done(first.id);
    hub.clock.advance(5000);
    expect((await agent.claim()).command.id).toBe(first.id + 1);
    expect(copies()).toHaveLength(1);
    // What a crash in the middle of a copy leaves — the partial file and SQLite's journal beside it — goes
    // with the next copy's rotation.
    for (const leftover of ['20261130-100004-batch-9.sqlite.partial', '20261130-100004-batch-9.sqlite.partial-journal', '20261130-100004-batch-9.sqlite.partial-wal']) writeFileSync(join(folder, leftover), 'x');
    await agent.done(first.id + 1);
    await agent.done((await agent.claim()).command.id, { issues: [], links: [] }); // the tail refresh
    await hub.http.post('/batches').send({ title: 't2', commands: [fields('A-3')] }).expect(201);
    hub.clock.advance(5000);
    await agent.claim();
    expect(readdirSync(folder).filter((n) => n.includes('.partial'))).toEqual([]);
    expect(copies()).toHaveLength(2);
  });

  it('a failed copy (disk full) leaves no file under a copy name, is logged with its reason, warns in GET /agent and does not stop the queue', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    // A full disk: the copy is written through a file where every write fails with ENOSPC.
    mkdirSync(folder);
    symlinkSync('/dev/full', join(folder, '20261130-100000-batch-1.sqlite.partial'));
    const { command } = await agent.claim();
    expect(command).toMatchObject({ id: 1, deliveries: 1 });
    expect(readdirSync(folder)).toEqual(['.owner']); // the folder is this database's; no copy, whole or partial
    const logged = errors.mock.calls.map((c) => String(c[0])).join('\n');
    expect(logged).toContain('backup before batch 1 failed');
    expect(logged).toMatch(/full/i);
    expect(logged).not.toContain('[object Object]');
    expect((await hub.http.get('/agent').expect(200)).body.warning).toContain('Не удалось сделать резервную копию перед пакетом #1');

    // The queue goes on: the report lands, the next batch is handed out, its copy clears the warning.
    await agent.done(command.id);
    const tail = (await agent.claim()).command; // batch 1's tail refresh
    expect(tail).toMatchObject({ type: 'refresh', batch_id: 1 });
    await agent.done(tail.id, { issues: [], links: [] });
    await hub.http.post('/batches').send({ title: 't2', commands: [fields('A-2')] }).expect(201);
    hub.clock.advance(1000);
    expect((await agent.claim()).command).toMatchObject({ batch_id: 2, deliveries: 1 });
    expect(copies()).toEqual(['20261130-100001-batch-2.sqlite']);
    expect((await hub.http.get('/agent').expect(200)).body.warning).toBeNull();
  });

  it('a backups folder that cannot be read (a file in its place) fails the copies, and re-deliveries go on to the delivery limit', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const agent = agentOf(hub);
    writeFileSync(folder, 'not a folder');
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    expect((await agent.claim()).command).toMatchObject({ id: 1, deliveries: 1 });
    // each re-delivery answers (it was a 500 whenever the hub looked for the batch's copy) and tries the copy again
    for (const deliveries of [2, 3]) {
      hub.clock.advance(5000);
      expect((await agent.claim()).command).toMatchObject({ id: 1, deliveries });
    }
    hub.clock.advance(5000);
    expect((await agent.claim()).command).toMatchObject({ type: 'refresh', batch_id: 1 }); // command 1 failed at the limit
    expect((await hub.http.get('/commands/1').expect(200)).body.status).toBe('failed');
    expect(errors.mock.calls.filter((c) => String(c[0]).includes('backup before batch 1 failed')).length).toBeGreaterThanOrEqual(3);
    expect((await hub.http.get('/agent').expect(200)).body.warning).toContain('Не удалось сделать резервную копию перед пакетом #1');
  });

  describe('a folder of copies made before owners were recorded (decision 1420)', () => {
    const legacy = ['20261101-090000-batch-1.sqlite', '20261101-090100-batch-2.sqlite', '20261101-090200-batch-3.sqlite'];

    it('copies of another database are left where they are, never rotated; this one copies into its own folder', async () => {
      mkdirSync(folder);
      for (const name of legacy) {
        const db = new Database(join(folder, name));
        db.exec("CREATE TABLE batch (id INTEGER PRIMARY KEY, created_at TEXT, title TEXT); INSERT INTO batch VALUES (1, '2026-11-01T08:00:00.000Z', 'другая база')");
        db.close();
      }
      await hub.http.patch('/settings').send({ backup_keep: 1 }).expect(200);
      await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
      expect((await agentOf(hub).claim()).command).toMatchObject({ batch_id: 1, deliveries: 1 });
      expect(copies()).toEqual(legacy);
      expect(readFileSync(join(folder, '.owner'), 'utf8')).toBe('');
      expect(readdirSync(join(folder, 'hub.sqlite'))).toEqual(['20261130-100000-batch-1.sqlite']);
    });

    it('a re-delivery before any copy named an owner does not take another database\'s copy of its batch for its own', async () => {
      const agent = agentOf(hub);
      await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
      const first = (await agent.claim()).command;
      // The state an upgrade finds: this database's copy lost, another database's copy of a batch 1 there, no owner yet.
      rmSync(folder, { recursive: true });
      mkdirSync(folder);
      const other = new Database(join(folder, legacy[0]));
      other.exec("CREATE TABLE batch (id INTEGER PRIMARY KEY, created_at TEXT, title TEXT); INSERT INTO batch VALUES (1, '2026-11-01T08:00:00.000Z', 'другая база')");
      other.close();
      hub.clock.advance(5000);
      expect((await agent.claim()).command).toMatchObject({ id: first.id, deliveries: 2 });
      expect(readdirSync(join(folder, 'hub.sqlite'))).toEqual(['20261130-100005-batch-1.sqlite']);
      expect(copies()).toEqual([legacy[0]]);
    });

    it('an owner marker that cannot be read fails the copy (a warning) instead of rotating the folder as if it were this database\'s', async () => {
      const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      mkdirSync(join(folder, '.owner'), { recursive: true }); // a folder where the marker should be: EISDIR
      writeFileSync(join(folder, legacy[0]), 'another database\'s copy');
      await hub.http.patch('/settings').send({ backup_keep: 1 }).expect(200);
      await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
      expect((await agentOf(hub).claim()).command).toMatchObject({ batch_id: 1, deliveries: 1 });
      expect(copies()).toEqual([legacy[0]]);
      expect(errors.mock.calls.map((c) => String(c[0])).join('\n')).toContain('backup before batch 1 failed');
      expect((await hub.http.get('/agent').expect(200)).body.warning).toContain('Не удалось сделать резервную копию перед пакетом #1');
    });

    it('copies of this very database: it takes the folder, and rotation keeps the newest as before', async () => {
      await hub.http.patch('/settings').send({ backup_keep: 1 }).expect(200);
      await hub.http.post('/batches').send({ title: 'первый', commands: [fields('A-1')] }).expect(201);
      mkdirSync(folder);
      const source = new Database(join(hub.dir, 'hub.sqlite'), { readonly: true });
      source.prepare('VACUUM INTO ?').run(join(folder, legacy[0])); // as the hub copies
      source.close();
      await hub.http.post('/batches').send({ title: 'второй', commands: [fields('A-2')] }).expect(201);
      expect((await agentOf(hub).claim()).command).toMatchObject({ batch_id: 1, deliveries: 1 });
      expect(readFileSync(join(folder, '.owner'), 'utf8').trim()).toBe('hub.sqlite');
      expect(copies()).toEqual(['20261130-100000-batch-1.sqlite']);
    });
  });

  it('two databases in one folder keep their copies apart: neither takes the other\'s copy of a batch for its own, nor rotates it away (decision 1420)', async () => {
    const other = await startHub({ HUB_DB_PATH: join(hub.dir, 'staging.sqlite') });
    try {
      await hub.http.patch('/settings').send({ backup_keep: 1 }).expect(200);
      await other.http.patch('/settings').send({ backup_keep: 1 }).expect(200);
      const [mine, theirs] = [agentOf(hub), agentOf(other)];
      // Both databases have a batch 1: the first to copy takes the folder, the other copies beside it.
      await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
      await other.http.post('/batches').send({ title: 't', commands: [fields('B-1')] }).expect(201);
      const first = (await mine.claim()).command;
      const theirFirst = (await theirs.claim()).command;
      expect(readFileSync(join(folder, '.owner'), 'utf8').trim()).toBe('hub.sqlite');
      const theirFolder = join(folder, 'staging.sqlite');
      const theirCopies = () => readdirSync(theirFolder).filter((n) => n.includes('-batch-'));
      expect(copies()).toEqual(['20261130-100000-batch-1.sqlite']);
      expect(theirCopies()).toEqual(['20261130-100000-batch-1.sqlite']);
      const batchOf = (file: string) => {
        const db = new Database(file, { readonly: true, fileMustExist: true });
        try {
          return (db.prepare('SELECT params FROM command WHERE batch_id = 1 ORDER BY seq LIMIT 1').get() as { params: string }).params;
        } finally {
          db.close();
        }
      };
      expect(batchOf(join(folder, copies()[0]))).toContain('A-1');
      expect(batchOf(join(theirFolder, theirCopies()[0]))).toContain('B-1');

      // Rotation keeps one copy of each database: a second batch of the other replaces only its own.
      await theirs.done(theirFirst.id);
      await theirs.done((await theirs.claim()).command.id, { issues: [], links: [] });
      await other.http.post('/batches').send({ title: 't2', commands: [fields('B-2')] }).expect(201);
      other.clock.advance(1000);
      expect((await theirs.claim()).command).toMatchObject({ batch_id: 2, deliveries: 1 });
      expect(theirCopies()).toEqual(['20261130-100001-batch-2.sqlite']);
      expect(copies()).toEqual(['20261130-100000-batch-1.sqlite']);

      // A re-delivery of this database's batch 1 finds its own copy, not the other's.
      rmSync(join(folder, copies()[0]));
      hub.clock.advance(5000);
      expect((await mine.claim()).command).toMatchObject({ id: first.id, deliveries: 2 });
      expect(copies()).toEqual(['20261130-100005-batch-1.sqlite']);
    } finally {
      await other.close();
    }
  });
});
