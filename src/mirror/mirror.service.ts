import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { NotFoundError, ValidationFailedError } from '../common/errors.js';
import { isJiraKey, isTempKey } from '../common/keys.js';
import { Db } from '../database/db.service.js';
import { parseJson } from '../database/json.js';
import { noteKeyOf, writeNote } from './mirror.store.js';
import { NOTE_KEYS, type NoteKeys } from './note-keys.js';
import { DEFAULT_ISSUE_PAGE, ISSUE_VIEW_COLUMNS, IssueSearchRepository } from './issue-search.repository.js';
import type { IssueDetailView, IssueFacetsView, IssueView, ListIssuesQuery, NoteView, PutNoteDto, SyncRunView } from './mirror.dto.js';

interface IssueRow extends Omit<IssueView, 'labels' | 'fields'> {
  labels: string;
  fields: string;
}

/** One page of GET /issues; `next_cursor` (the last key) when the page is full. */
export interface IssuePage {
  items: IssueView[];
  next_cursor: string | null;
  /** how many issues match in all (asked with `count=true`), else null */
  total: number | null;
}

const issueView = (r: IssueRow): IssueView => ({ ...r, labels: parseJson<string[]>(r.labels, []), fields: parseJson<Record<string, unknown>>(r.fields, {}) });

/** Reads of the mirror, notes and sync runs (SPEC 7); notes are the only thing people write here. */
@Injectable()
export class MirrorService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly search: IssueSearchRepository,
    @Inject(NOTE_KEYS) private readonly noteKeys: NoteKeys,
  ) {}

  /** SPEC 7 and issue 14: filters, word search through the FTS index (a common word walks the key order), pages by key (offset or cursor). */
  listIssues(q: ListIssuesQuery): Promise<IssuePage> {
    return this.db.read(async (m) => {
      const items = (await this.search.page(m, q)).map(issueView);
      const limit = q.limit ?? DEFAULT_ISSUE_PAGE;
      // GET /issues?count=true: how many match in all (the filters of the page, no cursor or paging).
      const total = q.count === 'true' ? await this.search.count(m, q) : null;
      return { items, next_cursor: items.length === limit ? items[items.length - 1].key : null, total };
    });
  }

  /** The statuses and sprints present (each a scan of its index), the count, the last refresh. */
  facets(): Promise<IssueFacetsView> {
    return this.db.read(async (m) => {
      const [head]: { total: number; last: string | null }[] = await m.query('SELECT count(*) AS total, max(synced_at) AS last FROM issue');
      const values = async (column: 'status' | 'sprint') =>
        ((await m.query(`SELECT ${column} AS value, count(*) AS n FROM issue WHERE ${column} IS NOT NULL GROUP BY ${column} ORDER BY ${column}`)) as { value: string; n: number }[]).map(
          (r) => ({ value: r.value, n: Number(r.n) }),
        );
      return { total: Number(head.total), statuses: await values('status'), sprints: await values('sprint'), last_synced_at: head.last ?? null };
    });
  }

  getIssue(key: string): Promise<IssueDetailView> {
    return this.db.read(async (m) => {
      const [row]: IssueRow[] = await m.query(`SELECT ${ISSUE_VIEW_COLUMNS} FROM issue i WHERE key = ?`, [key]);
      if (!row) throw new NotFoundError(`задачи ${key} нет в зеркале; её можно прочитать командой refresh`);
      const links_out = await m.query('SELECT target_key, link_type FROM issue_link WHERE source_key = ? ORDER BY id', [key]);
      const links_in = await m.query('SELECT source_key, link_type FROM issue_link WHERE target_key = ? ORDER BY id', [key]);
      const [note]: NoteView[] = await m.query('SELECT * FROM issue_note WHERE key = ?', [key]);
      return { ...issueView(row), links_out, links_in, note: note ?? null };
    });
  }

  listNotes(): Promise<NoteView[]> {
    return this.db.read((m) => m.query('SELECT * FROM issue_note ORDER BY key'));
  }

  /** A temp key already resolved reads the note of its Jira key, where the move of SPEC 6.5 put it (noteKeyOf). */
  getNote(key: string): Promise<NoteView> {
    return this.db.read(async (m) => {
      const [note]: NoteView[] = await m.query('SELECT * FROM issue_note WHERE key = ?', [await noteKeyOf(m, key, (t) => this.noteKeys.currentResolution(m, t))]);
      if (!note) throw new NotFoundError(`заметки для ${key} нет`);
      return note;
    });
  }

  /**
   * Creates or changes a note; a field left out keeps its value, null clears it. A temp key that is
   * already resolved writes (and answers with) the note of its Jira key, unless a note is kept under the
   * temp key itself or an unfinished ensure_issue defines it again (noteKeyOf).
   */
  putNote(key: string, dto: PutNoteDto, source = 'api'): Promise<NoteView> {
    if (!isJiraKey(key) && !isTempKey(key)) {
      const detail = `«${key}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`;
      throw new ValidationFailedError(detail, [{ field: 'key', detail }]);
    }
    return this.db.transaction(async (m) => writeNote(m, await noteKeyOf(m, key, (t) => this.noteKeys.currentResolution(m, t)), dto, source, this.clock.iso()));
  }

  syncRuns(limit: number, beforeId?: number): Promise<SyncRunView[]> {
    return this.db.read(async (m) => {
      const rows: (Omit<SyncRunView, 'missing'> & { missing: string | null })[] = await m.query(
        'SELECT id, started_at, finished_at, kind, query, command_id, issues, links, missing, error, parts, delivery FROM sync_run WHERE id < CAST(? AS BIGINT) ORDER BY id DESC LIMIT ?',
        [Math.min(beforeId ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER), limit],
      );
      return rows.map((r) => ({ ...r, missing: parseJson<string[]>(r.missing, []) }));
    });
  }
}
