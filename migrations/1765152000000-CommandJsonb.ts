import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema v10 (issue 21, scope 3): on PostgreSQL `command.params` and `command.result` become `jsonb`,
 * the columns the hub queries inside (temp keys, SPEC 6.3), and the temp-key index is PostgreSQL's own
 * expression `params ->> 'temp_key'` instead of the emulated `json_extract`. SQLite keeps its TEXT
 * columns and its `json_extract` index: only the version rises.
 */
export class CommandJsonb1765152000000 implements MigrationInterface {
  static readonly schemaVersion = 10;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') {
      await q.query('DROP INDEX idx_command_temp_key');
      await q.query('ALTER TABLE command ALTER COLUMN params TYPE jsonb USING params::jsonb, ALTER COLUMN result TYPE jsonb USING result::jsonb');
      await q.query(`CREATE INDEX idx_command_temp_key ON command ((params ->> 'temp_key'), id) WHERE type = 'ensure_issue'`);
    }
    await q.manager.createQueryBuilder().update('setting').set({ value: '10' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') {
      await q.query('DROP INDEX idx_command_temp_key');
      await q.query('ALTER TABLE command ALTER COLUMN params TYPE text USING params::text, ALTER COLUMN result TYPE text USING result::text');
      await q.query(`CREATE INDEX idx_command_temp_key ON command (((params::jsonb) ->> 'temp_key'), id) WHERE type = 'ensure_issue'`);
    }
    await q.manager.createQueryBuilder().update('setting').set({ value: '9' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
