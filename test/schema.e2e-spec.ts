/**
 * Issue 9, scope 4: the entities are the source of truth. A database built by the migrations (fresh, or a
 * v1 database made by an earlier hub and adopted) has exactly the schema the entities declare: TypeORM's
 * schema builder finds nothing to change.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { Column, DataSource, Entity } from 'typeorm';
import { dataSourceOptions, ENTITIES } from '../src/database/data-source.js';
import { HubDataSource } from '../src/database/engine-schema.js';
import { PackageEntity } from '../src/packages/package.entity.js';
import { migrate, MIGRATIONS_TABLE } from '../src/database/migrate.js';
import { MIGRATIONS } from '../src/database/migrations.js';
import { snakeCase } from '../src/database/row.js';
import { createV1Database, insertBatch, insertCommand } from './support/legacy.js';
import { tempDir } from './support/app.js';
import { expectNoSchemaDrift, pendingSchemaChanges } from './support/schema-diff.js';
import { freshSchema, onPostgres } from './support/pg.js';
import { CommandRepository } from '../src/queue/command.repository.js';

/** The package table as an entity that drifted: a column no migration makes. */
@Entity('package')
class DriftedPackageEntity extends PackageEntity {
  @Column('integer', { name: 'planted', nullable: true })
  planted!: number | null;
}

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('schema diff on %s: entities = migrated schema (issue 21.3)', (_engine, pg) => {
  const run = pg && !onPostgres ? it.skip : it;
  let ds: DataSource | undefined;
  afterEach(async () => {
    if (ds?.isInitialized) await ds.destroy();
  });
  /** A fresh database migrated to the current version, read through `entities`. */
  const migrated = async (entities: Function[] = ENTITIES) => {
    const file = join(tempDir(), 'hub.sqlite');
    const options = pg ? dataSourceOptions({ dbPath: '', databaseUrl: await freshSchema() }) : dataSourceOptions({ dbPath: file });
    ds = await new HubDataSource({ ...options, entities }).initialize();
    await migrate(ds, { file: pg ? null : file });
    return ds;
  };

  run('a fresh database migrated to the current version has no schema diff against the entities', async () => {
    await expectNoSchemaDrift(await migrated());
  });

  run('the check fails on a planted drift: an entity with a column no migration makes', async () => {
    const drifted = await migrated(ENTITIES.map((e) => (e === PackageEntity ? DriftedPackageEntity : e)));
    // PostgreSQL adds the column; SQLite rebuilds the table with it.
    await expect(expectNoSchemaDrift(drifted)).rejects.toThrow(pg ? /ALTER TABLE "package" ADD "planted" integer/ : /CREATE TABLE "temporary_package" \(.*"planted" integer\)/);
  });
});

