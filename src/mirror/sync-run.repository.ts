/**
 * The `sync_run` table's SQL (SPEC 6.2, 6.5, 7, 15.5): a refresh's run, opened at its claim, its parts
 * and counts while the result arrives (inside the report's transaction), closed or failed; the list of runs.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { one, parseJson, rows, run, sql } from '../database/index.js';
import type { SliceCounts } from './issue.repository.js';

export interface SyncRunState {
  id: number;
  /** The command delivery whose result is being applied; null before the first part or whole result. */
  delivery: number | null;
  /** Parts of that delivery applied so far. */
  parts: number;
  issues: number;
  links: number;
  missing: string[];
}

/**
 * The `delivery` of a run that recorded a failed command's missing keys (recordMissing): no refresh delivery
 * (those count from 1), so the auto-refresh's clock (lastStart) does not take it for a refresh.
 */
const NOT_A_REFRESH = 0;

/** Deliveries per command stay far below 100 (the limit is 3): run 42, delivery 2 → 4202. */
export const syncMark = (runId: number, delivery: number): number => runId * 100 + delivery;

/** Parts the delivery `delivery` has applied: none when the run's parts belong to an earlier delivery. */
export const partsOf = (run: SyncRunState, delivery: number): number => (run.delivery === delivery ? run.parts : 0);

interface Row {
  id: number;
  delivery: number | null;
  parts: number;
  issues: number | null;
  links: number | null;
  missing: string | null;
}

/** A run as GET /sync-runs lists it (missing as stored). */
export interface SyncRunRow extends Row {
  started_at: string;
  finished_at: string | null;
  kind: 'keys' | 'jql';
  query: string | null;
  command_id: number | null;
  error: string | null;
}

@Injectable()
export class SyncRunRepository {
  /** Opens the sync run of a refresh (SPEC 6.2 step 3): `keys` or `jql`, and its query. Its id. */
  async open(m: EntityManager, commandId: number, params: { keys?: unknown; jql?: unknown }, startedAt: string): Promise<number> {
    const keys = Array.isArray(params.keys) ? (params.keys as string[]) : null;
    const [{ id }] = await rows<{ id: number }>(
      m,
      sql`INSERT INTO sync_run (started_at, kind, query, command_id)
          VALUES (${startedAt}, ${keys ? 'keys' : 'jql'}, ${keys ? keys.join(',') : String(params.jql ?? '')}, ${commandId}) RETURNING id`,
    );
    return Number(id);
  }

  /** Closes the open sync run of a refresh that will not report a result. */
  async fail(m: EntityManager, commandId: number, now: string, error: string): Promise<void> {
    await run(m, sql`UPDATE sync_run SET finished_at = ${now}, error = ${error} WHERE command_id = ${commandId} AND finished_at IS NULL`);
  }

  /**
   * The keys finished refreshes asked for and Jira did not return (`missing_keys`: deleted, or moved to
   * another project), each with the newest such run and when it finished. Only runs by keys list any:
   * few rows, as most runs find every key.
   */
  async missingKeys(m: EntityManager): Promise<Map<string, { run: number; at: string }>> {
    const found = await rows<{ id: number; finished_at: string; missing: string | null }>(
      m,
      sql`SELECT id, finished_at, missing FROM sync_run WHERE kind = 'keys' AND finished_at IS NOT NULL AND error IS NULL AND missing IS NOT NULL AND missing <> '[]' ORDER BY id DESC`,
    );
    const out = new Map<string, { run: number; at: string }>();
    for (const r of found) for (const key of parseJson<string[]>(r.missing, [])) if (!out.has(key)) out.set(key, { run: Number(r.id), at: r.finished_at });
    return out;
  }

