import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Which queue a unit of work waits in. `bulk` is for large writes people make (creating a batch, an
 * import): a unit in the `normal` queue (the agent's claim and report, settings, reads) runs before
 * every `bulk` unit still waiting, so that clients posting batches do not starve the agent (SPEC 6:
 * a claim never waits behind a queue of batch creations). Each queue keeps arrival order.
 */
export type Lane = 'normal' | 'bulk';

/**
 * The one way services touch the database. SQLite has one connection here, and TypeORM shares one
 * query runner for it, so interleaved transactions of concurrent requests would nest into each other.
 * Every unit of work is therefore queued and runs alone: `transaction` as `BEGIN IMMEDIATE … COMMIT`
 * (the write lock taken up front, so another process can never turn it into a deadlock), `read`
 * without a transaction. They run one at a time, in arrival order within their lane (below); two
 * claims at the same moment are two units one after the other (SPEC 6.2). Inside a unit use the
 * given manager only, and no `save()` (it would open a nested transaction): insert/update/query.
 */
@Injectable()
export class Db {
  private readonly waiting: Record<Lane, (() => void)[]> = { normal: [], bulk: [] };
  /** A unit runs, or the hand-off to the next one is pending: new units wait their turn. */
  private busy = false;

  constructor(readonly dataSource: DataSource) {}

  private enqueue<T>(work: () => Promise<T>, lane: Lane = 'normal'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting[lane].push(() => {
        // The next unit starts from the event loop, not from this one's promise chain: units chained
        // by microtasks alone would run back to back without the loop ever reading the sockets, so a
        // claim that arrives while batches are being created would not even be parsed until they all
        // were (it would then jump ahead in its lane, but too late).
        work()
          .then(resolve, reject)
          .finally(() => setImmediate(() => this.runNext()));
      });
      if (!this.busy) this.runNext();
    });
  }

  private runNext(): void {
    const next = this.waiting.normal.shift() ?? this.waiting.bulk.shift();
    this.busy = next !== undefined;
    next?.();
  }

  /**
   * Runs `fn` in one transaction. `afterCommit` callbacks run right after COMMIT, before the next unit
   * of work starts: in-memory state that mirrors the database (the settings) changes exactly when the
   * database does, as every later unit sees it.
   */
  transaction<T>(fn: (m: EntityManager, tx: { afterCommit(cb: () => void): void }) => Promise<T>, lane: Lane = 'normal'): Promise<T> {
    return this.enqueue(async () => {
      const q = this.dataSource.createQueryRunner();
      const callbacks: (() => void)[] = [];
      await q.query('BEGIN IMMEDIATE');
      try {
        const result = await fn(q.manager, { afterCommit: (cb) => callbacks.push(cb) });
        await q.query('COMMIT');
        for (const cb of callbacks) cb();
        return result;
      } catch (err) {
        await q.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    }, lane);
  }

  read<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(() => fn(this.dataSource.manager));
  }
}
