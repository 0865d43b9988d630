/**
 * The SQL of `issue` and `issue_link` (SPEC 7): a refresh's slices written inside the report's
 * transaction (a refresh may carry ten thousand issues: multi-row statements in chunks), the lookups of
 * the confirmation rules and the checks, and the reads of `/issues/{key}` and the facets. Word search is
 * IssueSearchRepository's.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SprintState } from '@jira-hub/contracts';
import { engineOf, join, list, one, parseJson, raw, rows, sql } from '../database/index.js';
import { ISSUE_VIEW_COLUMNS } from './issue-search.repository.js';
import { goneRun, type MissingKeys } from './gone.js';
import type { MirrorIssue, MirrorLookup } from './mirror-lookup.js';
import type { RefreshResult } from './refresh-result.js';
import { storedLabels } from './stored-labels.js';

const CHUNK = 500;
const ISSUES_PER_STATEMENT = 200;
const LINKS_PER_STATEMENT = 300;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** What one slice of a refresh result added to its sync run: rows not yet reported by this delivery. */
export interface SliceCounts {
  issues: number;
  links: number;
}

interface IssueRow {
  key: string;
  summary: string | null;
  status: string | null;
  sprint: string | null;
  sprint_id: number | null;
  sprint_board_id: number | null;
  sprint_state: SprintState | null;
  assignee: string | null;
  priority: string | null;
  duedate: string | null;
  labels: string;
  fields: string;
  synced_at: string | null;
}

@Injectable()
export class IssueRepository {
  /**
   * SPEC 7 for one slice of a refresh result (the whole result, or one part of it, 15.5): upsert each
   * reported issue; replace every link that touches a reported issue by the reported links. `mark`
   * names the delivery of the sync run that reports (syncMark): a link this delivery already reported
   * in an earlier part is never deleted by a later part, so a link between issues of parts 1 and 3
   * reported in part 1 survives part 3, and the parts together leave the mirror as one whole result
   * would. Returns how many issues and links this delivery had not reported before (each counted once).
   */
  async applySlice(m: EntityManager, slice: Pick<RefreshResult, 'issues' | 'links'>, mark: number, now: string): Promise<SliceCounts> {
    // An issue or a link reported twice is written once: PostgreSQL's upsert cannot touch a row twice in one statement.
    const byKey = new Map(slice.issues.map((i) => [i.key, i]));
    const issues = [...byKey.values()];
    const uniqueLinks = [...new Map(slice.links.map((l) => [`${l.source_key}\u0000${l.target_key}\u0000${l.link_type}`, l])).values()];
    let seen = 0;
    for (const part of chunks([...byKey.keys()])) {
      const row = await one<{ n: number }>(m, sql`SELECT count(*) AS n FROM issue WHERE key IN (${list(part)}) AND sync_mark = ${mark}`);
      seen += Number(row?.n ?? 0);
    }
    for (const part of chunks(issues, ISSUES_PER_STATEMENT)) {
      const values = part.map(
        (i) =>
          sql`(${i.key}, ${i.summary}, ${i.issue_type}, ${i.status}, ${i.sprint}, ${i.sprint_id ?? null}, ${i.sprint_board_id ?? null}, ${i.sprint_state ?? null}, ${i.assignee}, ${i.priority}, ${i.duedate}, ${JSON.stringify(i.labels)}, ${JSON.stringify(i.fields)}, ${i.created}, ${i.updated}, ${now}, ${mark})`,
      );
      await rows(
        m,
        sql`INSERT INTO issue (key, summary, issue_type, status, sprint, sprint_id, sprint_board_id, sprint_state, assignee, priority, duedate, labels, fields, created, updated, synced_at, sync_mark)
            VALUES ${join(values, ', ')}
            ON CONFLICT(key) DO UPDATE SET summary = excluded.summary, issue_type = excluded.issue_type, status = excluded.status,
              sprint = excluded.sprint, sprint_id = excluded.sprint_id, sprint_board_id = excluded.sprint_board_id, sprint_state = excluded.sprint_state, assignee = excluded.assignee, priority = excluded.priority, duedate = excluded.duedate,
              labels = excluded.labels, fields = excluded.fields, created = excluded.created, updated = excluded.updated,
              synced_at = excluded.synced_at, sync_mark = excluded.sync_mark`,
      );
    }
    for (const part of chunks(issues.map((i) => i.key))) {
      await rows(m, sql`DELETE FROM issue_link WHERE (source_key IN (${list(part)}) OR target_key IN (${list(part)})) AND sync_mark IS DISTINCT FROM ${mark}`);
    }
    let links = 0;
    for (const part of chunks(uniqueLinks, LINKS_PER_STATEMENT)) {
      // RETURNING lists the rows inserted or marked now, not those this delivery had already reported.
      const changed = await rows(
        m,
        sql`INSERT INTO issue_link (source_key, target_key, link_type, sync_mark) VALUES ${join(
          part.map((l) => sql`(${l.source_key}, ${l.target_key}, ${l.link_type}, ${mark})`),
          ', ',
        )}
            ON CONFLICT(source_key, target_key, link_type) DO UPDATE SET sync_mark = excluded.sync_mark WHERE issue_link.sync_mark IS DISTINCT FROM excluded.sync_mark
            RETURNING id`,
      );
      links += changed.length;
    }
    return { issues: issues.length - seen, links };
  }

