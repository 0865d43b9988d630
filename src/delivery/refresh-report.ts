/**
 * A refresh's result applied to the mirror, whole or in parts (SPEC 6.5, 7, 15.5), inside the report's
 * transaction. Each part is applied once per delivery, in order; the final report applies the last
 * slice, closes the sync run with counts and `missing_keys` over all parts; the caller then runs the
 * confirmation by state, once.
 */
import type { EntityManager } from 'typeorm';
import { ConflictError, ValidationFailedError } from '../common/index.js';
import { parseJson } from '../database/index.js';
import type { IssueRepository } from '../mirror/index.js';
import { parseRefreshResult, partsOf, type RefreshResult, syncMark, type SyncRunRepository } from '../mirror/index.js';
import type { Params } from '@jira-hub/contracts/catalogue';
import type { CommandRow } from '../queue/index.js';

/** Mirror's repositories a refresh's report writes through. */
export interface MirrorWrites {
  issues: IssueRepository;
  runs: SyncRunRepository;
}

function parsed(raw: unknown, afterParts: boolean): RefreshResult {
  const result = parseRefreshResult(raw, afterParts);
  if (typeof result === 'string') throw new ValidationFailedError(result, [{ field: 'result', detail: result }]);
  return result;
}

/**
 * `{status: "partial", part}` of a claimed command. A part this delivery already applied (its answer
 * was lost and the agent sent it again) changes nothing; a part that skips ahead is a conflict; part 1
 * of a new delivery (the refresh was handed out again) starts the sync run's counts again.
 */
export async function applyPart(m: EntityManager, c: CommandRow, part: number, raw: unknown, now: string, { issues, runs }: MirrorWrites): Promise<void> {
  if (c.type !== 'refresh') {
    const detail = `часть результата (status: partial) бывает только у refresh, а команда #${c.id} — ${c.type}`;
    throw new ValidationFailedError(detail, [{ field: 'status', detail }]);
  }
  const params = parseJson<Params>(c.params, {});
  let run = await runs.of(m, c.id, params, c.claimed_at ?? now);
  const applied = partsOf(run, c.deliveries);
  if (part <= applied) return;
  if (part !== applied + 1) {
    throw new ConflictError(`ожидается часть ${applied + 1} результата команды #${c.id}, а пришла часть ${part}: части отправляются по порядку, с 1 в каждой выдаче`);
  }
  const slice = parsed(raw, false);
  if (applied === 0) run = await runs.startDelivery(m, run, c.deliveries);
  const counts = await issues.applySlice(m, slice, syncMark(run.id, c.deliveries), now);
  // Only keys the command asked for can be missing (SPEC 3); the done settles the list.
  await runs.recordSlice(m, run, part, counts, slice.missing_keys.filter((k) => askedKeys(params).includes(k)));
}

/** The keys a refresh asked for: its `keys`; none for a `jql` refresh. */
const askedKeys = (params: Params): string[] => (Array.isArray(params.keys) ? (params.keys as string[]) : []);

/**
 * The `done` of a refresh: its result (whole, or the last slice after parts, which may be left out)
 * applied, the sync run closed. Returns the run and what the command keeps as its result: the result
 * itself when it came whole; after parts, `{parts, sync_run_id, missing_keys}` (the counts are the sync
 * run's; the command does not keep a copy of a project).
 */
export async function finishRefresh(m: EntityManager, c: CommandRow, raw: unknown, now: string, { issues, runs }: MirrorWrites): Promise<{ runId: number; result: unknown }> {
  const params = parseJson<Params>(c.params, {});
  let run = await runs.of(m, c.id, params, c.claimed_at ?? now);
  const parts = partsOf(run, c.deliveries);
  const last = parsed(raw, parts > 0);
  if (parts === 0) run = await runs.startDelivery(m, run, c.deliveries);
  const mark = syncMark(run.id, c.deliveries);
  const counts = await issues.applySlice(m, last, mark, now);
  const asked = askedKeys(params);
  const returned = await issues.reportedKeys(m, asked, mark);
  // `missing` is what the command asked for and no part returned (SPEC 3), as the mirror saw it: not what
  // the agent listed (a key it returned, one never asked for, a blank), nor what earlier parts listed.
  run = await runs.recordSlice(m, { ...run, missing: [] }, parts, counts, asked.filter((k) => !returned.has(k)));
  await runs.finish(m, run.id, now);
  return { runId: run.id, result: parts > 0 ? { parts, sync_run_id: run.id, missing_keys: run.missing } : raw };
}
