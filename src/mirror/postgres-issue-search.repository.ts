/** GET /issues on PostgreSQL: the words through the stored tsvector `issue.search` and its GIN index (migration v4). */
import type { EntityManager } from 'typeorm';
import { DIACRITICS_FROM, DIACRITICS_TO, raw, rows, sql, type Sql } from '../database/index.js';
import {
  DEFAULT_ISSUE_PAGE,
  ISSUE_VIEW_COLUMNS,
  IssueSearchRepository,
  WALK_ROWS_PER_MATCH,
  type IssueSearchRow,
  type WordSearch,
} from './issue-search.repository.js';
import type { ListIssuesQuery } from './mirror.dto.js';
import { tsQueryExpression } from './search-query.js';

/**
 * The tsquery of a search text's words (`отчет:* & 15:*`), folded as the indexed text is: lower case,
 * `ё` as `е`, Latin diacritics dropped — what the column's generated expression does, here with
 * PostgreSQL's own lower() and translate().
 */
const tsQuery = (match: string): Sql => sql`to_tsquery('simple', translate(lower(CAST(${match} AS text)), ${DIACRITICS_FROM}, ${DIACRITICS_TO}))`;

export class PostgresIssueSearch extends IssueSearchRepository {
  /**
   * A search by words alone walks at most WALK_ROWS_PER_MATCH × (offset + limit) issues in key order,
   * testing the stored tsvector; a full page is the answer (the plain plan's page: both take the first
   * matches in key order). Too few matches in that window: the GIN index finds every match, sorted by an
   * expression of the key (the same order) so that the planner does not walk the whole key index instead
   * (it cannot tell a common prefix from a rare one).
   */
  async page(m: EntityManager, q: ListIssuesQuery): Promise<IssueSearchRow[]> {
    const match = this.byWordsAlone(q) ? tsQueryExpression(q.q) : null;
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
    const match = tsQueryExpression(q);
    return match ? { from: raw('issue i'), where: sql`i.search @@ ${tsQuery(match)}` } : null;
  }

  protected lower(column: Sql): Sql {
    return sql`lower(${column})`;
  }
}
