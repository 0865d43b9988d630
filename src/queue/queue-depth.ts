import { Injectable, OnModuleInit } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { Meter } from '../metrics/meter.js';

/** Statuses of work not yet finished; each count is one probe of its partial index (idx_command_queued, idx_command_claimed). */
const OPEN = ['queued', 'claimed'] as const;

/** The queue's depth by status, computed when /metrics is scraped (never kept up to date by the queue). */
@Injectable()
export class QueueDepth implements OnModuleInit {
  constructor(
    private readonly db: Db,
    private readonly meter: Meter,
  ) {}

  onModuleInit(): void {
    this.meter.gauge('jira_hub_queue_commands', 'Commands waiting (queued) or handed out and not yet reported (claimed)', 'status', () => this.depth());
  }

  depth(): Promise<Record<string, number>> {
    return this.db.read(async (m) => {
      const out: Record<string, number> = {};
      for (const status of OPEN) {
        const [row]: { n: number }[] = await m.query('SELECT count(*) AS n FROM command WHERE status = ?', [status]);
        out[status] = Number(row.n);
      }
      return out;
    });
  }
}
