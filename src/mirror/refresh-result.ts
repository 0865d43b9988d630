/** The shape of a refresh result (SPEC 4) and its validation. Pure. */
import { SPRINT_STATES, type RefreshIssue, type RefreshLink, type SprintState } from '@jira-hub/contracts';
import { isJiraKey } from '../common/index.js';

/**
 * An issue of the wire contract, normalized: `fields` always there (every other field the agent reported);
 * the sprint's id and board null when the agent did not report them (an older agent) or the issue is in no sprint.
 */
export interface IssueInput extends RefreshIssue {
  fields: Record<string, unknown>;
}

export type LinkInput = RefreshLink;

export interface RefreshResult {
  issues: IssueInput[];
  links: LinkInput[];
  missing_keys: string[];
}

const COLUMNS = ['summary', 'issue_type', 'status', 'sprint', 'assignee', 'priority', 'duedate', 'created', 'updated'] as const;
/** Which sprint `sprint` is (decision 1430): Jira's ids, positive whole numbers; left out by an older agent. */
const SPRINT_IDS = ['sprint_id', 'sprint_board_id'] as const;
const MAX_JIRA_ID = 2 ** 53 - 1;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));
/** A due date as the mirror keeps it: a real calendar date ГГГГ-ММ-ДД. */
const isDate = (v: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/** Why a column's value is not what SPEC 4's Issue holds (a string or null; duedate a date), or undefined. */
function columnProblem(column: (typeof COLUMNS)[number], v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') return 'нужна строка или null';
  if (column === 'duedate' && !isDate(v)) return `нужна дата ГГГГ-ММ-ДД или null, а пришло «${v.slice(0, 40)}»`;
  return undefined;
}

/**
 * Returns the normalized result, or a Russian problem. Unknown issue properties go into `fields`.
 * `afterParts`: the final report of a refresh whose parts came first (SPEC 15.5) may leave out its
 * result or its `issues` (no last slice).
 */
export function parseRefreshResult(raw: unknown, afterParts = false): RefreshResult | string {
  if (afterParts && raw === undefined) return { issues: [], links: [], missing_keys: [] };
  if (afterParts && isObject(raw) && raw.issues === undefined) raw = { ...raw, issues: [] };
  if (!isObject(raw) || !Array.isArray(raw.issues)) return 'результат refresh должен быть объектом с массивом issues';
  const issues: IssueInput[] = [];
  for (const [i, item] of raw.issues.entries()) {
    if (!isObject(item) || !isJiraKey(item.key)) return `issues[${i}]: нужна задача с ключом Jira`;
    const { key, labels, fields, ...rest } = item;
    if (labels !== undefined && labels !== null && !(Array.isArray(labels) && labels.every((l) => typeof l === 'string'))) {
      return `issues[${i}].labels: нужен массив строк`;
    }
    if (fields !== undefined && fields !== null && !isObject(fields)) return `issues[${i}].fields: нужен объект`;
    const extra: Record<string, unknown> = { ...(isObject(fields) ? fields : {}) };
    for (const [name, value] of Object.entries(rest)) if (!(COLUMNS as readonly string[]).includes(name) && !(SPRINT_IDS as readonly string[]).includes(name) && name !== 'sprint_state') extra[name] = value;
    const issue = { key, labels: (labels as string[] | null | undefined) ?? [], fields: extra } as IssueInput;
    for (const c of COLUMNS) {
      const problem = columnProblem(c, rest[c]);
      if (problem) return `issues[${i}].${c}: ${problem}`;
      issue[c] = text(rest[c]);
    }
    for (const c of SPRINT_IDS) {
      const v = rest[c];
      if (v !== undefined && v !== null && !(Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= MAX_JIRA_ID)) return `issues[${i}].${c}: нужен id Jira (целое число больше 0) или null`;
    }
    // An id belongs to the sprint named: none without a name (the backlog), no board without the sprint's id.
    issue.sprint_id = issue.sprint === null ? null : ((rest.sprint_id as number | null | undefined) ?? null);
    issue.sprint_board_id = issue.sprint_id === null ? null : ((rest.sprint_board_id as number | null | undefined) ?? null);
    const state = rest.sprint_state;
    if (state !== undefined && state !== null && !SPRINT_STATES.includes(state as SprintState)) return `issues[${i}].sprint_state: нужно active, future, closed или null`;
    issue.sprint_state = issue.sprint === null ? null : ((state as SprintState | null | undefined) ?? null);
    // One spelling of a summary: a decomposed «ё» (е + U+0308) or «й» (и + U+0306) is searched, compared with a
    // package and shown as the composed letter, and both engines' word search index the same word.
    if (issue.summary !== null) issue.summary = issue.summary.normalize('NFC');
    issues.push(issue);
  }
  const linksRaw = raw.links ?? [];
  if (!Array.isArray(linksRaw)) return 'links: нужен массив';
  const links: LinkInput[] = [];
  for (const [i, l] of linksRaw.entries()) {
    if (!isObject(l) || !isJiraKey(l.source_key) || !isJiraKey(l.target_key) || typeof l.link_type !== 'string' || l.link_type === '') {
      return `links[${i}]: нужна связь {source_key, target_key, link_type}`;
    }
    links.push({ source_key: l.source_key, target_key: l.target_key, link_type: l.link_type });
  }
  const missing = raw.missing_keys ?? [];
  if (!Array.isArray(missing) || !missing.every((k) => typeof k === 'string')) return 'missing_keys: нужен массив ключей';
  return { issues, links, missing_keys: missing as string[] };
}
