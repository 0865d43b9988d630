import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Schema v17: an issue's history (GET /issues/{key}/changes) lists the links made or removed with it at
 * their other end too; a link's change is recorded under its source. `idx_command_change_link` holds the
 * link changes only, so that history reads them and not the whole change record.
 */
export class LinkChangesByTarget1765756800000 implements MigrationInterface {
  static readonly schemaVersion = 17;

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('command_change', new TableIndex({ name: 'idx_command_change_link', columnNames: ['id'], where: "what IN ('link', 'link_removed')" }));
    await q.manager.createQueryBuilder().update('setting').set({ value: '17' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('command_change', 'idx_command_change_link');
    await q.manager.createQueryBuilder().update('setting').set({ value: '16' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
