import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

const text = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'text', isNullable: true, ...extra });
const int = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'integer', isNullable: true, ...extra });
const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };

/**
 * Schema v3 (SPEC 15): a batch's `source` and approval, the queue position a batch gets when it becomes
 * runnable, the `delivery` history of handouts, and the idempotency keys of POST /batches.
 *
 * Existing batches were all runnable when made: their `runnable_at` is `created_at` and their queue
 * position follows (created_at, id) — the order an earlier hub claimed them in, also for batches whose
 * times disagree with their ids. An auto-refresh («Автообновление» by `hub`) gets source `hub`, every
 * other batch `client`. A command handed out now gets its pending delivery row (its delivery count,
 * its `claimed_at`); finished commands have no history before this version.
 */
export class ApprovalHistory1764547200000 implements MigrationInterface {
  static readonly schemaVersion = 3;

  async up(q: QueryRunner): Promise<void> {
    const sqlite = q.connection.driver.options.type === 'better-sqlite3';
    const batchColumns = [
      new TableColumn({ name: 'source', type: 'text', isNullable: false, default: "'client'" }),
      new TableColumn({ name: 'awaiting_approval_since', type: 'text', isNullable: true }),
      new TableColumn({ name: 'approved_by', type: 'text', isNullable: true }),
      new TableColumn({ name: 'approved_at', type: 'text', isNullable: true }),
      new TableColumn({ name: 'rejected_reason', type: 'text', isNullable: true }),
      new TableColumn({ name: 'runnable_at', type: 'text', isNullable: true }),
      new TableColumn({ name: 'queue_pos', type: 'integer', isNullable: true }),
    ];
    const commandColumns = [new TableColumn({ name: 'queue_pos', type: 'integer', isNullable: true })];
    if (sqlite) {
      // In place, as migration 2 does: TypeORM's SQLite addColumns rebuilds the table and drops the
      // AUTOINCREMENT of the unquoted `id` of databases made by earlier hubs.
      const add = async (table: string, c: TableColumn) =>
        q.query(`ALTER TABLE ${table} ADD COLUMN ${c.name} ${c.type.toUpperCase()} ${c.isNullable ? 'NULL' : `NOT NULL DEFAULT ${c.default}`}`);
      for (const c of batchColumns) await add('batch', c);
      for (const c of commandColumns) await add('command', c);
    } else {
      await q.addColumns('batch', batchColumns);
      await q.addColumns('command', commandColumns);
    }
    await q.query(`UPDATE batch SET source = 'hub' WHERE title = 'Автообновление' AND author = 'hub'`);
    await q.query(
      `UPDATE batch SET runnable_at = created_at, queue_pos = r.pos
         FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS pos FROM batch) AS r WHERE r.id = batch.id`,
    );
    await q.query('UPDATE command SET queue_pos = (SELECT queue_pos FROM batch WHERE batch.id = command.batch_id)');
    // The next runnable command in queue order (queue_pos, seq): one probe. Commands of a batch that
    // waits for approval have no position and are not in it.
    await q.createIndex(
      'command',
      new TableIndex({ name: 'idx_command_runnable', columnNames: ['queue_pos', 'seq'], where: "status = 'queued' AND queue_pos IS NOT NULL" }),
    );
    // The last queue place, for the next batch that becomes runnable.
    await q.createIndex('batch', new TableIndex({ name: 'idx_batch_queue_pos', columnNames: ['queue_pos'] }));
    await q.createIndex(
      'batch',
      new TableIndex({ name: 'idx_batch_awaiting', columnNames: ['id'], where: 'awaiting_approval_since IS NOT NULL AND approved_at IS NULL AND cancelled_at IS NULL' }),
    );

    await q.createTable(
      new Table({
        name: 'delivery',
        columns: [
          id,
          int('command_id', { isNullable: false }),
          int('n', { isNullable: false }),
          text('handed_out_at', { isNullable: false }),
          text('agent_version'),
          text('outcome', { isNullable: false, default: "'pending'" }),
          text('reported_at'),
          int('jira_calls'),
        ],
        foreignKeys: [{ columnNames: ['command_id'], referencedTableName: 'command', referencedColumnNames: ['id'] }],
        indices: [{ name: 'idx_delivery_command', columnNames: ['command_id', 'n'], isUnique: true }],
      }),
    );
    await q.query(
      `INSERT INTO delivery (command_id, n, handed_out_at, agent_version, outcome)
       SELECT c.id, CASE WHEN c.deliveries > 1 THEN c.deliveries ELSE 1 END, c.claimed_at,
              (SELECT agent_version FROM agent_status WHERE id = 1), 'pending'
         FROM command c WHERE c.status = 'claimed' AND c.claimed_at IS NOT NULL`,
    );

    await q.createTable(
      new Table({
        name: 'idempotency_key',
        columns: [
          text('key', { isPrimary: true, isNullable: false }),
          text('body_hash', { isNullable: false }),
          int('batch_id', { isNullable: false }),
          text('created_at', { isNullable: false }),
        ],
        foreignKeys: [{ columnNames: ['batch_id'], referencedTableName: 'batch', referencedColumnNames: ['id'] }],
        indices: [{ name: 'idx_idempotency_created', columnNames: ['created_at'] }],
      }),
    );
    await q.manager.createQueryBuilder().update('setting').set({ value: '3' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('idempotency_key');
    await q.dropTable('delivery');
    await q.dropIndex('batch', 'idx_batch_awaiting');
    await q.dropIndex('batch', 'idx_batch_queue_pos');
    await q.dropIndex('command', 'idx_command_runnable');
    await q.dropColumn('command', 'queue_pos');
    for (const c of ['queue_pos', 'runnable_at', 'rejected_reason', 'approved_at', 'approved_by', 'awaiting_approval_since', 'source']) await q.dropColumn('batch', c);
    await q.manager.createQueryBuilder().update('setting').set({ value: '2' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
