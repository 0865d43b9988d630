import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Schema v7 (issue 22): the `audit` of an AI assistant's calls — each MCP tool call (channel `mcp`) and
 * each REST call with the assistant's role (channel `rest`): when, the tool or the route, the arguments
 * cut to a size, the outcome, the batch it touched. Kept for settings `audit_retention_days`.
 */
export class AssistantAudit1764892800000 implements MigrationInterface {
  static readonly schemaVersion = 7;

  async up(q: QueryRunner): Promise<void> {
    const text = (name: string, isNullable = true) => ({ name, type: 'text', isNullable });
    await q.createTable(
      new Table({
        name: 'audit',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          text('at', false),
          text('channel', false),
          text('tool'),
          text('route'),
          text('arguments', false),
          text('outcome', false),
          { name: 'status', type: 'integer', isNullable: true },
          text('detail'),
          { name: 'batch_id', type: 'integer', isNullable: true },
        ],
      }),
    );
    // A batch's calls, newest first; and the retention's cut by time.
    await q.createIndex('audit', new TableIndex({ name: 'idx_audit_batch', columnNames: ['batch_id', 'id'] }));
    await q.createIndex('audit', new TableIndex({ name: 'idx_audit_at', columnNames: ['at'] }));
    await q.manager.createQueryBuilder().update('setting').set({ value: '7' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('audit');
    await q.manager.createQueryBuilder().update('setting').set({ value: '6' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
