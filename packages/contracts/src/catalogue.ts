/**
 * The command catalogue (SPEC 4): the command types, for each its params and the keys it names, and
 * the key patterns. Shared by the hub (its 422s, temp-key substitution, settings `fields`) and any
 * client. Pure and dependency-free: no zod (that is `./commands`), no Nest, no ORM, so the hub loads
 * it at start. Problems are Russian sentences for the person who wrote the batch.
 */
import type { CommandType } from './index.js';

export type { CommandType };

/** SPEC 4: a Jira key and a temp key. */
export const JIRA_KEY = /^[A-Z][A-Z0-9_]*-[1-9][0-9]*$/;
export const TEMP_KEY = /^new:[1-9][0-9]*$/;

export const isJiraKey = (v: unknown): v is string => typeof v === 'string' && JIRA_KEY.test(v);
export const isTempKey = (v: unknown): v is string => typeof v === 'string' && TEMP_KEY.test(v);

/**
 * Why a bearer token cannot travel in an Authorization header, or undefined: printable ASCII only. fetch refuses
 * any character past U+00FF, and curl's UTF-8 bytes reach the server as other characters — such a token never
 * matches. The hub's tokens (HUB_*_TOKEN), the agent's (HUB_AGENT_TOKEN, JIRA_PAT) and the stdio MCP server's
 * (HUB_ASSISTANT_TOKEN) are checked against it at start; the caller puts the variable's name first.
 */
export function headerTokenProblem(token: string): string | undefined {
  const bad = /[^\x20-\x7e]/u.exec(token);
  if (!bad) return undefined;
  const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `символ «${bad[0]}» (U+${code}) нельзя передать в заголовке Authorization; токен — латинские буквы, цифры и знаки ASCII`;
}

/**
 * Jira's limit on a summary (SPEC 16.2; «Summary must be less than 255 characters»), which Jira checks on
 * Java's String.length(): UTF-16 units, so a character past U+FFFF — an emoji — counts twice. JavaScript's
 * `.length` counts the same units; counting code points instead lets through a summary Jira refuses.
 */
export const SUMMARY_LIMIT = 255;

/**
 * A summary as compared, by the hub and the agent alike: one Unicode spelling (NFC, as the mirror keeps it),
 * no spaces at its ends. «Отчёт» with a composed «ё» and with «е» + U+0308 look the same and are the same.
 */
export const comparableText = (text: string): string => text.normalize('NFC').trim();

/**
 * What Jira refuses in a summary, in Russian, or null: a line break (Jira answers 400 «The summary is
 * invalid because it contains newline characters»), or more than SUMMARY_LIMIT units (summaryTooLong).
 */
export function summaryProblem(summary: string): string | null {
  return hasLineBreak(summary) ? SUMMARY_LINE_BREAK : summaryTooLong(summary);
}

/** A summary is one line: Jira answers 400 to a line break in it, so no summary in Jira has one (a delete_issue's guard with one could never match). */
export const hasLineBreak = (s: string): boolean => /[\r\n]/.test(s);
export const SUMMARY_LINE_BREAK = 'тема — одна строка: в Jira у задачи не бывает темы с переводом строки';

/** Why a summary is too long for Jira, in Russian, with its length as Jira counts it; null when it fits. */
export function summaryTooLong(summary: string): string | null {
  if (summary.length <= SUMMARY_LIMIT) return null;
  // Where the counts differ, the sentence says why: the person sees fewer characters than the number.
  return [...summary].length === summary.length
    ? `тема длиннее ${SUMMARY_LIMIT} символов (${summary.length})`
    : `тема длиннее ${SUMMARY_LIMIT} знаков, как их считает Jira (эмодзи — за два): ${summary.length}`;
}

/** The command types of SPEC 4, in catalogue order. */
export const COMMAND_TYPES = [
  'ensure_issue',
  'ensure_fields',
  'ensure_status',
  'ensure_link',
  'ensure_sprint',
  'ensure_comment',
  'refresh',
  'refresh_catalogue',
  'remove_link',
  'remove_comment',
  'delete_issue',
] as const satisfies readonly CommandType[];

/** The list names every type of the contract: a type added there and not here fails to compile. */
const everyType: [Exclude<CommandType, (typeof COMMAND_TYPES)[number]>] extends [never] ? true : never = true;
void everyType;

/** Types that only read Jira: a batch of nothing else gets no tail refresh (SPEC 5, 16.1). */
export const READ_TYPES: readonly CommandType[] = ['refresh', 'refresh_catalogue'];

