import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Schema v13: every claim asks for the last `refresh_catalogue` command (is a catalogue refresh due,
 * SPEC 16.1; CommandRepository's LAST_CATALOGUE_COMMAND_SQL). With no index on the type, both engines
 * walked the command table from the newest row back to that command, or through the whole table when
 * there was none (HUB_CATALOGUE_AUTO_REFRESH=off, or a hub that never refreshed it): 0.4 ms a claim at
 * 10,000 commands on SQLite, growing with every command. This partial index holds only those commands,
 * so the lookup is one probe however many commands there are.
 */
export class CatalogueCommandIndex1765411200000 implements MigrationInterface {
  static readonly schemaVersion = 13;

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('command', new TableIndex({ name: 'idx_command_catalogue', columnNames: ['id'], where: "type = 'refresh_catalogue'" }));
    await q.manager.createQueryBuilder().update('setting').set({ value: '13' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('command', 'idx_command_catalogue');
    await q.manager.createQueryBuilder().update('setting').set({ value: '12' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