  /**
   * Keys Jira answered 404 for to a command that named them (the `missing_keys` of its failed report, decision
   * 1448): recorded as a refresh's are — a finished run by keys that asked for them and got none back — so
   * missingKeys, and with it plans and drift, sees those issues gone once they were mirrored before. The run's
   * `command_id` is that command. Its id.
   */
  async recordMissing(m: EntityManager, commandId: number, keys: readonly string[], startedAt: string, now: string): Promise<number> {
    const id = await this.open(m, commandId, { keys: [...keys] }, startedAt);
    await run(m, sql`UPDATE sync_run SET delivery = ${NOT_A_REFRESH} WHERE id = ${id}`);
    await this.recordSlice(m, { id, delivery: NOT_A_REFRESH, parts: 0, issues: 0, links: 0, missing: [] }, 0, { issues: 0, links: 0 }, keys);
    await this.finish(m, id, now);
    return id;
  }

  /** When the latest refresh started (null before the first): the auto-refresh is due after its interval. A failed command's missing keys (recordMissing) are no refresh. */
  async lastStart(m: EntityManager): Promise<string | null> {
    const last = await one<{ started_at: string }>(m, sql`SELECT started_at FROM sync_run WHERE delivery IS NULL OR delivery <> ${NOT_A_REFRESH} ORDER BY started_at DESC LIMIT 1`);
    return last?.started_at ?? null;
  }

  /** The sync run of a refresh command; a refresh claimed by an older hub has none yet, and gets one. */
  async of(m: EntityManager, commandId: number, params: { keys?: unknown; jql?: unknown }, startedAt: string): Promise<SyncRunState> {
    let row = await one<Row>(m, sql`SELECT id, delivery, parts, issues, links, missing FROM sync_run WHERE command_id = ${commandId} ORDER BY id DESC LIMIT 1`);
    if (!row) row = { id: await this.open(m, commandId, params, startedAt), delivery: null, parts: 0, issues: null, links: null, missing: null };
    return { id: row.id, delivery: row.delivery, parts: row.parts, issues: row.issues ?? 0, links: row.links ?? 0, missing: parseJson<string[]>(row.missing, []) };
  }

  /**
   * Starts the run again for a new delivery (a re-delivered refresh reports from part 1): the counts of
   * the earlier delivery no longer count. What it wrote to the mirror stays, as any refresh's does.
   */
  async startDelivery(m: EntityManager, state: SyncRunState, delivery: number): Promise<SyncRunState> {
    await run(m, sql`UPDATE sync_run SET delivery = ${delivery}, parts = 0, issues = 0, links = 0, missing = '[]' WHERE id = ${state.id}`);
    return { ...state, delivery, parts: 0, issues: 0, links: 0, missing: [] };
  }

  /** Adds what a slice brought; `parts` is the number of parts applied (unchanged by the final report). */
  async recordSlice(m: EntityManager, state: SyncRunState, parts: number, counts: SliceCounts, missing: readonly string[]): Promise<SyncRunState> {
    const next = { ...state, parts, issues: state.issues + counts.issues, links: state.links + counts.links, missing: [...new Set([...state.missing, ...missing])] };
    await run(m, sql`UPDATE sync_run SET parts = ${next.parts}, issues = ${next.issues}, links = ${next.links}, missing = ${JSON.stringify(next.missing)} WHERE id = ${state.id}`);
    return next;
  }

  /** Closes a run whose result is complete. */
  async finish(m: EntityManager, runId: number, now: string): Promise<void> {
    await run(m, sql`UPDATE sync_run SET finished_at = ${now}, error = NULL WHERE id = ${runId}`);
  }

  /** Newest first, below `beforeId`. */
  page(m: EntityManager, limit: number, beforeId?: number): Promise<SyncRunRow[]> {
    const before = Math.min(beforeId ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    return rows<SyncRunRow>(
      m,
      sql`SELECT id, started_at, finished_at, kind, query, command_id, issues, links, missing, error, parts, delivery FROM sync_run
           WHERE id < CAST(${before} AS BIGINT) ORDER BY id DESC LIMIT ${limit}`,
    );
  }
}
