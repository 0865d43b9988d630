/**
 * The sync run of a refresh while its result arrives (SPEC 6.5, 15.5): which delivery of the command
 * reports, how many parts it has applied, and the counts so far. Runs inside the report's transaction.
 */
import type { EntityManager } from 'typeorm';
import { parseJson } from '../database/json.js';
import { openSyncRun } from './mirror.store.js';
import type { SliceCounts } from './mirror.store.js';

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

/** Deliveries per command stay far below 100 (the limit is 3): run 42, delivery 2 → 4202. */
export const syncMark = (runId: number, delivery: number): number => runId * 100 + delivery;

interface Row {
  id: number;
  delivery: number | null;
  parts: number;
  issues: number | null;
  links: number | null;
  missing: string | null;
}

/** The sync run of a refresh command; a refresh claimed by an older hub has none yet, and gets one. */
export async function syncRunOf(m: EntityManager, commandId: number, params: { keys?: unknown; jql?: unknown }, startedAt: string): Promise<SyncRunState> {
  let [row]: Row[] = await m.query('SELECT id, delivery, parts, issues, links, missing FROM sync_run WHERE command_id = ? ORDER BY id DESC LIMIT 1', [commandId]);
  if (!row) row = { id: await openSyncRun(m, commandId, params, startedAt), delivery: null, parts: 0, issues: null, links: null, missing: null };
  return { id: row.id, delivery: row.delivery, parts: row.parts, issues: row.issues ?? 0, links: row.links ?? 0, missing: parseJson<string[]>(row.missing, []) };
}

/** Parts the delivery `delivery` has applied: none when the run's parts belong to an earlier delivery. */
export const partsOf = (run: SyncRunState, delivery: number): number => (run.delivery === delivery ? run.parts : 0);

/**
 * Starts the run again for a new delivery (a re-delivered refresh reports from part 1): the counts of
 * the earlier delivery no longer count. What it wrote to the mirror stays, as any refresh's does.
 */
export async function startDelivery(m: EntityManager, run: SyncRunState, delivery: number): Promise<SyncRunState> {
  await m.query(`UPDATE sync_run SET delivery = ?, parts = 0, issues = 0, links = 0, missing = '[]' WHERE id = ?`, [delivery, run.id]);
  return { ...run, delivery, parts: 0, issues: 0, links: 0, missing: [] };
}

/** Adds what a slice brought; `parts` is the number of parts applied (unchanged by the final report). */
export async function recordSlice(m: EntityManager, run: SyncRunState, parts: number, counts: SliceCounts, missing: readonly string[]): Promise<SyncRunState> {
  const next = { ...run, parts, issues: run.issues + counts.issues, links: run.links + counts.links, missing: [...new Set([...run.missing, ...missing])] };
  await m.query('UPDATE sync_run SET parts = ?, issues = ?, links = ?, missing = ? WHERE id = ?', [next.parts, next.issues, next.links, JSON.stringify(next.missing), run.id]);
  return next;
}

/** Closes a run whose result is complete. */
export async function finishSyncRun(m: EntityManager, runId: number, now: string): Promise<void> {
  await m.query('UPDATE sync_run SET finished_at = ?, error = NULL WHERE id = ?', [now, runId]);
}
