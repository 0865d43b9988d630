import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/index.js';
import { Db } from '../database/index.js';
import { Meter } from '../metrics/index.js';
import { BatchRepository } from './batch.repository.js';
import { CommandRepository } from './command.repository.js';

/**
 * Open commands by where they stand: `queued` the agent can take now (its batch has a place in the queue),
 * `awaiting_approval` queued in a batch waiting for a person (the agent never gets these, so a "queue not
 * draining" alert must not count them), `claimed` handed out and not yet reported (CommandRepository.depth).
 */
/** The queue's state, computed when /metrics is scraped (never kept up to date by the queue). */
@Injectable()
export class QueueDepth implements OnModuleInit {
  constructor(
    private readonly db: Db,
    private readonly meter: Meter,
    private readonly clock: Clock,
    private readonly batches: BatchRepository,
    private readonly commands: CommandRepository,
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
    return this.db.read((m) => this.commands.depth(m));
  }

  awaitingBatches(): Promise<number> {
    return this.db.read((m) => this.batches.awaitingCount(m));
  }

  oldestRunnableAge(): Promise<number> {
    return this.db.read(async (m) => {
      const at = await this.commands.oldestRunnableSince(m);
      return at ? Math.max(0, (this.clock.now().getTime() - Date.parse(at)) / 1000) : 0;
    });
  }
}
