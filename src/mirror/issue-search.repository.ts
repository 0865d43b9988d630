/**
 * The SQL of GET /issues (decision 0801): filters, the word search, order by key, offset or cursor; a
 * common word walks the key order. One class per engine (the word search differs: FTS5 on SQLite, the
 * stored tsvector on PostgreSQL); the filters and the plain plan are shared here.
 */
import type { EntityManager } from 'typeorm';
import { join, list, raw, rows, sql, type Sql } from '../database/index.js';
import type { IssueView, ListIssuesQuery } from './mirror.dto.js';

export const DEFAULT_ISSUE_PAGE = 100;

/** The columns of the issue view (the table also keeps search_id, sync_mark and on PostgreSQL search for itself). */
export const ISSUE_VIEW_COLUMNS = ['key', 'summary', 'issue_type', 'status', 'sprint', 'sprint_id', 'sprint_board_id', 'sprint_state', 'assignee', 'priority', 'duedate', 'labels', 'fields', 'created', 'updated', 'synced_at']
  .map((c) => `i.${c}`)
  .join(', ');

/** A row of the issue view as the database holds it (labels and fields are JSON text). */
export interface IssueSearchRow extends Omit<IssueView, 'labels' | 'fields'> {
  labels: string;
  fields: string;
}


/** SQLite: a word with at least this many matches is searched by walking the key order. */
export const COMMON_WORD_MATCHES = 2000;
/** PostgreSQL: the key-order walk looks at this many issues per issue of the page before it gives way to the index. */
export const WALK_ROWS_PER_MATCH = 50;

/** The thresholds of the word search (tests lower them to reach the walk on a few hundred issues). */
export interface SearchTuning {
  commonWordMatches?: number;
  walkRowsPerMatch?: number;
}

/** Where the plain plan reads from, and the condition of the words (null: the text has no word). */
export interface WordSearch {
  from: Sql;
  where: Sql;
}

/**
 * GET /issues' rows. Every filter narrows (AND). The word search starts from the engine's word index
 * (a rare word touches a few rows, whatever the project's size); the label filter from issue_label; the
 * rest are indexed columns (status, sprint + status, assignee), and the key order serves the cursor.
 * A search by words alone whose word is common walks the key order instead (`page`, per engine).
 */
export abstract class IssueSearchRepository {
  constructor(protected readonly tuning: SearchTuning = {}) {}

  /** The page of GET /issues, in key order. */
  abstract page(m: EntityManager, q: ListIssuesQuery): Promise<IssueSearchRow[]>;

  /** The FROM and the condition of the words of `q` on this engine, or null when `q` has no word. */
  protected abstract words(q: string): WordSearch | null;

  /** `column` in lower case (letters of every script). */
  protected abstract lower(column: Sql): Sql;

  /**
   * A text as `fold=true` compares it, the column and the value alike, each engine's lower case on both
   * sides (decision 1431): then `ё` as `е`, final `ς` as `σ`, and the dot above that lower case leaves of
   * «İ» (U+0307) dropped, so that a value finds itself and the engines agree (JavaScript's toLowerCase, what
   * SQLite runs, writes «ΟΔΟΣ» as «οδος» and «İ» as «i̇»; a C library's lower(), «οδοσ» and «i»).
   */
  protected fold(text: Sql): Sql {
    return sql`replace(replace(replace(${this.lower(text)}, 'ё', 'е'), 'ς', 'σ'), ${'\u0307'}, '')`;
  }

  /** How many issues match in all (the filters of the page; cursor and paging aside). */
  async count(m: EntityManager, q: ListIssuesQuery): Promise<number> {
    const { from, where } = this.filtered(q, false);
    const [row] = await rows<{ n: number | string }>(m, sql`SELECT count(*) AS n FROM ${from}${where}`);
    return Number(row.n);
  }

  /** Every match gathered and sorted by `order` (the key, or an expression of it), then the page cut. */
  plainPage(m: EntityManager, q: ListIssuesQuery, order: Sql = raw('i.key')): Promise<IssueSearchRow[]> {
    return rows<IssueSearchRow>(m, this.plainStatement(q, order));
  }

  /** The plain plan's statement (tests read its query plan). */
  plainStatement(q: ListIssuesQuery, order: Sql = raw('i.key')): Sql {
    const { from, where } = this.filtered(q, true);
    return sql`SELECT ${raw(ISSUE_VIEW_COLUMNS)} FROM ${from}${where} ORDER BY ${order} LIMIT ${q.limit ?? DEFAULT_ISSUE_PAGE} OFFSET ${q.offset ?? 0}`;
  }

  /** A search by words alone (no other filter; cursor and paging allowed): the one a common word can walk. */
  protected byWordsAlone(q: ListIssuesQuery): q is ListIssuesQuery & { q: string } {
    return q.q !== undefined && !q.label && !q.keys && !q.status && !q.sprint && !q.assignee;
  }

  /** `i.key > cursor`, or nothing. */
  protected after(q: ListIssuesQuery, glue: 'WHERE' | 'AND'): Sql {
    return q.cursor ? sql` ${raw(glue)} i.key > ${q.cursor}` : raw('');
  }

  private filtered(q: ListIssuesQuery, withCursor: boolean): { from: Sql; where: Sql } {
    const where: Sql[] = [];
    let from = raw('issue i');
    const words = q.q === undefined ? null : this.words(q.q);
    if (words) {
      from = words.from;
      where.push(words.where);
    }
    const fold = q.fold === 'true';
    const equals = (column: string, v: string) => (fold ? sql`${this.fold(raw(column))} = ${this.fold(sql`CAST(${v} AS TEXT)`)}` : sql`${raw(column)} = ${v}`);
    if (q.label) where.push(sql`i.key IN (SELECT issue_key FROM issue_label WHERE ${equals('label', q.label)})`);
    if (q.keys) where.push(sql`i.key IN (${list(q.keys.split(',').map((k) => k.trim()).filter(Boolean))})`);
    if (q.status) where.push(equals('i.status', q.status));
    if (q.sprint) where.push(equals('i.sprint', q.sprint));
    if (q.assignee) where.push(equals('i.assignee', q.assignee));
    if (withCursor && q.cursor) where.push(sql`i.key > ${q.cursor}`);
    return { from, where: where.length ? sql` WHERE ${join(where, ' AND ')}` : raw('') };
  }
}
