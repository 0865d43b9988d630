/**
 * The revert of a batch (SPEC 17.2), pure: the batch's change record and the mirror as it is now → the
 * inverse commands, newest change first, and the conflicts — changes the mirror no longer shows as their
 * `after` (someone changed it since), which are listed and left alone, never overwritten. A subject the
 * batch changed more than once is reverted by its net change, first `before` to last `after` (decision 1410).
 */
import { createHash } from 'node:crypto';
import { comparableText } from '../../common/index.js';
import type { MirrorIssue, MirrorLookup } from '../../mirror/index.js';
import type { CommandInput } from './batch-rules.js';
import type { CatalogueBoard, CatalogueField } from '@jira-hub/contracts';
import { checkParams, type Params } from '@jira-hub/contracts/catalogue';
import { boardWords, fieldWords, paramWords, type NamedField } from '@jira-hub/contracts/russian';
import { sprintOfChange, type Change } from './change-record.js';
import { changesAgainstMirror, inBacklog, mirrorShowsSprint } from './confirmation.js';

export const REVERTED_LABEL = 'hub-reverted';
export const REVERT_TITLE = (id: number) => `Откат пакета #${id}`;

/**
 * A change as the revert reads it: the command that made it groups the fields of one ensure_fields; when
 * the hub recorded it (the mirror read before then has not seen it).
 */
export type RecordedChange = Change & { command_id: number; recorded_at?: string };

export interface RevertOptions {
  /** settings `revert.created_issue_status`: where an issue the batch created goes */
  createdIssueStatus: string;
  /** settings `revert.delete_created`: delete the issues the batch created instead */
  deleteCreated: boolean;
  /** the account may delete issues (catalogue permissions); undefined: not known, the agent checks */
  mayDelete?: boolean;
  /**
   * Another batch not yet finished that will change this too (`field:<name>`, `status`, `sprint` of a Jira
   * key): its id, or undefined. Such a change is a conflict, as one the mirror no longer shows: the revert
   * would run after that batch and overwrite what it does.
   */
  pendingBy?: (key: string, what: string) => number | undefined;
  /**
   * An open sprint of the catalogue by its id (decision 1430): its name now (renamed since the change: the
   * checks and the agent find it by that one) and the board it is listed under; undefined: not listed. A
   * sprint shown on several boards is listed once, under the first that shows it, which need not be the
   * board Jira names as its own (the change record's `board_id`): the checks find it only there. Absent
   * without a catalogue: then no sprint is known to be closed.
   */
  openSprint?: (sprintId: number) => { name: string; board_id: number } | undefined;
  /** The catalogue's boards: a conflict names a sprint's board by its name (by its id when they do not know it). */
  boards?: readonly CatalogueBoard[];
  /** The catalogue's fields: a conflict names a custom field by the name Jira gives it (by its own name when they do not know it). */
  fields?: readonly CatalogueField[];
}

/**
 * What unfinished commands of other batches will change, by `key what` (see RevertOptions.pendingBy):
 * the fields of ensure_fields, the status, the sprint, everything of an issue delete_issue removes. Temp
 * keys are read through `resolve` (their Jira key, when a batch created it).
 */
export function pendingChanges(
  commands: readonly { batch_id: number; type: string; params: Params }[],
  resolve: (key: string) => string | undefined,
): (key: string, what: string) => number | undefined {
  const pending = new Map<string, number>();
  const whole = new Map<string, number>();
  for (const c of commands) {
    const key = typeof c.params.key === 'string' ? (resolve(c.params.key) ?? c.params.key) : undefined;
    if (key === undefined) continue;
    if (c.type === 'delete_issue' && !whole.has(key)) whole.set(key, c.batch_id);
    for (const what of writtenBy(c.type, c.params)) if (!pending.has(`${key} ${what}`)) pending.set(`${key} ${what}`, c.batch_id);
  }
  return (key, what) => whole.get(key) ?? pending.get(`${key} ${what}`);
}

/**
 * What of its issue a command writes, named as the change record names it (`field:<name>`, `status`,
 * `sprint`): the subjects a revert's look ahead and its approval compare.
 */
export function writtenBy(type: string, params: Params): string[] {
  if (type === 'ensure_fields') return Object.keys(params).filter((name) => name !== 'key').map((name) => `field:${name}`);
  return type === 'ensure_status' ? ['status'] : type === 'ensure_sprint' ? ['sprint'] : [];
}

