import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Schema v16 (decision 1422): `package.applied_from` — the stored package a package was applied again
 * from (`POST /packages/{id}/apply`), null for a package applied from files. A package's temp keys mean
 * the issues of its line: what they meant for the first package's batch, then what the batches of the
 * packages applied again from it, and the retries of their commands, created since. In place on both
 * engines (as migration 2 does: TypeORM's SQLite addColumns rebuilds the table). `idx_command_retry`
 * finds the retries of a command: it holds only retries (rare), so the agent's hot path writes no more pages.
 */
export class PackageLineage1765670400000 implements MigrationInterface {
  static readonly schemaVersion = 16;

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE package ADD COLUMN applied_from INTEGER NULL');
    await q.createIndex('command', new TableIndex({ name: 'idx_command_retry', columnNames: ['retry_of'], where: 'retry_of IS NOT NULL' }));
    await q.manager.createQueryBuilder().update('setting').set({ value: '16' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('command', 'idx_command_retry');
    await q.query('ALTER TABLE package DROP COLUMN applied_from');
    await q.manager.createQueryBuilder().update('setting').set({ value: '15' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
