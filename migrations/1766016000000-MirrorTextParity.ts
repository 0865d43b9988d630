import { MigrationInterface, QueryRunner } from 'typeorm';

const VECTOR = 'hub_search_vector(key, summary)';
const PARSED = `to_tsvector('simple', hub_search_text(key, summary))`;

/** Schema v4's trigger on `issue.key` (MIRROR_SEARCH_POSTGRES): a column a trigger names cannot change its collation. */
const LABELS_TRIGGER = `CREATE TRIGGER issue_labels_update AFTER UPDATE OF key, labels ON issue FOR EACH ROW
     WHEN (OLD.key IS DISTINCT FROM NEW.key OR OLD.labels IS DISTINCT FROM NEW.labels) EXECUTE FUNCTION hub_issue_labels_sync()`;

/**
 * Schema v20 (decision 1431): on PostgreSQL the mirror's text answers as on SQLite.
 * - The words of the search are split where SQLite's FTS5 index splits them. Since v4 `issue.search` was
 *   `to_tsvector('simple', hub_search_text(key, summary))`: words were the runs of `[[:alnum:]]` and then what
 *   PostgreSQL's text search parser made of them, both by the database's locale, which differ from unicode61
 *   in thousands of code points (Devanagari's vowel signs were letters, «²», «½», «Ⅷ» were not). The column is
 *   now made by hub_search_vector (database/postgres.ts), the words split at unicode61's separators
 *   (database/search-fold.ts) and put in the tsvector with their positions, no parser between.
 * - `issue.key` and `issue_note.key` are COLLATE "C": ordered and compared bytewise, as SQLite's BINARY, not
 *   by the database's locale (in en_US or ICU, `A_B-1` came before `A-1`, and `new:5` before `PROJ-1` in the
 *   notes), so that GET /issues and GET /notes list, and the cursor continues, in the same order.
 * A generation expression cannot be altered, nor the collation of a column a generated column or a trigger
 * uses: the column is made again (every issue's words computed once, some 20 s at 200,000 issues), with its
 * GIN index, after the keys; the trigger too; TypeORM's record of the column (v11) follows.
 * SQLite: its index and its BINARY order are the reference; only the version rises.
 */
export class MirrorTextParity1766016000000 implements MigrationInterface {
  static readonly schemaVersion = 20;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') await this.mirrorText(q, VECTOR, '"C"');
    await q.manager.createQueryBuilder().update('setting').set({ value: '20' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') await this.mirrorText(q, PARSED, 'pg_catalog."default"');
    await q.manager.createQueryBuilder().update('setting').set({ value: '19' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  private async mirrorText(q: QueryRunner, expression: string, collation: string): Promise<void> {
    await q.query('ALTER TABLE issue DROP COLUMN search'); // and its index idx_issue_search
    await q.query('DROP TRIGGER issue_labels_update ON issue');
    await q.query(`ALTER TABLE issue ALTER COLUMN key TYPE text COLLATE ${collation}`);
    await q.query(`ALTER TABLE issue_note ALTER COLUMN key TYPE text COLLATE ${collation}`);
    await q.query(LABELS_TRIGGER);
    await q.query(`ALTER TABLE issue ADD COLUMN search tsvector GENERATED ALWAYS AS (${expression}) STORED`);
    await q.query('CREATE INDEX idx_issue_search ON issue USING gin (search)');
    await q.query(`UPDATE typeorm_metadata SET value = $1 WHERE type = 'GENERATED_COLUMN' AND "table" = 'issue' AND name = 'search'`, [expression]);
  }
}
