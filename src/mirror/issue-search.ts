/** The SQL of GET /issues: filters, the FTS5 word search, order by key, offset or cursor; a common word walks the key order. */
import type { ListIssuesQuery } from './mirror.dto.js';
import type { Engine } from '../database/engine.js';
import { matchExpression, tsQueryExpression } from './search-query.js';

export const DEFAULT_ISSUE_PAGE = 100;

/** The columns of the issue view (the table also keeps search_id, sync_mark and on PostgreSQL search for itself). */
export const ISSUE_VIEW_COLUMNS = ['key', 'summary', 'issue_type', 'status', 'sprint', 'assignee', 'priority', 'duedate', 'labels', 'fields', 'created', 'updated', 'synced_at']
  .map((c) => `i.${c}`)
  .join(', ');

/**
 * Every filter narrows (AND). The word search starts from the FTS index (a rare word touches a few
 * rows, whatever the project's size); the label filter from issue_label; the rest are indexed columns
 * (status, sprint + status, assignee), and the key order serves the cursor.
 */
/** A filter value as `fold=true` compares it: lower case, `ё` as `е` (the column goes through the same in SQL). */
export const foldValue = (v: string): string => v.toLowerCase().replace(/ё/g, 'е');
const folded = (column: string) => `replace(hub_lower(${column}), 'ё', 'е')`;

/**
 * `sql` the page, `countSql` (with `countArgs`) how many issues match in all, cursor and paging aside.
 * With `fold=true` the status, sprint, assignee and label filters ignore letter case and ё/е.
 */
export function issueSearchSql(
  q: ListIssuesQuery,
  engine: Engine = 'sqlite',
  order = 'i.key',
): { sql: string; args: unknown[]; countSql: string; countArgs: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  let from = 'issue i';
  if (q.q !== undefined && engine === 'sqlite') {
    const match = matchExpression(q.q);
    if (match) {
      from = 'issue_fts f JOIN issue i ON i.search_id = f.rowid';
      where.push('issue_fts MATCH ?');
      args.push(match);
    }
  } else if (q.q !== undefined) {
    // PostgreSQL: the GIN index on issue.search (migration v4).
    const match = tsQueryExpression(q.q);
    if (match) {
      where.push(`i.search @@ to_tsquery('simple', hub_search_fold(?))`);
      args.push(match);
    }
  }
  const filter = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    args.push(...values);
  };
  const fold = q.fold === 'true';
  const equals = (column: string) => (fold ? `${folded(column)} = ?` : `${column} = ?`);
  const value = (v: string) => (fold ? foldValue(v) : v);
  if (q.label) filter(`i.key IN (SELECT issue_key FROM issue_label WHERE ${equals('label')})`, value(q.label));
  if (q.keys) {
    const keys = q.keys.split(',').map((k) => k.trim()).filter(Boolean);
    filter(`i.key IN (${keys.map(() => '?').join(', ') || 'NULL'})`, ...keys);
  }
  if (q.status) filter(equals('i.status'), value(q.status));
  if (q.sprint) filter(equals('i.sprint'), value(q.sprint));
  if (q.assignee) filter(equals('i.assignee'), value(q.assignee));
  const countSql = `SELECT count(*) AS n FROM ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
  const countArgs = [...args];
  if (q.cursor) filter('i.key > ?', q.cursor);
  const sql = `SELECT ${ISSUE_VIEW_COLUMNS} FROM ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ? OFFSET ?`;
  return { sql, args: [...args, q.limit ?? DEFAULT_ISSUE_PAGE, q.offset ?? 0], countSql, countArgs };
}

/** Runs one statement on the caller's connection (`?` placeholders) and answers its rows. */
export type RunQuery = <R>(sql: string, args: unknown[]) => Promise<R[]>;

/** SQLite: a word with at least this many matches is searched by walking the key order. */
export const COMMON_WORD_MATCHES = 2000;
/** PostgreSQL: the key-order walk looks at this many issues per issue of the page before it gives way to the index. */
export const WALK_ROWS_PER_MATCH = 50;

/** The thresholds of searchIssues (tests lower them to reach the walk on a few hundred issues). */
export interface SearchTuning {
  commonWordMatches?: number;
  walkRowsPerMatch?: number;
}

/**
 * GET /issues' rows (decision 0801). A search by words alone (no other filter) whose word is common
 * does not gather and sort every match: it walks the issues in key order from the cursor, tests each
 * against the words, and stops at the page — the page is the same as the plain plan's, since both
 * take the first matches in key order. A rare word keeps the plain plan (the index, then a sort of the
 * few matches). SQLite counts the matches up to COMMON_WORD_MATCHES first (FTS5 streams them; cheap);
 * PostgreSQL walks at most WALK_ROWS_PER_MATCH × (offset + limit) issues and takes the GIN index when
 * that window held too few matches (its planner cannot tell a common prefix from a rare one).
 */
export async function searchIssues<R>(q: ListIssuesQuery, engine: Engine, run: RunQuery, tuning: SearchTuning = {}): Promise<R[]> {
  const { commonWordMatches = COMMON_WORD_MATCHES, walkRowsPerMatch = WALK_ROWS_PER_MATCH } = tuning;
  const byWordsAlone = q.q !== undefined && !q.label && !q.keys && !q.status && !q.sprint && !q.assignee;
  const limit = q.limit ?? DEFAULT_ISSUE_PAGE;
  const offset = q.offset ?? 0;
  const after = q.cursor ? 'i.key > ?' : null;
  const cursorArgs = q.cursor ? [q.cursor] : [];
  if (byWordsAlone && engine === 'sqlite') {
    const match = matchExpression(q.q!);
    if (match) {
      const [{ n }] = await run<{ n: number }>('SELECT count(*) AS n FROM (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ? LIMIT ?)', [match, commonWordMatches]);
      if (n >= commonWordMatches) {
        // `+` keeps SQLite off the search_id index: it walks the key index, and the matches are a set.
        return run<R>(
          `SELECT ${ISSUE_VIEW_COLUMNS} FROM issue i WHERE +i.search_id IN (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ?)${after ? ` AND ${after}` : ''} ORDER BY i.key LIMIT ? OFFSET ?`,
          [match, ...cursorArgs, limit, offset],
        );
      }
    }
  } else if (byWordsAlone) {
    const match = tsQueryExpression(q.q!);
    if (match) {
      const window = walkRowsPerMatch * (offset + limit);
      const page = await run<R>(
        `SELECT ${ISSUE_VIEW_COLUMNS} FROM (SELECT * FROM issue i${after ? ` WHERE ${after}` : ''} ORDER BY i.key LIMIT ?) i
          WHERE i.search @@ to_tsquery('simple', hub_search_fold(?)) ORDER BY i.key LIMIT ? OFFSET ?`,
        [...cursorArgs, window, match, limit, offset],
      );
      if (page.length === limit) return page;
      // Too few in the window: the GIN index finds the matches, sorted by an expression of the key
      // (the same order) so that the planner does not walk the whole key index instead.
      const { sql, args } = issueSearchSql(q, engine, `i.key || ''`);
      return run<R>(sql, args);
    }
  }
  const { sql, args } = issueSearchSql(q, engine);
  return run<R>(sql, args);
}
