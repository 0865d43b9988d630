import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { Db } from '../database/db.service.js';
import { Meter } from '../metrics/meter.js';

/**
 * Open commands by where they stand: `queued` the agent can take now (its batch has a place in the queue),
 * `awaiting_approval` queued in a batch waiting for a person (the agent never gets these, so a "queue not
 * draining" alert must not count them), `claimed` handed out and not yet reported. Each is one probe of a
 * partial index (idx_command_runnable, idx_command_queued, idx_command_claimed).
 */
const DEPTH_SQL: Record<string, string> = {
  queued: `SELECT count(*) AS n FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL`,
  awaiting_approval: `SELECT count(*) AS n FROM command WHERE status = 'queued' AND queue_pos IS NULL`,
  claimed: `SELECT count(*) AS n FROM command WHERE status = 'claimed'`,
};

/** The queue's state, computed when /metrics is scraped (never kept up to date by the queue). */
@Injectable()
export class QueueDepth implements OnModuleInit {
  constructor(
    private readonly db: Db,
    private readonly meter: Meter,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.meter.gauge(
      'jira_hub_queue_commands',
      'Commands the agent can take now (queued), queued in batches awaiting approval (awaiting_approval), handed out and not yet reported (claimed)',
      'status',
      () => this.depth(),
    );
    this.meter.value('jira_hub_batches_awaiting_approval', 'Batches waiting for a person to approve or reject them', () => this.awaitingBatches());
    this.meter.value(
      'jira_hub_oldest_runnable_command_age_seconds',
      'Seconds since the batch of the oldest command the agent could take joined the queue (0 when none waits)',
      () => this.oldestRunnableAge(),
    );
  }

  depth(): Promise<Record<string, number>> {
    return this.db.read(async (m) => {
      const out: Record<string, number> = {};
      for (const [status, sql] of Object.entries(DEPTH_SQL)) {
        const [row]: { n: number }[] = await m.query(sql);
        out[status] = Number(row.n);
      }
      return out;
    });
  }

  awaitingBatches(): Promise<number> {
    return this.db.read(async (m) => {
      const [row]: { n: number }[] = await m.query(
        'SELECT count(*) AS n FROM batch WHERE awaiting_approval_since IS NOT NULL AND approved_at IS NULL AND cancelled_at IS NULL',
      );
      return Number(row.n);
    });
  }

  oldestRunnableAge(): Promise<number> {
    return this.db.read(async (m) => {
      const [row]: { at: string | null }[] = await m.query(
        `SELECT min(b.runnable_at) AS at FROM batch b WHERE b.queue_pos = (SELECT min(queue_pos) FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL)`,
      );
      return row?.at ? Math.max(0, (this.clock.now().getTime() - Date.parse(row.at)) / 1000) : 0;
    });
  }
}
