import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema v21 (decision 1434): `issue.sprint_state`, the state Jira gives the sprint in `sprint` — active,
 * future or closed. An issue whose sprint field lists closed sprints only is in the backlog (as the agent
 * moves and records it, decision 0606), while the mirror names the last of them; with the state the rule of
 * sprints tells the two apart. Null in the backlog, and until an agent that reports it refreshes the issue.
 */
export class SprintState1766102400000 implements MigrationInterface {
  static readonly schemaVersion = 21;

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE issue ADD COLUMN sprint_state TEXT NULL');
    await q.manager.createQueryBuilder().update('setting').set({ value: '21' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE issue DROP COLUMN sprint_state');
    await q.manager.createQueryBuilder().update('setting').set({ value: '20' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
