/** Batches: creation, views and cancellation; each write runs inside the caller's transaction. */
import type { EntityManager } from 'typeorm';
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
  const inserted = await m.query('INSERT INTO batch (title, author, created_at) VALUES (?, ?, ?)', [batch.title, batch.author, createdAt]);
  const batchId = Number(inserted);
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

/**
 * remaining_seconds (SPEC 6.8) of any batch up to `lastBatchId`: the pacing pauses of its unfinished
 * commands and of every unfinished command ahead of it (queue order is id order, batch.store's
 * insertBatch). One grouped query over the partial indexes, then running sums; a finished batch has 0.
 */
async function remainingUpTo(m: EntityManager, lastBatchId: number, pacing: Pacing): Promise<(batchId: number) => number> {
  const rows: { batch_id: number; type: CommandType; n: number }[] = await m.query(
    `SELECT batch_id, type, count(*) AS n FROM command WHERE status = 'queued' AND batch_id <= ? GROUP BY batch_id, type
     UNION ALL
     SELECT batch_id, type, count(*) AS n FROM command WHERE status = 'claimed' AND batch_id <= ? GROUP BY batch_id, type`,
    [lastBatchId, lastBatchId],
  );
  const own = new Map<number, number>();
  for (const r of rows) own.set(r.batch_id, (own.get(r.batch_id) ?? 0) + (pacing[r.type] ?? 0) * r.n);
  const upTo = new Map<number, number>();
  let total = 0;
  for (const id of [...own.keys()].sort((x, y) => x - y)) upTo.set(id, (total += own.get(id)!));
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
  const remaining = await remainingUpTo(m, batch.id, pacing);
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
    const batches: BatchRow[] = await m.query('SELECT * FROM batch WHERE id < ? ORDER BY id DESC LIMIT ?', [before, page]);
    if (batches.length === 0) break;
    const remaining = await remainingUpTo(m, batches[0].id, pacing);
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

