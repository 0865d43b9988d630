import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { EventBus } from '../events/event-bus.js';
import type { HubEvent } from '../events/hub-events.js';
import { Notifier } from '../database/notifier.js';

/** Why a wait ended: new work may be there, the time passed, or the claim must answer now (closed connection, shutdown). */
export type WaitOutcome = 'woken' | 'timeout' | 'closed';

/** New work may be there: a batch became runnable (created, approved, a retry's), or the settings changed (an auto-refresh may be due). */
function wakes(e: HubEvent): boolean {
  if (e.kind === 'settings') return true;
  if (e.kind !== 'batch') return false;
  // A batch made waiting for approval (SPEC 15.2) is no work yet: its approval wakes the claims.
  if (e.change === 'created') return (e.view as { status?: string } | undefined)?.status !== 'awaiting_approval';
  return e.change === 'approved';
}

/** The Notifier channel of "new work may be there". */
const WAKE = 'work';

/**
 * Long-poll waiters (SPEC 6.2): a claim with nothing to hand out sleeps here until new work may be
 * there (a batch was queued, or the settings changed: an auto-refresh may be due), its time passes,
 * its connection closes, or the hub shuts down. Its time is the hub's `Clock`'s.
 *
 * Wake-ups go through the Notifier, so a batch queued (or settings changed) on another replica of
 * the same PostgreSQL database wakes the claims held here too.
 *
 * A claim takes a `ticket` before it looks at the queue and waits with it: a wake-up that came in
 * between (after its transaction, before its wait began) ends the wait at once instead of being lost.
 */
@Injectable()
export class Waiters {
  private readonly waiting = new Set<(outcome: WaitOutcome) => void>();
  private wakes = 0;
  private isClosed = false;

  constructor(
    events: EventBus,
    notifier: Notifier,
    private readonly clock: Clock,
  ) {
    notifier.listen(WAKE, () => this.wakeAll());
    events.subscribe((e) => {
      if (wakes(e)) notifier.notify(WAKE);
    });
  }

  /** The hub is shutting down: no claim waits, and none should look at the queue again. */
  get closed(): boolean {
    return this.isClosed;
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Taken before a claim looks at the queue. */
  ticket(): number {
    return this.wakes;
  }

  wait(ms: number, ticket: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (this.isClosed || signal?.aborted) return Promise.resolve('closed');
    if (ticket !== this.wakes) return Promise.resolve('woken');
    if (ms <= 0) return Promise.resolve('timeout');
    return new Promise((resolve) => {
      const finish = (outcome: WaitOutcome) => {
        cancel();
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(finish);
        resolve(outcome);
      };
      const onAbort = () => finish('closed');
      const cancel = this.clock.after(ms, () => finish('timeout'));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.add(finish);
    });
  }

  private wakeAll(): void {
    this.wakes++;
    for (const finish of [...this.waiting]) finish('woken');
  }

  /** Every waiting claim answers now; no new claim waits. */
  close(): void {
    this.isClosed = true;
    for (const finish of [...this.waiting]) finish('closed');
  }
}
