/** The Queue page's overview (issue 23): how many batches are in each state, and failed commands across batches. */
import type { EntityManager } from 'typeorm';
import type { CommandStatus } from './command.entity.js';
import { batchStatus, commandView, emptyCounts, type BatchRow, type CommandRow } from './rows.js';
import type { BatchStatusCountsView, FailedCommandView } from './overview.view.js';

/** Batches per derived status (SPEC 6.8), `done_with_errors` among the done, and failed commands. One pass over two grouped reads. */
export async function batchStatusCounts(m: EntityManager): Promise<BatchStatusCountsView> {
  const batches: Pick<BatchRow, 'id' | 'awaiting_approval_since' | 'approved_at' | 'cancelled_at'>[] = await m.query(
    'SELECT id, awaiting_approval_since, approved_at, cancelled_at FROM batch',
  );
  const rows: { batch_id: number; status: CommandStatus; n: number }[] = await m.query('SELECT batch_id, status, count(*) AS n FROM command GROUP BY batch_id, status');
  const perBatch = new Map<number, Record<CommandStatus, number>>();
  for (const r of rows) {
    const counts = perBatch.get(r.batch_id) ?? emptyCounts();
    counts[r.status] += Number(r.n);
    perBatch.set(r.batch_id, counts);
  }
  const out: BatchStatusCountsView = { all: batches.length, awaiting_approval: 0, queued: 0, running: 0, done: 0, done_with_errors: 0, cancelled: 0, failed_commands: 0 };
  for (const b of batches) {
    const counts = perBatch.get(Number(b.id)) ?? emptyCounts();
    const status = batchStatus(b, counts);
    out[status] += 1;
    if (status === 'done' && counts.failed + counts.skipped > 0) out.done_with_errors += 1;
    out.failed_commands += counts.failed;
  }
  return out;
}

/** Failed commands of every batch, the latest failure first, with their batch's title; `before_id` pages on. */
export async function failedCommands(m: EntityManager, limit: number, beforeId?: number): Promise<FailedCommandView[]> {
  const rows: (CommandRow & { batch_title: string })[] = await m.query(
    `SELECT c.*, b.title AS batch_title FROM command c JOIN batch b ON b.id = c.batch_id
      WHERE c.status = 'failed' AND c.id < CAST(? AS BIGINT) ORDER BY c.id DESC LIMIT ?`,
    [Math.min(beforeId ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER), limit],
  );
  return rows.map(({ batch_title, ...r }) => ({ ...commandView(r, []), batch_title }));
}
