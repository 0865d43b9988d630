/**
 * PostgreSQL only (issue 13): several hubs on one database behave as one hub, the migration runs once,
 * a bad connection string stops the start with one line, and backups give way to the server's own.
 * Runs when HUB_TEST_DATABASE_URL is set (`npm run test:pg`); on a SQLite run there is nothing to test.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { ConfigError, loadConfig } from '../src/common/config.js';
import { createApp } from '../src/app.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/database/migrations.js';
import { MirrorTextParity1766016000000 } from '../migrations/1766016000000-MirrorTextParity.js';
import { SprintState1766102400000 } from '../migrations/1766102400000-SprintState.js';
import { Db } from '../src/database/db.service.js';
import { Waiters } from '../src/delivery/claim.service.js';
import { agentOf, fields, rowCounts, startHub, tempDir, type TestHub } from './support/app.js';
import { createV1Database, insertBatch, insertCommand, insertNote } from './support/legacy.js';
import { drainLossily, expectLossyInvariants } from './support/lossy.js';
import Database from 'better-sqlite3';
import pg from 'pg';
import { dataSourceOn, freshSchema, onPostgres, TEST_DATABASE_URL, undoMigration } from './support/pg.js';
import { openEvents } from './support/sse.js';
import { waitFor } from './support/wait.js';

const describePg = onPostgres ? describe : describe.skip;

/** How many tables the schema of `url` (its search_path) holds: what a refused command must not have made. */
async function tablesIn(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()`)).rows[0].n;
  } finally {
    await client.end();
  }
}

describePg('replicas on one PostgreSQL database (issue 13)', () => {
  let dir: string;
  let hubs: TestHub[] = [];
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    for (const hub of hubs.splice(0)) await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });
  /** Two hubs started at the same moment on one new database. */
  const replicas = async (n = 2, env: Record<string, string> = {}) => {
    hubs = await Promise.all(Array.from({ length: n }, () => startHub({ HUB_DB_PATH: join(dir, 'hub.sqlite'), ...env })));
    return hubs;
  };

  it('two hubs starting at once on an empty database migrate it once', async () => {
    const [a, b] = await replicas();
    const rows = await a.app.get(Db).read((m) => m.query('SELECT name FROM migrations ORDER BY id'));
    expect(rows.map((r: { name: string }) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
    await a.http.get('/health').expect(200);
    await b.http.get('/health').expect(200);
  });

  it('3 concurrent claims spread over both replicas hand out one command', async () => {
    const [a, b] = await replicas();
    const batch = (await a.http.post('/batches').send({ title: 't', commands: [fields('A-1'), fields('A-2')] }).expect(201)).body;
    const answers = await Promise.all([a, b, a].map((h) => agentOf(h).claim()));
    expect(answers.map((x) => x.command.id)).toEqual([batch.commands[0].id, batch.commands[0].id, batch.commands[0].id]);
    expect(answers.map((x) => x.command.deliveries).sort()).toEqual([1, 2, 3]);
    const view = (await b.http.get(`/batches/${batch.id}`).expect(200)).body;
    expect(view.commands.map((c: { status: string }) => c.status)).toEqual(['claimed', 'queued', 'queued']); // A-2 and the tail refresh
  });

  it('a report may reach the other replica; a long poll held on one wakes when a batch is queued on the other', async () => {
    const [a, b] = await replicas();
    // The test clock never reaches the poll's deadline: only the other replica's wake-up answers it.
    const held = agentOf(a).claim({ wait_seconds: 20 });
    await waitFor('the claim to wait on a', async () => (a.app.get(Waiters).size === 1 ? true : undefined));
    const batch = (await b.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201)).body;
    const { command } = await held;
    expect(command.id).toBe(batch.commands[0].id);
    await agentOf(b).done(command.id);
    expect((await a.http.get(`/commands/${command.id}`).expect(200)).body.status).toBe('done');
  });

  it('a settings change on one replica is seen by the next claim and GET /settings on the other', async () => {
    const [a, b] = await replicas();
    await a.http.get('/settings').expect(200);
    await b.http.patch('/settings').send({ pacing: { ensure_fields: 7 } }).expect(200);
    expect((await a.http.get('/settings').expect(200)).body).toMatchObject({ version: 2, pacing: { ensure_fields: 7 } });
    await b.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    expect(await agentOf(a).claim()).toMatchObject({ command: { pause_seconds: 7 }, settings_version: 2 });
  });

  it('a replica whose database a newer hub migrated answers 503 and writes nothing until it is updated (decision 1432)', async () => {
    const [a, b] = await replicas();
    await b.http.post('/batches').send({ title: 'до', commands: [fields('A-1')] }).expect(201);
    const before = await rowCounts(a, ['batch', 'command', 'delivery']);
    // What a newer replica's migration leaves: a schema version past this hub's.
    await a.app.get(Db).transaction((m) => m.query(`UPDATE setting SET value = '${SCHEMA_VERSION + 1}' WHERE key = 'schema_version'`));
    const newer = `базу данных обновила более новая версия хаба (схема v${SCHEMA_VERSION + 1}, эта реплика знает схемы до v${SCHEMA_VERSION})`;
    try {
      for (const hub of [a, b]) {
        const health = await hub.http.get('/health').expect(503);
        expect(health.body).toMatchObject({ error: 'unavailable' });
        expect(health.body.detail).toContain(newer);
        expect((await hub.http.post('/batches').send({ title: 'после', commands: [fields('A-2')] }).expect(503)).body.detail).toContain(newer);
        expect((await hub.http.post('/agent/claim').send({}).expect(503)).body.detail).toContain(newer);
        await hub.http.get('/issues').expect(503);
      }
    } finally {
      const client = new pg.Client({ connectionString: a.config.databaseUrl });
      await client.connect();
      await client.query(`UPDATE setting SET value = '${SCHEMA_VERSION}' WHERE key = 'schema_version'`);
      await client.end();
    }
    expect(await rowCounts(a, ['batch', 'command', 'delivery'])).toEqual(before);
    expect((await b.http.get('/health').expect(200)).body.schema_version).toBe(SCHEMA_VERSION);
  });

  it("the dashboard's events reach a page connected to the other replica, with the views read there", async () => {
    const [a, b] = await replicas();
    const stream = await openEvents(b);
    try {
      await stream.next((m) => m.event === 'hello');
      const batch = (await a.http.post('/batches').send({ title: 'через реплику', commands: [fields('A-1')] }).expect(201)).body;
      const created = await stream.next((m) => m.event === 'batch' && (m.data as { batch_id: number }).batch_id === batch.id);
      expect(created.data).toMatchObject({ change: 'created', batch: { id: batch.id, title: 'через реплику', status: 'queued' } });
      const { command } = await agentOf(a).claim();
      const claimed = await stream.next((m) => m.event === 'command' && (m.data as { change: string }).change === 'claimed');
      expect(claimed.data).toMatchObject({ command_id: command.id, command: { id: command.id, status: 'claimed' }, batch: { id: batch.id, status: 'running' } });
      // b's own events still reach its streams once: no echo of them back from a.
      await b.http.post(`/batches/${batch.id}/cancel`).expect(200);
      await stream.next((m) => m.event === 'batch' && (m.data as { change: string }).change === 'cancelled');
      await agentOf(a).done(command.id);
      await stream.next((m) => m.event === 'command' && (m.data as { change: string }).change === 'reported');
      expect(stream.messages.filter((m) => m.event === 'batch' && (m.data as { change: string }).change === 'cancelled')).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it("a page hears resync when its replica's LISTEN connection comes back: what other replicas committed meanwhile was missed", async () => {
    const [a] = await replicas(1);
    const stream = await openEvents(a);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await stream.next((m) => m.event === 'hello');
      // a failover or a pooler reset, as this hub's LISTEN connection sees it (its channels are named after its schema)
      const schema = new URL(a.config.databaseUrl!).searchParams.get('options')!.replace('-c search_path=', '');
      const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'jira-hub-listen' AND query LIKE $1`, [`%hub_${schema}_%`]);
      expect(killed.rowCount).toBe(1);
      await waitFor('the resync', () => stream.messages.find((m) => m.event === 'resync'), 15_000);
    } finally {
      stream.close();
      await admin.end();
    }
  });

  it('300 commands drained by an agent alternating replicas, with lost answers and reports: every invariant holds', async () => {
    expectLossyInvariants(await drainLossily(await replicas()));
  }, 300_000);

  it('the same drain with the merged call (each report claims the next command) across replicas', async () => {
    expectLossyInvariants(await drainLossily(await replicas(), { merged: true }));
  }, 300_000);

  it('copies no file before a batch writes; logs the time of its first write; GET /agent has no backup warning', async () => {
    const [a] = await replicas(1);
    await a.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    expect((await agentOf(a).claim()).command).toMatchObject({ deliveries: 1 });
    expect(existsSync(join(dir, 'backups'))).toBe(false);
    expect(existsSync(join(a.dir, 'backups'))).toBe(false);
    expect((await a.http.get('/agent').expect(200)).body.warning).toBeNull();
  });

  it('schema v15 computes again the search column of the issues mirrored under the old folding (decision 1419)', async () => {
    const url = await freshSchema();
    const env = { HUB_DATABASE_URL: url, HUB_LOG_LEVEL: 'error' };
    const first = await startHub(env);
    hubs.push(first);
    await first.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { jql: 'project = L' } }] }).expect(201);
    const agent = agentOf(first);
    await agent.done((await agent.claim()).command.id, { issues: [{ key: 'L-1', summary: 'Λόγος', issue_type: 'Task', status: 'To Do', labels: [] }], links: [] });
    await hubs.pop()!.close();
    // The database as a v14 hub left it: the old folding kept final ς, and the stored column was computed with it.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE OR REPLACE FUNCTION hub_search_fold(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT lower(s) $$`);
      await client.query('UPDATE issue SET summary = summary');
      await client.query(`UPDATE setting SET value = '14' WHERE key = 'schema_version'`);
      await client.query(`DELETE FROM migrations WHERE name = 'SearchFoldParity1765584000000'`);
    } finally {
      await client.end();
    }
    const second = await startHub(env);
    hubs.push(second);
    expect((await second.http.get('/health').expect(200)).body.schema_version).toBe(15);
    expect((await second.http.get(`/issues?q=${encodeURIComponent('λόγοσ')}`).expect(200)).body.map((i: { key: string }) => i.key)).toEqual(['L-1']);
  });
});

