import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { QueueEvents } from '../queue/queue.events.js';

/**
 * Long-poll waiters (SPEC 6.2): a claim with nothing to hand out sleeps here until new work is queued,
 * its time passes, its connection closes, or the hub shuts down; then it claims once more.
 */
@Injectable()
export class Waiters implements OnApplicationShutdown {
  private readonly waiting = new Set<(woken: boolean) => void>();
  private closed = false;

  constructor(events: QueueEvents) {
    events.onWork(() => this.releaseAll(true));
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Resolves true when woken by new work; false on timeout, abort or shutdown. */
  wait(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.closed || signal?.aborted || ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (woken: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(finish);
        resolve(woken);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.add(finish);
    });
  }

  private releaseAll(woken: boolean): void {
    for (const finish of [...this.waiting]) finish(woken);
  }

  onApplicationShutdown(): void {
    this.closed = true;
    this.releaseAll(false);
  }
}
