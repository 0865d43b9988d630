/** The views of batches and commands (SPEC 6.8, 11.3, 15.3): counts, remaining time, delivery history, changes. */
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { mapInSlices } from '../common/index.js';
import { parseJson } from '../database/index.js';
import type { Pacing } from '../settings/index.js';
import { BatchRepository } from './batch.repository.js';
import type { ChangeRow } from './change.repository.js';
import { ChangesService } from './changes.service.js';
import type { BatchChecksView } from './checks.view.js';
import { CommandRepository } from './command.repository.js';
import { pauseSum } from './commands/batch-rules.js';
import { pacedAs } from '@jira-hub/contracts/catalogue';
import { groupByKey } from './commands/change-record.js';
import { DELIVERY_LEDGER, type DeliveryLedger } from './delivery-ledger.js';
import {
  batchStatus,
  passesFilter,
  type BatchFilter,
  commandView,
  emptyCounts,
  isAwaiting,
  type BatchRow,
  type BatchStatus,
  type BatchSummary,
  type BatchView,
  type CommandRow,
  type CommandView,
  type DeliveryView,
} from './rows.js';

/** remaining_seconds of a batch, given the pauses of its own queued commands. */
type Remaining = (batch: BatchRow, ownQueued: number) => number;

export interface BatchListQuery {
  status?: BatchFilter;
  limit: number;
  beforeId?: number;
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

@Injectable()
export class BatchViews {
  constructor(
    private readonly batches: BatchRepository,
    private readonly commands: CommandRepository,
    private readonly changes: ChangesService,
    @Inject(DELIVERY_LEDGER) private readonly ledger: DeliveryLedger,
  ) {}

  /** The command with its delivery history (SPEC 15.3) and its changes (17.1). */
  async command(m: EntityManager, row: CommandRow): Promise<CommandView> {
    return commandView(row, await this.ledger.historyOfCommand(m, row.id), await this.changes.ofCommand(m, row.id));
  }

  /** `command` from its history and changes already read (with the write that made them: nothing more to read). */
  commandWith(row: CommandRow, history: DeliveryView[], changes: readonly ChangeRow[], deliveryNumbers: Map<number, number>): CommandView {
    return commandView(row, history, this.changes.viewsOf(changes, deliveryNumbers));
  }

  /** Pauses of every unfinished runnable command: what a batch made runnable now would wait behind. */
  async runnableSeconds(m: EntityManager, pacing: Pacing): Promise<number> {
    return (await this.remainingUpTo(m, Number.MAX_SAFE_INTEGER, pacing)).total;
  }

  /**
   * remaining_seconds (SPEC 6.8, 15.2) of any runnable batch up to queue place `upTo`: the pacing pauses of
   * its unfinished commands and of every unfinished runnable command ahead of it. A batch waiting for
   * approval adds nothing to the others; its own is what it would be if approved now: everything runnable,
   * then its own commands. One grouped query, then running sums; a runnable batch with nothing unfinished has 0.
   */
  private async remainingUpTo(m: EntityManager, upTo: number, pacing: Pacing): Promise<{ of: Remaining; total: number }> {
    const own = new Map<number, { pos: number; seconds: number }>();
    for (const r of await this.commands.unfinishedUpTo(m, upTo)) {
      const entry = own.get(r.batch_id) ?? { pos: r.queue_pos, seconds: 0 };
      entry.seconds += (pacing[pacedAs(r.type)] ?? 0) * r.n;
      own.set(r.batch_id, entry);
    }
    const sums = new Map<number, number>();
    let total = 0;
    for (const [id, { seconds }] of [...own].sort(([, x], [, y]) => x.pos - y.pos)) sums.set(id, (total += seconds));
    return { total, of: (batch, ownQueued) => (isAwaiting(batch) ? total + ownQueued : (sums.get(batch.id) ?? 0)) };
  }

  async batch(m: EntityManager, batch: BatchRow, pacing: Pacing): Promise<BatchView> {
    const commands = await this.commands.ofBatch(m, batch.id);
    const unfinished = commands.some((c) => c.status === 'queued' || c.status === 'claimed');
    const remaining: Remaining = unfinished ? (await this.remainingUpTo(m, placeBound(batch), pacing)).of : () => 0;
    const history = await this.ledger.historyOf(m, commands.map((c) => c.id));
    const changes = await this.changes.ofBatch(m, batch.id);
    const of = (id: number) => changes.filter((c) => c.command_id === id);
    return {
      ...summarize(batch, commands, pacing, remaining),
      checks: parseJson<BatchChecksView | null>(batch.checks, null),
      changes: groupByKey(changes),
      // 1,000 commands' views take milliseconds: other requests get turns in between (decision 1320).
      commands: await mapInSlices(commands, (c) => commandView(c, history(c.id), of(c.id))),
    };
  }

  /** Newest first; `before_id` pages on. A status filter is applied to derived statuses, page by page. */
  async list(m: EntityManager, q: BatchListQuery, pacing: Pacing): Promise<BatchSummary[]> {
    const out: BatchSummary[] = [];
    // Ids never pass 2^53; a larger before_id (1e19) would overflow PostgreSQL's BIGINT.
    let before = Math.min(q.beforeId ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    const page = Math.max(q.limit, 50);
    while (out.length < q.limit) {
      const batches = await this.batches.page(m, before, page);
      if (batches.length === 0) break;
      const remaining = (await this.remainingUpTo(m, Math.max(...batches.map(placeBound)), pacing)).of;
      for (const b of batches) {
        const summary = summarize(b, await this.commands.typesAndStatuses(m, b.id), pacing, remaining);
        if (!q.status || passesFilter(q.status, summary.status, summary.counts)) out.push(summary);
        if (out.length === q.limit) break;
      }
      before = batches[batches.length - 1].id;
    }
    return out;
  }
}