describe('schema: entities = migrations', () => {
  let ds: DataSource | undefined;
  afterEach(async () => {
    if (ds?.isInitialized) await ds.destroy();
  });

  it('a v1 database made by an earlier hub, adopted and migrated, has no schema diff either', async () => {
    const file = join(tempDir(), 'hub.sqlite');
    createV1Database(file, (db) => {
      const batch = insertBatch(db);
      insertCommand(db, { batch_id: batch, seq: 1, type: 'ensure_comment', params: { key: 'P-1', body: 'x' } });
    });
    ds = await new HubDataSource(dataSourceOptions({ dbPath: file })).initialize();
    await migrate(ds, { file });
    const pending = await pendingSchemaChanges(ds);
    if (pending.length) console.log(`pending schema changes:\n${pending.join(';\n')}`);
    expect(pending).toEqual([]);
  });

  it('the diff sees a difference: a migrated database missing one declared index gets it created', async () => {
    const file = join(tempDir(), 'hub.sqlite');
    ds = await new HubDataSource(dataSourceOptions({ dbPath: file })).initialize();
    await migrate(ds, { file });
    await ds.query('DROP INDEX idx_batch_queue_pos');
    expect(await pendingSchemaChanges(ds)).toEqual([expect.stringContaining('CREATE INDEX "idx_batch_queue_pos" ON "batch" ("queue_pos")')]);
  });

  it('keeps the expression index the entities cannot declare (idx_command_temp_key) and uses it for temp keys', async () => {
    const file = join(tempDir(), 'hub.sqlite');
    ds = await new HubDataSource(dataSourceOptions({ dbPath: file })).initialize();
    await migrate(ds, { file });
    const [index] = await ds.query(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'idx_command_temp_key'`);
    expect(index.sql).toContain(`json_extract(params, '$.temp_key')`);
    const plan: { detail: string }[] = await ds.query(
      `EXPLAIN QUERY PLAN SELECT id FROM command WHERE type = 'ensure_issue' AND json_extract(params, '$.temp_key') = 'tmp-1'`,
    );
    expect(plan.map((p) => p.detail).join()).toContain('idx_command_temp_key');
  });

  it('keeps the search machinery no entity can declare (issue_fts and its triggers), and the diff leaves it alone', async () => {
    const file = join(tempDir(), 'hub.sqlite');
    ds = await new HubDataSource(dataSourceOptions({ dbPath: file })).initialize();
    await migrate(ds, { file });
    expect(await pendingSchemaChanges(ds)).toEqual([]);
    const objects: { type: string; name: string }[] = await ds.query(
      `SELECT type, name FROM sqlite_master WHERE name = 'issue_fts' OR (type = 'trigger' AND tbl_name = 'issue') ORDER BY name`,
    );
    expect(objects).toEqual([
      { type: 'table', name: 'issue_fts' },
      { type: 'trigger', name: 'issue_labels_update' },
      { type: 'trigger', name: 'issue_search_delete' },
      { type: 'trigger', name: 'issue_search_insert' },
      { type: 'trigger', name: 'issue_search_update' },
    ]);
  });

  it('names every column in snake_case of its property, so RowOf<Entity> is the raw row type', async () => {
    ds = await new HubDataSource(dataSourceOptions({ dbPath: ':memory:' })).initialize();
    const mismatches = ds.entityMetadatas.flatMap((m) =>
      m.columns.filter((c) => c.databaseName !== snakeCase(c.propertyName)).map((c) => `${m.tableName}.${c.databaseName} ← ${c.propertyName}`),
    );
    expect(mismatches).toEqual([]);
  });
});

(onPostgres ? describe : describe.skip)('schema on PostgreSQL: command JSON is json, queried inside with ->> (issue 21.3, decision 1431)', () => {
  let ds: DataSource | undefined;
  afterEach(async () => {
    if (ds?.isInitialized) await ds.destroy();
  });

  it('a v9 database of an earlier hub (TEXT JSON, the json_extract index, the emulated functions) is upgraded: json, the native index, no emulation, data kept', async () => {
    ds = await new HubDataSource(dataSourceOptions({ dbPath: '', databaseUrl: await freshSchema() })).initialize();
    await migrate(ds, { file: null });
    // Back to v9 by the migrations' own down steps, then what an earlier hub had there.
    const q = ds.createQueryRunner();
    try {
      for (const m of MIGRATIONS.filter((m) => m.schemaVersion > 9).reverse()) {
        await new m().down(q);
        await q.query(`DELETE FROM ${MIGRATIONS_TABLE} WHERE name = $1`, [m.name]);
      }
    } finally {
      await q.release();
    }
    await ds.query(`CREATE FUNCTION json_extract(doc text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT doc::jsonb #>> string_to_array(substr(path, 3), '.') $$`);
    await ds.query(`CREATE FUNCTION instr(s text, sub text) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT strpos(s, sub) $$`);
    await ds.query(`CREATE FUNCTION hub_lower(s text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT lower(s) $$`);
    await ds.query('DROP INDEX idx_command_temp_key');
    await ds.query(`CREATE INDEX idx_command_temp_key ON command (json_extract(params, '$.temp_key'), id) WHERE type = 'ensure_issue'`);
    await ds.query(`INSERT INTO batch (title, author, created_at) VALUES ('t', 'a', '2026-12-01T00:00:00.000Z')`);
    await ds.query(`INSERT INTO command (batch_id, seq, type, params, status, result) VALUES (1, 1, 'ensure_issue', '{"temp_key":"new:1","summary":"a"}', 'done', '{"key":"A-7"}')`);
    expect(await ds.query(`SELECT value FROM setting WHERE key = 'schema_version'`)).toEqual([{ value: '9' }]);

    const result = await migrate(ds, { file: null });
    expect(result).toMatchObject({ from: 9, to: MIGRATIONS.at(-1)!.schemaVersion });
    const [row]: { params: unknown; result: unknown }[] = await ds.query(`SELECT params, result FROM command`);
    expect(row).toEqual({ params: { temp_key: 'new:1', summary: 'a' }, result: { key: 'A-7' } });
    expect(await new CommandRepository().resolvedKey(ds.manager, 'new:1')).toBe('A-7');
    const functions: { proname: string }[] = await ds.query(
      `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema() AND p.proname IN ('json_extract', 'instr', 'hub_lower')`,
    );
    expect(functions).toEqual([]);
    const [{ def }]: { def: string }[] = await ds.query(`SELECT pg_get_indexdef('idx_command_temp_key'::regclass) AS def`);
    expect(def).toContain(`((params ->> 'temp_key'::text)), id)`);
    await expectNoSchemaDrift(ds);
  });

  it('command.params and command.result are json, temp keys resolve with ->> through idx_command_temp_key, no SQLite function is emulated', async () => {
    ds = await new HubDataSource(dataSourceOptions({ dbPath: '', databaseUrl: await freshSchema() })).initialize();
    await migrate(ds, { file: null });
    const types: { column_name: string; data_type: string }[] = await ds.query(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'command' AND column_name IN ('params', 'result') ORDER BY column_name`,
    );
    expect(types).toEqual([
      { column_name: 'params', data_type: 'json' },
      { column_name: 'result', data_type: 'json' },
    ]);
    const [{ def }]: { def: string }[] = await ds.query(`SELECT pg_get_indexdef('idx_command_temp_key'::regclass) AS def`);
    expect(def).toContain(`((params ->> 'temp_key'::text)), id) WHERE (type = 'ensure_issue'::text)`);
    await ds.query(`INSERT INTO batch (title, author, created_at) VALUES ('t', 'a', '2026-12-01T00:00:00.000Z')`);
    await ds.query(
      `INSERT INTO command (batch_id, seq, type, params, status, result) VALUES
         (1, 1, 'ensure_issue', $1, 'done', $2), (1, 2, 'ensure_issue', $3, 'queued', NULL)`,
      [JSON.stringify({ temp_key: 'new:1', summary: 'a' }), JSON.stringify({ key: 'A-7' }), JSON.stringify({ temp_key: 'new:2', summary: 'b' })],
    );
    const [row]: { params: unknown; result: unknown }[] = await ds.query(`SELECT params, result FROM command WHERE seq = 1`);
    expect(row).toEqual({ params: { temp_key: 'new:1', summary: 'a' }, result: { key: 'A-7' } });
    expect(await new CommandRepository().resolvedKey(ds.manager, 'new:1')).toBe('A-7');
    expect([...(await new CommandRepository().pendingTempKeys(ds.manager))]).toEqual(['new:2']);
    // PostgreSQL's own functions only: none of SQLite's emulated, the search's folding kept for issue.search.
    const functions: { proname: string }[] = await ds.query(
      `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema() AND p.prokind = 'f' ORDER BY p.proname`,
    );
    expect(functions.map((f) => f.proname).filter((f) => ['json_extract', 'instr', 'hub_lower', 'hub_search_fold', 'hub_search_text'].includes(f))).toEqual([
      'hub_search_fold',
      'hub_search_text',
    ]);
    const q = ds.createQueryRunner();
    try {
      await q.query('BEGIN');
      await q.query('SET LOCAL enable_seqscan = off');
      const plan: { 'QUERY PLAN': string }[] = await q.query(`EXPLAIN SELECT id FROM command WHERE type = 'ensure_issue' AND (params ->> 'temp_key') = 'new:1'`);
      expect(plan.map((p) => p['QUERY PLAN']).join('\n')).toContain('idx_command_temp_key');
      await q.query('ROLLBACK');
    } finally {
      await q.release();
    }
  });
});
