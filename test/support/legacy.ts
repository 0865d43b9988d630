/**
 * Databases as earlier hub versions left them (SPEC 3.1): schema v1 made by its fixed DDL, run verbatim
 * through better-sqlite3 directly (not through the hub or its ORM), in rollback-journal mode.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

/** SPEC 3.1, byte for byte. */
export const V1_DDL = `
CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE issue (key TEXT PRIMARY KEY, summary TEXT, issue_type TEXT, status TEXT, sprint TEXT,
  assignee TEXT, priority TEXT, duedate TEXT, labels TEXT NOT NULL DEFAULT '[]',
  fields TEXT NOT NULL DEFAULT '{}', created TEXT, updated TEXT, synced_at TEXT);
CREATE TABLE issue_link (id INTEGER PRIMARY KEY AUTOINCREMENT, source_key TEXT NOT NULL,
  target_key TEXT NOT NULL, link_type TEXT NOT NULL, UNIQUE (source_key, target_key, link_type));
CREATE TABLE issue_note (key TEXT PRIMARY KEY, fact_status TEXT, comment TEXT, source TEXT, updated_at TEXT);
CREATE TABLE batch (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, author TEXT NOT NULL,
  created_at TEXT NOT NULL, cancelled_at TEXT);
CREATE TABLE command (id INTEGER PRIMARY KEY AUTOINCREMENT, batch_id INTEGER NOT NULL REFERENCES batch(id),
  seq INTEGER NOT NULL, type TEXT NOT NULL, params TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'queued',
  pause_seconds INTEGER, claimed_at TEXT, finished_at TEXT, result TEXT, error TEXT,
  jira_calls INTEGER NOT NULL DEFAULT 0, rate_limited INTEGER NOT NULL DEFAULT 0);
CREATE TABLE sync_run (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL, finished_at TEXT,
  kind TEXT NOT NULL, query TEXT, command_id INTEGER REFERENCES command(id), issues INTEGER, links INTEGER,
  missing TEXT, error TEXT);
CREATE TABLE agent_status (id INTEGER PRIMARY KEY CHECK (id = 1), last_seen_at TEXT, agent_version TEXT,
  settings_version INTEGER, last_jira_call_at TEXT, current_command_id INTEGER);
INSERT INTO setting (key, value) VALUES ('schema_version', '1');
INSERT INTO agent_status (id) VALUES (1);
`;

/** The tables of schema v1, in DDL order. */
export const V1_TABLES = ['setting', 'issue', 'issue_link', 'issue_note', 'batch', 'command', 'sync_run', 'agent_status'] as const;

/** Creates `file` as an earlier hub did: the v1 DDL, rollback journal; `seed` then writes rows on the same connection. */
export function createV1Database(file: string, seed?: (db: Db) => void): void {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = DELETE');
    db.exec(V1_DDL);
    if (seed) db.transaction(() => seed(db))();
  } finally {
    db.close();
  }
}

export interface BatchSeed {
  title?: string;
  author?: string;
  created_at?: string;
  cancelled_at?: string | null;
}

export function insertBatch(db: Db, b: BatchSeed = {}): number {
  const r = db
    .prepare('INSERT INTO batch (title, author, created_at, cancelled_at) VALUES (?, ?, ?, ?)')
    .run(b.title ?? 'Пакет', b.author ?? 'api', b.created_at ?? '2026-11-01T09:00:00.000Z', b.cancelled_at ?? null);
  return Number(r.lastInsertRowid);
}

export interface CommandSeed {
  batch_id: number;
  seq: number;
  type: string;
  params: Record<string, unknown>;
  status?: string;
  pause_seconds?: number | null;
  claimed_at?: string | null;
  finished_at?: string | null;
  result?: unknown;
  error?: string | null;
  jira_calls?: number;
  rate_limited?: number;
}

export function insertCommand(db: Db, c: CommandSeed): number {
  const r = db
    .prepare(
      `INSERT INTO command (batch_id, seq, type, params, status, pause_seconds, claimed_at, finished_at, result, error, jira_calls, rate_limited)
       VALUES (?, ?, ?, ?, coalesce(?, 'queued'), ?, ?, ?, ?, ?, coalesce(?, 0), coalesce(?, 0))`,
    )
    .run(
      c.batch_id,
      c.seq,
      c.type,
      JSON.stringify(c.params),
      c.status ?? null,
      c.pause_seconds ?? null,
      c.claimed_at ?? null,
      c.finished_at ?? null,
      c.result === undefined || c.result === null ? null : JSON.stringify(c.result),
      c.error ?? null,
      c.jira_calls ?? null,
      c.rate_limited ?? null,
    );
  return Number(r.lastInsertRowid);
}

export interface NoteSeed {
  key: string;
  fact_status?: string | null;
  comment?: string | null;
  source?: string | null;
  updated_at?: string | null;
}

export function insertNote(db: Db, n: NoteSeed): void {
  db.prepare('INSERT INTO issue_note (key, fact_status, comment, source, updated_at) VALUES (?, ?, ?, ?, ?)').run(
    n.key,
    n.fact_status ?? null,
    n.comment ?? null,
    n.source ?? null,
    n.updated_at ?? null,
  );
}

/** Runs `fn` on a separate read-only connection to `file`. */
export function readOnly<T>(file: string, fn: (db: Db) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export interface ColumnInfo {
  cid: number;
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** `PRAGMA table_info` of a table, through a separate read-only connection. */
export function tableColumns(file: string, table: string): ColumnInfo[] {
  return readOnly(file, (db) => db.prepare(`PRAGMA table_info("${table.replace(/"/g, '""')}")`).all() as ColumnInfo[]);
}

/** Every row of a table, ordered by its rowid, as better-sqlite3 reads them. */
export function tableRows(file: string, table: string): Record<string, unknown>[] {
  return readOnly(file, (db) => db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).all() as Record<string, unknown>[]);
}

/** Whether a table exists in the file. */
export function hasTable(file: string, table: string): boolean {
  return readOnly(file, (db) => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined);
}

/** `setting.schema_version` as stored (JSON text). */
export function storedSchemaVersion(file: string): string | undefined {
  return readOnly(file, (db) => (db.prepare(`SELECT value FROM setting WHERE key = 'schema_version'`).get() as { value: string } | undefined)?.value);
}
