import { MigrationInterface, QueryRunner, Table } from 'typeorm';

const text = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'text', isNullable: true, ...extra });
const int = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'integer', isNullable: true, ...extra });
const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };

/** SPEC 3.1's fixed DDL of schema v1, verbatim: databases made by earlier hub versions have exactly this shape. */
export const V1_SQLITE_DDL = [
  `CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE issue (key TEXT PRIMARY KEY, summary TEXT, issue_type TEXT, status TEXT, sprint TEXT,
  assignee TEXT, priority TEXT, duedate TEXT, labels TEXT NOT NULL DEFAULT '[]',
  fields TEXT NOT NULL DEFAULT '{}', created TEXT, updated TEXT, synced_at TEXT)`,
  `CREATE TABLE issue_link (id INTEGER PRIMARY KEY AUTOINCREMENT, source_key TEXT NOT NULL,
  target_key TEXT NOT NULL, link_type TEXT NOT NULL, UNIQUE (source_key, target_key, link_type))`,
  `CREATE TABLE issue_note (key TEXT PRIMARY KEY, fact_status TEXT, comment TEXT, source TEXT, updated_at TEXT)`,
  `CREATE TABLE batch (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, author TEXT NOT NULL,
  created_at TEXT NOT NULL, cancelled_at TEXT)`,
  `CREATE TABLE command (id INTEGER PRIMARY KEY AUTOINCREMENT, batch_id INTEGER NOT NULL REFERENCES batch(id),
  seq INTEGER NOT NULL, type TEXT NOT NULL, params TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'queued',
  pause_seconds INTEGER, claimed_at TEXT, finished_at TEXT, result TEXT, error TEXT,
  jira_calls INTEGER NOT NULL DEFAULT 0, rate_limited INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE sync_run (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL, finished_at TEXT,
  kind TEXT NOT NULL, query TEXT, command_id INTEGER REFERENCES command(id), issues INTEGER, links INTEGER,
  missing TEXT, error TEXT)`,
  `CREATE TABLE agent_status (id INTEGER PRIMARY KEY CHECK (id = 1), last_seen_at TEXT, agent_version TEXT,
  settings_version INTEGER, last_jira_call_at TEXT, current_command_id INTEGER)`,
  `INSERT INTO setting (key, value) VALUES ('schema_version', '1')`,
  `INSERT INTO agent_status (id) VALUES (1)`,
];

/**
 * Schema v1 (SPEC 3.1). On SQLite it runs the fixed DDL verbatim, so that a new database and one made
 * by an earlier hub are the same; on another database the schema API builds the same tables, columns,
 * keys and defaults.
 */
export class SchemaV11760000000000 implements MigrationInterface {
  static readonly schemaVersion = 1;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'better-sqlite3') {
      for (const statement of V1_SQLITE_DDL) await q.query(statement);
      return;
    }
    await q.createTable(
      new Table({ name: 'setting', columns: [text('key', { isPrimary: true, isNullable: false }), text('value', { isNullable: false })] }),
    );
    await q.createTable(
      new Table({
        name: 'issue',
        columns: [
          text('key', { isPrimary: true, isNullable: false }),
          ...['summary', 'issue_type', 'status', 'sprint', 'assignee', 'priority', 'duedate'].map((c) => text(c)),
          text('labels', { isNullable: false, default: "'[]'" }),
          text('fields', { isNullable: false, default: "'{}'" }),
          ...['created', 'updated', 'synced_at'].map((c) => text(c)),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'issue_link',
        columns: [id, text('source_key', { isNullable: false }), text('target_key', { isNullable: false }), text('link_type', { isNullable: false })],
        uniques: [{ columnNames: ['source_key', 'target_key', 'link_type'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'issue_note',
        columns: [text('key', { isPrimary: true, isNullable: false }), text('fact_status'), text('comment'), text('source'), text('updated_at')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'batch',
        columns: [id, text('title', { isNullable: false }), text('author', { isNullable: false }), text('created_at', { isNullable: false }), text('cancelled_at')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'command',
        columns: [
          id,
          int('batch_id', { isNullable: false }),
          int('seq', { isNullable: false }),
          text('type', { isNullable: false }),
          text('params', { isNullable: false }),
          text('status', { isNullable: false, default: "'queued'" }),
          int('pause_seconds'),
          text('claimed_at'),
          text('finished_at'),
          text('result'),
          text('error'),
          int('jira_calls', { isNullable: false, default: 0 }),
          int('rate_limited', { isNullable: false, default: 0 }),
        ],
        foreignKeys: [{ columnNames: ['batch_id'], referencedTableName: 'batch', referencedColumnNames: ['id'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sync_run',
        columns: [
          id,
          text('started_at', { isNullable: false }),
          text('finished_at'),
          text('kind', { isNullable: false }),
          text('query'),
          int('command_id'),
          int('issues'),
          int('links'),
          text('missing'),
          text('error'),
        ],
        foreignKeys: [{ columnNames: ['command_id'], referencedTableName: 'command', referencedColumnNames: ['id'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'agent_status',
        columns: [
          int('id', { isPrimary: true, isNullable: false }),
          text('last_seen_at'),
          text('agent_version'),
          int('settings_version'),
          text('last_jira_call_at'),
          int('current_command_id'),
        ],
        checks: [{ name: 'agent_status_single_row', expression: 'id = 1' }],
      }),
    );
    await q.manager.createQueryBuilder().insert().into('setting').values({ key: 'schema_version', value: '1' }).execute();
    await q.manager.createQueryBuilder().insert().into('agent_status').values({ id: 1 }).execute();
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['agent_status', 'sync_run', 'command', 'batch', 'issue_note', 'issue_link', 'issue', 'setting']) {
      await q.dropTable(t);
    }
  }
}
