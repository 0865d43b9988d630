import { Inject, Injectable } from '@nestjs/common';
import { Clock, NotFoundError, ValidationFailedError, isTempKey } from '../common/index.js';
import { Db, parseJson } from '../database/index.js';
import { IssueRepository } from './issue.repository.js';
import { NoteRepository } from './note.repository.js';
import { SyncRunRepository } from './sync-run.repository.js';
import { NOTE_KEYS, type NoteKeys } from './note-keys.js';
import { DEFAULT_ISSUE_PAGE, IssueSearchRepository } from './issue-search.repository.js';
import type { IssueDetailView, IssueFacetsView, IssueView, ListIssuesQuery, NoteView, PutNoteDto, SyncRunView } from './mirror.dto.js';
import { storedLabels } from './stored-labels.js';

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

const issueView = (r: IssueRow): IssueView => ({ ...r, labels: storedLabels(r.labels), fields: parseJson<Record<string, unknown>>(r.fields, {}) });

/** A note's value as an imported cell reads (CSV cells are trimmed, an empty one is null): undefined stays undefined. */
const asCell = (v: string | null | undefined): string | null | undefined => (typeof v === 'string' ? v.trim() || null : v);

/** Reads of the mirror, notes and sync runs (SPEC 7); notes are the only thing people write here. */
@Injectable()
export class MirrorService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly search: IssueSearchRepository,
    @Inject(NOTE_KEYS) private readonly noteKeys: NoteKeys,
    private readonly issues: IssueRepository,
    private readonly notes: NoteRepository,
    private readonly syncRunRows: SyncRunRepository,
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
      const head = await this.issues.head(m);
      const values = (column: 'status' | 'sprint') => this.issues.values(m, column);
      return { total: head.total, statuses: await values('status'), sprints: await values('sprint'), last_synced_at: head.last };
    });
  }

  /**
   * One issue with its links and note. A temp key reads the issue its ensure_issue created, as GET /notes
   * reads that issue's note (decision 1506): the key the temp key stands for now (NoteKeys), or a 404
   * that says the issue is not created yet; the mirror never holds a temp key itself.
   */
  getIssue(key: string): Promise<IssueDetailView> {
    return this.db.read(async (m) => {
      const jiraKey = isTempKey(key) ? await this.noteKeys.currentResolution(m, key) : key;
      if (jiraKey === undefined) {
        throw new NotFoundError(`задачи ${key} в Jira ещё нет: временный ключ становится ключом Jira, когда выполнена команда ensure_issue с ним`);
      }
      const row = await this.issues.get<IssueRow>(m, jiraKey);
      if (!row) {
        const named = jiraKey === key ? key : `${jiraKey} (${key})`;
        // A refresh that asked Jira for it and got nothing back (or a command's 404, decision 1448): another refresh would not help.
        const gone = (await this.syncRunRows.missingKeys(m)).get(jiraKey);
        if (gone) throw new NotFoundError(`задачи ${named} нет в зеркале: Jira её не нашла (чтение #${gone.run} в /sync-runs) — задачу удалили, перенесли в другой проект или скрыли от агента`);
        throw new NotFoundError(`задачи ${named} нет в зеркале: обновите эту задачу в зеркале, чтобы прочитать её из Jira`);
      }
      const links = await this.issues.linksOf(m, jiraKey);
      const note = await this.notes.get(m, jiraKey);
      return { ...issueView(row), links_out: links.out, links_in: links.in, note: note ?? null };
    });
  }

  listNotes(): Promise<NoteView[]> {
    return this.db.read((m) => this.notes.list(m));
  }

  /** A temp key already resolved reads the note of its Jira key, where the move of SPEC 6.5 put it (noteKeyOf). */
  getNote(key: string): Promise<NoteView> {
    return this.db.read(async (m) => {
      const note = await this.notes.get(m, await this.notes.keyOf(m, key, (t) => this.noteKeys.currentResolution(m, t)));
      if (!note) throw new NotFoundError(`заметки для ${key} нет`);
      return note;
    });
  }

  /**
   * Creates or changes a note; a field left out keeps its value, null clears it. A temp key that is
   * already resolved writes (and answers with) the note of its Jira key, unless a note is kept under the
   * temp key itself or an unfinished ensure_issue defines it again (noteKeyOf). A body with neither
   * field is refused, as the MCP tool refuses it; one that changes nothing writes nothing (decision 1408).
   * A value is kept as an imported cell is: spaces at its ends dropped, blank as null (it clears the field).
   */
  async putNote(key: string, dto: PutNoteDto, source = 'api'): Promise<NoteView> {
    if (dto.fact_status === undefined && dto.comment === undefined) {
      const detail = 'передайте fact_status и/или comment (null стирает поле)';
      throw new ValidationFailedError(detail, [{ field: 'fact_status', detail }, { field: 'comment', detail }]);
    }
    const change = { fact_status: asCell(dto.fact_status), comment: asCell(dto.comment) };
    return this.db.transaction(async (m) => this.notes.write(m, await this.notes.keyOf(m, key, (t) => this.noteKeys.currentResolution(m, t)), change, source, this.clock.iso()));
  }

  syncRuns(limit: number, beforeId?: number): Promise<SyncRunView[]> {
    return this.db.read(async (m) => {
      const rows = await this.syncRunRows.page(m, limit, beforeId);
      return rows.map((r) => ({ ...r, missing: parseJson<string[]>(r.missing, []) }));
    });
  }
}