describePg('a PostgreSQL that refuses the hub (issue 13)', () => {
  it.each([
    ['nothing listens on the port', 'postgres://postgres@127.0.0.1:1/test', /не удаётся подключиться к PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:1\/test: на этом адресе и порту никто не слушает/],
    ['the database does not exist', 'postgres://postgres:secret@127.0.0.1:5432/no_such_hub_db', /PostgreSQL postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:5432\/no_such_hub_db: такой базы данных нет/],
    // The machines' server takes no SSL (their PostgreSQL is set up without it).
    ['SSL asked of a server without it', 'postgres://postgres@127.0.0.1:5432/test?sslmode=verify-full', /5432\/test\?sslmode=verify-full: сервер не принимает SSL-соединения: включите SSL на сервере или уберите sslmode из адреса$/],
  ])('%s → the start stops with one line naming the server (password hidden)', async (_, databaseUrl, message) => {
    const config = loadConfig({ HUB_DATABASE_URL: databaseUrl });
    const failure = await createApp(config, { logger: false }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).not.toContain('\n');
    const errors: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    try {
      expect(await main(['migrate'], { HUB_DATABASE_URL: databaseUrl, HUB_LOG_LEVEL: 'error' })).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it('a view of the operator’s on a column a migration changes → one Russian line naming it, nothing changed; without the view the start goes on', async () => {
    const url = await freshSchema();
    await (await createApp(loadConfig({ HUB_DATABASE_URL: url }), { logger: false })).close();
    // The schema as v19 left it (v20 changes the collation of issue.key), and a view of the operator's on that column.
    const ds = await dataSourceOn(url);
    try {
      await undoMigration(ds, SprintState1766102400000);
      await undoMigration(ds, MirrorTextParity1766016000000);
      await ds.query('CREATE VIEW report_keys AS SELECT key FROM issue');
      const failure = await createApp(loadConfig({ HUB_DATABASE_URL: url }), { logger: false }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(ConfigError);
      expect((failure as Error).message).toBe(
        'схему хаба не обновить: от её таблиц зависят объекты, созданные не хабом (rule _RETURN on view report_keys depends on column "key"); удалите их (например, DROP VIEW …), запустите хаб или jira-hub migrate и создайте их снова — база не изменена',
      );
      expect((await ds.query(`SELECT value FROM setting WHERE key = 'schema_version'`))[0].value).toBe(String(MirrorTextParity1766016000000.schemaVersion - 1));
      await ds.query('DROP VIEW report_keys');
    } finally {
      await ds.destroy();
    }
    const hub = await createApp(loadConfig({ HUB_DATABASE_URL: url }), { logger: false });
    try {
      expect((await hub.get(Db).read((m) => m.query(`SELECT value FROM setting WHERE key = 'schema_version'`)))[0].value).toBe(String(SCHEMA_VERSION));
    } finally {
      await hub.close();
    }
  });

  it('`jira-hub serve` prints that one line only: no Nest ERROR blocks with stack traces before it (issue 21.9)', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => void written.push(String(chunk));
    const spies = [
      jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (capture(chunk), true)),
      jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (capture(chunk), true)),
      jest.spyOn(console, 'log').mockImplementation(capture),
      jest.spyOn(console, 'error').mockImplementation(capture),
    ];
    try {
      expect(await main(['serve'], { HUB_DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:1/test', HUB_PORT: '0' })).toBe(2);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    // (Node's own warning about jest's VM modules may land here when this test loads them first.)
    expect(written.filter((w) => !/ExperimentalWarning|--trace-warnings/.test(w))).toEqual(['jira-hub: не удаётся подключиться к PostgreSQL postgres://postgres:***@127.0.0.1:1/test: на этом адресе и порту никто не слушает']);
  });

  it('a search_path naming no schema, or a user who may not create tables: one Russian line and exit 2, for serve and migrate', async () => {
    const url = new URL(TEST_DATABASE_URL!);
    url.searchParams.set('options', '-c search_path=no_such_schema_here');
    const role = `hub_nocreate_${process.pid}`;
    const schema = await freshSchema();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    // it may use the schema, not create in it
    await admin.query(`GRANT USAGE ON SCHEMA ${/search_path=(\w+)/.exec(new URL(schema).searchParams.get('options') ?? '')![1]} TO ${role}`);
    const written: string[] = [];
    const capture = (chunk: unknown) => void written.push(String(chunk));
    const spies = [jest.spyOn(console, 'log').mockImplementation(capture), jest.spyOn(console, 'error').mockImplementation(capture)];
    try {
      const noCreate = new URL(schema);
      noCreate.username = role;
      for (const [env, text] of [
        [{ HUB_DATABASE_URL: url.toString() }, 'в PostgreSQL нет схемы для таблиц хаба'],
        [{ HUB_DATABASE_URL: noCreate.toString() }, 'пользователю PostgreSQL не хватает прав, чтобы создать или обновить схему хаба'],
      ] as const) {
        for (const command of [['migrate'], ['serve']]) {
          written.length = 0;
          expect(await main(command, { ...env, HUB_PORT: '0', HUB_LOG_LEVEL: 'error' })).toBe(2);
          expect(written.filter((w) => !/ExperimentalWarning|--trace-warnings/.test(w))).toEqual([expect.stringContaining(`jira-hub: ${text}`)]);
        }
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
      await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.end();
    }
  });

  it('a role that may only read and write the tables runs a current schema; a server open only for reading is refused in one Russian line, exit 2', async () => {
    const schema = await freshSchema();
    const name = /search_path=(\w+)/.exec(new URL(schema).searchParams.get('options') ?? '')![1];
    const written: string[] = [];
    const capture = (chunk: unknown) => void written.push(String(chunk));
    const spies = [jest.spyOn(console, 'log').mockImplementation(capture), jest.spyOn(console, 'error').mockImplementation(capture)];
    const role = `hub_dml_${process.pid}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      expect(await main(['migrate'], { HUB_DATABASE_URL: schema, HUB_LOG_LEVEL: 'error' })).toBe(0);
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      await admin.query(`GRANT USAGE ON SCHEMA ${name} TO ${role}`);
      await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${name} TO ${role}`);
      await admin.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${name} TO ${role}`);
      const dml = new URL(schema);
      dml.username = role;
      // The schema is current: no DDL, not even the search functions, which are the owner's.
      expect(await main(['migrate'], { HUB_DATABASE_URL: dml.toString(), HUB_LOG_LEVEL: 'error' })).toBe(0);
      const readOnly = new URL(schema);
      readOnly.searchParams.set('options', `${readOnly.searchParams.get('options')} -c default_transaction_read_only=on`);
      for (const command of [['migrate'], ['serve']]) {
        written.length = 0;
        expect(await main(command, { HUB_DATABASE_URL: readOnly.toString(), HUB_PORT: '0', HUB_LOG_LEVEL: 'error' })).toBe(2);
        expect(written.filter((w) => !/ExperimentalWarning|--trace-warnings/.test(w))).toEqual([expect.stringContaining('jira-hub: PostgreSQL по этому адресу открыт только для чтения')]);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
      await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.end();
    }
  });

  it('import, plan, apply and export against a schema with no hub refuse in one line and create nothing (as for a missing SQLite file)', async () => {
    const url = await freshSchema();
    const folder = tempDir();
    writeFileSync(join(folder, 'issues.csv'), 'key,duedate\nAURORA-1,2026-12-01\n');
    writeFileSync(join(folder, 'notes.csv'), 'key,comment\nAURORA-1,заметка\n');
    const errors: string[] = [];
    const spies = [jest.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line)), jest.spyOn(console, 'log').mockImplementation(() => undefined)];
    try {
      for (const args of [['plan', folder], ['apply', folder], ['import', folder], ['export', join(folder, 'out'), '--jql', 'project = AURORA']]) {
        errors.length = 0;
        expect(await main(args, { HUB_DATABASE_URL: url, HUB_LOG_LEVEL: 'error' })).toBe(2);
        expect(errors).toEqual([expect.stringMatching(/^jira-hub: в PostgreSQL postgres:.* нет базы хаба \(в схеме из search_path нет его таблиц\)/)]);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
      rmSync(folder, { recursive: true, force: true });
    }
    expect(await tablesIn(url)).toBe(0);
  });

  it('`jira-hub migrate` migrates an empty database once and then finds nothing to do', async () => {
    const env = { HUB_DATABASE_URL: await freshSchema(), HUB_LOG_LEVEL: 'error' };
    const lines: string[] = [];
    const spy = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      expect(await main(['migrate'], env)).toBe(0);
      expect(await main(['migrate'], env)).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(lines[0]).toMatch(new RegExp(`^база postgres://.* создана, схема v${SCHEMA_VERSION}$`));
    expect(lines[1]).toBe(`схема v${SCHEMA_VERSION}: мигрировать нечего`);
  });
});

describePg('moving up from SQLite: migrate --from-sqlite (issue 13)', () => {
  let dir: string;
  const hubs: TestHub[] = [];
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    for (const hub of hubs.splice(0)) await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const sqliteHub = async (file: string) => {
    const hub = await startHub({ HUB_DB_PATH: file, HUB_DATABASE_URL: '' }); // SQLite, whatever the run
    hubs.push(hub);
    return hub;
  };
  const pgHub = async (url: string) => {
    const hub = await startHub({ HUB_DATABASE_URL: url });
    hubs.push(hub);
    return hub;
  };
  /** What a client sees of a hub: batches with their commands, the mirror, notes, sync runs. */
  const views = async (hub: TestHub) => {
    const batches = (await hub.http.get('/batches?limit=100').expect(200)).body;
    const details = [];
    for (const b of batches) details.push((await hub.http.get(`/batches/${b.id}`).expect(200)).body);
    return {
      batches,
      details,
      issues: (await hub.http.get('/issues').expect(200)).body,
      notes: (await hub.http.get('/notes').expect(200)).body,
      syncRuns: (await hub.http.get('/sync-runs').expect(200)).body,
      settings: (await hub.http.get('/settings').expect(200)).body,
    };
  };
  /** `migrate --from-sqlite`: its exit code, and what it printed to stdout (lines) and stderr (errors). */
  const copy = async (file: string, url: string) => {
    const [lines, errors]: string[][] = [[], []];
    const spies = [jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line)), jest.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line))];
    try {
      return { code: await main(['migrate', '--from-sqlite', file], { HUB_DATABASE_URL: url, HUB_LOG_LEVEL: 'error' }), lines, errors };
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  };

  it('copies a v1 database: equal row counts, the same views, ids go on after the largest', async () => {
    const file = join(dir, 'v1.sqlite');
    createV1Database(file, (db) => {
      const b = insertBatch(db, { created_at: '2026-11-01T09:00:00.000Z' });
      insertCommand(db, { batch_id: b, seq: 1, type: 'ensure_fields', params: { key: 'A-1', duedate: '2026-12-01' }, status: 'done', finished_at: '2026-11-01T09:05:00.000Z', result: {} });
      insertCommand(db, { batch_id: b, seq: 2, type: 'ensure_comment', params: { key: 'A-1', body: 'x' } });
      insertNote(db, { key: 'A-1', comment: 'заметка' });
    });
    const url = await freshSchema();
    const { code, lines } = await copy(file, url);
    expect(code).toBe(0);
    expect(lines.join('\n')).toMatch(/command: 2 → 2/);
    const pg = await views(await pgHub(url));
    const sqlite = await views(await sqliteHub(file));
    expect(pg).toEqual(sqlite);
    const next = (await hubs[0].http.post('/batches').send({ title: 't', commands: [fields('A-2')] }).expect(201)).body;
    expect(next.id).toBe(sqlite.batches[0].id + 1);
  });

  it('a table the hub does not make in the file is refused in one Russian line, before the target is touched', async () => {
    const file = join(dir, 'own.sqlite');
    await (await sqliteHub(file)).close();
    hubs.length = 0;
    const db = new Database(file);
    db.exec('CREATE TABLE my_notes (a INTEGER)');
    db.close();
    const url = await freshSchema();
    const { code, errors } = await copy(file, url);
    expect(code).toBe(2);
    expect(errors).toEqual(['jira-hub: в файле SQLite есть таблицы не хаба: my_notes — в PostgreSQL им места нет; перенесите их сами и удалите из копии файла, которую переносите']);
    expect(await tablesIn(url)).toBe(0);
  });

  it('copies a v2 database with live rows (claimed, done, mirror, notes, sync runs) and refuses a non-empty target', async () => {
    const file = join(dir, 'v2.sqlite');
    const old = await sqliteHub(file);
    const agent = agentOf(old);
    await old.http.patch('/settings').send({ pacing: { ensure_fields: 5 } }).expect(200);
    await old.http.put('/notes/A-1').send({ fact_status: 'в работе', comment: 'важно' }).expect(200);
    await old.http.post('/batches').send({ title: 'первый', commands: [fields('A-1'), fields('A-2')] }).expect(201);
    // a change record: its rows name the delivery that carried them (command_change → delivery)
    const change = { key: 'A-1', what: 'field:duedate', before: null, after: '2026-12-01' };
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [change] }).expect(200);
    await agent.claim(); // A-2 stays claimed
    await old.http.post('/batches').send({ title: 'второй', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] }).expect(201);
    const before = await views(old);
    await hubs.pop()!.app.close();
    // The stopped hub's WAL file is read without making -wal and -shm beside it (decision 1440).
    const folder = readdirSync(dir).sort();
    expect(folder.filter((f) => f.startsWith('v2.sqlite'))).toEqual(['v2.sqlite']);
    const url = await freshSchema();
    expect((await copy(file, url)).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(folder);
    const hub = await pgHub(url);
    expect(await views(hub)).toEqual(before);
    const again = await copy(file, url);
    expect(again.code).toBe(2);
    expect(again.errors[0]).toMatch(/не пуста/);
    expect(await views(hub)).toEqual(before);
  });
});
