/** The SQL of GET /issues (pure): filters, the FTS5 word search, order by key, offset or cursor. */
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
export function issueSearchSql(q: ListIssuesQuery, engine: Engine = 'sqlite'): { sql: string; args: unknown[] } {
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
  if (q.label) filter('i.key IN (SELECT issue_key FROM issue_label WHERE label = ?)', q.label);
  if (q.keys) {
    const keys = q.keys.split(',').map((k) => k.trim()).filter(Boolean);
    filter(`i.key IN (${keys.map(() => '?').join(', ') || 'NULL'})`, ...keys);
  }
  if (q.status) filter('i.status = ?', q.status);
  if (q.sprint) filter('i.sprint = ?', q.sprint);
  if (q.assignee) filter('i.assignee = ?', q.assignee);
  if (q.cursor) filter('i.key > ?', q.cursor);
  const sql = `SELECT ${ISSUE_VIEW_COLUMNS} FROM ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY i.key LIMIT ? OFFSET ?`;
  return { sql, args: [...args, q.limit ?? DEFAULT_ISSUE_PAGE, q.offset ?? 0] };
}
