import { adfToText } from './adf.js';
import type { JiraApi, JiraFieldMeta } from './jira-api.js';
import { CommandFailure } from './command-failure.js';

/** Fields every ensure_fields / ensure_issue.fields may set, besides custom fields from settings `fields`. */
export const STANDARD_FIELDS = ['summary', 'description', 'duedate', 'labels', 'assignee', 'priority'] as const;

/**
 * How a custom field's value is converted, from its `schema` in GET /rest/api/N/field:
 * - option   — schema.type "option" (select list, radio buttons): sent as {value: "High"}, read back as the value;
 * - options  — schema.type "array", items "option" (multi select, checkboxes): [{value: "a"}, …] ↔ ["a", …], a set;
 * - user     — schema.type "user" (user picker): Cloud {accountId}, DC {name} ↔ the id / name string;
 * - number   — schema.type "number": a numeric string is sent as a number (not a number → a clear failure);
 * - string   — schema.type "string" (text field): a number is sent as its text;
 * - date     — schema.type "date" ('YYYY-MM-DD'): as is both ways;
 * - textarea — schema.type "string" with schema.custom …customfieldtypes:textarea: Cloud v3 takes and returns
 *              an ADF document, DC v2 plain text;
 * - named    — schema.type "array", items "component" or "version" (Components, Fix versions, version pickers):
 *              plain names ["Backend"] ↔ [{name: "Backend"}], a set;
 * - version  — schema.type "version" (a single version picker): "1.0" ↔ {name: "1.0"};
 * - users    — schema.type "array", items "user" (multi user picker): plain ids ↔ [{accountId}] (Cloud) or
 *              [{name}] (DC), a set;
 * - raw      — anything else (cascading selects, app fields…): sent as given, read back raw.
 * Rich text goes by schema too: a textarea custom field and the system fields description and environment
 * are ADF documents on Cloud (plain text on DC).
 * Sources for these shapes: Atlassian's "Jira REST API examples" and "JIRA REST API Example - Edit issues"
 * (developer.atlassian.com/server/jira/platform/jira-rest-api-examples, …/jira-rest-api-example-edit-issues-6291632:
 * `fields` of PUT /issue takes a select list as {"value": …}, a multi select as [{"value": …}, …], a user as
 * {"name": …} on DC, a date picker as "YYYY-MM-DD", numbers and text as plain JSON values); the Cloud REST v3
 * OpenAPI's CustomFieldValueUpdate (string → a string, number → a number, user → an object with `accountId`);
 * ADF for rich-text fields in v3 (Atlassian Document Format, used for description, comment "and other rich text
 * fields", i.e. textarea custom fields); JiraPS's about_JiraPS_CustomFields (select values as @{value = …}).
 * Not checked against a live site here: the exact 400 texts, and the order Jira returns multi-select values in.
 */
export type FieldKind = 'option' | 'options' | 'user' | 'users' | 'named' | 'version' | 'number' | 'string' | 'date' | 'textarea' | 'raw';

const TEXTAREA = 'com.atlassian.jira.plugin.system.customfieldtypes:textarea';
/** System fields whose value is rich text (ADF on Cloud v3). */
const RICH_TEXT_SYSTEM = new Set(['description', 'environment']);

export function fieldKind(meta: Pick<JiraFieldMeta, 'schema'> | undefined): FieldKind {
  const schema = meta?.schema;
  switch (schema?.type) {
    case 'option':
      return 'option';
    case 'array':
      if (schema.items === 'option') return 'options';
      if (schema.items === 'component' || schema.items === 'version') return 'named';
      return schema.items === 'user' ? 'users' : 'raw';
    case 'version':
      return 'version';
    case 'user':
      return 'user';
    case 'number':
      return 'number';
    case 'date':
      return 'date';
    case 'string':
      return schema.custom === TEXTAREA || RICH_TEXT_SYSTEM.has(schema.system ?? '') ? 'textarea' : 'string';
    default:
      return 'raw';
  }
}

export interface ResolvedField {
  /** The name the hub uses (a standard name or the settings name of a custom field). */
  name: string;
  /** Jira field id. */
  id: string;
  /** How a custom field's value is converted (undefined = raw; standard fields go by name). */
  kind?: FieldKind;
}

export async function resolveField(api: JiraApi, name: string): Promise<ResolvedField> {
  if ((STANDARD_FIELDS as readonly string[]).includes(name)) return { name, id: name };
  const found = await api.lookupField(name);
  if (!found) throw new CommandFailure(`поле «${name}» не найдено в Jira`);
  if ('ambiguous' in found) throw new CommandFailure(ambiguousFieldText(name, found.ambiguous));
  return { name, id: found.id, kind: fieldKind(await api.fieldMeta(found.id)) };
}

