/** GET /issues on SQLite: the words through the FTS5 index `issue_fts` (row id = issue.search_id). */
import type { EntityManager } from 'typeorm';
import { one, raw, rows, sql, type Sql } from '../database/index.js';
import { COMMON_WORD_MATCHES, DEFAULT_ISSUE_PAGE, ISSUE_VIEW_COLUMNS, IssueSearchRepository, type IssueSearchRow, type WordSearch } from './issue-search.repository.js';
import type { ListIssuesQuery } from './mirror.dto.js';
import { matchExpression } from './search-query.js';

export class SqliteIssueSearch extends IssueSearchRepository {
  /**
   * A search by words alone counts the FTS5 matches up to COMMON_WORD_MATCHES first (FTS5 streams row
   * ids; cheap). A common word does not gather, join and sort every match: the key index is walked from
   * the cursor, each issue's search_id tested against the set of matches, and the walk stops at the
   * page — the plain plan's page, since both take the first matches in key order.
   */
  async page(m: EntityManager, q: ListIssuesQuery): Promise<IssueSearchRow[]> {
    const match = this.byWordsAlone(q) ? matchExpression(q.q) : null;
    if (match) {
      const cap = this.tuning.commonWordMatches ?? COMMON_WORD_MATCHES;
      const counted = await one<{ n: number }>(m, sql`SELECT count(*) AS n FROM (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ${match} LIMIT ${cap})`);
      if (counted!.n >= cap) {
        // `+` keeps SQLite off the search_id index: it walks the key index, and the matches are a set.
        return rows<IssueSearchRow>(
          m,
          sql`SELECT ${raw(ISSUE_VIEW_COLUMNS)} FROM issue i WHERE +i.search_id IN (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ${match})${this.after(q, 'AND')}
               ORDER BY i.key LIMIT ${q.limit ?? DEFAULT_ISSUE_PAGE} OFFSET ${q.offset ?? 0}`,
        );
      }
    }
    return this.plainPage(m, q);
  }

  protected words(q: string): WordSearch | null {
    const match = matchExpression(q);
    return match ? { from: raw('issue_fts f JOIN issue i ON i.search_id = f.rowid'), where: sql`issue_fts MATCH ${match}` } : null;
  }

  /** SQLite's own lower() folds ASCII only: hub_lower (data-source.ts) is JavaScript's toLowerCase. */
  protected lower(column: Sql): Sql {
    return sql`hub_lower(${column})`;
  }
}
