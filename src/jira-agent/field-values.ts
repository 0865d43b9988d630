import type { JiraApi } from './jira-api.js';
import { CommandFailure } from './command-failure.js';

/** Fields every ensure_fields / ensure_issue.fields may set, besides custom fields from settings `fields`. */
export const STANDARD_FIELDS = ['summary', 'description', 'duedate', 'labels', 'assignee', 'priority'] as const;

export interface ResolvedField {
  /** The name the hub uses (a standard name or the settings name of a custom field). */
  name: string;
  /** Jira field id. */
  id: string;
}

export async function resolveField(api: JiraApi, name: string): Promise<ResolvedField> {
  if ((STANDARD_FIELDS as readonly string[]).includes(name)) return { name, id: name };
  const id = await api.fieldIdFor(name);
  if (!id) throw new CommandFailure(`поле «${name}» не найдено в Jira`);
  return { name, id };
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
      return raw === undefined ? null : raw;
  }
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
      return desired;
  }
}

/** Whether the current value already equals the desired one (labels as sets, null = empty, text by content). */
export function sameValue(field: ResolvedField, current: unknown, desired: unknown): boolean {
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
