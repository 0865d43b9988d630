/**
 * SPEC 3.1 (schema v1 → v2), 6.4, 6.6 and scenarios 5 and 12 on databases made the way an earlier hub
 * made them: SPEC 3.1's DDL run verbatim by better-sqlite3 (test/support/legacy.ts), then the real hub.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  createV1Database,
  hasTable,
  insertBatch,
  insertCommand,
  insertNote,
  readOnly,
  storedSchemaVersion,
  tableColumns,
  tableRows,
  V1_TABLES,
  type Db,
} from './support/legacy.js';
import { main } from '../src/cli.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/database/migrations.js';
import { agentOf, refreshResult, startHub, tempDir, type TestHub } from './support/app.js';
import { onPostgres } from './support/pg.js';

const V1_COMMAND_COLUMNS = [
  'id',
  'batch_id',
  'seq',
  'type',
  'params',
  'status',
  'pause_seconds',
  'claimed_at',
  'finished_at',
  'result',
  'error',
  'jira_calls',
  'rate_limited',
];
const NEW_COMMAND_COLUMNS = ['deliveries', 'retry_of', 'queue_pos'];
const NEW_BATCH_COLUMNS = ['source', 'awaiting_approval_since', 'approved_by', 'approved_at', 'rejected_reason', 'runnable_at', 'queue_pos', 'checks', 'revert_of'];
/** Columns later schema versions add to v1's tables (v2, v3: command, batch; v4: the mirror at scale; v6: batch.checks; v8: batch.revert_of; v18: the sprint's id and board; v21: its state). */
const NEW_COLUMNS: Record<string, string[]> = {
  command: NEW_COMMAND_COLUMNS,
  batch: NEW_BATCH_COLUMNS,
  issue: ['search_id', 'sync_mark', 'sprint_id', 'sprint_board_id', 'sprint_state'],
  issue_link: ['sync_mark'],
  sync_run: ['delivery', 'parts'],
};
const MIGRATION_ROWS = MIGRATIONS.map((m, i) => ({ id: i + 1, timestamp: Number(m.name.slice(-13)), name: m.name }));
const HEALTHY = { status: 'ok', schema_version: SCHEMA_VERSION };

const SCHEMA_BACKUP = /^\d{8}-\d{6}-schema-v1\.sqlite$/;

function backupFiles(dbFile: string): string[] {
  const folder = join(dbFile, '..', 'backups');
  return existsSync(folder) ? readdirSync(folder).filter((n) => n !== '.owner').sort() : []; // the copies, not the folder's owner
}

function migrationRows(file: string): Record<string, unknown>[] {
  return readOnly(file, (db) => db.prepare('SELECT id, timestamp, name FROM migrations ORDER BY id').all() as Record<string, unknown>[]);
}

