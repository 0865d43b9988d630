/**
 * The change record (SPEC 17.1), pure: what a `done` report's `changes` may hold, and how the views group
 * them. A change is `{key?, what, before?, after?, transitions?}` (packages/contracts `Change`).
 */
import type { Change } from '@jira-hub/contracts';
import { isJiraKey } from '../../common/index.js';

export type { Change };

/** The `what` of a change: a field by its id, or one of the fixed kinds. */
export const CHANGE_KINDS = ['status', 'sprint', 'link', 'comment', 'issue', 'link_removed', 'comment_removed', 'issue_deleted'] as const;
export const MAX_CHANGES = 500;

const isWhat = (v: unknown): v is string =>
  typeof v === 'string' && ((CHANGE_KINDS as readonly string[]).includes(v) || /^field:[^\s]{1,200}$/.test(v));
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
    if (!isWhat(o.what)) problems.push(`${at}.what: field:<id>, ${CHANGE_KINDS.join(', ')}`);
    if (o.key !== undefined && !isJiraKey(o.key)) problems.push(`${at}.key: нужен ключ Jira (ABC-123)`);
    if (o.transitions !== undefined && !(Array.isArray(o.transitions) && o.transitions.every((t) => typeof t === 'string'))) {
      problems.push(`${at}.transitions: нужен массив строк`);
    }
    for (const name of Object.keys(o)) if (!ALLOWED.has(name)) problems.push(`${at}.${name}: неизвестное поле`);
  });
  return problems;
}

/** Changes grouped by issue key (a change without a key under ""), keys in order of first appearance. */
export function groupByKey<T extends { key?: string | null }>(changes: readonly T[]): Record<string, T[]> {
  const out: Record<string, T[]> = {};
  for (const c of changes) (out[c.key ?? ''] ??= []).push(c);
  return out;
}
