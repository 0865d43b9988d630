/** Batches: creation, views and cancellation; each write runs inside the caller's transaction. */
import type { EntityManager } from 'typeorm';
import { insertReturningId } from '../database/engine.js';
import type { Pacing } from '../settings/defaults.js';
import { pauseSum, type CommandInput } from './commands/batch-rules.js';
import type { CommandType } from './commands/catalogue.js';
import { batchStatus, commandView, emptyCounts, type BatchRow, type BatchStatus, type BatchSummary, type BatchView, type CommandRow } from './rows.js';

export interface NewBatch {
  title: string;
  author: string;
  /** the commands as stored, tail refresh included */
  commands: CommandInput[];
  retryOf?: number;
}

/**
 * Inserts a batch and its commands. `created_at` never goes backwards (max of now and the newest batch),
 * so the queue order (created_at, id) is the order of ids and the next command is one index probe.
 */
export async function insertBatch(m: EntityManager, batch: NewBatch, now: string): Promise<number> {
  const [last]: { created_at: string | null }[] = await m.query('SELECT max(created_at) AS created_at FROM batch');
  const createdAt = last?.created_at && last.created_at > now ? last.created_at : now;
  const batchId = await insertReturningId(m, 'INSERT INTO batch (title, author, created_at) VALUES (?, ?, ?)', [batch.title, batch.author, createdAt]);
  let seq = 0;
  for (const c of batch.commands) {
    seq += 1;
    await m.query(`INSERT INTO command (batch_id, seq, type, params, status, retry_of) VALUES (?, ?, ?, ?, 'queued', ?)`, [
      batchId,
      seq,
      c.type,
      JSON.stringify(c.params),
      seq === 1 ? (batch.retryOf ?? null) : null,
    ]);
  }
  return batchId;
}

export async function findBatch(m: EntityManager, id: number): Promise<BatchRow | undefined> {
  const [row]: BatchRow[] = await m.query('SELECT * FROM batch WHERE id = ?', [id]);
  return row;
}

export async function findCommand(m: EntityManager, id: number): Promise<CommandRow | undefined> {
  const [row]: CommandRow[] = await m.query('SELECT * FROM command WHERE id = ?', [id]);
  return row;
}

/** A batch's place in queue order (`created_at`, `id`; SPEC 6.1). */
type QueuePlace = Pick<BatchRow, 'id' | 'created_at'>;

const byQueueOrder = (a: QueuePlace, b: QueuePlace): number => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id);

/**
 * remaining_seconds (SPEC 6.8) of any batch up to `last` in queue order: the pacing pauses of its
 * unfinished commands and of every unfinished command ahead of it. Queue order is (created_at, id), as
 * the claim's: for this hub's own batches that is id order (insertBatch), but a database of an earlier
 * hub may hold batches whose times disagree with their ids. One grouped query that reads only the
 * partial indexes of queued and claimed commands (plus a primary-key probe into batch), then running
 * sums; a batch with nothing unfinished has 0.
 */
async function remainingUpTo(m: EntityManager, last: QueuePlace, pacing: Pacing): Promise<(batchId: number) => number> {
  const ahead = `(b.created_at < ? OR (b.created_at = ? AND b.id <= ?))`;
  const bound = [last.created_at, last.created_at, last.id];
  const rows: { batch_id: number; created_at: string; type: CommandType; n: number }[] = await m.query(
    `SELECT c.batch_id, b.created_at, c.type, count(*) AS n FROM command c JOIN batch b ON b.id = c.batch_id
      WHERE c.status = 'queued' AND ${ahead} GROUP BY c.batch_id, b.created_at, c.type
     UNION ALL
     SELECT c.batch_id, b.created_at, c.type, count(*) AS n FROM command c JOIN batch b ON b.id = c.batch_id
      WHERE c.status = 'claimed' AND ${ahead} GROUP BY c.batch_id, b.created_at, c.type`,
    [...bound, ...bound],
  );
  const own = new Map<number, { place: QueuePlace; seconds: number }>();
  for (const r of rows) {
    const entry = own.get(r.batch_id) ?? { place: { id: r.batch_id, created_at: r.created_at }, seconds: 0 };
    entry.seconds += (pacing[r.type] ?? 0) * r.n;
    own.set(r.batch_id, entry);
  }
  const upTo = new Map<number, number>();
  let total = 0;
  for (const { place, seconds } of [...own.values()].sort((x, y) => byQueueOrder(x.place, y.place))) upTo.set(place.id, (total += seconds));
  return (batchId) => upTo.get(batchId) ?? 0;
}

function summarize(batch: BatchRow, commands: Pick<CommandRow, 'type' | 'status'>[], pacing: Pacing, remaining: (batchId: number) => number): BatchSummary {
  const counts = emptyCounts();
  for (const c of commands) counts[c.status] += 1;
  return {
    id: batch.id,
    title: batch.title,
    author: batch.author,
    created_at: batch.created_at,
    cancelled_at: batch.cancelled_at,
    status: batchStatus(batch.cancelled_at, counts),
    estimate_seconds: pauseSum(commands.map((c) => c.type), pacing),
    remaining_seconds: remaining(batch.id),
    counts,
  };
}

export async function batchView(m: EntityManager, batch: BatchRow, pacing: Pacing): Promise<BatchView> {
  const commands: CommandRow[] = await m.query('SELECT * FROM command WHERE batch_id = ? ORDER BY seq', [batch.id]);
  const unfinished = commands.some((c) => c.status === 'queued' || c.status === 'claimed');
  const remaining = unfinished ? await remainingUpTo(m, batch, pacing) : () => 0;
  return { ...summarize(batch, commands, pacing, remaining), commands: commands.map(commandView) };
}

export interface BatchListQuery {
  status?: BatchStatus;
  limit: number;
  beforeId?: number;
}

/** Newest first; `before_id` pages on. A status filter is applied to derived statuses, page by page. */
export async function listBatches(m: EntityManager, q: BatchListQuery, pacing: Pacing): Promise<BatchSummary[]> {
  const out: BatchSummary[] = [];
  let before = q.beforeId ?? Number.MAX_SAFE_INTEGER;
  const page = Math.max(q.limit, 50);
  while (out.length < q.limit) {
    const batches: BatchRow[] = await m.query('SELECT * FROM batch WHERE id < CAST(? AS BIGINT) ORDER BY id DESC LIMIT ?', [before, page]);
    if (batches.length === 0) break;
    const remaining = await remainingUpTo(m, batches.reduce((a, b) => (byQueueOrder(a, b) >= 0 ? a : b)), pacing);
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

