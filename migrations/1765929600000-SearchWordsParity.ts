import { MigrationInterface, QueryRunner } from 'typeorm';

const VECTOR = 'hub_search_vector(key, summary)';
const PARSED = `to_tsvector('simple', hub_search_text(key, summary))`;

/**
 * Schema v19 (decision 1431): on PostgreSQL an issue's words are split where SQLite's FTS5 index splits them.
 * Since v4 `issue.search` was `to_tsvector('simple', hub_search_text(key, summary))`: words were the runs of
 * `[[:alnum:]]` and then what PostgreSQL's text search parser made of them, both by the database's locale,
 * which differ from unicode61 in thousands of code points (Devanagari's vowel signs were letters, «²», «½»,
 * «Ⅷ» were not). The column is now made by hub_search_vector (database/postgres.ts), the words split at
 * unicode61's separators (database/search-fold.ts) and put in the tsvector with their positions, no parser
 * between. A generation expression cannot be altered: the column is made again (every issue's words computed
 * once, some 20 s at 200,000 issues), with its GIN index, and TypeORM's record of it (v11) follows.
 * SQLite: its index is the reference; only the version rises.
 */
export class SearchWordsParity1765929600000 implements MigrationInterface {
  static readonly schemaVersion = 19;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') await this.searchColumn(q, VECTOR);
    await q.manager.createQueryBuilder().update('setting').set({ value: '19' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') await this.searchColumn(q, PARSED);
    await q.manager.createQueryBuilder().update('setting').set({ value: '18' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  private async searchColumn(q: QueryRunner, expression: string): Promise<void> {
    await q.query('ALTER TABLE issue DROP COLUMN search'); // and its index idx_issue_search
    await q.query(`ALTER TABLE issue ADD COLUMN search tsvector GENERATED ALWAYS AS (${expression}) STORED`);
    await q.query('CREATE INDEX idx_issue_search ON issue USING gin (search)');
    await q.query(`UPDATE typeorm_metadata SET value = $1 WHERE type = 'GENERATED_COLUMN' AND "table" = 'issue' AND name = 'search'`, [expression]);
  }
}
