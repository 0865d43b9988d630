import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/**
 * Schema v2 (SPEC 3.1): `command.deliveries` (a command already `claimed` was handed out once) and
 * `command.retry_of`, plus the indexes the queue's queries need so that a claim never scans the queue.
 */
export class CommandDeliveries1764460800000 implements MigrationInterface {
  static readonly schemaVersion = 2;

  async up(q: QueryRunner): Promise<void> {
    const columns = [
      new TableColumn({ name: 'deliveries', type: 'integer', isNullable: false, default: 0 }),
      new TableColumn({ name: 'retry_of', type: 'integer', isNullable: true }),
    ];
    if (q.connection.driver.options.type === 'better-sqlite3') {
      // TypeORM's SQLite addColumns rebuilds the table, and its parser drops the AUTOINCREMENT of the
      // unquoted `id` of databases made by earlier hubs (SPEC 3.1 DDL). SQLite can add these columns in place.
      for (const c of columns) {
        await q.query(`ALTER TABLE command ADD COLUMN ${c.name} INTEGER ${c.isNullable ? 'NULL' : `NOT NULL DEFAULT ${c.default}`}`);
      }
    } else {
      await q.addColumns('command', columns);
    }
    await q.manager.createQueryBuilder().update('command').set({ deliveries: 1 }).where('status = :s', { s: 'claimed' }).execute();
    // The next queued command in queue order, and the oldest claimed one: one index probe each.
    await q.createIndex('command', new TableIndex({ name: 'idx_command_queued', columnNames: ['batch_id', 'seq'], where: "status = 'queued'" }));
    await q.createIndex('command', new TableIndex({ name: 'idx_command_claimed', columnNames: ['claimed_at', 'id'], where: "status = 'claimed'" }));
    await q.createIndex('command', new TableIndex({ name: 'idx_command_batch', columnNames: ['batch_id', 'seq'] }));
    await q.createIndex('command', new TableIndex({ name: 'idx_command_finished', columnNames: ['finished_at'] }));
    await q.createIndex('batch', new TableIndex({ name: 'idx_batch_created', columnNames: ['created_at', 'id'] }));
    // Temp-key resolution (SPEC 6.3) looks up ensure_issue commands by params.temp_key: a probe, not a scan.
    // On PostgreSQL params is TEXT until v10 (jsonb), which rebuilds this index on `params ->> 'temp_key'`.
    const tempKey = q.connection.driver.options.type === 'postgres' ? `((params::jsonb) ->> 'temp_key')` : `json_extract(params, '$.temp_key')`;
    await q.query(`CREATE INDEX idx_command_temp_key ON command (${tempKey}, id) WHERE type = 'ensure_issue'`);
    await q.createIndex('issue_link', new TableIndex({ name: 'idx_issue_link_target', columnNames: ['target_key'] }));
    await q.createIndex('sync_run', new TableIndex({ name: 'idx_sync_run_started', columnNames: ['started_at'] }));
    await q.createIndex('sync_run', new TableIndex({ name: 'idx_sync_run_command', columnNames: ['command_id'] }));
    await q.manager.createQueryBuilder().update('setting').set({ value: '2' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of ['idx_command_queued', 'idx_command_claimed', 'idx_command_batch', 'idx_command_finished']) await q.dropIndex('command', name);
    await q.dropIndex('batch', 'idx_batch_created');
    await q.query('DROP INDEX idx_command_temp_key');
    await q.dropIndex('issue_link', 'idx_issue_link_target');
    await q.dropIndex('sync_run', 'idx_sync_run_started');
    await q.dropIndex('sync_run', 'idx_sync_run_command');
    await q.dropColumn('command', 'retry_of');
    await q.dropColumn('command', 'deliveries');
    await q.manager.createQueryBuilder().update('setting').set({ value: '1' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