/** The types with a pacing setting of their own; `refresh_catalogue` is paced as `refresh` (SPEC 16.1). */
export type PacedType = Exclude<CommandType, 'refresh_catalogue'>;

/** The pacing setting a command type's pause comes from. */
export const pacedAs = (type: CommandType): PacedType => (type === 'refresh_catalogue' ? 'refresh' : type);

export type Params = Record<string, unknown>;

export const isCommandType = (t: unknown): t is CommandType => typeof t === 'string' && (COMMAND_TYPES as readonly string[]).includes(t);
const isKey = (v: unknown): v is string => isJiraKey(v) || isTempKey(v);

/** A check of one param value; returns a problem or null. */
type Check = (value: unknown) => string | null;

const nonEmptyString: Check = (v) => (typeof v === 'string' && v.trim() !== '' ? null : 'нужна непустая строка');
const nonEmptyStringOrNull: Check = (v) => (v === null ? null : nonEmptyString(v) && 'нужна непустая строка или null (null — в бэклог)');
const string: Check = (v) => (typeof v === 'string' ? null : 'нужна строка');
const nullableString: Check = (v) => (v === null || typeof v === 'string' ? null : 'нужна строка или null');
const key: Check = (v) => (isKey(v) ? null : 'нужен ключ Jira (ABC-123) или временный ключ (new:N)');
const tempKey: Check = (v) => (isTempKey(v) ? null : 'нужен временный ключ вида new:N');
const object: Check = (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? null : 'нужен объект');
/** ensure_sprint's board: a board name (non-blank) or a board id (a positive whole number, or its digits). */
const boardRef: Check = (v) =>
  (typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) ? null : 'нужно название доски или её id (целое больше 0)';
/** A Jira id (comment id): digits, as a string or a positive whole number. */
const jiraId: Check = (v) => ((typeof v === 'string' && /^[1-9][0-9]*$/.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) ? null : 'нужен id Jira (целое больше 0)');
const stringArray: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : 'нужен массив строк');

/** A real calendar date YYYY-MM-DD. */
export function isCalendarDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
const dateOrNull: Check = (v) => (v === null || (typeof v === 'string' && isCalendarDate(v)) ? null : 'нужна дата ГГГГ-ММ-ДД или null');
/** Two status names name the same status as the agent matches them: trimmed, letter case aside. */
export const sameStatus = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A walk of statuses. No status twice (as the agent compares them: trimmed, case aside): the agent goes from
 * the issue's status to its last place on the path, so that a re-delivery repeats nothing, and the steps of a
 * loop before it would never be walked (decision 1417).
 */
const path: Check = (v) => {
  if (!(Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && x.trim() !== ''))) return 'нужен непустой массив названий статусов';
  const steps = v as string[];
  const twice = steps.find((x, i) => steps.findIndex((y) => sameStatus(x, y)) < i);
  return twice === undefined
    ? null
    : `статус «${twice.trim()}» в пути дважды: агент ведёт задачу от её статуса к последнему его месту в пути, и шаги до него не выполнятся; разбейте путь на две команды ensure_status`;
};
/** A non-empty array of keys; a bad element is named (up to five), not reported as an empty array. */
const keyList: Check = (v) => {
  if (!Array.isArray(v) || v.length === 0) return 'нужен непустой массив ключей';
  const bad = v.filter((x) => !isKey(x));
  const shown = bad.slice(0, 5).map((x) => (typeof x === 'string' ? `«${x}»` : JSON.stringify(x) ?? String(x)));
  return bad.length === 0 ? null : `нужны ключи Jira (ABC-123) или временные ключи (new:N), а не ${shown.join(', ')}${bad.length > 5 ? ` и ещё ${bad.length - 5}` : ''}`;
};

interface ParamRule {
  check: Check;
  required?: boolean;
}

/** The standard fields of ensure_fields; any other name must be listed in settings `fields`. */
export const STANDARD_FIELDS: Record<string, Check> = {
  summary: nonEmptyString,
  description: nullableString,
  duedate: dateOrNull,
  labels: stringArray,
  assignee: nullableString,
  priority: nonEmptyString,
};

