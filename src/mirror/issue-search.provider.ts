/** The engine's IssueSearchRepository, as MirrorModule provides it. */
import type { Provider } from '@nestjs/common';
import type { Engine } from '../database/index.js';
import { Db } from '../database/index.js';
import { IssueSearchRepository, type SearchTuning } from './issue-search.repository.js';
import { PostgresIssueSearch } from './postgres-issue-search.repository.js';
import { SqliteIssueSearch } from './sqlite-issue-search.repository.js';

/** The search of `engine`; `tuning` lowers the thresholds (tests). */
export function issueSearchFor(engine: Engine, tuning: SearchTuning = {}): IssueSearchRepository {
  return engine === 'postgres' ? new PostgresIssueSearch(tuning) : new SqliteIssueSearch(tuning);
}

export const issueSearchProvider: Provider = {
  provide: IssueSearchRepository,
  inject: [Db],
  useFactory: (db: Db) => issueSearchFor(db.engine),
};