/** A change that is not reverted, and why (Russian). */
export interface RevertConflict {
  key: string | null;
  what: string;
  /** what the batch left there */
  expected: unknown;
  /** what the mirror shows now (undefined: the mirror cannot tell) */
  actual?: unknown;
  detail: string;
  /**
   * Not yet decided (decision 1467): the mirror has not seen the batch's change (or the issue) yet, or another
   * batch not yet finished changes it too. A refresh or that batch's end lets a revert asked for again put it
   * back; a revert made now would leave it for good (a batch is reverted once), so it is made only when
   * asked to leave these. False: final — someone changed it since, the issue is gone, the record lacks what
   * the inverse needs.
   */
  retry_later: boolean;
}

export interface RevertPlan {
  commands: CommandInput[];
  conflicts: RevertConflict[];
}

/**
 * The fingerprint of a plan's `retry_later` conflicts (decision 1491): a short hash of their sorted (key, what,
 * expected) triples, null when there are none. A dry run answers it as `pending_token`; a revert asked for with
 * `leave_pending=<token>` is made only while the plan's token is still the same, so what is left for good is the
 * list the person saw. `expected` (the batch's own change, fixed once the batch has ended) tells apart two links
 * or comments of one issue, which share key and what.
 */
export function pendingToken(conflicts: readonly RevertConflict[]): string | null {
  const pending = conflicts.filter((c) => c.retry_later).map((c) => JSON.stringify([c.key, c.what, c.expected ?? null]));
  if (pending.length === 0) return null;
  return createHash('sha256').update(pending.sort().join('\n')).digest('hex').slice(0, PENDING_TOKEN_LENGTH);
}

/** How many hex digits a `pending_token` has. */
export const PENDING_TOKEN_LENGTH = 16;
/** A `pending_token` as `leave_pending` takes it. */
export const PENDING_TOKEN = new RegExp(`^[0-9a-f]{${PENDING_TOKEN_LENGTH}}$`);

