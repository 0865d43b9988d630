import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * remaining_seconds (SPEC 6.8, 15.2) counts the unfinished runnable commands per batch and type ahead of
 * a batch; every batch view and every batch creation asks it. With only `idx_command_runnable` (queue_pos,
 * seq) each count read the command rows and sorted them for the grouping: 35 ms with 35,000 commands
 * queued, most of a 100-command batch's cost. This index holds exactly the grouping's columns in its
 * order, so the count is an index-only scan with no sort.
 */
export class QueueLoad1764720000000 implements MigrationInterface {
  static readonly schemaVersion = 5;

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'command',
      new TableIndex({ name: 'idx_command_load', columnNames: ['queue_pos', 'batch_id', 'type'], where: "status = 'queued' AND queue_pos IS NOT NULL" }),
    );
    await q.manager.createQueryBuilder().update('setting').set({ value: '5' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('command', 'idx_command_load');
    await q.manager.createQueryBuilder().update('setting').set({ value: '4' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
