import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Schema v14: the Queue page's counts (GET /batches/counts) grouped the whole command table by batch
 * and status on every refresh of a dashboard: 52 ms at 200,000 commands on SQLite, run synchronously
 * on the read connection, so the event loop (and the agent's claim) waited that long. The counts need
 * only the commands still to run (the partial indexes of queued and claimed commands have them) and the
 * failed and skipped ones: this partial index holds those, so the counts read them and nothing else.
 * A command joins it only when it fails or is skipped, so the agent's hot path writes no more pages.
 */
export class UnfinishedCounts1765497600000 implements MigrationInterface {
  static readonly schemaVersion = 14;

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('command', new TableIndex({ name: 'idx_command_failed', columnNames: ['status', 'batch_id'], where: "status IN ('failed', 'skipped')" }));
    await q.manager.createQueryBuilder().update('setting').set({ value: '14' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('command', 'idx_command_failed');
    await q.manager.createQueryBuilder().update('setting').set({ value: '13' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
