/** Batches: creation, approval, views and cancellation; each write runs inside the caller's transaction. */
import type { EntityManager } from 'typeorm';
import type { BatchSource } from '../common/auth.guard.js';
import { insertReturningId } from '../database/engine.js';
import { parseJson } from '../database/json.js';
import type { BatchChecksView } from './checks.view.js';
import type { Pacing } from '../settings/defaults.js';
import { pauseSum, type CommandInput } from './commands/batch-rules.js';
import { pacedAs, type CommandType } from '@jira-hub/contracts/catalogue';
import { batchHistory, commandHistory } from './delivery.store.js';
import { batchChanges, commandChanges } from './change.store.js';
import { groupByKey } from './commands/change-record.js';
import {
  batchStatus,
  commandView,
  emptyCounts,
  isAwaiting,
  type BatchRow,
  type BatchStatus,
  type BatchSummary,
  type BatchView,
  type CommandRow,
  type CommandView,
} from './rows.js';

export interface NewBatch {
  title: string;
  author: string;
  source: BatchSource;
  /** SPEC 15.2: the batch waits for a person's approval (the `approval` setting names its source) */
  awaitingApproval: boolean;
  /** the commands as stored, tail refresh included */
  commands: CommandInput[];
  retryOf?: number;
  /** SPEC 16.2: the checks it was submitted with (JSON of BatchChecksView) */
  checks?: string | null;
  /** SPEC 17.2: the batch a revert batch reverts */
  revertOf?: number;
}

/**
 * The place a batch gets when it becomes runnable (created without approval, or approved): behind every
 * batch runnable before it (SPEC 15.2). Queue order is (runnable_at, id, seq); `runnable_at` never goes
 * backwards (max of now and the last one), and `queue_pos` numbers the batches in that order, so the
 * claim's next command is one probe of an index on the commands' copy of it.
 */
async function nextPlace(m: EntityManager, now: string): Promise<{ at: string; pos: number }> {
  const [last]: { queue_pos: number; runnable_at: string }[] = await m.query(
    'SELECT queue_pos, runnable_at FROM batch WHERE queue_pos IS NOT NULL ORDER BY queue_pos DESC LIMIT 1',
  );
  return { at: last && last.runnable_at > now ? last.runnable_at : now, pos: (last?.queue_pos ?? 0) + 1 };
}

/** Inserts a batch and its commands; runnable at once, or waiting for approval without a queue place. */
export async function insertBatch(m: EntityManager, batch: NewBatch, now: string): Promise<number> {
  const [last]: { created_at: string | null }[] = await m.query('SELECT max(created_at) AS created_at FROM batch');
  const createdAt = last?.created_at && last.created_at > now ? last.created_at : now;
  const place = batch.awaitingApproval ? null : await nextPlace(m, createdAt);
  const batchId = await insertReturningId(
    m,
    'INSERT INTO batch (title, author, created_at, source, awaiting_approval_since, runnable_at, queue_pos, checks, revert_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      batch.title,
      batch.author,
      createdAt,
      batch.source,
      batch.awaitingApproval ? createdAt : null,
      place?.at ?? null,
      place?.pos ?? null,
      batch.checks ?? null,
      batch.revertOf ?? null,
    ],
  );
  let seq = 0;
  for (const c of batch.commands) {
    seq += 1;
    await m.query(`INSERT INTO command (batch_id, seq, type, params, status, retry_of, queue_pos) VALUES (?, ?, ?, ?, 'queued', ?, ?)`, [
      batchId,
      seq,
      c.type,
      JSON.stringify(c.params),
      seq === 1 ? (batch.retryOf ?? null) : null,
      place?.pos ?? null,
    ]);
  }
  return batchId;
}

/** SPEC 15.2: the batch joins the queue behind everything runnable now; who approved and when are kept. */
export async function approveBatch(m: EntityManager, id: number, by: string, now: string): Promise<void> {
  const place = await nextPlace(m, now);
  await m.query('UPDATE batch SET approved_by = ?, approved_at = ?, runnable_at = ?, queue_pos = ? WHERE id = ?', [by, now, place.at, place.pos, id]);
  await m.query('UPDATE command SET queue_pos = ? WHERE batch_id = ?', [place.pos, id]);
}

/** SPEC 15.2: a rejected batch is cancelled with its reason. */
export async function rejectBatch(m: EntityManager, id: number, reason: string, now: string): Promise<void> {
  await cancelBatch(m, id, now);
  await m.query('UPDATE batch SET rejected_reason = ? WHERE id = ?', [reason, id]);
}

export async function findBatch(m: EntityManager, id: number): Promise<BatchRow | undefined> {
  const [row]: BatchRow[] = await m.query('SELECT * FROM batch WHERE id = ?', [id]);
  return row;
}

export async function findCommand(m: EntityManager, id: number): Promise<CommandRow | undefined> {
  const [row]: CommandRow[] = await m.query('SELECT * FROM command WHERE id = ?', [id]);
  return row;
}

/** The command with its delivery history (SPEC 15.3). */
export async function commandWithHistory(m: EntityManager, row: CommandRow): Promise<CommandView> {
  return commandView(row, await commandHistory(m, row.id), await commandChanges(m, row.id));
}

/** remaining_seconds of a batch, given the pauses of its own queued commands. */
type Remaining = (batch: BatchRow, ownQueued: number) => number;

/** Pauses of every unfinished runnable command: what a batch made runnable now would wait behind. */
export async function runnableSeconds(m: EntityManager, pacing: Pacing): Promise<number> {
  return (await remainingUpTo(m, Number.MAX_SAFE_INTEGER, pacing)).total;
}

