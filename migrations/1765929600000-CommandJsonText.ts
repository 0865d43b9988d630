import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema v19 (decision 1431): on PostgreSQL `command.params` and `command.result` become `json`, which keeps
 * the JSON text as the hub wrote it. `jsonb` (v10) stored a parsed document and gave its object keys back
 * in its own order (shorter keys first), so a command's params and result read differently from what was
 * submitted or reported, and from what SQLite shows. `->>` works on `json` as on `jsonb`: the temp-key index
 * keeps its expression. Commands stored under v10–v18 keep jsonb's order (the text as submitted is gone).
 * SQLite keeps its TEXT columns: only the version rises.
 */
export class CommandJsonText1765929600000 implements MigrationInterface {
  static readonly schemaVersion = 19;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') await this.columnsAs(q, 'json');
    await q.manager.createQueryBuilder().update('setting').set({ value: '19' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') await this.columnsAs(q, 'jsonb');
    await q.manager.createQueryBuilder().update('setting').set({ value: '18' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  private async columnsAs(q: QueryRunner, type: 'json' | 'jsonb'): Promise<void> {
    await q.query('DROP INDEX idx_command_temp_key');
    await q.query(`ALTER TABLE command ALTER COLUMN params TYPE ${type} USING params::${type}, ALTER COLUMN result TYPE ${type} USING result::${type}`);
    await q.query(`CREATE INDEX idx_command_temp_key ON command ((params ->> 'temp_key'), id) WHERE type = 'ensure_issue'`);
  }
}
