import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/**
 * Text as the search index holds it: `ё` is written `е` (Russian text uses both for one letter), the rest
 * is left to FTS5's unicode61 tokenizer (case folding, Latin diacritics). The query side folds the same
 * way (mirror/search-query.ts).
 */
const FOLDED = (column: string) => `replace(replace(${column}, 'ё', 'е'), 'Ё', 'Е')`;
const LABELS_OF = (column: string) => `json_each(CASE WHEN json_valid(${column}) THEN ${column} ELSE '[]' END)`;

/**
 * The mirror at scale (issue 14), SQLite:
 * - `issue_fts`: a contentless FTS5 index of each issue's key and summary, row id = `issue.search_id`
 *   (a stable integer: the implicit rowid of a table with a TEXT key may change on VACUUM);
 * - `issue_label`: one row per (label, issue) for the label filter;
 * - triggers keep both in step with `issue` inside the writing transaction, whoever writes;
 * - `issue.sync_mark`, `issue_link.sync_mark`: which delivery of which sync run last reported the row,
 *   so that a refresh reported in parts replaces links across parts and counts each row once;
 * - `sync_run.delivery`, `sync_run.parts`: the delivery whose parts are being applied and how many;
 * - indexes for the filters of GET /issues, ordered by key for cursor paging.
 */
export const MIRROR_SEARCH_SQLITE = [
  `ALTER TABLE issue ADD COLUMN search_id INTEGER`,
  `ALTER TABLE issue ADD COLUMN sync_mark INTEGER`,
  `ALTER TABLE issue_link ADD COLUMN sync_mark INTEGER`,
  `ALTER TABLE sync_run ADD COLUMN delivery INTEGER`,
  `ALTER TABLE sync_run ADD COLUMN parts INTEGER NOT NULL DEFAULT 0`,
  `UPDATE issue SET search_id = rowid`,
  `CREATE UNIQUE INDEX idx_issue_search_id ON issue (search_id)`,
  `CREATE INDEX idx_issue_status ON issue (status, key)`,
  `CREATE INDEX idx_issue_sprint_status ON issue (sprint, status, key)`,
  `CREATE INDEX idx_issue_assignee ON issue (assignee, key)`,
  `CREATE TABLE issue_label (label TEXT NOT NULL, issue_key TEXT NOT NULL, PRIMARY KEY (label, issue_key)) WITHOUT ROWID`,
  `CREATE INDEX idx_issue_label_key ON issue_label (issue_key)`,
  `INSERT OR IGNORE INTO issue_label (label, issue_key) SELECT l.value, i.key FROM issue i, ${LABELS_OF('i.labels')} l WHERE l.type = 'text'`,
  `CREATE VIRTUAL TABLE issue_fts USING fts5(key, summary, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1)`,
  `INSERT INTO issue_fts (rowid, key, summary) SELECT search_id, key, ${FOLDED("coalesce(summary, '')")} FROM issue`,
  `CREATE TRIGGER issue_search_insert AFTER INSERT ON issue BEGIN
     UPDATE issue SET search_id = (SELECT coalesce(max(search_id), 0) + 1 FROM issue) WHERE key = new.key AND search_id IS NULL;
     INSERT INTO issue_fts (rowid, key, summary) SELECT search_id, key, ${FOLDED("coalesce(summary, '')")} FROM issue WHERE key = new.key;
     INSERT OR IGNORE INTO issue_label (label, issue_key) SELECT value, new.key FROM ${LABELS_OF('new.labels')} WHERE type = 'text';
   END`,
  `CREATE TRIGGER issue_search_update AFTER UPDATE OF key, summary ON issue
   WHEN old.key IS NOT new.key OR old.summary IS NOT new.summary BEGIN
     DELETE FROM issue_fts WHERE rowid = old.search_id;
     INSERT INTO issue_fts (rowid, key, summary) VALUES (new.search_id, new.key, ${FOLDED("coalesce(new.summary, '')")});
   END`,
  `CREATE TRIGGER issue_labels_update AFTER UPDATE OF key, labels ON issue
   WHEN old.key IS NOT new.key OR old.labels IS NOT new.labels BEGIN
     DELETE FROM issue_label WHERE issue_key = old.key;
     INSERT OR IGNORE INTO issue_label (label, issue_key) SELECT value, new.key FROM ${LABELS_OF('new.labels')} WHERE type = 'text';
   END`,
  `CREATE TRIGGER issue_search_delete AFTER DELETE ON issue BEGIN
     DELETE FROM issue_fts WHERE rowid = old.search_id;
     DELETE FROM issue_label WHERE issue_key = old.key;
   END`,
];

/**
 * The same on PostgreSQL (after the columns, issue_label and the indexes made with the schema API):
 * - `issue.search`: a `tsvector` of the key and summary with the `simple` configuration, a stored
 *   generated column (so it is in step with every write, in the writing transaction), folded as FTS5's
 *   (hub_search_text, postgres.ts: lower case, `ё` → `е`, Latin diacritics, words = runs of letters and
 *   digits), under a GIN index; queries are word prefixes (`отч:*`, issue-search.ts);
 * - a trigger keeps `issue_label` in step with `issue.labels`, as SQLite's do.
 */
