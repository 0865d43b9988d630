/** The `batch` table's SQL (SPEC 5, 6.7, 15.2): creation with its commands, queue places, approval, cancellation, pages. */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { BatchSource } from '../common/index.js';
import { lockQueueOrder, one, rows, run, sql } from '../database/index.js';
import { CommandRepository } from './command.repository.js';
import type { CommandInput } from './commands/batch-rules.js';
import type { BatchRow } from './rows.js';

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

@Injectable()
export class BatchRepository {
  constructor(private readonly commands: CommandRepository) {}

  /**
   * The place a batch gets when it becomes runnable (created without approval, or approved): behind every
   * batch runnable before it (SPEC 15.2). Queue order is (runnable_at, id, seq); `runnable_at` never goes
   * backwards (max of now and the last one), and `queue_pos` numbers the batches in that order, so the
   * claim's next command is one probe of an index on the commands' copy of it.
   */
  private async nextPlace(m: EntityManager, now: string): Promise<{ at: string; pos: number }> {
    const last = await one<{ queue_pos: number; runnable_at: string }>(
      m,
      sql`SELECT queue_pos, runnable_at FROM batch WHERE queue_pos IS NOT NULL ORDER BY queue_pos DESC LIMIT 1`,
    );
    return { at: last && last.runnable_at > now ? last.runnable_at : now, pos: (last?.queue_pos ?? 0) + 1 };
  }

  /** Inserts a batch and its commands; runnable at once, or waiting for approval without a queue place. Its id. */
  async insert(m: EntityManager, batch: NewBatch, now: string): Promise<number> {
    await lockQueueOrder(m); // creation times and queue places are numbered one unit at a time (decision 1202)
    const last = await one<{ created_at: string | null }>(m, sql`SELECT max(created_at) AS created_at FROM batch`);
    const createdAt = last?.created_at && last.created_at > now ? last.created_at : now;
    const place = batch.awaitingApproval ? null : await this.nextPlace(m, createdAt);
    const [{ id }] = await rows<{ id: number }>(
      m,
      sql`INSERT INTO batch (title, author, created_at, source, awaiting_approval_since, runnable_at, queue_pos, checks, revert_of)
          VALUES (${batch.title}, ${batch.author}, ${createdAt}, ${batch.source}, ${batch.awaitingApproval ? createdAt : null}, ${place?.at ?? null},
                  ${place?.pos ?? null}, ${batch.checks ?? null}, ${batch.revertOf ?? null})
          RETURNING id`,
    );
    const batchId = Number(id);
    await this.commands.insertAll(m, batchId, batch.commands, batch.retryOf ?? null, place?.pos ?? null);
    return batchId;
  }

  /** SPEC 15.2: the batch joins the queue behind everything runnable now; who approved and when are kept. */
  async approve(m: EntityManager, id: number, by: string, now: string): Promise<void> {
    await lockQueueOrder(m);
    const place = await this.nextPlace(m, now);
    await run(m, sql`UPDATE batch SET approved_by = ${by}, approved_at = ${now}, runnable_at = ${place.at}, queue_pos = ${place.pos} WHERE id = ${id}`);
    await this.commands.place(m, id, place.pos);
  }

  /** SPEC 15.2: a rejected batch is cancelled with its reason. */
  async reject(m: EntityManager, id: number, reason: string, now: string): Promise<void> {
    await this.cancel(m, id, now);
    await run(m, sql`UPDATE batch SET rejected_reason = ${reason} WHERE id = ${id}`);
  }

  /** SPEC 6.7: sets cancelled_at once, cancels every queued command; a claimed one is left to finish or be re-delivered. */
  async cancel(m: EntityManager, id: number, now: string): Promise<void> {
    await run(m, sql`UPDATE batch SET cancelled_at = ${now} WHERE id = ${id} AND cancelled_at IS NULL`);
    await this.commands.cancelQueuedOf(m, id, now);
  }

  find(m: EntityManager, id: number): Promise<BatchRow | undefined> {
    return one<BatchRow>(m, sql`SELECT * FROM batch WHERE id = ${id}`);
  }

  /**
   * The batch that reverts this one (SPEC 17.2), aside from a revert that never ran: rejected, or cancelled
   * with every command cancelled before the agent had it (decision 1410). A command force-cancelled while
   * with the agent may have run all the same (its late report records what it changed, or never comes), so
   * it counts: `deliveries` > 0 says it was handed out — unlike `claimed_at`, which a release (SPEC 16.3,
   * nothing done in Jira) leaves set, `deliveries` goes back down with it — and a recorded change is proof.
   */
  revertOf(m: EntityManager, id: number): Promise<{ id: number } | undefined> {
    return one(
      m,
      sql`SELECT id FROM batch b WHERE revert_of = ${id} AND rejected_reason IS NULL
            AND (cancelled_at IS NULL OR EXISTS (
                  SELECT 1 FROM command c WHERE c.batch_id = b.id
                     AND (c.status <> 'cancelled' OR c.deliveries > 0 OR EXISTS (SELECT 1 FROM command_change cc WHERE cc.command_id = c.id))))
          ORDER BY id LIMIT 1`,
    );
  }

  /** The newest batch created at or before a time (the queue as a package stored then saw it), or null. */
  async lastCreatedBy(m: EntityManager, at: string): Promise<number | null> {
    const row = await one<{ id: number | null }>(m, sql`SELECT max(id) AS id FROM batch WHERE created_at <= ${at}`);
    return row?.id == null ? null : Number(row.id);
  }

  /** Batches waiting for a person to approve or reject them (/metrics). */
  async awaitingCount(m: EntityManager): Promise<number> {
    const row = await one<{ n: number }>(m, sql`SELECT count(*) AS n FROM batch WHERE awaiting_approval_since IS NOT NULL AND approved_at IS NULL AND cancelled_at IS NULL`);
    return Number(row?.n ?? 0);
  }

  /** Newest first, below `beforeId`. */
  page(m: EntityManager, beforeId: number, limit: number): Promise<BatchRow[]> {
    return rows<BatchRow>(m, sql`SELECT * FROM batch WHERE id < CAST(${beforeId} AS BIGINT) ORDER BY id DESC LIMIT ${limit}`);
  }

  /** What the derived status of every batch needs (the Queue page's overview). */
  states(m: EntityManager): Promise<Pick<BatchRow, 'id' | 'awaiting_approval_since' | 'approved_at' | 'cancelled_at'>[]> {
    return rows(m, sql`SELECT id, awaiting_approval_since, approved_at, cancelled_at FROM batch`);
  }
}