// SQLite only by nature: v1 databases, their adoption and the schema copies to backups/ are files of
// earlier hubs. PostgreSQL's migration (once, under the advisory lock) is tested in postgres.e2e-spec.ts.
(onPostgres ? describe.skip : describe)('migration of a v1 database (SPEC 3.1)', () => {
  let dir: string;
  let file: string;
  const hubs: TestHub[] = [];

  const start = async (env: Record<string, string> = { HUB_DB_PATH: file }): Promise<TestHub> => {
    const hub = await startHub(env);
    hubs.push(hub);
    return hub;
  };
  const stop = async (hub: TestHub): Promise<void> => {
    hubs.splice(hubs.indexOf(hub), 1);
    await hub.close();
  };

  beforeEach(() => {
    dir = tempDir();
    file = join(dir, 'hub.sqlite');
  });
  afterEach(async () => {
    for (const hub of hubs.splice(0)) await hub.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('scenario 12', () => {
    const claimed = {
      seq: 1,
      type: 'ensure_fields',
      params: { key: 'AURORA-1', duedate: '2026-12-01' },
      status: 'claimed',
      pause_seconds: 120,
      claimed_at: '2026-11-01T09:05:00.000Z',
      finished_at: null,
      result: null,
      error: null,
      jira_calls: 0,
      rate_limited: 0,
    };
    const done = {
      seq: 2,
      type: 'ensure_comment',
      params: { key: 'AURORA-2', body: 'Готово', marker: 'm-1' },
      status: 'done',
      pause_seconds: 150,
      claimed_at: '2026-11-01T09:00:00.000Z',
      finished_at: '2026-11-01T09:01:00.000Z',
      result: { created: true },
      error: null,
      jira_calls: 3,
      rate_limited: 1,
    };
    const queued = {
      seq: 3,
      type: 'refresh',
      params: { keys: ['AURORA-1', 'AURORA-2'] },
      status: 'queued',
      pause_seconds: null,
      claimed_at: null,
      finished_at: null,
      result: null,
      error: null,
      jira_calls: 0,
      rate_limited: 0,
    };
    const note = { key: 'AURORA-1', fact_status: 'в работе', comment: 'Ждём ответа «заказчика»', source: 'import', updated_at: '2026-10-30T08:00:00.000Z' };
    let batchId: number;
    let ids: number[];

    const seed = (db: Db) => {
      batchId = insertBatch(db, { title: 'Старый пакет', author: 'ivan', created_at: '2026-11-01T08:59:00.000Z' });
      ids = [claimed, done, queued].map((c) => insertCommand(db, { batch_id: batchId, ...c }));
      insertNote(db, note);
    };

    it('migrates to v2 with one schema backup of v1, and a second start changes nothing', async () => {
      createV1Database(file, seed);
      expect(hasTable(file, 'migrations')).toBe(false);

      const first = await start();
      await first.http.get('/health').expect(200, HEALTHY);

      const views = await Promise.all(ids.map(async (id) => (await first.http.get(`/commands/${id}`).expect(200)).body));
      expect(views.map((v) => v.deliveries)).toEqual([1, 0, 0]);
      [claimed, done, queued].forEach((c, i) => {
        // A command handed out before v3 gets its pending delivery row; the others have no history before v3.
        const history = i === 0 ? [{ n: 1, handed_out_at: c.claimed_at, agent_version: null, outcome: 'pending', reported_at: null, jira_calls: null }] : [];
        expect(views[i]).toEqual({ id: ids[i], batch_id: batchId, ...c, deliveries: [1, 0, 0][i], retry_of: null, history, changes: [] });
      });

      await first.http.get(`/notes/${note.key}`).expect(200, note);

      const backups = backupFiles(file);
      expect(backups).toHaveLength(1);
      expect(backups[0]).toMatch(SCHEMA_BACKUP);
      const backup = join(dir, 'backups', backups[0]);
      expect(tableColumns(backup, 'command').map((c) => c.name)).toEqual(V1_COMMAND_COLUMNS);
      expect(storedSchemaVersion(backup)).toBe('1');
      expect(tableRows(backup, 'command').map((r) => [r.id, r.status])).toEqual([
        [ids[0], 'claimed'],
        [ids[1], 'done'],
        [ids[2], 'queued'],
      ]);
      expect(tableRows(backup, 'issue_note')).toEqual([note]);
      await stop(first);

      const second = await start();
      await second.http.get('/health').expect(200, HEALTHY);
      expect(backupFiles(file)).toEqual(backups);
      expect(migrationRows(file)).toEqual(MIGRATION_ROWS);

      const claim = await second.http.post('/agent/claim').send({}).expect(200);
      expect(claim.body.command).toMatchObject({ id: ids[0], type: 'ensure_fields', params: claimed.params, deliveries: 2 });
      const after = await second.http.get(`/commands/${ids[0]}`).expect(200);
      expect(after.body).toMatchObject({ status: 'claimed', deliveries: 2 });
    });
  });

  it('keeps every row of every v1 table with the same values', async () => {
    createV1Database(file, (db) => {
      db.prepare('INSERT INTO setting (key, value) VALUES (?, ?)').run('backup_keep', '5');
      db.prepare('INSERT INTO setting (key, value) VALUES (?, ?)').run('version', '3');
      db.prepare(
        `INSERT INTO issue (key, summary, issue_type, status, sprint, assignee, priority, duedate, labels, fields, created, updated, synced_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        'AURORA-7',
        'Отчёт «квартал»',
        'Task',
        'In Progress',
        'Спринт 1',
        'ivan',
        'High',
        '2026-12-01',
        '["a","б"]',
        '{"customfield_1":{"v":1}}',
        '2026-10-01T00:00:00.000+00:00',
        '2026-10-02T00:00:00.000+00:00',
        '2026-10-03T00:00:00.000Z',
      );
      db.prepare(`INSERT INTO issue (key) VALUES ('AURORA-8')`).run();
      db.prepare(`INSERT INTO issue_link (source_key, target_key, link_type) VALUES ('AURORA-7', 'AURORA-8', 'Blocks')`).run();
      db.prepare(`INSERT INTO issue_link (source_key, target_key, link_type) VALUES ('AURORA-8', 'AURORA-7', 'Relates')`).run();
      insertNote(db, { key: 'new:3', fact_status: 'черновик' });
      insertNote(db, { key: 'AURORA-7', comment: 'x', source: 'api', updated_at: '2026-10-04T00:00:00.000Z' });
      const b1 = insertBatch(db, { title: 'Первый', created_at: '2026-10-01T00:00:00.000Z' });
      const b2 = insertBatch(db, { title: 'Отменённый', author: 'petr', created_at: '2026-10-02T00:00:00.000Z', cancelled_at: '2026-10-02T01:00:00.000Z' });
      const c1 = insertCommand(db, {
        batch_id: b1,
        seq: 1,
        type: 'ensure_issue',
        params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт' },
        status: 'done',
        pause_seconds: 180,
        claimed_at: '2026-10-01T00:01:00.000Z',
        finished_at: '2026-10-01T00:02:00.000Z',
        result: { key: 'AURORA-8', created: true },
        jira_calls: 4,
      });
      insertCommand(db, {
        batch_id: b1,
        seq: 2,
        type: 'ensure_status',
        params: { key: 'AURORA-8', path: ['In Progress', 'Done'] },
        status: 'failed',
        claimed_at: '2026-10-01T00:03:00.000Z',
        finished_at: '2026-10-01T00:04:00.000Z',
        error: 'HTTP 400: нет перехода',
        rate_limited: 2,
      });
      const c3 = insertCommand(db, {
        batch_id: b1,
        seq: 3,
        type: 'refresh',
        params: { keys: ['AURORA-8'] },
        status: 'done',
        claimed_at: '2026-10-01T00:05:00.000Z',
        finished_at: '2026-10-01T00:06:00.000Z',
        result: { issues: [], links: [] },
      });
      insertCommand(db, { batch_id: b2, seq: 1, type: 'ensure_comment', params: { key: 'AURORA-7', body: 'b' }, status: 'cancelled', finished_at: '2026-10-02T01:00:00.000Z' });
      insertCommand(db, { batch_id: b2, seq: 2, type: 'ensure_sprint', params: { key: 'AURORA-7', sprint: 'Спринт 2' }, status: 'claimed', claimed_at: '2026-10-02T00:30:00.000Z', pause_seconds: 120 });
      insertCommand(db, { batch_id: b2, seq: 3, type: 'ensure_link', params: { source: 'AURORA-7', target: 'AURORA-8', link_type: 'Blocks' }, status: 'skipped', error: 'задача new:1 не создана' });
      insertCommand(db, { batch_id: b2, seq: 4, type: 'ensure_fields', params: { key: 'AURORA-7', labels: [] }, status: 'confirmed_by_state', result: { confirmed_by_sync_run: 1 } });
      db.prepare(
        `INSERT INTO sync_run (started_at, finished_at, kind, query, command_id, issues, links, missing, error) VALUES (?, ?, 'keys', 'AURORA-8', ?, 1, 0, '[]', NULL)`,
      ).run('2026-10-01T00:05:00.000Z', '2026-10-01T00:06:00.000Z', c3);
      db.prepare(`INSERT INTO sync_run (started_at, kind, query, error) VALUES (?, 'jql', 'project = AURORA', 'HTTP 500')`).run('2026-10-03T00:00:00.000Z');
      db.prepare(
        `UPDATE agent_status SET last_seen_at = ?, agent_version = '0.9.1', settings_version = 3, last_jira_call_at = ?, current_command_id = ? WHERE id = 1`,
      ).run('2026-10-02T00:30:00.000Z', '2026-10-02T00:29:00.000Z', c1);
    });
    const before = Object.fromEntries(V1_TABLES.map((t) => [t, tableRows(file, t)]));
    expect(before.command).toHaveLength(7);

    const hub = await start();
    await hub.http.get('/health').expect(200, HEALTHY);
    await stop(hub);

    for (const table of V1_TABLES) {
      const after = tableRows(file, table).map((row) => {
        const copy = { ...row };
        for (const c of NEW_COLUMNS[table] ?? []) delete copy[c];
        return copy;
      });
      let expected = before[table];
      if (table === 'setting') expected = expected.map((r) => (r.key === 'schema_version' ? { key: 'schema_version', value: String(SCHEMA_VERSION) } : r));
      // New rows a v2 hub may add are allowed; every v1 row must be there, unchanged.
      for (const row of expected) expect(after).toContainEqual(row);
      if (table !== 'setting') expect(after).toHaveLength(expected.length);
    }
    const newColumns = tableColumns(file, 'command').filter((c) => NEW_COMMAND_COLUMNS.includes(c.name));
    expect(newColumns.map(({ name, type, notnull, dflt_value }) => ({ name, type: type.toUpperCase(), notnull, dflt_value }))).toEqual([
      { name: 'deliveries', type: 'INTEGER', notnull: 1, dflt_value: '0' },
      { name: 'retry_of', type: 'INTEGER', notnull: 0, dflt_value: null },
      { name: 'queue_pos', type: 'INTEGER', notnull: 0, dflt_value: null },
    ]);
    const deliveries = tableRows(file, 'command').map((r) => [r.status, r.deliveries, r.retry_of]);
    expect(deliveries).toEqual([
      ['done', 0, null],
      ['failed', 0, null],
      ['done', 0, null],
      ['cancelled', 0, null],
      ['claimed', 1, null],
      ['skipped', 0, null],
      ['confirmed_by_state', 0, null],
    ]);
  });

  // TypeORM's SQLite addColumns would rebuild `command` and drop the AUTOINCREMENT of v1's unquoted id.
  it('keeps the AUTOINCREMENT key of command: ids are never reused', async () => {
    createV1Database(file, (db) => {
      const b = insertBatch(db);
      for (const seq of [1, 2, 3]) insertCommand(db, { batch_id: b, seq, type: 'refresh', params: { keys: ['A-1'] }, status: 'done' });
      db.prepare('DELETE FROM command WHERE id = 3').run();
    });
    const sequenceBefore = readOnly(file, (db) => db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'command'`).get());
    expect(sequenceBefore).toEqual({ seq: 3 });
    const hub = await start();
    const sql = readOnly(file, (db) => (db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'command'`).get() as { sql: string }).sql);
    expect(sql).toMatch(/AUTOINCREMENT/i);
    const created = await hub.http
      .post('/batches')
      .send({ title: 'Новый', commands: [{ type: 'ensure_fields', params: { key: 'A-1', duedate: '2026-12-01' } }] })
      .expect(201);
    expect(created.body.commands.map((c: { id: number }) => c.id)).toEqual([4, 5]);
  });

  it('a v1 issue whose labels are not a JSON array reads as one without labels: its view, the plan and a submit answer, never a 500', async () => {
    createV1Database(file, (db) => {
      db.prepare(`INSERT INTO issue (key, summary, labels) VALUES ('A-1', 'Отчёт', 'a,b')`).run();
    });
    const hub = await start();
    expect((await hub.http.get('/issues/A-1').expect(200)).body).toMatchObject({ key: 'A-1', labels: [] });
    const body = { title: 't', commands: [{ type: 'ensure_fields', params: { key: 'A-1', labels: ['a', 'b'] } }] };
    expect((await hub.http.post('/batches/plan').send(body).expect(200)).body.commands[0].verdict).toBe('would_change');
    await hub.http.post('/batches').send(body).expect(201);
  });

  it('makes no backup of a new database', async () => {
    const hub = await start();
    await hub.http.get('/health').expect(200, HEALTHY);
    expect(existsSync(file)).toBe(true);
    expect(backupFiles(file)).toEqual([]);
    expect(migrationRows(file)).toEqual(MIGRATION_ROWS);
    await stop(hub);
    const again = await start();
    await again.http.get('/health').expect(200, HEALTHY);
    expect(backupFiles(file)).toEqual([]);
  });

  it('works in memory and makes no backups folder', async () => {
    const cwdBackups = join(process.cwd(), 'backups');
    const hadCwdBackups = existsSync(cwdBackups);
    const hub = await start({ HUB_DB_PATH: ':memory:' });
    await hub.http.get('/health').expect(200, HEALTHY);
    const created = await hub.http
      .post('/batches')
      .send({ title: 'В памяти', commands: [{ type: 'ensure_fields', params: { key: 'A-1', duedate: '2026-12-01' } }] })
      .expect(201);
    await hub.http.post('/agent/claim').send({}).expect(200);
    expect(created.body.commands).toHaveLength(2);
    expect(readdirSync(hub.dir)).toEqual([]);
    expect(existsSync(cwdBackups)).toBe(hadCwdBackups);
    expect(existsSync(join(process.cwd(), ':memory:'))).toBe(false);
  });

  describe('adoption of a database without a migrations table', () => {
    it('records the first migration as adopted and applies the second', async () => {
      createV1Database(file);
      expect(hasTable(file, 'migrations')).toBe(false);
      const hub = await start();
      await hub.http.get('/health').expect(200, HEALTHY);
      expect(migrationRows(file)).toEqual(MIGRATION_ROWS);
      expect(tableColumns(file, 'command').map((c) => c.name)).toEqual([...V1_COMMAND_COLUMNS, ...NEW_COMMAND_COLUMNS]);
    });

    it('applies only the missing migration when the first is already recorded', async () => {
      createV1Database(file, (db) => {
        db.exec('CREATE TABLE migrations (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, timestamp bigint NOT NULL, name varchar NOT NULL)');
        db.prepare('INSERT INTO migrations (timestamp, name) VALUES (?, ?)').run(1760000000000, 'SchemaV11760000000000');
      });
      const hub = await start();
      await hub.http.get('/health').expect(200, HEALTHY);
      expect(migrationRows(file)).toEqual(MIGRATION_ROWS);
      expect(backupFiles(file)).toHaveLength(1);
    });
  });

  it('two hubs starting on one v1 file at once migrate it once', async () => {
    createV1Database(file, (db) => {
      const b = insertBatch(db);
      insertCommand(db, { batch_id: b, seq: 1, type: 'ensure_sprint', params: { key: 'A-1', sprint: 'S' }, status: 'claimed', claimed_at: '2026-11-01T09:00:00.000Z' });
    });
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const [a, b] = await Promise.all([start(), start()]);
    const logged = errors.mock.calls.map((c) => String(c[0]));
    errors.mockRestore();
    for (const hub of [a, b]) await hub.http.get('/health').expect(200, HEALTHY);
    expect(migrationRows(file)).toEqual(MIGRATION_ROWS);
    expect(backupFiles(file).filter((f) => SCHEMA_BACKUP.test(f))).toHaveLength(1);
    expect(backupFiles(file)).toHaveLength(1);
    const view = await b.http.get('/commands/1').expect(200);
    expect(view.body).toMatchObject({ status: 'claimed', deliveries: 1 });
    expect(tableRows(file, 'command').map((r) => r.deliveries)).toEqual([1]);
    // The second waits for the first's lock and then finds nothing to do. A second start that failed
    // (say, by migrating again) would be hidden by TypeOrmModule's retry, which logs the failure
    // first: no start may have needed one (checked on the log, not on the wall clock).
    expect(logged).toEqual([]);
  });

  it('refuses to start on a database newer than the hub', async () => {
    createV1Database(file, (db) => db.prepare(`UPDATE setting SET value = '99' WHERE key = 'schema_version'`).run());
    await expect(start()).rejects.toThrow('схема v99');
    expect(storedSchemaVersion(file)).toBe('99');
    expect(tableColumns(file, 'command').map((c) => c.name)).toEqual(V1_COMMAND_COLUMNS);
    expect(backupFiles(file)).toEqual([]);
  });

  it('`jira-hub migrate` migrates once and then finds nothing to do', async () => {
    createV1Database(file);
    const out: string[] = [];
    const log = console.log;
    console.log = (line: string) => out.push(line);
    try {
      expect(await main(['migrate'], { HUB_DB_PATH: file, HUB_LOG_LEVEL: 'error' })).toBe(0);
      expect(await main(['migrate'], { HUB_DB_PATH: file, HUB_LOG_LEVEL: 'error' })).toBe(0);
    } finally {
      console.log = log;
    }
    expect(out[0]).toMatch(new RegExp(`^база ${file} приведена к схеме v${SCHEMA_VERSION} \\(была v1\\); копия до миграции: .*-schema-v1\\.sqlite$`));
    expect(out[1]).toBe(`схема v${SCHEMA_VERSION}: мигрировать нечего`);
    expect(storedSchemaVersion(file)).toBe(String(SCHEMA_VERSION));
    expect(backupFiles(file)).toHaveLength(1);
  });

  it('a new database and a migrated v1 database end with the same schema', async () => {
    createV1Database(file);
    await stop(await start());
    const other = join(dir, 'fresh.sqlite');
    await stop(await start({ HUB_DB_PATH: other }));
    const schema = (f: string) =>
      readOnly(f, (db) => db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all());
    expect(schema(other)).toEqual(schema(file));
    expect(JSON.stringify(schema(other))).toContain('AUTOINCREMENT');
  });

  it('hands out queued batches of an earlier hub in created_at order even when their ids disagree', async () => {
    createV1Database(file, (db) => {
      const late = insertBatch(db, { title: 'поздний', created_at: '2026-11-01T10:00:00.000Z' });
      const early = insertBatch(db, { title: 'ранний', created_at: '2026-11-01T09:00:00.000Z' });
      insertCommand(db, { batch_id: late, seq: 1, type: 'refresh', params: { keys: ['A-1'] } });
      insertCommand(db, { batch_id: early, seq: 1, type: 'refresh', params: { keys: ['A-2'] } });
    });
    const hub = await start();
    const agent = agentOf(hub);
    // remaining_seconds agrees with the claim: the earlier time is ahead (60 each)
    const remaining = async () => (await hub.http.get('/batches').expect(200)).body.map((b: { id: number; remaining_seconds: number }) => [b.id, b.remaining_seconds]);
    expect(await remaining()).toEqual([[2, 60], [1, 120]]);
    const first = (await agent.claim()).command;
    expect(first).toMatchObject({ batch_id: 2, params: { keys: ['A-2'] } });
    await agent.done(first.id, refreshResult([]));
    expect(await remaining()).toEqual([[2, 0], [1, 60]]);
    expect((await agent.claim()).command).toMatchObject({ batch_id: 1 });
  });

  it('adopts a v2 database of an earlier hub: sources, runnable batches in their old order, a pending delivery for a handed-out command', async () => {
    createV1Database(file, (db) => {
      // what an earlier v2 hub left: migration 2's columns in place, no migrations table
      db.exec(`ALTER TABLE command ADD COLUMN deliveries INTEGER NOT NULL DEFAULT 0; ALTER TABLE command ADD COLUMN retry_of INTEGER NULL;
               UPDATE setting SET value = '2' WHERE key = 'schema_version'`);
      const auto = insertBatch(db, { title: 'Автообновление', author: 'hub', created_at: '2026-11-01T09:00:00.000Z' });
      db.prepare(`INSERT INTO command (batch_id, seq, type, params, status, claimed_at, deliveries) VALUES (?, 1, 'refresh', '{"jql":"project = A"}', 'claimed', ?, 2)`).run(
        auto,
        '2026-11-01T09:01:00.000Z',
      );
      const late = insertBatch(db, { title: 'поздний', author: 'ivan', created_at: '2026-11-01T10:00:00.000Z' });
      const early = insertBatch(db, { title: 'Автообновление', author: 'ivan', created_at: '2026-11-01T09:30:00.000Z' });
      insertCommand(db, { batch_id: late, seq: 1, type: 'refresh', params: { keys: ['A-1'] } });
      insertCommand(db, { batch_id: early, seq: 1, type: 'refresh', params: { keys: ['A-2'] } });
    });
    const hub = await start();
    await hub.http.get('/health').expect(200, HEALTHY);
    expect(migrationRows(file)).toEqual(MIGRATION_ROWS);
    const batches = (await hub.http.get('/batches').expect(200)).body as { id: number; source: string; status: string; runnable_at: string; created_at: string }[];
    expect(batches.map((b) => [b.id, b.source, b.status, b.runnable_at === b.created_at])).toEqual([
      [3, 'client', 'queued', true],
      [2, 'client', 'queued', true],
      [1, 'hub', 'running', true],
    ]);
    expect((await hub.http.get('/commands/1').expect(200)).body.history).toEqual([
      { n: 2, handed_out_at: '2026-11-01T09:01:00.000Z', agent_version: null, outcome: 'pending', reported_at: null, jira_calls: null },
    ]);
    const agent = agentOf(hub);
    expect((await agent.claim()).command).toMatchObject({ id: 1, deliveries: 3 }); // re-delivered: the pending one is lost
    await agent.done(1, refreshResult([]));
    expect((await hub.http.get('/commands/1').expect(200)).body.history.map((d: { n: number; outcome: string }) => [d.n, d.outcome])).toEqual([
      [2, 'lost'],
      [3, 'reported_done'],
    ]);
    expect((await agent.claim()).command).toMatchObject({ batch_id: 3 }); // created earlier than batch 2
  });

  describe('scenario 5 on a migrated database (SPEC 6.6)', () => {
    const issue = {
      key: 'AURORA-7',
      summary: 's',
      issue_type: 'Task',
      status: 'To Do',
      sprint: 'Спринт 2',
      assignee: null,
      priority: null,
      duedate: null,
      labels: [],
      created: null,
      updated: null,
    };

    const seedTwoClaimed = (sprint: string) => (db: Db) => {
      const b1 = insertBatch(db, { title: 'Спринты', created_at: '2026-11-01T09:00:00.000Z' });
      insertCommand(db, { batch_id: b1, seq: 1, type: 'ensure_sprint', params: { key: 'AURORA-7', sprint }, status: 'claimed', pause_seconds: 120, claimed_at: '2026-11-01T09:01:00.000Z' });
      const b2 = insertBatch(db, { title: 'Обновление', created_at: '2026-11-01T09:02:00.000Z' });
      insertCommand(db, { batch_id: b2, seq: 1, type: 'refresh', params: { keys: ['AURORA-7'] }, status: 'claimed', pause_seconds: 60, claimed_at: '2026-11-01T09:03:00.000Z' });
    };

    it('a refresh showing the sprint confirms the claimed ensure_sprint; the refresh-only batch is done', async () => {
      createV1Database(file, seedTwoClaimed('Спринт 2'));
      const hub = await start();
      const report = await hub.http
        .post('/agent/commands/2/result')
        .send({ status: 'done', result: { issues: [issue], links: [] } })
        .expect(200);
      expect(report.body).toMatchObject({ id: 2, status: 'done' });

      const sprint = (await hub.http.get('/commands/1').expect(200)).body;
      expect(sprint.status).toBe('confirmed_by_state');
      expect(sprint.finished_at).toEqual(expect.any(String));
      expect(sprint.result).toEqual({ confirmed_by_sync_run: expect.any(Number) });
      const runs = (await hub.http.get('/sync-runs').expect(200)).body as { id: number; command_id: number | null; finished_at: string | null; issues: number | null }[];
      const run = runs.find((r) => r.id === sprint.result.confirmed_by_sync_run);
      expect(run).toMatchObject({ command_id: 2, issues: 1, finished_at: expect.any(String) });

      await hub.http.get('/batches/2').expect(200).expect((res) => expect(res.body.status).toBe('done'));
      await hub.http.get('/batches/1').expect(200).expect((res) => expect(res.body.status).toBe('done'));
      const mirrored = await hub.http.get('/issues/AURORA-7').expect(200);
      expect(mirrored.body).toMatchObject({ key: 'AURORA-7', sprint: 'Спринт 2' });
    });

    it('an ensure_sprint whose sprint the mirror does not show stays claimed', async () => {
      createV1Database(file, seedTwoClaimed('Спринт 3'));
      const hub = await start();
      await hub.http
        .post('/agent/commands/2/result')
        .send({ status: 'done', result: { issues: [issue], links: [] } })
        .expect(200);
      const sprint = (await hub.http.get('/commands/1').expect(200)).body;
      expect(sprint).toMatchObject({ status: 'claimed', finished_at: null, result: null, deliveries: 1 });
      await hub.http.get('/batches/2').expect(200).expect((res) => expect(res.body.status).toBe('done'));
      await hub.http.get('/batches/1').expect(200).expect((res) => expect(res.body.status).toBe('running'));
    });
  });
});
