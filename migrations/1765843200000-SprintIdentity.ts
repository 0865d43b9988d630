import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema v18 (decision 1430): an issue's sprint by its identity — `issue.sprint_id` (Jira's sprint id) and
 * `issue.sprint_board_id` (the board it belongs to), beside the name in `sprint`. Sprint names repeat across
 * boards; with the id the checks, revert, plan and drift compare exactly. Null until an agent that reports
 * them refreshes the issue (an older agent reports the name only). In place on both engines; ids are
 * Jira's int64, a bigint on PostgreSQL.
 */
export class SprintIdentity1765843200000 implements MigrationInterface {
  static readonly schemaVersion = 18;

  async up(q: QueryRunner): Promise<void> {
    const type = q.connection.driver.options.type === 'postgres' ? 'BIGINT' : 'INTEGER';
    await q.query(`ALTER TABLE issue ADD COLUMN sprint_id ${type} NULL`);
    await q.query(`ALTER TABLE issue ADD COLUMN sprint_board_id ${type} NULL`);
    await q.manager.createQueryBuilder().update('setting').set({ value: '18' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE issue DROP COLUMN sprint_board_id');
    await q.query('ALTER TABLE issue DROP COLUMN sprint_id');
    await q.manager.createQueryBuilder().update('setting').set({ value: '17' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