export const MIRROR_SEARCH_POSTGRES = [
  `ALTER TABLE issue ADD COLUMN search tsvector GENERATED ALWAYS AS (to_tsvector('simple', hub_search_text(key, summary))) STORED`,
  `CREATE INDEX idx_issue_search ON issue USING gin (search)`,
  // The labels of a row: the strings of its JSON array (none when the text is not an array; the hub
  // writes labels with JSON.stringify).
  `CREATE OR REPLACE FUNCTION hub_labels_of(labels text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
     SELECT DISTINCT e #>> '{}' FROM jsonb_array_elements(CASE WHEN labels ~ '^\\s*\\[' THEN labels::jsonb ELSE '[]'::jsonb END) e
      WHERE jsonb_typeof(e) = 'string' $$`,
  `INSERT INTO issue_label (label, issue_key) SELECT l, i.key FROM issue i, hub_labels_of(i.labels) l ON CONFLICT DO NOTHING`,
  `CREATE OR REPLACE FUNCTION hub_issue_labels_sync() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP <> 'INSERT' THEN
       DELETE FROM issue_label WHERE issue_key = OLD.key;
     END IF;
     IF TG_OP <> 'DELETE' THEN
       INSERT INTO issue_label (label, issue_key) SELECT l, NEW.key FROM hub_labels_of(NEW.labels) l ON CONFLICT DO NOTHING;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER issue_labels_insert AFTER INSERT ON issue FOR EACH ROW EXECUTE FUNCTION hub_issue_labels_sync()`,
  `CREATE TRIGGER issue_labels_update AFTER UPDATE OF key, labels ON issue FOR EACH ROW
     WHEN (OLD.key IS DISTINCT FROM NEW.key OR OLD.labels IS DISTINCT FROM NEW.labels) EXECUTE FUNCTION hub_issue_labels_sync()`,
  `CREATE TRIGGER issue_labels_delete AFTER DELETE ON issue FOR EACH ROW EXECUTE FUNCTION hub_issue_labels_sync()`,
];

/**
 * Schema v4 (issue 14): refresh results in parts and searches at 200,000 issues. Builds the search
 * index from the issues already mirrored. Links both ways need nothing new: the unique
 * (source_key, target_key, link_type) index serves the source side, idx_issue_link_target (v2) the other.
 * On PostgreSQL the columns, the label table and the indexes are made, then MIRROR_SEARCH_POSTGRES.
 */
export class MirrorSearch1764633600000 implements MigrationInterface {
  static readonly schemaVersion = 4;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'better-sqlite3') {
      for (const statement of MIRROR_SEARCH_SQLITE) await q.query(statement);
    } else {
      await q.addColumns('issue', [
        new TableColumn({ name: 'search_id', type: 'integer', isNullable: true }),
        new TableColumn({ name: 'sync_mark', type: 'bigint', isNullable: true }),
      ]);
      await q.addColumn('issue_link', new TableColumn({ name: 'sync_mark', type: 'bigint', isNullable: true }));
      await q.addColumns('sync_run', [
        new TableColumn({ name: 'delivery', type: 'integer', isNullable: true }),
        new TableColumn({ name: 'parts', type: 'integer', isNullable: false, default: 0 }),
      ]);
      await q.createIndex('issue', new TableIndex({ name: 'idx_issue_status', columnNames: ['status', 'key'] }));
      await q.createIndex('issue', new TableIndex({ name: 'idx_issue_sprint_status', columnNames: ['sprint', 'status', 'key'] }));
      await q.createIndex('issue', new TableIndex({ name: 'idx_issue_assignee', columnNames: ['assignee', 'key'] }));
      await q.createTable(
        new Table({
          name: 'issue_label',
          columns: [
            { name: 'label', type: 'text', isPrimary: true, isNullable: false },
            { name: 'issue_key', type: 'text', isPrimary: true, isNullable: false },
          ],
          indices: [{ name: 'idx_issue_label_key', columnNames: ['issue_key'] }],
        }),
      );
      for (const statement of MIRROR_SEARCH_POSTGRES) await q.query(statement);
    }
    await q.manager.createQueryBuilder().update('setting').set({ value: '4' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'better-sqlite3') {
      for (const t of ['issue_search_insert', 'issue_search_update', 'issue_labels_update', 'issue_search_delete']) await q.query(`DROP TRIGGER ${t}`);
      await q.query('DROP TABLE issue_fts');
      await q.query('DROP INDEX idx_issue_search_id');
    } else {
      for (const t of ['issue_labels_insert', 'issue_labels_update', 'issue_labels_delete']) await q.query(`DROP TRIGGER ${t} ON issue`);
      await q.query('DROP FUNCTION hub_issue_labels_sync()');
      await q.query('DROP FUNCTION hub_labels_of(text)');
      await q.query('DROP INDEX idx_issue_search');
      await q.dropColumn('issue', 'search');
    }
    await q.dropTable('issue_label');
    for (const name of ['idx_issue_status', 'idx_issue_sprint_status', 'idx_issue_assignee']) await q.dropIndex('issue', name);
    for (const [table, column] of [['issue', 'search_id'], ['issue', 'sync_mark'], ['issue_link', 'sync_mark'], ['sync_run', 'delivery'], ['sync_run', 'parts']]) {
      await q.dropColumn(table, column);
    }
    await q.manager.createQueryBuilder().update('setting').set({ value: '3' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
