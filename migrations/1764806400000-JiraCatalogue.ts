import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

const JSON_PARTS = ['issue_types', 'fields', 'per_type', 'link_types', 'boards', 'sprints', 'priorities', 'components', 'versions', 'permissions', 'assignable'];

/**
 * Schema v6 (issue 20, SPEC 16): the `catalogue` of each Jira project's configuration, one row per
 * project key with its parts as JSON text, and `batch.checks` — the verdicts and findings of the checks
 * a batch was submitted with (SPEC 16.2: `unknown` verdicts and warnings are shown on the batch).
 */
export class JiraCatalogue1764806400000 implements MigrationInterface {
  static readonly schemaVersion = 6;

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'catalogue',
        columns: [
          { name: 'project_key', type: 'text', isPrimary: true, isNullable: false },
          { name: 'flavor', type: 'text', isNullable: false },
          { name: 'agent_version', type: 'text', isNullable: true },
          { name: 'synced_at', type: 'text', isNullable: false },
          { name: 'stale_since', type: 'text', isNullable: true },
          { name: 'stale_reason', type: 'text', isNullable: true },
          ...JSON_PARTS.map((name) => ({ name, type: 'text', isNullable: false })),
          { name: 'transitions_source', type: 'text', isNullable: false },
          { name: 'assignable_truncated', type: 'integer', isNullable: false, default: 0 },
        ],
      }),
    );
    const checks = new TableColumn({ name: 'checks', type: 'text', isNullable: true });
    // SQLite in place, as the earlier migrations do: TypeORM's addColumn rebuilds the table.
    if (q.connection.driver.options.type === 'better-sqlite3') await q.query('ALTER TABLE batch ADD COLUMN checks TEXT NULL');
    else await q.addColumn('batch', checks);
    await q.manager.createQueryBuilder().update('setting').set({ value: '6' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('batch', 'checks');
    await q.dropTable('catalogue');
    await q.manager.createQueryBuilder().update('setting').set({ value: '5' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