  /** Those of `keys` that the delivery `mark` has reported (SPEC 7: the rest of a keys refresh is missing). */
  async reportedKeys(m: EntityManager, keys: readonly string[], mark: number): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks([...new Set(keys)])) {
      for (const r of await rows<{ key: string }>(m, sql`SELECT key FROM issue WHERE key IN (${list(part)}) AND sync_mark = ${mark}`)) found.add(r.key);
    }
    return found;
  }

  /**
   * A synchronous view of the mirror for the given keys, for the pure confirmation rules and the checks;
   * with `missing` (SyncRunRepository.missingKeys) it also tells which of them Jira no longer has (goneRun).
   */
  async lookup(m: EntityManager, keys: readonly string[], missing?: MissingKeys): Promise<MirrorLookup> {
    const issues = new Map<string, MirrorIssue>();
    const links = new Set<string>();
    for (const part of chunks([...new Set(keys)])) {
      for (const r of await rows<IssueRow>(m, sql`SELECT * FROM issue WHERE key IN (${list(part)})`)) {
        const fields = parseJson<Record<string, unknown>>(r.fields, {});
        issues.set(r.key, { ...r, labels: storedLabels(r.labels), fields, description: (fields.description as string) ?? null });
      }
      const linkRows = await rows<{ source_key: string; target_key: string; link_type: string }>(
        m,
        sql`SELECT source_key, target_key, link_type FROM issue_link WHERE source_key IN (${list(part)})`,
      );
      for (const l of linkRows) links.add(JSON.stringify([l.source_key, l.target_key, l.link_type]));
    }
    return {
      issue: (key) => issues.get(key),
      hasLink: (s, t, type) => links.has(JSON.stringify([s, t, type])),
      ...(missing && { gone: (key: string) => goneRun(missing, key, issues.get(key)?.synced_at) }),
    };
  }

  /** The mirror's issues whose trimmed summary is exactly one of these (a dry run's hint for ensure_issue), by summary. */
  async bySummary(m: EntityManager, summaries: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const part of chunks([...new Set(summaries)])) {
      const found = await rows<{ key: string; summary: string }>(
        m,
        sql`SELECT key, trim(summary) AS summary FROM issue WHERE trim(summary) IN (${list(part)}) ORDER BY key`,
      );
      for (const r of found) out.set(r.summary, [...(out.get(r.summary) ?? []), r.key]);
    }
    return out;
  }

  /** One issue as `/issues/{key}` shows it (labels and fields as stored). */
  get<T>(m: EntityManager, key: string): Promise<T | undefined> {
    return one<T>(m, sql`SELECT ${raw(ISSUE_VIEW_COLUMNS)} FROM issue i WHERE key = ${key}`);
  }

  /** The links from and to an issue, in the order they were stored. */
  async linksOf(m: EntityManager, key: string): Promise<{ out: { target_key: string; link_type: string }[]; in: { source_key: string; link_type: string }[] }> {
    return {
      out: await rows(m, sql`SELECT target_key, link_type FROM issue_link WHERE source_key = ${key} ORDER BY id`),
      in: await rows(m, sql`SELECT source_key, link_type FROM issue_link WHERE target_key = ${key} ORDER BY id`),
    };
  }

  /** How many issues, when the last was written. */
  async head(m: EntityManager): Promise<{ total: number; last: string | null }> {
    const row = await one<{ total: number; last: string | null }>(m, sql`SELECT count(*) AS total, max(synced_at) AS last FROM issue`);
    return { total: Number(row?.total ?? 0), last: row?.last ?? null };
  }

  /**
   * The statuses or sprints present, each with its count (a scan of its index), in SQLite's BINARY order on
   * both engines: PostgreSQL's own order would follow the database's locale (decision 1431).
   */
  async values(m: EntityManager, column: 'status' | 'sprint'): Promise<{ value: string; n: number }[]> {
    const c = raw(column);
    const bytewise = raw(engineOf(m.connection) === 'postgres' ? ' COLLATE "C"' : '');
    const found = await rows<{ value: string; n: number }>(m, sql`SELECT ${c} AS value, count(*) AS n FROM issue WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY ${c}${bytewise}`);
    return found.map((r) => ({ value: r.value, n: Number(r.n) }));
  }
}
