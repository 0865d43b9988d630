/**
 * What planning packages (SPEC 18) read of the mirror, inside a caller's read: the issues and links of
 * the keys a package names (plan, drift), and a project's issues, links and notes for an export. Raw
 * SQL in chunks: a package may name thousands of keys against a mirror of hundreds of thousands.
 */
import type { EntityManager } from 'typeorm';
import type { IssueFields } from '@jira-hub/contracts';
import { parseJson } from '../database/json.js';

const CHUNK = 500;
const marks = (n: number) => new Array(n).fill('?').join(', ');

/** A mirror issue as a package compares it: the columns of SPEC 4's Issue plus the parent from `fields`. */
export interface PackageMirrorIssue extends Omit<IssueFields, 'created' | 'updated'> {
  parent: string | null;
  synced_at: string | null;
}

export interface MirrorLink {
  source_key: string;
  target_key: string;
  link_type: string;
}

/** A row as stored: labels and fields are JSON text. */
type Row = Omit<PackageMirrorIssue, 'labels' | 'parent'> & { labels: string; fields: string };

const COLUMNS = 'key, summary, issue_type, status, sprint, assignee, priority, duedate, labels, fields, synced_at';

function toIssue(r: Row): PackageMirrorIssue {
  const parent = parseJson<{ parent?: unknown }>(r.fields, {}).parent;
  const { fields: _fields, ...rest } = r;
  return { ...rest, labels: parseJson<string[]>(r.labels, []), parent: typeof parent === 'string' && parent !== '' ? parent : null };
}

/** The keys, each once, in order: neighbouring keys share index and table pages (a third faster at 10,000 keys). */
const sortedUnique = (keys: readonly string[]) => [...new Set(keys)].sort();

/** The mirror's issues among `keys`, by key. */
export async function issuesByKeys(m: EntityManager, keys: readonly string[]): Promise<Map<string, PackageMirrorIssue>> {
  const out = new Map<string, PackageMirrorIssue>();
  const unique = sortedUnique(keys);
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    const rows: Row[] = await m.query(`SELECT ${COLUMNS} FROM issue WHERE key IN (${marks(part.length)})`, part);
    for (const r of rows) out.set(r.key, toIssue(r));
  }
  return out;
}

/** Those of `keys` the mirror has: the key index alone, no table page (an end of a link is only looked up). */
export async function existingKeys(m: EntityManager, keys: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const unique = sortedUnique(keys);
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    const rows: { key: string }[] = await m.query(`SELECT key FROM issue WHERE key IN (${marks(part.length)})`, part);
    for (const r of rows) out.add(r.key);
  }
  return out;
}

/** The mirror's links that start at one of `keys` (a package's links and their reverses both start at a key it names). */
export async function linksFrom(m: EntityManager, keys: readonly string[]): Promise<MirrorLink[]> {
  const out: MirrorLink[] = [];
  const unique = sortedUnique(keys);
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    out.push(...((await m.query(`SELECT source_key, target_key, link_type FROM issue_link WHERE source_key IN (${marks(part.length)})`, part)) as MirrorLink[]));
  }
  return out;
}

/** A filter of the mirror's issues for an export: each given condition narrows (AND). */
export interface ExportFilter {
  /** key prefix `<project>-` */
  project?: string;
  keys?: string[];
  status?: string;
  sprint?: string;
  issue_type?: string;
  assignee?: string;
  label?: string;
}

/** Issues matching the filter, by project and number (AURORA-2 before AURORA-10). */
export async function exportIssues(m: EntityManager, f: ExportFilter): Promise<PackageMirrorIssue[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (f.project !== undefined) {
    where.push('key LIKE ?');
    args.push(`${f.project}-%`);
  }
  if (f.keys !== undefined) {
    where.push(f.keys.length ? `key IN (${marks(f.keys.length)})` : '1 = 0');
    args.push(...f.keys);
  }
  for (const column of ['status', 'sprint', 'issue_type', 'assignee'] as const) {
    if (f[column] !== undefined) {
      where.push(`${column} = ?`);
      args.push(f[column]);
    }
  }
  if (f.label !== undefined) {
    where.push('key IN (SELECT issue_key FROM issue_label WHERE label = ?)');
    args.push(f.label);
  }
  const rows: Row[] = await m.query(`SELECT ${COLUMNS} FROM issue${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`, args);
  const number = (key: string) => Number(key.slice(key.lastIndexOf('-') + 1));
  const project = (key: string) => key.slice(0, key.lastIndexOf('-'));
  return rows.map(toIssue).sort((a, b) => (project(a.key) === project(b.key) ? number(a.key) - number(b.key) : project(a.key) < project(b.key) ? -1 : 1));
}

export interface ExportNote {
  key: string;
  fact_status: string | null;
  comment: string | null;
}

/** The notes of `keys`. */
export async function notesOf(m: EntityManager, keys: readonly string[]): Promise<Map<string, ExportNote>> {
  const out = new Map<string, ExportNote>();
  const unique = sortedUnique(keys);
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    const rows: ExportNote[] = await m.query(`SELECT key, fact_status, comment FROM issue_note WHERE key IN (${marks(part.length)})`, part);
    for (const r of rows) out.set(r.key, r);
  }
  return out;
}
