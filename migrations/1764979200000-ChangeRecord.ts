import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

const text = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'text', isNullable: true, ...extra });
const int = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'integer', isNullable: true, ...extra });

/**
 * Schema v8 (SPEC 17): the change record and revert. `command_change` holds what each command changed in
 * Jira as the agent reported it with `done` (one row per change, with the delivery that reported it);
 * `batch.revert_of` names the batch a «Откат пакета #id» batch reverts, so a second revert is refused.
 * Nothing to backfill: commands finished before this version reported no changes.
 */
export class ChangeRecord1764979200000 implements MigrationInterface {
  static readonly schemaVersion = 8;

  async up(q: QueryRunner): Promise<void> {
    const column = new TableColumn({ name: 'revert_of', type: 'integer', isNullable: true });
    // SQLite in place, as migrations 2 and 3 do (TypeORM's SQLite addColumn rebuilds the table).
    if (q.connection.driver.options.type === 'better-sqlite3') await q.query('ALTER TABLE batch ADD COLUMN revert_of INTEGER NULL');
    else await q.addColumn('batch', column);
    await q.createIndex('batch', new TableIndex({ name: 'idx_batch_revert_of', columnNames: ['revert_of'], where: 'revert_of IS NOT NULL' }));
    await q.createTable(
      new Table({
        name: 'command_change',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const },
          int('command_id', { isNullable: false }),
          int('delivery_id'),
          int('seq', { isNullable: false }),
          text('issue_key'),
          text('what', { isNullable: false }),
          text('before'),
          text('after'),
          text('transitions'),
          text('recorded_at', { isNullable: false }),
        ],
        foreignKeys: [
          { columnNames: ['command_id'], referencedTableName: 'command', referencedColumnNames: ['id'] },
          { columnNames: ['delivery_id'], referencedTableName: 'delivery', referencedColumnNames: ['id'] },
        ],
        indices: [
          { name: 'idx_command_change_command', columnNames: ['command_id', 'seq'], isUnique: true },
          { name: 'idx_command_change_issue', columnNames: ['issue_key', 'id'] },
        ],
      }),
    );
    await q.manager.createQueryBuilder().update('setting').set({ value: '8' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('command_change');
    await q.dropIndex('batch', 'idx_batch_revert_of');
    await q.dropColumn('batch', 'revert_of');
    await q.manager.createQueryBuilder().update('setting').set({ value: '7' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
