/**
 * The command catalogue (SPEC 4): for each command type, its params and the keys it names.
 * Pure: no Nest, no ORM. Problems are Russian sentences for the person who wrote the batch.
 */
import { COMMAND_TYPES, type CommandType } from '../../common/command-types.js';
import { isJiraKey, isTempKey } from '../../common/keys.js';

export { COMMAND_TYPES, type CommandType };


export type Params = Record<string, unknown>;

export const isCommandType = (t: unknown): t is CommandType => typeof t === 'string' && (COMMAND_TYPES as readonly string[]).includes(t);
const isKey = (v: unknown): v is string => isJiraKey(v) || isTempKey(v);

/** A check of one param value; returns a problem or null. */
type Check = (value: unknown) => string | null;

const nonEmptyString: Check = (v) => (typeof v === 'string' && v.trim() !== '' ? null : 'нужна непустая строка');
const string: Check = (v) => (typeof v === 'string' ? null : 'нужна строка');
const nullableString: Check = (v) => (v === null || typeof v === 'string' ? null : 'нужна строка или null');
const key: Check = (v) => (isKey(v) ? null : 'нужен ключ Jira (ABC-123) или временный ключ (new:N)');
const tempKey: Check = (v) => (isTempKey(v) ? null : 'нужен временный ключ вида new:N');
const object: Check = (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? null : 'нужен объект');
const stringArray: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : 'нужен массив строк');

function isCalendarDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
const dateOrNull: Check = (v) => (v === null || (typeof v === 'string' && isCalendarDate(v)) ? null : 'нужна дата ГГГГ-ММ-ДД или null');
const path: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && x.trim() !== '') ? null : 'нужен непустой массив названий статусов';
const keyList: Check = (v) => (Array.isArray(v) && v.length > 0 && v.every(isKey) ? null : 'нужен непустой массив ключей');

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
  ensure_status: { key: { check: key, required: true }, path: { check: path, required: true } },
  ensure_link: {
    source: { check: key, required: true },
    target: { check: key, required: true },
    link_type: { check: nonEmptyString, required: true },
  },
  ensure_sprint: { key: { check: key, required: true }, sprint: { check: nonEmptyString, required: true } },
  ensure_comment: { key: { check: key, required: true }, body: { check: nonEmptyString, required: true }, marker: { check: nonEmptyString } },
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

function checkByRules(params: Params, rules: Record<string, ParamRule>): ParamProblem[] {
  const problems: ParamProblem[] = [];
  for (const [name, rule] of Object.entries(rules)) {
    if (params[name] === undefined) {
      if (rule.required) problems.push({ param: name, detail: 'обязательный параметр' });
      continue;
    }
    const problem = rule.check(params[name]);
    if (problem) problems.push({ param: name, detail: problem });
  }
  for (const name of Object.keys(params)) {
    if (!(name in rules)) problems.push({ param: name, detail: 'неизвестный параметр' });
  }
  return problems;
}

function checkFields(params: Params): ParamsCheck {
  const problems: ParamProblem[] = [];
  const keyProblem = params.key === undefined ? 'обязательный параметр' : key(params.key);
  if (keyProblem) problems.push({ param: 'key', detail: keyProblem });
  const names = Object.keys(params).filter((n) => n !== 'key');
  if (names.length === 0) problems.push({ param: 'params', detail: 'нужно хотя бы одно поле для установки' });
  const customFields: string[] = [];
  for (const name of names) {
    const check = STANDARD_FIELDS[name];
    if (!check) {
      customFields.push(name);
      continue;
    }
    const problem = check(params[name]);
    if (problem) problems.push({ param: name, detail: problem });
  }
  return { problems, customFields };
}

function checkRefresh(params: Params): ParamsCheck {
  const problems: ParamProblem[] = [];
  const hasKeys = params.keys !== undefined;
  const hasJql = params.jql !== undefined;
  if (hasKeys && hasJql) problems.push({ param: 'params', detail: 'нужно одно из двух: keys или jql, не оба' });
  else if (!hasKeys && !hasJql) problems.push({ param: 'params', detail: 'нужно одно из двух: keys или jql' });
  if (hasKeys) {
    const p = keyList(params.keys);
    if (p) problems.push({ param: 'keys', detail: p });
  }
  if (hasJql) {
    const p = nonEmptyString(params.jql);
    if (p) problems.push({ param: 'jql', detail: p });
  }
  for (const name of Object.keys(params)) {
    if (name !== 'keys' && name !== 'jql') problems.push({ param: name, detail: 'неизвестный параметр' });
  }
  return { problems, customFields: [] };
}

/** Checks the params of one command against SPEC 4. */
export function checkParams(type: CommandType, params: Params): ParamsCheck {
  if (type === 'ensure_fields') return checkFields(params);
  if (type === 'refresh') return checkRefresh(params);
  const problems = checkByRules(params, RULES[type]);
  if (type === 'ensure_link' && params.source !== undefined && params.source === params.target) {
    problems.push({ param: 'target', detail: 'связь задачи с самой собой' });
  }
  return { problems, customFields: [] };
}

/** The params that may hold a key to substitute (SPEC 4: key, source, target, parent and refresh.keys). */
export const KEY_PARAMS = ['key', 'source', 'target', 'parent'] as const;

/** Every key and temp key a command names, in order of appearance, with repeats. */
export function keysNamed(type: CommandType, params: Params): string[] {
  const out: string[] = [];
  const push = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
  };
  if (type === 'ensure_issue') push(params.temp_key);
  for (const name of KEY_PARAMS) push(params[name]);
  if (type === 'refresh' && Array.isArray(params.keys)) params.keys.forEach(push);
  return out;
}

/** Temp keys a command needs resolved before it can be handed out (its own `temp_key` is a definition, not a need). */
export function tempKeysNeeded(type: CommandType, params: Params): string[] {
  const named = keysNamed(type, params);
  const own = type === 'ensure_issue' ? 1 : 0;
  return [...new Set(named.slice(own).filter(isTempKey))];
}
