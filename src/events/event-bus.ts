import { Injectable, Logger } from '@nestjs/common';
import type { HubEvent } from './hub-events.js';

export type HubEventListener = (event: HubEvent) => void;

/**
 * What `Db.transaction` hands its body: callbacks run right after COMMIT. On PostgreSQL also `beforeCommit`
 * (callbacks when the body has ended, before COMMIT) and `notify` (a NOTIFY sent with the COMMIT, in its
 * round trip: other replicas get it exactly when the unit commits, and never for a unit rolled back).
 */
export interface AfterCommit {
  afterCommit(cb: () => void): void;
  beforeCommit?(cb: () => void): void;
  notify?(channel: string, payload: string): void;
}

/** Sends a unit's events along with its COMMIT (the replicas' live streams, through the Notifier). */
export type Outbox = (events: HubEvent[], tx: AfterCommit) => void;

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
  private outbox: Outbox | null = null;
  private readonly sentWithCommit = new WeakSet<HubEvent>();

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

  /** `outbox` gets every unit's events before its COMMIT, where the unit can send them with it (`tx.beforeCommit`). */
  sendWithCommit(outbox: Outbox): void {
    this.outbox = outbox;
  }

  /** Whether the outbox had this event before its unit committed (a listener need not send it again). */
  wasSentWithCommit(event: HubEvent): boolean {
    return this.sentWithCommit.has(event);
  }

  /**
   * Publishes `events` after `tx` commits (evaluated when the body has ended, if a function: ids known only
   * at the end of the body), and hands them to the outbox before the COMMIT where the unit allows it.
   */
  afterCommit(tx: AfterCommit, events: HubEvent[] | (() => HubEvent[])): void {
    let evaluated: HubEvent[] | undefined;
    const list = () => (evaluated ??= typeof events === 'function' ? events() : events);
    if (this.outbox && tx.beforeCommit) {
      const outbox = this.outbox;
      tx.beforeCommit(() => {
        outbox(list(), tx);
        for (const e of list()) this.sentWithCommit.add(e);
      });
    }
    tx.afterCommit(() => this.publish(...list()));
  }
}
