/**
 * Writes to the mirror and notes inside a caller's transaction (the report of a refresh, the move of
 * a note when an ensure_issue resolves). Raw SQL with cached statements: a refresh may carry ten
 * thousand issues.
 */
import type { EntityManager } from 'typeorm';
import { insertReturningId } from '../database/engine.js';
import { isTempKey } from '../common/keys.js';
import type { MirrorIssue, MirrorLookup } from './mirror-lookup.js';
import { parseJson } from '../database/json.js';
import type { RefreshResult } from './refresh-result.js';

const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const marks = (n: number) => new Array(n).fill('?').join(', ');

/** What one slice of a refresh result added to its sync run: rows not yet reported by this delivery. */
export interface SliceCounts {
  issues: number;
  links: number;
}

const ISSUE_COLUMNS = 'key, summary, issue_type, status, sprint, assignee, priority, duedate, labels, fields, created, updated, synced_at, sync_mark';
const ISSUES_PER_STATEMENT = 200;
const LINKS_PER_STATEMENT = 300;

/**
 * SPEC 7 for one slice of a refresh result (the whole result, or one part of it, 15.5): upsert each
 * reported issue; replace every link that touches a reported issue by the reported links. `mark`
 * names the delivery of the sync run that reports (syncMark): a link this delivery already reported
 * in an earlier part is never deleted by a later part, so a link between issues of parts 1 and 3
 * reported in part 1 survives part 3, and the parts together leave the mirror as one whole result
 * would. Returns how many issues and links this delivery had not reported before (each counted once).
 */
export async function applySlice(m: EntityManager, slice: Pick<RefreshResult, 'issues' | 'links'>, mark: number, now: string): Promise<SliceCounts> {
  const byKey = new Map(slice.issues.map((i) => [i.key, i]));
  const issues = [...byKey.values()];
  let seen = 0;
  for (const part of chunks([...byKey.keys()])) {
    const [row]: { n: number }[] = await m.query(`SELECT count(*) AS n FROM issue WHERE key IN (${marks(part.length)}) AND sync_mark = ?`, [...part, mark]);
    seen += row.n;
  }
  for (const part of chunks(issues, ISSUES_PER_STATEMENT)) {
    await m.query(
      `INSERT INTO issue (${ISSUE_COLUMNS}) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
       ON CONFLICT(key) DO UPDATE SET summary = excluded.summary, issue_type = excluded.issue_type, status = excluded.status,
         sprint = excluded.sprint, assignee = excluded.assignee, priority = excluded.priority, duedate = excluded.duedate,
         labels = excluded.labels, fields = excluded.fields, created = excluded.created, updated = excluded.updated,
         synced_at = excluded.synced_at, sync_mark = excluded.sync_mark`,
      part.flatMap((i) => [i.key, i.summary, i.issue_type, i.status, i.sprint, i.assignee, i.priority, i.duedate, JSON.stringify(i.labels), JSON.stringify(i.fields), i.created, i.updated, now, mark]),
    );
  }
  for (const part of chunks(issues.map((i) => i.key))) {
    await m.query(`DELETE FROM issue_link WHERE (source_key IN (${marks(part.length)}) OR target_key IN (${marks(part.length)})) AND sync_mark IS DISTINCT FROM ?`, [
      ...part,
      ...part,
      mark,
    ]);
  }
  let links = 0;
  for (const part of chunks(slice.links, LINKS_PER_STATEMENT)) {
    // RETURNING lists the rows inserted or marked now, not those this delivery had already reported.
    const changed: unknown[] = await m.query(
      `INSERT INTO issue_link (source_key, target_key, link_type, sync_mark) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}
       ON CONFLICT(source_key, target_key, link_type) DO UPDATE SET sync_mark = excluded.sync_mark WHERE issue_link.sync_mark IS DISTINCT FROM excluded.sync_mark
       RETURNING id`,
      part.flatMap((l) => [l.source_key, l.target_key, l.link_type, mark]),
    );
    links += changed.length;
  }
  return { issues: issues.length - seen, links };
}

