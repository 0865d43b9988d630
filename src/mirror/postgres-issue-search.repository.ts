/** GET /issues on PostgreSQL: the words through the stored tsvector `issue.search` and its GIN index (migration v4). */
import type { EntityManager } from 'typeorm';
import { join, raw, rows, sql, type Sql } from '../database/index.js';
import {
  DEFAULT_ISSUE_PAGE,
  ISSUE_VIEW_COLUMNS,
  IssueSearchRepository,
  WALK_ROWS_PER_MATCH,
  type IssueSearchRow,
  type WordSearch,
} from './issue-search.repository.js';
import type { ListIssuesQuery } from './mirror.dto.js';
import { searchTermTexts } from './search-query.js';

/**
 * The tsquery of a search text's terms: hub_search_query folds and splits them as the stored `issue.search`
 * holds an issue's words (lower case, `ё` as `е`, the diacritics SQLite's index drops, words split where it
 * splits them: decision 1431), so that both engines find the same issues.
 */
const tsQuery = (terms: readonly string[]): Sql => sql`hub_search_query(ARRAY[${join(terms.map((t) => sql`CAST(${t} AS text)`), ', ')}])`;

export class PostgresIssueSearch extends IssueSearchRepository {
  /**
   * A search by words alone walks at most WALK_ROWS_PER_MATCH × (offset + limit) issues in key order,
   * testing the stored tsvector; a full page is the answer (the plain plan's page: both take the first
   * matches in key order). Too few matches in that window: the GIN index finds every match, sorted by an
   * expression of the key (the same order) so that the planner does not walk the whole key index instead
   * (it cannot tell a common prefix from a rare one).
   */
  async page(m: EntityManager, q: ListIssuesQuery): Promise<IssueSearchRow[]> {
    const match = this.byWordsAlone(q) ? searchTermTexts(q.q) : null;
    if (!match) return this.plainPage(m, q);
    const limit = q.limit ?? DEFAULT_ISSUE_PAGE;
    const offset = q.offset ?? 0;
    const window = (this.tuning.walkRowsPerMatch ?? WALK_ROWS_PER_MATCH) * (offset + limit);
    const page = await rows<IssueSearchRow>(
      m,
      sql`SELECT ${raw(ISSUE_VIEW_COLUMNS)} FROM (SELECT * FROM issue i${this.after(q, 'WHERE')} ORDER BY i.key LIMIT ${window}) i
           WHERE i.search @@ ${tsQuery(match)} ORDER BY i.key LIMIT ${limit} OFFSET ${offset}`,
    );
    if (page.length === limit) return page;
    return this.plainPage(m, q, raw(`i.key || ''`));
  }

  protected words(q: string): WordSearch | null {
    const match = searchTermTexts(q);
    return match ? { from: raw('issue i'), where: sql`i.search @@ ${tsQuery(match)}` } : null;
  }

  protected lower(column: Sql): Sql {
    return sql`lower(${column})`;
  }
}
