import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Schema v9 (SPEC 18): the `package` table — a planning package as applied (its CSV files as JSON text),
 * and the batch its apply submitted (null when Jira already matched and nothing was submitted). The
 * latest package of a name is what drift compares the mirror with.
 */
export class PlanningPackages1765065600000 implements MigrationInterface {
  static readonly schemaVersion = 9;

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'package',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'text', isNullable: false },
          { name: 'files', type: 'text', isNullable: false },
          { name: 'created_at', type: 'text', isNullable: false },
          { name: 'batch_id', type: 'integer', isNullable: true },
        ],
        indices: [
          { name: 'idx_package_batch', columnNames: ['batch_id'] },
          { name: 'idx_package_name', columnNames: ['name', 'id'] },
        ],
      }),
    );
    await q.manager.createQueryBuilder().update('setting').set({ value: '9' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('package');
    await q.manager.createQueryBuilder().update('setting').set({ value: '8' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