/** The failure text of a display name several Jira fields share (the command and the pre-flight check use it). */
export function ambiguousFieldText(name: string, ids: string[]): string {
  return `поле «${name}» неоднозначно: в Jira несколько полей с таким названием (${ids.join(', ')}); укажите в настройках id нужного поля вида customfield_N`;
}

/** The hub's comparable value of a field as Jira returned it. */
export function readValue(api: JiraApi, field: ResolvedField, raw: unknown): unknown {
  switch (field.name) {
    case 'summary':
      return typeof raw === 'string' ? raw : null;
    case 'description': {
      const text = api.decodeText(raw);
      return text === '' ? null : text;
    }
    case 'duedate':
      return typeof raw === 'string' && raw !== '' ? raw : null;
    case 'labels':
      return Array.isArray(raw) ? raw.map(String) : [];
    case 'assignee':
      return api.userId(raw);
    case 'priority':
      return raw && typeof raw === 'object' ? ((raw as { name?: string }).name ?? null) : null;
    default:
      return readCustom(api, field.kind ?? 'raw', raw);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Jira option {value, id, self} → its value; anything else unchanged. */
function optionValue(v: unknown): unknown {
  return isObject(v) && 'value' in v ? v.value : v;
}

/** The plain value of a custom field as Jira returned it (see FieldKind). */
function readCustom(api: JiraApi, kind: FieldKind, raw: unknown): unknown {
  if (raw === undefined || raw === null) return kind === 'options' || kind === 'users' || kind === 'named' ? [] : null;
  switch (kind) {
    case 'option':
      return optionValue(raw) ?? null;
    case 'options':
      return Array.isArray(raw) ? raw.map((v) => optionValue(v)) : [optionValue(raw)];
    case 'user':
      return typeof raw === 'string' ? raw : api.userId(raw);
    case 'users':
      return (Array.isArray(raw) ? raw : [raw]).map((u) => (typeof u === 'string' ? u : api.userId(u)));
    case 'named':
      return (Array.isArray(raw) ? raw : [raw]).map((v) => (isObject(v) ? (v.name ?? v) : v));
    case 'version':
      return isObject(raw) ? (raw.name ?? null) : raw;
    case 'textarea': {
      const text = api.decodeText(raw);
      return text === '' ? null : text;
    }
    default:
      return raw;
  }
}

/**
 * The option ids of a select / multi-select value as Jira returned it ({value, id, self} or a list of them),
 * id → value: the hub's value readValue gives drops them, but a desired option given as {id} is compared by id.
 */
export function readOptionIds(raw: unknown): Map<string, unknown> {
  const ids = new Map<string, unknown>();
  for (const v of Array.isArray(raw) ? raw : [raw]) {
    if (isObject(v) && (typeof v.id === 'string' || typeof v.id === 'number')) ids.set(String(v.id), v.value);
  }
  return ids;
}

/** The value to send to Jira for a desired hub value. */
export function encodeValue(api: JiraApi, field: ResolvedField, desired: unknown): unknown {
  switch (field.name) {
    case 'description':
      return desired === null || desired === '' ? null : api.encodeText(String(desired));
    case 'duedate':
      return desired === '' ? null : desired;
    case 'labels':
      return desired ?? [];
    case 'assignee':
      return api.userRef(desired === '' || desired === null ? null : String(desired));
    case 'priority':
      return desired === null ? null : { name: String(desired) };
    default:
      return encodeCustom(api, field, desired);
  }
}

/** Jira's shape of a plain custom value (see FieldKind); an object (or an array of objects) is sent as given. */
function encodeCustom(api: JiraApi, field: ResolvedField, desired: unknown): unknown {
  if (isObject(desired)) return desired;
  const empty = desired === null || desired === undefined || desired === '';
  switch (field.kind ?? 'raw') {
    case 'number': {
      if (empty) return null;
      if (typeof desired !== 'string') return desired;
      const number = Number(desired.trim());
      if (desired.trim() === '' || !Number.isFinite(number)) throw new CommandFailure(`поле «${field.name}» числовое, а значение «${desired}» не число`);
      return number;
    }
    case 'string':
      return typeof desired === 'number' ? String(desired) : desired;
    case 'option':
      return empty ? null : { value: String(desired) };
    case 'options': {
      if (empty) return [];
      const list = Array.isArray(desired) ? desired : [desired];
      return list.map((v) => (isObject(v) ? v : { value: String(v) }));
    }
    case 'user':
      return api.userRef(empty ? null : String(desired));
    case 'users':
      return listOf(desired).map((v) => (isObject(v) ? v : api.userRef(String(v))));
    case 'named':
      return listOf(desired).map((v) => (isObject(v) ? v : { name: String(v) }));
    case 'version':
      return empty ? null : { name: String(desired) };
    case 'date':
      return empty ? null : desired;
    case 'textarea':
      return empty ? null : api.encodeText(String(desired));
    default:
      return desired;
  }
}

/** A plain value as a list: null / '' → [], one value → [it]. */
function listOf(v: unknown): unknown[] {
  return v === null || v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v];
}

/** A hub value given in Jira's shape ({value}, {name}, {accountId}) → its plain form; arrays element-wise. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (isObject(v)) return v.value ?? v.name ?? v.accountId ?? v;
  return v === undefined || v === '' ? null : v;
}

/**
 * Whether the current value already equals the desired one (labels as sets, null = empty, text by content).
 * `optionIds` (readOptionIds of Jira's answer) lets a desired option given as {id} match the option read back.
 */
export function sameValue(field: ResolvedField, current: unknown, desired: unknown, optionIds: Map<string, unknown> = new Map()): boolean {
  switch (field.name) {
    case 'summary':
      return typeof current === 'string' && current.trim() === String(desired).trim();
    case 'description':
      return normalizeText(current) === normalizeText(desired);
    case 'labels':
      return sameSet(current, desired);
    case 'duedate':
    case 'assignee':
    case 'priority':
      return emptyToNull(current) === emptyToNull(desired);
    default:
      return sameCustomValue(field.kind ?? 'raw', current, desired, optionIds);
  }
}

/** A desired option in Jira's shape → the value to compare: {value} its value, {id} the value of that option read back. */
function desiredOption(v: unknown, optionIds: Map<string, unknown>): unknown {
  if (!isObject(v) || v.value !== undefined || (typeof v.id !== 'string' && typeof v.id !== 'number')) return plain(v);
  // {id} alone: equal only to the option of that id read back (an id not there matches no value read back)
  return optionIds.has(String(v.id)) ? optionIds.get(String(v.id)) : { missingOptionId: String(v.id) };
}

/** `current` is the plain value readValue gave; `desired` the hub's (plain, or in Jira's shape). */
function sameCustomValue(kind: FieldKind, current: unknown, desired: unknown, optionIds: Map<string, unknown>): boolean {
  switch (kind) {
    case 'option':
      return JSON.stringify(plain(current)) === JSON.stringify(desiredOption(desired, optionIds) ?? null);
    case 'string': {
      // a number given for a text field is sent as its text (encodeCustom): compare the same way
      const text = (v: unknown) => (typeof v === 'number' ? String(v) : v);
      return JSON.stringify(plain(text(current))) === JSON.stringify(plain(text(desired)));
    }
    case 'user':
    case 'date':
    case 'version':
      return JSON.stringify(plain(current) ?? null) === JSON.stringify(plain(desired) ?? null);
    case 'users':
    case 'named':
      return sameSet(plain(listOf(current)), plain(listOf(desired)));
    case 'options': {
      const list = (v: unknown) => (v === null || v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]);
      const wanted = list(desired).map((v) => desiredOption(v, optionIds));
      return sameSet(list(plain(current)), wanted.map((v) => (isObject(v) ? JSON.stringify(v) : v)));
    }
    case 'number': {
      const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
      return num(current) === num(desired);
    }
    case 'textarea':
      // an ADF document given for a Cloud text area compares by its text, as the value read back does
      return normalizeText(current) === normalizeText(isObject(desired) ? adfToText(desired) : desired);
    default:
      return sameCustom(current, desired);
  }
}

function normalizeText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/\r\n?/g, '\n').replace(/\s+$/, '');
}

function emptyToNull(value: unknown): unknown {
  return value === '' || value === undefined ? null : value;
}

function sameSet(a: unknown, b: unknown): boolean {
  const left = new Set(Array.isArray(a) ? a.map(String) : []);
  const right = new Set(Array.isArray(b) ? b.map(String) : []);
  return left.size === right.size && [...left].every((x) => right.has(x));
}

/** Custom values: a select option {value} or {name} equals its text; arrays element-wise; else JSON equality. */
function sameCustom(current: unknown, desired: unknown): boolean {
  const simplify = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(simplify);
    if (v && typeof v === 'object') {
      const o = v as { value?: unknown; name?: unknown; accountId?: unknown };
      return o.value ?? o.name ?? o.accountId ?? v;
    }
    return v === undefined || v === '' ? null : v;
  };
  const left = simplify(current);
  const right = simplify(desired);
  if (Array.isArray(left) && left.length === 0 && right === null) return true;
  return JSON.stringify(left) === JSON.stringify(right);
}