const RULES: Record<Exclude<CommandType, 'ensure_fields' | 'refresh'>, Record<string, ParamRule>> = {
  ensure_issue: {
    temp_key: { check: tempKey, required: true },
    issue_type: { check: nonEmptyString, required: true },
    summary: { check: nonEmptyString, required: true },
    description: { check: string },
    parent: { check: key },
    fields: { check: object },
  },
  // SPEC 16.2: `{key, to}` without `path` — the hub stores the shortest known route as `path`.
  ensure_status: { key: { check: key, required: true }, path: { check: path }, to: { check: nonEmptyString } },
  ensure_link: {
    source: { check: key, required: true },
    target: { check: key, required: true },
    link_type: { check: nonEmptyString, required: true },
  },
  // SPEC 16.2: `sprint: null` moves the issue to the backlog.
  ensure_sprint: { key: { check: key, required: true }, sprint: { check: nonEmptyStringOrNull, required: true }, board: { check: boardRef } },
  ensure_comment: { key: { check: key, required: true }, body: { check: nonEmptyString, required: true }, marker: { check: nonEmptyString } },
  refresh_catalogue: {},
  remove_link: {
    source: { check: key, required: true },
    target: { check: key, required: true },
    link_type: { check: nonEmptyString, required: true },
  },
  remove_comment: { key: { check: key, required: true }, comment_id: { check: jiraId, required: true } },
  delete_issue: { key: { check: key, required: true }, summary: { check: nonEmptyString, required: true } },
};

export interface ParamProblem {
  param: string;
  detail: string;
}

export interface ParamsCheck {
  problems: ParamProblem[];
  /** ensure_fields names that are not standard fields: allowed only when listed in settings `fields`. */
  customFields: string[];
}

/**
 * A param's value only when the params object has it as its own property: a name such as
 * `constructor` or `toString` must not find Object.prototype's member.
 */
const own = (params: Params, name: string): unknown => (Object.hasOwn(params, name) ? params[name] : undefined);

/**
 * `__proto__` is never a param nor a field name: JSON.parse makes it an own property, but assigned
 * anywhere later it would set a prototype instead of a value.
 */
const FORBIDDEN_NAME = '__proto__';

const unknownParam = (name: string): ParamProblem => ({ param: name, detail: 'неизвестный параметр' });

function checkByRules(params: Params, rules: Record<string, ParamRule>): ParamProblem[] {
  const problems: ParamProblem[] = [];
  for (const [name, rule] of Object.entries(rules)) {
    const value = own(params, name);
    if (value === undefined) {
      if (rule.required) problems.push({ param: name, detail: 'обязательный параметр' });
      continue;
    }
    const problem = rule.check(value);
    if (problem) problems.push({ param: name, detail: problem });
  }
  for (const name of Object.keys(params)) {
    if (!Object.hasOwn(rules, name)) problems.push(unknownParam(name));
  }
  return problems;
}

function checkFields(params: Params): ParamsCheck {
  const problems: ParamProblem[] = [];
  const keyValue = own(params, 'key');
  const keyProblem = keyValue === undefined ? 'обязательный параметр' : key(keyValue);
  if (keyProblem) problems.push({ param: 'key', detail: keyProblem });
  const names = Object.keys(params).filter((n) => n !== 'key' && n !== FORBIDDEN_NAME);
  if (names.length === 0) problems.push({ param: 'params', detail: 'нужно хотя бы одно поле для установки' });
  if (Object.hasOwn(params, FORBIDDEN_NAME)) problems.push(unknownParam(FORBIDDEN_NAME));
  const customFields: string[] = [];
  for (const name of names) {
    if (!Object.hasOwn(STANDARD_FIELDS, name)) {
      customFields.push(name);
      continue;
    }
    const problem = STANDARD_FIELDS[name]!(params[name]);
    if (problem) problems.push({ param: name, detail: problem });
  }
  return { problems, customFields };
}

/**
 * The longest JQL the hub takes (decision 1427): a query a person writes, far below; issues by the
 * hundred go as `keys`. A refresh's `jql` and settings `auto_refresh.jql`.
 */
export const JQL_MAX = 10_000;
export const JQL_TOO_LONG = `не длиннее ${JQL_MAX} символов; много задач списком передайте в keys`;

function checkRefresh(params: Params): ParamsCheck {
  const problems: ParamProblem[] = [];
  const keys = own(params, 'keys');
  const jql = own(params, 'jql');
  const hasKeys = keys !== undefined;
  const hasJql = jql !== undefined;
  if (hasKeys && hasJql) problems.push({ param: 'params', detail: 'нужно одно из двух: keys или jql, не оба' });
  else if (!hasKeys && !hasJql) problems.push({ param: 'params', detail: 'нужно одно из двух: keys или jql' });
  if (hasKeys) {
    const p = keyList(keys);
    if (p) problems.push({ param: 'keys', detail: p });
  }
  if (hasJql) {
    const p = nonEmptyString(jql) ?? ((jql as string).length > JQL_MAX ? JQL_TOO_LONG : null);
    if (p) problems.push({ param: 'jql', detail: p });
  }
  for (const name of Object.keys(params)) {
    if (name !== 'keys' && name !== 'jql') problems.push(unknownParam(name));
  }
  return { problems, customFields: [] };
}

