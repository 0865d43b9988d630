import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { NotFoundError, ValidationFailedError } from '../common/errors.js';
import { isJiraKey, isTempKey } from '../common/keys.js';
import { Db } from '../database/db.service.js';
import { parseJson } from '../database/json.js';
import { currentResolution } from '../queue/temp-key.store.js';
import { noteKeyOf, writeNote } from './mirror.store.js';
import type { IssueDetailView, IssueView, ListIssuesQuery, NoteView, PutNoteDto, SyncRunView } from './mirror.dto.js';

interface IssueRow extends Omit<IssueView, 'labels' | 'fields'> {
  labels: string;
  fields: string;
}

const issueView = (r: IssueRow): IssueView => ({ ...r, labels: parseJson<string[]>(r.labels, []), fields: parseJson<Record<string, unknown>>(r.fields, {}) });

/** Reads of the mirror, notes and sync runs (SPEC 7); notes are the only thing people write here. */
@Injectable()
export class MirrorService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  listIssues(q: ListIssuesQuery): Promise<IssueView[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const filter = (condition: string, ...values: unknown[]) => {
      where.push(condition);
      args.push(...values);
    };
    if (q.keys) {
      const keys = q.keys.split(',').map((k) => k.trim()).filter(Boolean);
      filter(`key IN (${keys.map(() => '?').join(', ') || 'NULL'})`, ...keys);
    }
    if (q.status) filter('status = ?', q.status);
    if (q.sprint) filter('sprint = ?', q.sprint);
    if (q.q) filter('instr(hub_lower(summary), hub_lower(?)) > 0', q.q);
    const sql = `SELECT * FROM issue ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY key LIMIT ? OFFSET ?`;
    return this.db.read(async (m) => ((await m.query(sql, [...args, q.limit ?? 100, q.offset ?? 0])) as IssueRow[]).map(issueView));
  }

  getIssue(key: string): Promise<IssueDetailView> {
    return this.db.read(async (m) => {
      const [row]: IssueRow[] = await m.query('SELECT * FROM issue WHERE key = ?', [key]);
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
      const [note]: NoteView[] = await m.query('SELECT * FROM issue_note WHERE key = ?', [await noteKeyOf(m, key, (t) => currentResolution(m, t))]);
      if (!note) throw new NotFoundError(`заметки для ${key} нет`);
      return note;
    });
  }

  /**
   * Creates or changes a note; a field left out keeps its value, null clears it. A temp key that is
   * already resolved writes (and answers with) the note of its Jira key, unless a note is kept under the
   * temp key itself or an unfinished ensure_issue defines it again (noteKeyOf).
   */
  putNote(key: string, dto: PutNoteDto): Promise<NoteView> {
    if (!isJiraKey(key) && !isTempKey(key)) {
      const detail = `«${key}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`;
      throw new ValidationFailedError(detail, [{ field: 'key', detail }]);
    }
    return this.db.transaction(async (m) => writeNote(m, await noteKeyOf(m, key, (t) => currentResolution(m, t)), dto, 'api', this.clock.iso()));
  }

  syncRuns(limit: number, beforeId?: number): Promise<SyncRunView[]> {
    return this.db.read(async (m) => {
      const rows: (Omit<SyncRunView, 'missing'> & { missing: string | null })[] = await m.query(
        'SELECT * FROM sync_run WHERE id < CAST(? AS BIGINT) ORDER BY id DESC LIMIT ?',
        [beforeId ?? Number.MAX_SAFE_INTEGER, limit],
      );
      return rows.map((r) => ({ ...r, missing: parseJson<string[]>(r.missing, []) }));
    });
  }
}
