import { Injectable, Logger } from '@nestjs/common';
import type { HubEvent } from './hub-events.js';

export type HubEventListener = (event: HubEvent) => void;

/** What `Db.transaction` hands its body: callbacks run right after COMMIT. */
export interface AfterCommit {
  afterCommit(cb: () => void): void;
}

/**
 * The one event bus of the hub. Services publish with `afterCommit(tx, …)`: a rolled-back
 * transaction publishes nothing, and listeners run right after COMMIT, before the next unit of work
 * of `Db` starts. Listeners are synchronous and must not throw (a throwing one is logged and skipped:
 * the commit has happened and the other listeners still hear of it).
 */
@Injectable()
export class EventBus {
  private readonly logger = new Logger('Events');
  private readonly listeners = new Set<HubEventListener>();

  /** Returns the unsubscribe function. */
  subscribe(listener: HubEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  publish(...events: HubEvent[]): void {
    for (const event of events) {
      for (const listener of [...this.listeners]) {
        try {
          listener(event);
        } catch (err) {
          this.logger.error(`a listener of ${event.kind} events failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    }
  }

  /** Publishes `events` after `tx` commits (evaluated then, if a function: ids known only at the end of the body). */
  afterCommit(tx: AfterCommit, events: HubEvent[] | (() => HubEvent[])): void {
    tx.afterCommit(() => this.publish(...(typeof events === 'function' ? events() : events)));
  }
}
