import { Injectable } from '@nestjs/common';
import { ValidationFailedError } from '../common/errors.js';
import { isJiraKey } from '../common/keys.js';
import { Db } from '../database/db.service.js';
import { issueChanges } from './change.store.js';
import type { IssueChangeView } from './change.view.js';

/** The read side of the change record (SPEC 17): an issue's history of what the hub changed in it. */
@Injectable()
export class ChangesService {
  constructor(private readonly db: Db) {}

  forIssue(key: string): Promise<IssueChangeView[]> {
    if (!isJiraKey(key)) {
      const detail = 'нужен ключ Jira вида AURORA-123';
      throw new ValidationFailedError(detail, [{ field: 'key', detail }]);
    }
    return this.db.read((m) => issueChanges(m, key));
  }
}
