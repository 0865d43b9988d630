/** Confirmation by state (SPEC 4, last column; 6.6): is a command's desired result visible in the mirror? Pure. */
import type { MirrorIssue, MirrorLookup } from '../../mirror/index.js';
import type { CommandType, Params } from '@jira-hub/contracts/catalogue';
import { boardWords } from '@jira-hub/contracts/russian';

/** Types that are never confirmed by state: their report (or re-delivery) is the only proof. */
export const NEVER_CONFIRMED: readonly CommandType[] = ['ensure_issue', 'ensure_comment', 'refresh', 'refresh_catalogue', 'remove_comment', 'delete_issue'];

const isEmpty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0) || v === '';

function sameLabels(a: unknown, b: unknown): boolean {
  const set = (v: unknown) => new Set(Array.isArray(v) ? v.map(String) : isEmpty(v) ? [] : [String(v)]);
  const x = set(a);
  const y = set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

const isPlainList = (v: unknown): v is unknown[] => Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object');

function sameValue(desired: unknown, actual: unknown): boolean {
  if (isEmpty(desired) && isEmpty(actual)) return true;
  // A list of plain values (a multi-select, checkboxes) is a set in Jira: Jira may return it in its own order.
  if (isPlainList(desired) && isPlainList(actual)) return sameLabels(desired, actual);
  if (typeof desired === 'object' || typeof actual === 'object') return JSON.stringify(desired) === JSON.stringify(actual);
  return desired === actual;
}

function fieldOf(issue: MirrorIssue, name: string): unknown {
  switch (name) {
    case 'summary':
    case 'duedate':
    case 'assignee':
    case 'priority':
      return issue[name];
    case 'description':
      return issue.description ?? null;
    default:
      return issue.fields[name] ?? null;
  }
}

/** One difference between what a command wants and what the mirror shows. */
export interface Change {
  field: string;
  from: unknown;
  to: unknown;
}

/** Each field an ensure_fields lists that differs from the mirror (labels as sets, null = empty). */
function fieldChanges(issue: MirrorIssue, params: Params): Change[] {
  return Object.entries(params)
    .filter(([name]) => name !== 'key')
    .filter(([name, desired]) => (name === 'labels' ? !sameLabels(desired, issue.labels) : !sameValue(desired, fieldOf(issue, name))))
    .map(([name, desired]) => ({ field: name, from: name === 'labels' ? issue.labels : fieldOf(issue, name), to: desired }));
}

/**
 * The sprint a command or a change record asks for: its name (null: the backlog), and which sprint of that
 * name — the board ensure_sprint names (its id or name), or the sprint's own id (a change record's).
 */
export interface WantedSprint {
  name: string | null;
  board?: string | number | null;
  id?: number | null;
}

const isBoardId = (board: string | number): boolean => /^[1-9][0-9]*$/.test(String(board).trim());

/** What the rule of sprints reads of the catalogue (withCatalogue gives it to the verdicts' mirror). */
export type SprintCatalogue = Pick<MirrorLookup, 'sprintsOnBoard' | 'boardIds' | 'isOpenSprint'>;

/**
 * Does the mirror show the issue in this sprint? The one rule of sprints (decision 1430), for confirmation
 * by state, the dry run, the checks, revert and a package's plan and drift: true, false, or undefined when
 * the mirror cannot tell. A name is the sprint unless another is asked for by id or by board; then the
 * mirror's sprint id decides — the sprint asked for by id, whatever its name now (renamed since); for a
 * board, one of the sprints of that name the catalogue lists on the board (`sprintsOnBoard`), or an open
 * sprint whose own board (the one the mirror says it is of: Jira's `boardId` / `rapidViewId`) is the board
 * named, by its id or by a name the catalogue knows (a sprint shown on several boards is listed once, under
 * the first that shows it, not always its own). A mirror row without the id (refreshed by an older agent) compares the name only when an id is
 * asked for (a change record), and cannot tell for a board (decision 1423: Jira settles it). The backlog is
 * no sprint, or a sprint the mirror knows is closed: an issue whose sprint field lists closed sprints only
 * (the mirror names the last of them) is in no open sprint (decision 1434), so in none asked for by name or id.
 */
export function mirrorShowsSprint(issue: Pick<MirrorIssue, 'sprint' | 'sprint_id' | 'sprint_board_id' | 'sprint_state'>, wanted: WantedSprint, catalogue?: SprintCatalogue): boolean | undefined {
  const sprint = issue.sprint ?? null;
  if (wanted.name === null) return inBacklog(issue);
  // A closed sprint is the backlog for every sprint asked for, by name or by id: the issue is in no open sprint,
  // and a closed sprint's name may be an open sprint's of another board (decision 1434).
  if (inBacklog(issue)) return false;
  const id = issue.sprint_id ?? null;
  // By id when both have one: a sprint renamed since (teams add goals to names) is the same sprint.
  if (wanted.id !== undefined && wanted.id !== null && id !== null) return id === wanted.id;
  if (sprint !== wanted.name) return false;
  if (wanted.id !== undefined && wanted.id !== null) return true;
  const board = wanted.board;
  if (board === undefined || board === null) return true;
  if (id === null) return undefined;
  const boardId = issue.sprint_board_id ?? null;
  const named = catalogue?.boardIds?.(board) ?? (isBoardId(board) ? [Number(String(board).trim())] : undefined);
  // Its own board, when the sprint is open (a closed one of the name is not the sprint asked for) or no catalogue tells.
  if (boardId !== null && named?.includes(boardId) && catalogue?.isOpenSprint?.(id) !== false) return true;
  const ids = catalogue?.sprintsOnBoard?.(board, wanted.name);
  if (ids !== undefined) return ids.includes(id);
  return boardId !== null && named !== undefined ? false : undefined;
}

/** The mirror shows the issue in no open sprint: no sprint, or one Jira called closed (decision 1434). */
export const inBacklog = (issue: Pick<MirrorIssue, 'sprint' | 'sprint_state'>): boolean => (issue.sprint ?? null) === null || issue.sprint_state === 'closed';

/**
 * A sprint in a dry run's words: its name, and its board when the name alone does not tell — by the name the
 * catalogue gives it, not quoted again (the verdict's text quotes the whole value), else by its id.
 */
const onBoardText = (name: string, board: string | number | null | undefined, mirror: MirrorLookup, closed = false): string =>
  board === undefined || board === null ? name : `${name} (${boardWords(board, mirror.boards?.(), (n) => n)}${closed ? ', закрыт' : ''})`;

const arrow = (source: string, target: string, linkType: string) => `${source} → ${target} (${linkType})`;

/**
 * What a command would change against the mirror: none when its desired result is already there,
 * undefined when the mirror cannot tell (a type never confirmed by state, or an issue it does not hold).
 * Confirmation by state (SPEC 6.6) and the dry run's verdicts (SPEC 15.4) both read this one rule.
 */
export function changesAgainstMirror(type: CommandType, params: Params, mirror: MirrorLookup): Change[] | undefined {
  if (NEVER_CONFIRMED.includes(type)) return undefined;
  if (type === 'ensure_link') {
    const { source, target, link_type } = params as { source: string; target: string; link_type: string };
    const forward = mirror.hasLink(source, target, link_type);
    const reverse = mirror.hasLink(target, source, link_type);
    if (forward && !reverse) return [];
    // A symmetric type either way is the same link: the agent finds it and creates nothing (SPEC 4).
    if (reverse && mirror.isSymmetric?.(link_type)) return [];
    const from = forward ? `${arrow(source, target, link_type)} и ${arrow(target, source, link_type)}` : reverse ? arrow(target, source, link_type) : null;
    return [{ field: 'link', from, to: arrow(source, target, link_type) }];
  }
  if (type === 'remove_link') {
    // SPEC 17.2: confirmed when the mirror lacks the link (either way for the same type is not this link).
    const { source, target, link_type } = params as { source: string; target: string; link_type: string };
    return mirror.hasLink(source, target, link_type) ? [{ field: 'link', from: arrow(source, target, link_type), to: null }] : [];
  }
  const issue = mirror.issue(String(params.key));
  if (!issue) return undefined;
  const one = (field: string, from: unknown, to: unknown): Change[] => (from === to ? [] : [{ field, from, to }]);
  switch (type) {
    case 'ensure_fields':
      return fieldChanges(issue, params);
    case 'ensure_status': {
      // Stored with its path (the checks turn `to` into one); a bare `to` is read as the one step it names.
      const path = Array.isArray(params.path) ? (params.path as string[]) : typeof params.to === 'string' ? [params.to] : [];
      return path.length ? one('status', issue.status, path[path.length - 1]) : undefined;
    }
    case 'ensure_sprint': {
      const wanted = (params.sprint ?? null) as string | null;
      const board = params.board as string | number | null | undefined;
      const shows = mirrorShowsSprint(issue, { name: wanted, board }, mirror);
      if (shows === undefined) return undefined;
      if (shows) return [];
      // The same name on another board: say which boards; its own board's sprint the catalogue no longer lists open
      // (closed since the mirror read it) is said to be closed, not the same words twice.
      if (wanted !== null && issue.sprint === wanted && !inBacklog(issue)) {
        const closed = issue.sprint_id != null && mirror.isOpenSprint?.(issue.sprint_id) === false;
        return [{ field: 'sprint', from: onBoardText(wanted, issue.sprint_board_id, mirror, closed), to: onBoardText(wanted, board, mirror) }];
      }
      return one('sprint', inBacklog(issue) ? null : issue.sprint, wanted);
    }
    default:
      return undefined;
  }
}

export function isConfirmedByState(type: CommandType, params: Params, mirror: MirrorLookup): boolean {
  return changesAgainstMirror(type, params, mirror)?.length === 0;
}
