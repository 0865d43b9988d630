import { Injectable } from '@nestjs/common';
import { Db } from '../database/index.js';
import { BatchRepository } from './batch.repository.js';
import { CommandRepository } from './command.repository.js';
import type { CommandStatus } from './command.entity.js';
import type { BatchStatusCountsView, FailedCommandView } from './overview.view.js';
import { batchStatus, commandView, emptyCounts, isDoneWithErrors } from './rows.js';

/** Reads for the Queue page's tabs (issue 23): counts per state, and the failed commands across batches. */
@Injectable()
export class OverviewService {
  constructor(
    private readonly db: Db,
    private readonly batches: BatchRepository,
    private readonly commands: CommandRepository,
  ) {}

  /**
   * Batches per derived status (SPEC 6.8), `done_with_errors` among the done, and failed commands: from
   * the batches' rows and the counts of their unfinished, failed and skipped commands (overviewCounts,
   * partial indexes only). A batch's finished commands are counted only where its status depends on
   * their number (one still queued: all queued is `queued`); elsewhere they stand as one `done`, which
   * keeps a batch with none of those from reading as all queued. The status rule is batchStatus's.
   */
  counts(): Promise<BatchStatusCountsView> {
    return this.db.read(async (m) => {
      const batches = await this.batches.states(m);
      const { byStatus, totals } = await this.commands.overviewCounts(m);
      const perBatch = new Map<number, Record<CommandStatus, number>>();
      for (const r of byStatus) {
        const counts = perBatch.get(Number(r.batch_id)) ?? emptyCounts();
        counts[r.status] += Number(r.n);
        perBatch.set(Number(r.batch_id), counts);
      }
      const total = new Map(totals.map((t) => [Number(t.batch_id), Number(t.n)]));
      const out: BatchStatusCountsView = { all: batches.length, awaiting_approval: 0, queued: 0, running: 0, done: 0, done_with_errors: 0, cancelled: 0, failed_commands: 0 };
      for (const b of batches) {
        const counts = perBatch.get(Number(b.id)) ?? emptyCounts();
        const known = Object.values(counts).reduce((a, n) => a + n, 0);
        counts.done = total.has(Number(b.id)) ? total.get(Number(b.id))! - known : 1;
        const status = batchStatus(b, counts);
        out[status] += 1;
        if (isDoneWithErrors(status, counts)) out.done_with_errors += 1;
        out.failed_commands += counts.failed;
      }
      return out;
    });
  }

  /** Failed commands of every batch, the latest failure first, with their batch's title; `before_id` pages on. */
  failed(limit: number, beforeId?: number): Promise<FailedCommandView[]> {
    return this.db.read(async (m) => (await this.commands.failed(m, limit, beforeId)).map(({ batch_title, ...r }) => ({ ...commandView(r, []), batch_title })));
  }
}
