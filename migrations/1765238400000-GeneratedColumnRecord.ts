import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema v11 (issue 21, scope 3): on PostgreSQL, TypeORM's record of the generated column `issue.search`
 * (schema v4), kept where TypeORM keeps it — the `typeorm_metadata` table, in TypeORM's shape — because
 * PostgreSQL reformats a generation expression and TypeORM compares the entity's text with this record.
 * With it the entity declares the column and the schema diff reads it back (test/schema.e2e-spec.ts).
 * SQLite has no such column: only the version rises.
 */
export class GeneratedColumnRecord1765238400000 implements MigrationInterface {
  static readonly schemaVersion = 11;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') {
      await q.query(
        `CREATE TABLE IF NOT EXISTS typeorm_metadata (type varchar NOT NULL, database varchar, schema varchar, "table" varchar, name varchar, value text)`,
      );
      await q.query(
        `INSERT INTO typeorm_metadata (type, database, schema, "table", name, value)
         VALUES ('GENERATED_COLUMN', current_database(), current_schema(), 'issue', 'search', $1)`,
        [`to_tsvector('simple', hub_search_text(key, summary))`],
      );
    }
    await q.manager.createQueryBuilder().update('setting').set({ value: '11' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') {
      await q.query(`DELETE FROM typeorm_metadata WHERE type = 'GENERATED_COLUMN' AND "table" = 'issue' AND name = 'search'`);
    }
    await q.manager.createQueryBuilder().update('setting').set({ value: '10' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