/** Checks the params of one command against SPEC 4. */
export function checkParams(type: CommandType, params: Params): ParamsCheck {
  if (type === 'ensure_fields') return checkFields(params);
  if (type === 'refresh') return checkRefresh(params);
  const problems = checkByRules(params, RULES[type]);
  const source = own(params, 'source');
  if ((type === 'ensure_link' || type === 'remove_link') && source !== undefined && source === own(params, 'target')) {
    problems.push({ param: 'target', detail: 'связь задачи с самой собой' });
  }
  if (type === 'ensure_status') {
    const [path, to] = [own(params, 'path'), own(params, 'to')];
    if (path !== undefined && to !== undefined) problems.push({ param: 'params', detail: 'нужно одно из двух: path или to, не оба' });
    else if (path === undefined && to === undefined) problems.push({ param: 'path', detail: 'обязательный параметр (или to — конечный статус, путь хаб найдёт сам)' });
  }
  return { problems, customFields: [] };
}

/** The standard param names of each type (ensure_fields: `key` and the standard fields; custom fields come on top). */
const PARAM_NAMES: Record<CommandType, readonly string[]> = {
  ensure_issue: Object.keys(RULES.ensure_issue),
  ensure_fields: ['key', ...Object.keys(STANDARD_FIELDS)],
  ensure_status: Object.keys(RULES.ensure_status),
  ensure_link: Object.keys(RULES.ensure_link),
  ensure_sprint: Object.keys(RULES.ensure_sprint),
  ensure_comment: Object.keys(RULES.ensure_comment),
  refresh: ['keys', 'jql'],
  refresh_catalogue: [],
  remove_link: Object.keys(RULES.remove_link),
  remove_comment: Object.keys(RULES.remove_comment),
  delete_issue: Object.keys(RULES.delete_issue),
};

/**
 * Every standard param name of every command type, each once, in catalogue order. A custom field
 * (settings `fields`) named like one of these is ambiguous to a person reading a batch.
 */
/** The params a command of `type` takes (ensure_fields: `key` and its standard fields; custom fields come on top). */
export const paramNames = (type: CommandType): readonly string[] => PARAM_NAMES[type];

export const STANDARD_PARAM_NAMES: readonly string[] = Object.freeze([...new Set(COMMAND_TYPES.flatMap((t) => PARAM_NAMES[t]))]);

/**
 * The single-key params of each type, where a temp key may stand and is substituted (SPEC 4: `key`,
 * `source`, `target`, `parent`, each only where the catalogue defines it; `refresh.keys` is a list and
 * `ensure_issue.temp_key` a definition, both handled apart). An ensure_fields custom field named
 * `parent` or `source` is a field value, never a key.
 */
const KEY_PARAMS: Record<CommandType, readonly string[]> = {
  ensure_issue: ['parent'],
  ensure_fields: ['key'],
  ensure_status: ['key'],
  ensure_link: ['source', 'target'],
  ensure_sprint: ['key'],
  ensure_comment: ['key'],
  refresh: [],
  refresh_catalogue: [],
  remove_link: ['source', 'target'],
  remove_comment: ['key'],
  delete_issue: ['key'],
};

/** The single-key params of a command type (see KEY_PARAMS). */
export const keyParams = (type: CommandType): readonly string[] => KEY_PARAMS[type];

/** Every key and temp key a command names, in order of appearance, with repeats. */
export function keysNamed(type: CommandType, params: Params): string[] {
  const out: string[] = [];
  const push = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
  };
  if (type === 'ensure_issue') push(own(params, 'temp_key'));
  for (const name of KEY_PARAMS[type]) push(own(params, name));
  const keys = own(params, 'keys');
  if (type === 'refresh' && Array.isArray(keys)) keys.forEach(push);
  return out;
}

/** Temp keys a command needs resolved before it can be handed out (its own `temp_key` is a definition, not a need). */
export function tempKeysNeeded(type: CommandType, params: Params): string[] {
  const named = keysNamed(type, params);
  const own = type === 'ensure_issue' ? 1 : 0;
  return [...new Set(named.slice(own).filter(isTempKey))];
}