/**
 * remaining_seconds (SPEC 6.8, 15.2) of any runnable batch up to queue place `upTo`: the pacing pauses of
 * its unfinished commands and of every unfinished runnable command ahead of it. A batch waiting for
 * approval adds nothing to the others; its own is what it would be if approved now: everything runnable,
 * then its own commands. One grouped query over the partial indexes of runnable and claimed commands,
 * then running sums; a runnable batch with nothing unfinished has 0.
 */
async function remainingUpTo(m: EntityManager, upTo: number, pacing: Pacing): Promise<{ of: Remaining; total: number }> {
  const rows: { batch_id: number; queue_pos: number; type: CommandType; n: number }[] = await m.query(
    `SELECT batch_id, queue_pos, type, count(*) AS n FROM command
      WHERE status = 'queued' AND queue_pos IS NOT NULL AND queue_pos <= CAST(? AS BIGINT) GROUP BY queue_pos, batch_id, type
     UNION ALL
     SELECT batch_id, queue_pos, type, count(*) AS n FROM command
      WHERE status = 'claimed' AND queue_pos <= CAST(? AS BIGINT) GROUP BY queue_pos, batch_id, type`,
    [upTo, upTo],
  );
  const own = new Map<number, { pos: number; seconds: number }>();
  for (const r of rows) {
    const entry = own.get(r.batch_id) ?? { pos: r.queue_pos, seconds: 0 };
    entry.seconds += (pacing[pacedAs(r.type)] ?? 0) * r.n;
    own.set(r.batch_id, entry);
  }
  const sums = new Map<number, number>();
  let total = 0;
  for (const [id, { seconds }] of [...own].sort(([, x], [, y]) => x.pos - y.pos)) sums.set(id, (total += seconds));
  return { total, of: (batch, ownQueued) => (isAwaiting(batch) ? total + ownQueued : (sums.get(batch.id) ?? 0)) };
}

/** Every runnable batch up to this one in queue order; for a batch that waits (or has no place), all of them. */
const placeBound = (b: BatchRow): number => (b.queue_pos === null ? Number.MAX_SAFE_INTEGER : b.queue_pos);

function summarize(batch: BatchRow, commands: Pick<CommandRow, 'type' | 'status'>[], pacing: Pacing, remaining: Remaining): BatchSummary {
  const counts = emptyCounts();
  for (const c of commands) counts[c.status] += 1;
  return {
    id: batch.id,
    title: batch.title,
    author: batch.author,
    created_at: batch.created_at,
    cancelled_at: batch.cancelled_at,
    source: batch.source,
    awaiting_approval_since: batch.awaiting_approval_since,
    approved_by: batch.approved_by,
    approved_at: batch.approved_at,
    rejected_reason: batch.rejected_reason,
    runnable_at: batch.runnable_at,
    status: batchStatus(batch, counts),
    estimate_seconds: pauseSum(commands.map((c) => c.type), pacing),
    remaining_seconds: remaining(batch, pauseSum(commands.filter((c) => c.status === 'queued').map((c) => c.type), pacing)),
    counts,
    revert_of: batch.revert_of ?? null,
  };
}

export async function batchView(m: EntityManager, batch: BatchRow, pacing: Pacing): Promise<BatchView> {
  const commands: CommandRow[] = await m.query('SELECT * FROM command WHERE batch_id = ? ORDER BY seq', [batch.id]);
  const unfinished = commands.some((c) => c.status === 'queued' || c.status === 'claimed');
  const remaining: Remaining = unfinished ? (await remainingUpTo(m, placeBound(batch), pacing)).of : () => 0;
  const history = await batchHistory(m, batch.id);
  const changes = await batchChanges(m, batch.id);
  const of = (id: number) => changes.filter((c) => c.command_id === id);
  return {
    ...summarize(batch, commands, pacing, remaining),
    checks: parseJson<BatchChecksView | null>(batch.checks, null),
    changes: groupByKey(changes),
    commands: commands.map((c) => commandView(c, history(c.id), of(c.id))),
  };
}

export interface BatchListQuery {
  status?: BatchStatus;
  limit: number;
  beforeId?: number;
}

/** Newest first; `before_id` pages on. A status filter is applied to derived statuses, page by page. */
export async function listBatches(m: EntityManager, q: BatchListQuery, pacing: Pacing): Promise<BatchSummary[]> {
  const out: BatchSummary[] = [];
  // Ids never pass 2^53; a larger before_id (1e19) would overflow PostgreSQL's BIGINT.
  let before = Math.min(q.beforeId ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const page = Math.max(q.limit, 50);
  while (out.length < q.limit) {
    const batches: BatchRow[] = await m.query('SELECT * FROM batch WHERE id < CAST(? AS BIGINT) ORDER BY id DESC LIMIT ?', [before, page]);
    if (batches.length === 0) break;
    const remaining = (await remainingUpTo(m, Math.max(...batches.map(placeBound)), pacing)).of;
    for (const b of batches) {
      const commands: Pick<CommandRow, 'type' | 'status'>[] = await m.query('SELECT type, status FROM command WHERE batch_id = ?', [b.id]);
      const summary = summarize(b, commands, pacing, remaining);
      if (!q.status || summary.status === q.status) out.push(summary);
      if (out.length === q.limit) break;
    }
    before = batches[batches.length - 1].id;
  }
  return out;
}

/** SPEC 6.7: sets cancelled_at once, cancels every queued command; a claimed one is left to finish or be re-delivered. */
export async function cancelBatch(m: EntityManager, id: number, now: string): Promise<void> {
  await m.query('UPDATE batch SET cancelled_at = ? WHERE id = ? AND cancelled_at IS NULL', [now, id]);
  await m.query(`UPDATE command SET status = 'cancelled', finished_at = ? WHERE batch_id = ? AND status = 'queued'`, [now, id]);
}