interface LinkValue {
  source: string;
  target: string;
  link_type: string;
  id?: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asLink = (v: unknown): LinkValue | null =>
  isObject(v) && typeof v.source === 'string' && typeof v.target === 'string' && typeof v.link_type === 'string' ? (v as unknown as LinkValue) : null;
const shown = (v: unknown): string =>
  v === null || v === undefined || (Array.isArray(v) && v.length === 0)
    ? 'пусто'
    : typeof v === 'string'
      ? `«${v}»`
      : Array.isArray(v) && v.every((x) => typeof x === 'string')
        ? v.map((x) => `«${x}»`).join(', ')
        : JSON.stringify(v);

/** A sprint of the change record or the mirror in words: «Спринт 2» (доска «Команда А»), «Спринт 2» (доска 2) for a board `boards` do not know, бэклог. */
const sprintShown = (v: unknown, boards: RevertOptions['boards']): string => {
  const sprint = sprintOfChange(v);
  if (sprint === undefined) return shown(v);
  return sprint === null ? 'бэклог' : `«${sprint.name}»${sprint.board_id === null ? '' : ` (${boardWords(sprint.board_id, boards)})`}`;
};
/** A value of a change's subject in words (a conflict's detail). */
const valueShown = (what: string, v: unknown, boards: RevertOptions['boards']): string => (what === 'sprint' ? sprintShown(v, boards) : shown(v));

/** What the mirror shows for a change's subject (for a conflict's `actual`): a sprint with its id and board when the mirror knows them. */
function mirrorValue(mirror: MirrorLookup, key: string, what: string): unknown {
  const issue = mirror.issue(key);
  if (!issue) return undefined;
  if (what === 'status') return issue.status;
  if (what === 'sprint') {
    // A closed sprint only is the backlog (decision 1434), as the change records hold it.
    if (inBacklog(issue)) return null;
    const id = issue.sprint_id ?? null;
    return issue.sprint === null || id === null ? (issue.sprint ?? null) : { id, name: issue.sprint, board_id: issue.sprint_board_id ?? null };
  }
  const name = what.slice('field:'.length);
  if (name === 'labels') return issue.labels;
  if (name === 'description') return issue.description ?? null;
  if (['summary', 'duedate', 'assignee', 'priority'].includes(name)) return issue[name as 'summary'];
  return issue.fields[name] ?? null;
}

/** The mirror shows the change's `after` (the same rule as confirmation by state). */
function showsAfter(mirror: MirrorLookup, c: Change): boolean {
  const key = c.key!;
  if (c.what === 'status') return typeof c.after === 'string' && changesAgainstMirror('ensure_status', { key, path: [c.after] }, mirror)?.length === 0;
  if (c.what === 'sprint') {
    // The sprint the batch left, by its id when the record has one (decision 1430): the same name on another board is not it.
    const after = sprintOfChange(c.after);
    const issue = mirror.issue(key);
    return after !== undefined && issue !== undefined && mirrorShowsSprint(issue, after === null ? { name: null } : { name: after.name, id: after.id }) === true;
  }
  return changesAgainstMirror('ensure_fields', { key, [c.what.slice('field:'.length)]: c.after ?? null }, mirror)?.length === 0;
}

/**
 * What of Jira a change changed, the same for every change of it in one batch: an issue's field, status or
 * sprint, or a link by its ends and type (as the agent finds a link: type and keys in any case). Undefined
 * for a change that shares no subject (a comment, an issue, a record without its key or its link).
 */
function subjectOf(c: Change): string | undefined {
  if (c.what.startsWith('field:') || c.what === 'status' || c.what === 'sprint') return c.key ? `${c.key} ${c.what}` : undefined;
  if (c.what !== 'link' && c.what !== 'link_removed') return undefined;
  const link = asLink(c.what === 'link' ? c.after : c.before);
  return link ? `link ${link.source.toUpperCase()} ${link.target.toUpperCase()} ${link.link_type.toLowerCase()}` : undefined;
}

/** One issue showing `value` as the change's subject and nothing else: the net change compared by the rule of showsAfter. */
function showing(key: string, what: string, value: unknown): MirrorLookup {
  const issue: MirrorIssue = { status: null, sprint: null, summary: null, description: null, duedate: null, labels: [], assignee: null, priority: null, fields: {} };
  const v = value ?? null;
  if (what === 'status') issue.status = typeof v === 'string' ? v : null;
  else if (what === 'sprint') {
    const sprint = sprintOfChange(v);
    issue.sprint = sprint?.name ?? null;
    issue.sprint_id = sprint?.id ?? null;
    issue.sprint_board_id = sprint?.board_id ?? null;
  }
  else {
    const name = what.slice('field:'.length);
    if (name === 'labels') issue.labels = Array.isArray(v) ? v.map(String) : v === null ? [] : [String(v)];
    else if (['summary', 'duedate', 'assignee', 'priority', 'description'].includes(name)) (issue as unknown as Record<string, unknown>)[name] = v;
    else issue.fields[name] = v;
  }
  return { issue: (k) => (k === key ? issue : undefined), hasLink: () => false };
}

/**
 * The net change of a subject the batch changed from `first` to `last` (the same change when once): the
 * first `before` to the last `after`, as the last change (its command, its kind). Null when that is no
 * change: a value put back where it was, a link created and removed, or removed and created again.
 */
function netChange(first: RecordedChange, last: RecordedChange): RecordedChange | null {
  if (last.what === 'link' || last.what === 'link_removed') return first.what === last.what ? last : null;
  const net = { ...last, before: first.before };
  return showsAfter(showing(last.key!, last.what, net.before), net) ? null : net;
}

/**
 * Builds the revert. Issues the batch created are not put back field by field: they get the label
 * `hub-reverted` and the status `createdIssueStatus` (their links to other issues removed), or are deleted
 * with `delete_issue` when `deleteCreated` and the account may delete (their links go with them).
 */
export function buildRevert(changes: readonly RecordedChange[], mirror: MirrorLookup, options: RevertOptions): RevertPlan {
  const created = new Map<string, string>();
  for (const c of changes) if (c.what === 'issue' && c.key) created.set(c.key, String((c.after as { summary?: unknown } | undefined)?.summary ?? ''));
  const deleting = options.deleteCreated && options.mayDelete !== false;
  /** A created issue the revert deletes: its links and comments go with it (one whose summary changed since is kept). */
  const deleted = (key: string) => deleting && created.has(key) && !summaryChanged(mirror.issue(key), created.get(key)!);
  const commands: CommandInput[] = [];
  const conflicts: RevertConflict[] = [];
  const conflict = (c: Change, detail: string, actual?: unknown) => add(conflicts, c, detail, actual, false);
  /** A conflict that is not final (RevertConflict.retry_later): refresh the mirror or wait for a batch, then ask again. */
  const later = (c: Change, detail: string, actual?: unknown) => add(conflicts, c, detail, actual, true);
  /**
   * A command of the revert, checked as a batch's commands are at submit: one that would be refused is a
   * conflict instead, saying what is not undone (`undone`: «A-1: статус не вернуть к «To Do»») and what of
   * the change record the command cannot take, its params in words.
   */
  const emit = (c: Change, command: CommandInput, undone: string) => {
    const problems = checkParams(command.type, command.params).problems;
    if (problems.length === 0) commands.push(command);
    else conflict(c, `${undone} — в записи изменения ${problems.map((p) => `${paramWords(p.param, options.fields)}: ${p.detail}`).join('; ')}`);
  };
  /** ensure_fields of one command and key, merged: the newest command's fields first, as the changes come. */
  let fields: { commandId: number; key: string; params: Params } | null = null;
  const flush = () => {
    if (fields) commands.push({ type: 'ensure_fields', params: { key: fields.key, ...fields.params } });
    fields = null;
  };

  // Per subject, its first change and the place of its last: a subject changed more than once in the batch
  // is reverted once, by its net change, where its last change stands in the newest-first order.
  const first = new Map<string, RecordedChange>();
  const lastAt = new Map<string, number>();
  changes.forEach((c, i) => {
    const subject = subjectOf(c);
    if (subject === undefined) return;
    if (!first.has(subject)) first.set(subject, c);
    lastAt.set(subject, i);
  });

  for (let i = changes.length - 1; i >= 0; i--) {
    const subject = subjectOf(changes[i]!);
    if (subject !== undefined && lastAt.get(subject) !== i) continue; // an earlier step: its subject's net change is read at the last one
    const c = subject === undefined ? changes[i]! : netChange(first.get(subject)!, changes[i]!);
    if (c === null) continue; // the batch left the subject as it found it: nothing to undo, nothing to conflict with
    if (!KEYLESS.has(c.what) && !c.key) {
      conflict(c, `${label(c.what, options.fields)}: в записи изменения нет ключа задачи — откатите вручную`);
      continue;
    }
    const key = c.key ?? '';
    const ofCreated = created.has(key);
    // An issue Jira no longer has (a run by keys missed it after the mirror read it: deleted, moved or hidden):
    // nothing of it can be put back, and a command on it would fail in Jira. A created issue's own change says so once.
    const gone = goneEnd(c, mirror);
    if (gone) {
      if (created.has(gone.key) && c.what !== 'issue') continue;
      conflict(c, `${subjectWords(c, options.fields)} не откатываем: задачи ${gone.key} в Jira больше нет — Jira её не нашла (чтение #${gone.run} в /sync-runs); если она вернулась, обновите её в зеркале и запросите откат заново`);
      continue;
    }
    if (c.what.startsWith('field:') || c.what === 'status' || c.what === 'sprint') {
      if (ofCreated) continue; // the created issue is cancelled or deleted as a whole
      if (!mirror.issue(key)) {
        later(c, `${key} нет в зеркале: обновите зеркало, чтобы откатить`);
        continue;
      }
      if (!showsAfter(mirror, c)) {
        const actual = mirrorValue(mirror, key, c.what);
        const seen = mirror.issue(key)?.synced_at;
        // A mirror read before the change was recorded (the batch's tail refresh cancelled or failed) has not seen it: that is no one's edit.
        if (c.recorded_at && seen && seen < c.recorded_at) {
          later(c, `${key}: ${label(c.what, options.fields)} — зеркало ещё не видело изменения пакета (задачу читали до него); обновите её в зеркале и повторите откат`, actual);
        } else conflict(c, `${key}: ${label(c.what, options.fields)} с тех пор изменили — сейчас ${valueShown(c.what, actual, options.boards)}, пакет оставил ${valueShown(c.what, c.after, options.boards)}; не откатываем`, actual);
        continue;
      }
      const pending = options.pendingBy?.(key, c.what);
      if (pending !== undefined) {
        later(
          c,
          `${key}: ${label(c.what, options.fields)} меняет и пакет #${pending}, он ещё не выполнен; не откатываем, чтобы не затереть его изменение (чтобы откатить и это, дождитесь пакета #${pending})`,
          mirrorValue(mirror, key, c.what),
        );
        continue;
      }
      if (c.what.startsWith('field:')) {
        const name = c.what.slice('field:'.length);
        // No labels before is an empty list (an agent may record it as null): ensure_fields takes [] for it.
        const back = name === 'labels' && c.before == null ? [] : (c.before ?? null);
        const params = { key, [name]: back };
        const problems = checkParams('ensure_fields', params).problems;
        if (problems.length > 0) {
          conflict(c, `${key}: ${label(c.what, options.fields)} нельзя вернуть к ${shown(c.before)} (${problems.map((p) => p.detail).join('; ')})`);
          continue;
        }
        if (fields && (fields.commandId !== c.command_id || fields.key !== key || name in fields.params)) flush();
        fields ??= { commandId: c.command_id, key, params: {} };
        fields.params[name] = back;
        continue;
      }
      flush();
      if (c.what === 'status') {
        // `{key, to}`: the hub stores the shortest known route at submit (SPEC 16.2)
        if (typeof c.before === 'string') emit(c, { type: 'ensure_status', params: { key, to: c.before } }, `${key}: статус не вернуть к ${shown(c.before)}`);
        else conflict(c, `${key}: прежний статус неизвестен`);
      } else {
        // Back to that very sprint: with its board when the record knows it, so that a name several boards
        // have is not ambiguous and does not take the issue to another board's sprint (decision 1430).
        // The board is the one the catalogue lists that sprint under when it does, so that the checks find it there.
        const before = sprintOfChange(c.before);
        const listed = before && before.id !== null ? options.openSprint?.(before.id) : undefined;
        const board = before ? (listed?.board_id ?? before.board_id) : null;
        if (before === undefined) conflict(c, `${key}: прежний спринт в записи изменения не распознан (${shown(c.before)}) — верните вручную`);
        // A sprint closed (or deleted) since: Jira takes no issue into it, and the checks would refuse the whole revert
        // for this one command. Like a change made since, it is a conflict: listed and left, the rest goes back.
        else if (before !== null && before.id !== null && options.openSprint && !listed) {
          conflict(
            c,
            `${key}: спринта ${sprintShown(before, options.boards)}, из которого пакет перенёс задачу, нет среди активных и будущих спринтов каталога Jira (закрыт или удалён) — вернуть в него нельзя; не откатываем (если он открыт, обновите каталог и повторите откат)`,
          );
        } else {
          const back = before === null ? { key, sprint: null } : { key, sprint: listed?.name ?? before.name, ...(board === null ? {} : { board }) };
          emit(c, { type: 'ensure_sprint', params: back }, `${key}: задачу не вернуть ${before === null ? 'в бэклог' : `в спринт ${sprintShown(before, options.boards)}`}`);
        }
      }
      continue;
    }
    flush();
    switch (c.what) {
      case 'link': {
        const link = asLink(c.after);
        if (!link) conflict(c, 'в записи о связи нет source, target и link_type');
        else if (deleted(link.source) || deleted(link.target)) continue;
        else if (!mirror.hasLink(link.source, link.target, link.link_type)) {
          if (unseen(mirror, link, c.recorded_at)) later(c, `связь ${link.source} → ${link.target} (${link.link_type}) — ${UNSEEN_LINK}`, null);
          else conflict(c, `связи ${link.source} → ${link.target} (${link.link_type}) в зеркале уже нет; не откатываем`, null);
        }
        else emit(c, { type: 'remove_link', params: { source: link.source, target: link.target, link_type: link.link_type } }, `связь ${link.source} → ${link.target} не удалить`);
        break;
      }
      case 'comment': {
        const id = (c.after as { id?: unknown } | undefined)?.id;
        if (deleted(key)) continue; // on a created issue that stays (labelled), the comment is removed as anywhere
        if (typeof id !== 'string' && typeof id !== 'number') conflict(c, `${key}: Jira не сообщила id комментария — удалите его вручную`);
        else emit(c, { type: 'remove_comment', params: { key, comment_id: String(id) } }, `${key}: комментарий пакета не удалить`);
        break;
      }
      case 'issue':
        revertCreated(c, created.get(key)!, mirror, options, deleting, emit, conflict, later);
        break;
      case 'link_removed': {
        const link = asLink(c.before);
        if (!link) conflict(c, 'в записи об удалённой связи нет source, target и link_type');
        else if (mirror.hasLink(link.source, link.target, link.link_type)) {
          if (unseen(mirror, link, c.recorded_at)) later(c, `удалённая связь ${link.source} → ${link.target} (${link.link_type}) — ${UNSEEN_LINK}`, link);
          else conflict(c, `связь ${link.source} → ${link.target} (${link.link_type}) уже снова есть`, link);
        }
        else emit(c, { type: 'ensure_link', params: { source: link.source, target: link.target, link_type: link.link_type } }, `удалённую связь ${link.source} → ${link.target} не вернуть`);
        break;
      }
      case 'comment_removed': {
        const body = (c.before as { body?: unknown } | undefined)?.body;
        if (typeof body === 'string' && body.trim() !== '') emit(c, { type: 'ensure_comment', params: { key, body } }, `${key}: удалённый комментарий не вернуть`);
        else conflict(c, `${key}: текст удалённого комментария неизвестен`);
        break;
      }
      case 'issue_deleted':
        conflict(c, `${key} удалена в Jira: удалённую задачу не вернуть`);
        break;
      default:
        conflict(c, `${label(c.what, options.fields)}: откат такого изменения не предусмотрен`);
    }
  }
  flush();
  return { commands, conflicts };
}

function revertCreated(
  c: Change,
  summary: string,
  mirror: MirrorLookup,
  options: RevertOptions,
  deleting: boolean,
  emit: (c: Change, command: CommandInput, undone: string) => void,
  conflict: (c: Change, detail: string, actual?: unknown) => void,
  later: (c: Change, detail: string, actual?: unknown) => void,
): void {
  const key = c.key!;
  const issue = mirror.issue(key);
  if (deleting) {
    if (issue && summaryChanged(issue, summary)) {
      conflict(c, `${key}: тему с тех пор изменили на ${shown(issue.summary)} — задачу не удаляем`, issue.summary);
      return;
    }
    emit(c, { type: 'delete_issue', params: { key, summary } }, `${key}: созданную пакетом задачу не удалить`);
    return;
  }
  if (!issue) {
    later(c, `${key} нет в зеркале: обновите зеркало, чтобы откатить`);
    return;
  }
  // The label goes onto the labels the mirror shows now (ensure_fields sets the whole list): a batch not yet
  // finished that changes them would lose its labels, so that is a conflict, as for any field.
  const labelsBy = options.pendingBy?.(key, 'field:labels');
  if (labelsBy !== undefined) {
    later({ ...c, what: 'field:labels' }, `${key}: метки меняет и пакет #${labelsBy}, он ещё не выполнен; метку ${REVERTED_LABEL} не ставим, чтобы не затереть его метки (дождитесь пакета #${labelsBy} и запросите откат заново)`, issue.labels);
  } else {
    const labels = issue.labels.includes(REVERTED_LABEL) ? issue.labels : [...issue.labels, REVERTED_LABEL];
    emit(c, { type: 'ensure_fields', params: { key, labels } }, `${key}: метку ${REVERTED_LABEL} не поставить`);
  }
  if (issue.status === options.createdIssueStatus) return;
  const statusBy = options.pendingBy?.(key, 'status');
  if (statusBy !== undefined) {
    later({ ...c, what: 'status' }, `${key}: статус меняет и пакет #${statusBy}, он ещё не выполнен; в «${options.createdIssueStatus}» не переводим (дождитесь пакета #${statusBy} и запросите откат заново)`, issue.status);
  } else {
    emit(c, { type: 'ensure_status', params: { key, to: options.createdIssueStatus } }, `${key}: созданную пакетом задачу не перевести в «${options.createdIssueStatus}»`);
  }
}

function add(conflicts: RevertConflict[], c: Change, detail: string, actual: unknown, retryLater: boolean): void {
  conflicts.push({ key: c.key ?? null, what: c.what, expected: c.after ?? null, ...(actual === undefined ? {} : { actual }), detail, retry_later: retryLater });
}

const UNSEEN_LINK = 'зеркало ещё не видело изменения пакета (обе задачи читали до него); обновите их в зеркале и повторите откат';

/**
 * The mirror has not seen what the batch did to a link (recorded at `recordedAt`): neither end was read since
 * (a refresh replaces the links touching the issues it reads), as when the batch's tail refresh was cancelled
 * or failed. Then the link's absence, or its presence after a removal, is no one's edit.
 */
function unseen(mirror: MirrorLookup, link: LinkValue, recordedAt: string | undefined): boolean {
  const before = (key: string) => {
    const issue = mirror.issue(key);
    return issue === undefined || (recordedAt !== undefined && typeof issue.synced_at === 'string' && issue.synced_at < recordedAt);
  };
  return before(link.source) && before(link.target);
}

/** The issue of a change (either end of a link) that Jira no longer has by the mirror's `gone`, with the run that found it so. */
function goneEnd(c: Change, mirror: MirrorLookup): { key: string; run: number } | undefined {
  if (!mirror.gone || c.what === 'issue_deleted') return undefined; // its own conflict: a deleted issue is not brought back
  const link = c.what === 'link' ? asLink(c.after) : c.what === 'link_removed' ? asLink(c.before) : null;
  for (const key of link ? [link.source, link.target] : c.key ? [c.key] : []) {
    const run = mirror.gone(key);
    if (run !== undefined) return { key, run };
  }
  return undefined;
}

/** A change's subject as the object of a conflict's «… не откатываем»: «A-1: срок», «связь A-1 → A-2 (Blocks)», «A-5: созданную пакетом задачу». */
function subjectWords(c: Change, fields: RevertOptions['fields']): string {
  const link = c.what === 'link' ? asLink(c.after) : c.what === 'link_removed' ? asLink(c.before) : null;
  if (link) return `${c.what === 'link' ? 'связь' : 'удалённую связь'} ${link.source} → ${link.target} (${link.link_type})`;
  if (c.what === 'issue') return `${c.key}: созданную пакетом задачу`;
  if (c.what === 'comment') return `${c.key}: комментарий пакета`;
  return `${c.key}: ${label(c.what, fields)}`;
}

/** The created issue's summary in the mirror is not the one it was created with: someone took it over, it is not deleted. */
function summaryChanged(issue: MirrorIssue | undefined, summary: string): boolean {
  return issue !== undefined && issue.summary !== null && comparableText(issue.summary) !== comparableText(summary);
}

/**
 * Labels a waiting revert would set that the mirror no longer leads to (decision 0120's approval check):
 * a created issue's revert sets its labels as they were when the revert was asked for, plus `hub-reverted`;
 * if they changed since, approving would drop the new ones. One Russian sentence per issue.
 */
export function staleLabels(waiting: readonly CommandInput[], fresh: RevertPlan): string[] {
  const now = new Map(fresh.commands.filter((c) => c.type === 'ensure_fields' && Array.isArray(c.params.labels)).map((c) => [c.params.key, c.params.labels as unknown[]]));
  const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  return waiting.flatMap((c) => {
    const labels = c.params.labels;
    if (c.type !== 'ensure_fields' || !Array.isArray(labels)) return [];
    const wanted = now.get(c.params.key);
    if (wanted === undefined || same(wanted, labels)) return [];
    const words = (list: readonly unknown[]) => (list.length ? list.map((l) => `«${String(l)}»`).join(', ') : 'пусто');
    return [`${String(c.params.key)}: метки с тех пор изменили — сейчас ${words(wanted.filter((l) => l !== REVERTED_LABEL))}, а откат поставил бы ${words(labels)}`];
  });
}

/** The kinds of change that name no issue of their own: a link's record holds both its ends. */
const KEYLESS = new Set(['link', 'link_removed']);

const KIND_LABELS: Record<string, string> = {
  status: 'статус',
  sprint: 'спринт',
  link: 'связь',
  comment: 'комментарий',
  issue: 'задача',
  link_removed: 'удалённая связь',
  comment_removed: 'удалённый комментарий',
  issue_deleted: 'удалённая задача',
};

/**
 * A change's subject in a sentence, as Jira shows it in Russian: «срок», «приоритет», «статус»; a custom
 * field by the name the catalogue's `fields` give it: «поле «Story Points»».
 */
export const label = (what: string, fields?: readonly NamedField[]): string =>
  what.startsWith('field:') ? fieldWords(what.slice('field:'.length), fields) : (KIND_LABELS[what] ?? what);
