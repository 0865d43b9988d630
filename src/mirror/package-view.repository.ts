/**
 * What planning packages (SPEC 18) read of the mirror, inside a caller's read: the issues and links of
 * the keys a package names (plan, drift), and a project's issues, links and notes for an export. In
 * chunks: a package may name thousands of keys against a mirror of hundreds of thousands.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { IssueFields, SprintState } from '@jira-hub/contracts';
import { join, list, parseJson, raw, rows, sql, type Sql } from '../database/index.js';
import { storedLabels } from './stored-labels.js';

const CHUNK = 500;

/** A mirror issue as a package compares it: the columns of SPEC 4's Issue plus the parent from `fields`. */
export interface PackageMirrorIssue extends Omit<IssueFields, 'created' | 'updated'> {
  /** Jira's id of `sprint` and its board (decision 1430); null: in no sprint, or not known (an older agent's refresh) */
  sprint_id?: number | null;
  sprint_board_id?: number | null;
  sprint_state?: SprintState | null;
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

const COLUMNS = raw('key, summary, issue_type, status, sprint, sprint_id, sprint_board_id, sprint_state, assignee, priority, duedate, labels, fields, synced_at');

function toIssue(r: Row): PackageMirrorIssue {
  const parent = parseJson<{ parent?: unknown }>(r.fields, {}).parent;
  const { fields: _fields, ...rest } = r;
  return { ...rest, labels: storedLabels(r.labels), parent: typeof parent === 'string' && parent !== '' ? parent : null };
}

/** The keys, each once, in order: neighbouring keys share index and table pages (a third faster at 10,000 keys). */
const sortedUnique = (keys: readonly string[]) => [...new Set(keys)].sort();

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

export interface ExportNote {
  key: string;
  fact_status: string | null;
  comment: string | null;
}

@Injectable()
export class PackageViewRepository {
  /** The mirror's issues among `keys`, by key. */
  async issuesByKeys(m: EntityManager, keys: readonly string[]): Promise<Map<string, PackageMirrorIssue>> {
    const out = new Map<string, PackageMirrorIssue>();
    const unique = sortedUnique(keys);
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      for (const r of await rows<Row>(m, sql`SELECT ${COLUMNS} FROM issue WHERE key IN (${list(part)})`)) out.set(r.key, toIssue(r));
    }
    return out;
  }

  /** Those of `keys` the mirror has: the key index alone, no table page (an end of a link is only looked up). */
  async existingKeys(m: EntityManager, keys: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    const unique = sortedUnique(keys);
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      for (const r of await rows<{ key: string }>(m, sql`SELECT key FROM issue WHERE key IN (${list(part)})`)) out.add(r.key);
    }
    return out;
  }

  /** The mirror's links that start at one of `keys` (a package's links and their reverses both start at a key it names). */
  async linksFrom(m: EntityManager, keys: readonly string[]): Promise<MirrorLink[]> {
    const out: MirrorLink[] = [];
    const unique = sortedUnique(keys);
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      out.push(...(await rows<MirrorLink>(m, sql`SELECT source_key, target_key, link_type FROM issue_link WHERE source_key IN (${list(part)})`)));
    }
    return out;
  }

  /**
   * Issues matching the filter, by project and number (AURORA-2 before AURORA-10). Status, sprint, type
   * and assignee match in any letter case, as Jira's JQL and the package plan compare them (`status =
   * done` is Done): compared here, since SQLite's lower() folds ASCII only.
   */
  async exportIssues(m: EntityManager, f: ExportFilter): Promise<PackageMirrorIssue[]> {
    const where: Sql[] = [];
    // The project's keys: those between «P-» and «P.» (the next character), bytewise on both engines; a
    // LIKE would read `_` and `%` of the project key as wildcards (A_B would take AXB-1 too).
    if (f.project !== undefined) where.push(sql`key >= ${`${f.project}-`} AND key < ${`${f.project}.`}`);
    if (f.keys !== undefined) where.push(f.keys.length ? sql`key IN (${list(f.keys)})` : raw('1 = 0'));
    if (f.label !== undefined) where.push(sql`key IN (SELECT issue_key FROM issue_label WHERE label = ${f.label})`);
    const folded = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();
    const wanted = (['status', 'sprint', 'issue_type', 'assignee'] as const).flatMap((column) => (f[column] !== undefined ? [[column, folded(f[column])] as const] : []));
    const found = (await rows<Row>(m, sql`SELECT ${COLUMNS} FROM issue${where.length ? sql` WHERE ${join(where, ' AND ')}` : raw('')}`)).filter((r) =>
      wanted.every(([column, value]) => folded(r[column]) === value),
    );
    const number = (key: string) => Number(key.slice(key.lastIndexOf('-') + 1));
    const project = (key: string) => key.slice(0, key.lastIndexOf('-'));
    return found.map(toIssue).sort((a, b) => (project(a.key) === project(b.key) ? number(a.key) - number(b.key) : project(a.key) < project(b.key) ? -1 : 1));
  }

  /** The notes of `keys`. */
  async notesOf(m: EntityManager, keys: readonly string[]): Promise<Map<string, ExportNote>> {
    const out = new Map<string, ExportNote>();
    const unique = sortedUnique(keys);
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      for (const r of await rows<ExportNote>(m, sql`SELECT key, fact_status, comment FROM issue_note WHERE key IN (${list(part)})`)) out.set(r.key, r);
    }
    return out;
  }
}