/** Those of `keys` that the delivery `mark` has reported (SPEC 7: the rest of a keys refresh is missing). */
export async function reportedKeys(m: EntityManager, keys: readonly string[], mark: number): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks([...new Set(keys)])) {
    const rows: { key: string }[] = await m.query(`SELECT key FROM issue WHERE key IN (${marks(part.length)}) AND sync_mark = ?`, [...part, mark]);
    for (const r of rows) found.add(r.key);
  }
  return found;
}

interface IssueRow {
  key: string;
  summary: string | null;
  status: string | null;
  sprint: string | null;
  assignee: string | null;
  priority: string | null;
  duedate: string | null;
  labels: string;
  fields: string;
  synced_at: string | null;
}

/** A synchronous view of the mirror for the given keys, for the pure confirmation rules. */
export async function mirrorLookup(m: EntityManager, keys: readonly string[]): Promise<MirrorLookup> {
  const issues = new Map<string, MirrorIssue>();
  const links = new Set<string>();
  const unique = [...new Set(keys)];
  for (const part of chunks(unique)) {
    const rows: IssueRow[] = await m.query(`SELECT * FROM issue WHERE key IN (${marks(part.length)})`, part);
    for (const r of rows) {
      const fields = parseJson<Record<string, unknown>>(r.fields, {});
      issues.set(r.key, { ...r, labels: parseJson<string[]>(r.labels, []), fields, description: (fields.description as string) ?? null });
    }
    const linkRows: { source_key: string; target_key: string; link_type: string }[] = await m.query(
      `SELECT source_key, target_key, link_type FROM issue_link WHERE source_key IN (${marks(part.length)})`,
      part,
    );
    for (const l of linkRows) links.add(JSON.stringify([l.source_key, l.target_key, l.link_type]));
  }
  return {
    issue: (key) => issues.get(key),
    hasLink: (s, t, type) => links.has(JSON.stringify([s, t, type])),
  };
}

/** The mirror's issues whose trimmed summary is exactly one of these (a dry run's hint for ensure_issue), by summary. */
export async function issuesBySummary(m: EntityManager, summaries: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const part of chunks([...new Set(summaries)])) {
    const rows: { key: string; summary: string }[] = await m.query(
      `SELECT key, trim(summary) AS summary FROM issue WHERE trim(summary) IN (${marks(part.length)}) ORDER BY key`,
      part,
    );
    for (const r of rows) out.set(r.summary, [...(out.get(r.summary) ?? []), r.key]);
  }
  return out;
}

export interface NoteRow {
  key: string;
  fact_status: string | null;
  comment: string | null;
  source: string | null;
  updated_at: string | null;
}

/** Creates or replaces the note of a key. */
export async function upsertNote(m: EntityManager, note: NoteRow): Promise<void> {
  await m.query(
    `INSERT INTO issue_note (key, fact_status, comment, source, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET fact_status = excluded.fact_status, comment = excluded.comment, source = excluded.source, updated_at = excluded.updated_at`,
    [note.key, note.fact_status, note.comment, note.source, note.updated_at],
  );
}

/** The fields a write of a note sets: undefined keeps the stored value, null clears it. */
export interface NotePatch {
  fact_status?: string | null;
  comment?: string | null;
}

/**
 * The key the note of `key` is kept under (SPEC 6.5): a note already under the temp key stays there
 * (its ensure_issue is still to run, or never created the issue); otherwise a temp key that stands for
 * an issue now (`resolve`: currentResolution(s) of the temp-key store) is its issue's Jira key; any
 * other key is itself.
 */
export async function noteKeyOf(m: EntityManager, key: string, resolve: (tempKey: string) => Promise<string | undefined> | string | undefined): Promise<string> {
  if (!isTempKey(key)) return key;
  const [own] = await m.query('SELECT 1 AS x FROM issue_note WHERE key = ?', [key]);
  return own ? key : ((await resolve(key)) ?? key);
}

