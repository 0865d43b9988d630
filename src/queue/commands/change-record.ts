/**
 * The change record (SPEC 17.1), pure: what a `done` report's `changes` may hold, and how the views group
 * them. A change is `{key?, what, before?, after?, transitions?}` (packages/contracts `Change`).
 */
import type { Change, SprintRef } from '@jira-hub/contracts';
import { isJiraKey } from '../../common/index.js';

export type { Change };

/**
 * A sprint of a `sprint` change's before or after (decision 1430): a `SprintRef` {id, name, board_id} from
 * an agent that reads sprints by id, a name from an older one, null for the backlog; undefined for anything else.
 */
export function sprintOfChange(v: unknown): { name: string; id: number | null; board_id: number | null } | null | undefined {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return { name: v, id: null, board_id: null };
  if (typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Partial<Record<keyof SprintRef, unknown>>;
  const id = (x: unknown): number | null | undefined => (x === undefined || x === null ? null : Number.isSafeInteger(x) && (x as number) > 0 ? (x as number) : undefined);
  const [sprintId, boardId] = [id(o.id), id(o.board_id)];
  if (typeof o.name !== 'string' || sprintId === undefined || boardId === undefined) return undefined;
  return { name: o.name, id: sprintId, board_id: boardId };
}

/** The `what` of a change: a field by its id, or one of the fixed kinds. */
export const CHANGE_KINDS = ['status', 'sprint', 'link', 'comment', 'issue', 'link_removed', 'comment_removed', 'issue_deleted'] as const;
export const MAX_CHANGES = 500;

/**
 * A field is named as the agent sets it: its id, or the name settings `fields` gives it — a Jira display
 * name may hold spaces («Story Points», «Epic Name»); no control characters or line breaks, no spaces at its ends.
 */
const isFieldName = (name: string): boolean => name.length >= 1 && name.length <= 200 && name === name.trim() && !/[\p{Cc}\u2028\u2029]/u.test(name);
const isWhat = (v: unknown): v is string => typeof v === 'string' && ((CHANGE_KINDS as readonly string[]).includes(v) || (v.startsWith('field:') && isFieldName(v.slice('field:'.length))));
const ALLOWED = new Set(['key', 'what', 'before', 'after', 'transitions']);

/** Problems of a report's `changes` (Russian), empty when it is a valid list. */
export function changesProblems(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return ['changes: нужен массив'];
  if (value.length > MAX_CHANGES) return [`changes: не больше ${MAX_CHANGES} изменений`];
  const problems: string[] = [];
  value.forEach((c, i) => {
    const at = `changes.${i}`;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) return void problems.push(`${at}: нужен объект {what, key?, before?, after?, transitions?}`);
    const o = c as Record<string, unknown>;
    if (!isWhat(o.what)) problems.push(`${at}.what: нужно «field:<поле>» (его id или имя, одной строкой) или одно из: ${CHANGE_KINDS.join(', ')}`);
    if (o.key !== undefined && !isJiraKey(o.key)) problems.push(`${at}.key: нужен ключ Jira (ABC-123)`);
    // What a field, a status or a sprint became is what a revert compares with the mirror: without it the change could not be judged.
    if (isWhat(o.what) && (o.what.startsWith('field:') || o.what === 'status' || o.what === 'sprint') && !Object.hasOwn(o, 'after')) {
      problems.push(`${at}.after: нужно значение после изменения (null — поле очищено, спринт — бэклог)`);
    }
    // A sprint is a name, or {id, name, board_id} (decision 1430): what a revert sends back to the agent.
    if (o.what === 'sprint') {
      for (const side of ['before', 'after'] as const) {
        if (sprintOfChange(o[side]) === undefined) problems.push(`${at}.${side}: нужен спринт — название, {id, name, board_id} или null (бэклог)`);
      }
    }
    if (o.transitions !== undefined && !(Array.isArray(o.transitions) && o.transitions.every((t) => typeof t === 'string'))) {
      problems.push(`${at}.transitions: нужен массив строк`);
    }
    for (const name of Object.keys(o)) if (!ALLOWED.has(name)) problems.push(`${at}.${name}: неизвестное поле`);
  });
  return problems;
}

/** The kinds of change each command type makes to its own issue (a `field:` kind is any field). */
const OWN_KINDS: Record<string, readonly string[]> = {
  ensure_issue: ['issue', 'field:'],
  ensure_fields: ['field:'],
  ensure_status: ['status'],
  ensure_sprint: ['sprint'],
  ensure_comment: ['comment'],
  ensure_link: ['link'],
  remove_link: ['link_removed'],
  remove_comment: ['comment_removed'],
  delete_issue: ['issue_deleted'],
};

/**
 * The issue a command's changes are about, for a change its report sent without `key`: the issue an
 * ensure_issue made (its result's key), a link's source, else the command's `key`; null when none is a
 * Jira key (the reference agent always sends `key`; another agent may not).
 */
export function subjectKey(type: string, params: Record<string, unknown>, result: Record<string, unknown> | undefined): string | null {
  const key = type === 'ensure_issue' ? result?.key : type === 'ensure_link' || type === 'remove_link' ? params.source : params.key;
  return isJiraKey(key) ? key : null;
}

/**
 * `changes` with each change that names no issue given the command's subject, when the change is of a
 * kind the command makes to its own issue (an ensure_fields' `field:duedate`, not an `issue`): a change
 * of another kind stays without a key, and a revert lists it as a conflict instead of guessing its issue.
 */
export function withSubjectKeys(type: string, changes: readonly Change[], subject: string | null): Change[] {
  const own = OWN_KINDS[type] ?? [];
  const ofSubject = (what: string) => own.some((k) => (k.endsWith(':') ? what.startsWith(k) : what === k));
  return changes.map((c) => (c.key === undefined && subject !== null && ofSubject(c.what) ? { ...c, key: subject } : c));
}

/** Changes grouped by issue key (a change without a key under ""), keys in order of first appearance. */
export function groupByKey<T extends { key?: string | null }>(changes: readonly T[]): Record<string, T[]> {
  const out: Record<string, T[]> = {};
  for (const c of changes) (out[c.key ?? ''] ??= []).push(c);
  return out;
}
