/**
 * TypeORM's schema diff (what `synchronize` would run) between the entities and a migrated database.
 * PostgreSQL's introspection reads the migrated schema as the entities declare it, with nothing to correct;
 * on SQLite, see below.
 *
 * TypeORM's SQLite introspection reads four things of SPEC 3.1's verbatim v1 DDL differently from how an
 * entity can declare them, and we correct exactly those on the loaded tables before comparing:
 * - `key TEXT PRIMARY KEY` / `id INTEGER PRIMARY KEY` without NOT NULL: SQLite's table_info reports
 *   `notnull = 0`. An INTEGER PRIMARY KEY is the rowid and never null; a TEXT PRIMARY KEY accepts NULL
 *   only by a SQLite legacy quirk that TypeORM cannot declare (a nullable primary column is an error in
 *   TypeORM) and that the hub never uses (setting, issue, issue_note always get a key). We read primary
 *   key columns as NOT NULL;
 * - `id INTEGER PRIMARY KEY AUTOINCREMENT`: its parser finds AUTOINCREMENT only on a double-quoted column
 *   name, so the unquoted `id` of batch, command, issue_link and sync_run reads as not generated;
 * - `REFERENCES batch(id)` with no `CONSTRAINT "name"`: the foreign key loads nameless, and TypeORM
 *   matches foreign keys by name; we give it the name of the entity's key on the same columns and table
 *   (what the loader already does for a nameless UNIQUE);
 * - `CHECK (id = 1)` inline on a column: the loader reads only `CONSTRAINT "name" CHECK (...)`; we add it
 *   under the name of the entity's check with the same expression.
 *
 * What no entity can express is outside the comparison by the schema builder's own design, not by a
 * correction here: it loads only the tables and views the entities name (`getTables(entity paths)`), so
 * schema v4's SQLite-only search machinery (migrations/1764633600000-MirrorSearch.ts) is never compared —
 * the FTS5 virtual table `issue_fts`, its shadow tables (`issue_fts_data`, `_idx`, `_docsize`, `_config`)
 * and the four triggers on `issue` that fill it and `issue_label`. Everything else of v4 (columns,
 * indexes, the `issue_label` table) is declared on the Mirror entities and compared like the rest.
 */
import { DataSource, TableCheck, type Table } from 'typeorm';

async function correctLegacyIntrospection(ds: DataSource, tables: Table[]): Promise<Table[]> {
  for (const table of tables) {
    const [{ sql }] = (await ds.query(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, [table.name])) as { sql: string }[];
    const metadata = ds.entityMetadatas.find((m) => m.tableName === table.name);
    for (const column of table.columns.filter((c) => c.isPrimary)) column.isNullable = false;
    for (const m of sql.matchAll(/[(,]\s*(\w+) INTEGER PRIMARY KEY AUTOINCREMENT/gi)) {
      const column = table.columns.find((c) => c.name === m[1]);
      if (column) {
        column.isGenerated = true;
        column.generationStrategy = 'increment';
      }
    }
    for (const fk of table.foreignKeys.filter((k) => !k.name)) {
      const declared = metadata?.foreignKeys.find(
        (k) => k.referencedTablePath === fk.referencedTableName && k.columnNames.join() === fk.columnNames.join(),
      );
      if (declared) fk.name = declared.name;
    }
    for (const m of sql.matchAll(/(?<!CONSTRAINT "[^"]*" )CHECK \(([^()]*)\)/g)) {
      const declared = metadata?.checks.find((c) => c.expression === m[1]);
      if (declared && !table.checks.some((c) => c.name === declared.name)) {
        table.checks.push(new TableCheck({ name: declared.name, expression: m[1] }));
      }
    }
  }
  return tables;
}

/** The statements TypeORM's schema builder would run to make the database match the entities. */
export async function pendingSchemaChanges(ds: DataSource): Promise<string[]> {
  if (ds.options.type === 'postgres') return (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
  // better-sqlite3 has one query runner per data source: the schema builder gets this one.
  const runner = ds.createQueryRunner();
  const getTables = runner.getTables.bind(runner);
  runner.getTables = async (paths?: string[]) => correctLegacyIntrospection(ds, await getTables(paths));
  try {
    const log = await ds.driver.createSchemaBuilder().log();
    return log.upQueries.map((q) => q.query);
  } finally {
    runner.getTables = getTables;
  }
}

/** The diff test's check: fails, listing the statements, when the database and the entities differ. */
export async function expectNoSchemaDrift(ds: DataSource): Promise<void> {
  const pending = await pendingSchemaChanges(ds);
  if (pending.length) throw new Error(`the migrated schema and the entities differ; synchronize would run:\n${pending.join(';\n')}`);
}