/**
 * Writes the note of `key` for `PUT /notes` and imports: the fields of `patch` that are set replace,
 * the others keep what is stored. Callers pass a temp key already resolved as its Jira key (where
 * the move of SPEC 6.5 put the note). Returns the note as stored.
 */
export async function writeNote(m: EntityManager, key: string, patch: NotePatch, source: string, now: string): Promise<NoteRow> {
  const [old]: NoteRow[] = await m.query('SELECT * FROM issue_note WHERE key = ?', [key]);
  const note: NoteRow = {
    key,
    fact_status: patch.fact_status !== undefined ? patch.fact_status : (old?.fact_status ?? null),
    comment: patch.comment !== undefined ? patch.comment : (old?.comment ?? null),
    source,
    updated_at: now,
  };
  await upsertNote(m, note);
  return note;
}

/** Opens the sync run of a refresh (SPEC 6.2 step 3): `keys` or `jql`, and its query. */
export async function openSyncRun(m: EntityManager, commandId: number, params: { keys?: unknown; jql?: unknown }, startedAt: string): Promise<number> {
  const keys = Array.isArray(params.keys) ? (params.keys as string[]) : null;
  return insertReturningId(m, 'INSERT INTO sync_run (started_at, kind, query, command_id) VALUES (?, ?, ?, ?)', [
    startedAt,
    keys ? 'keys' : 'jql',
    keys ? keys.join(',') : String(params.jql ?? ''),
    commandId,
  ]);
}

/** Closes the open sync run of a refresh that will not report a result. */
export async function failSyncRun(m: EntityManager, commandId: number, now: string, error: string): Promise<void> {
  await m.query('UPDATE sync_run SET finished_at = ?, error = ? WHERE command_id = ? AND finished_at IS NULL', [now, error, commandId]);
}

/** Records the outcome of a refresh command on its sync run (opened at claim; by an older hub maybe not), returning the run's id. */
export async function finishSyncRun(
  m: EntityManager,
  command: { id: number; claimed_at: string | null },
  params: { keys?: unknown; jql?: unknown },
  counts: { issues: number; links: number; missing: string[] },
  now: string,
): Promise<number> {
  let [run]: { id: number }[] = await m.query('SELECT id FROM sync_run WHERE command_id = ? ORDER BY id DESC LIMIT 1', [command.id]);
  // A refresh claimed by an older hub has no sync run yet.
  if (!run) run = { id: await openSyncRun(m, command.id, params, command.claimed_at ?? now) };
  await m.query('UPDATE sync_run SET finished_at = ?, issues = ?, links = ?, missing = ?, error = NULL WHERE id = ?', [
    now,
    counts.issues,
    counts.links,
    JSON.stringify(counts.missing),
    run.id,
  ]);
  return run.id;
}

/** When the latest refresh started (null before the first): the auto-refresh is due after its interval. */
export async function lastSyncStart(m: EntityManager): Promise<string | null> {
  const [last]: { started_at: string | null }[] = await m.query('SELECT max(started_at) AS started_at FROM sync_run');
  return last?.started_at ?? null;
}

/** Moves the note of a temp key to the Jira key it resolved to; a note already on the key wins field by field (SPEC 6.5). */
export async function moveNote(m: EntityManager, from: string, to: string, now: string): Promise<void> {
  if (from === to) return;
  const [moving]: NoteRow[] = await m.query('SELECT * FROM issue_note WHERE key = ?', [from]);
  if (!moving) return;
  const [existing]: NoteRow[] = await m.query('SELECT * FROM issue_note WHERE key = ?', [to]);
  await upsertNote(m, {
    key: to,
    fact_status: existing?.fact_status ?? moving.fact_status,
    comment: existing?.comment ?? moving.comment,
    source: existing?.source ?? moving.source,
    updated_at: now,
  });
  await m.query('DELETE FROM issue_note WHERE key = ?', [from]);
}
