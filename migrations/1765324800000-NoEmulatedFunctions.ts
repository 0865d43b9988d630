import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema v12 (issue 21, scope 3): PostgreSQL loses the SQLite functions the hub once emulated there —
 * `json_extract` (temp keys read jsonb with `->>` since v10), `instr` and `hub_lower` (the search uses
 * PostgreSQL's own `lower`). The search's own hub_search_fold/hub_search_text stay (the generated column
 * `issue.search` calls them). SQLite: only the version rises.
 */
export class NoEmulatedFunctions1765324800000 implements MigrationInterface {
  static readonly schemaVersion = 12;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') {
      for (const f of ['json_extract(text, text)', 'instr(text, text)', 'hub_lower(text)']) await q.query(`DROP FUNCTION IF EXISTS ${f}`);
    }
    await q.manager.createQueryBuilder().update('setting').set({ value: '12' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  /** The functions stay gone: no SQL of an earlier schema version needs them once v10 is applied. */
  async down(q: QueryRunner): Promise<void> {
    await q.manager.createQueryBuilder().update('setting').set({ value: '11' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
