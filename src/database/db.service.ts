import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The one way services touch the database. SQLite has one connection here, and TypeORM shares one
 * query runner for it, so interleaved transactions of concurrent requests would nest into each other.
 * Every unit of work is therefore queued and runs alone: `transaction` as `BEGIN IMMEDIATE … COMMIT`
 * (the write lock taken up front, so another process can never turn it into a deadlock), `read`
 * without a transaction. Both run in arrival order; two claims at the same moment are two units one
 * after the other (SPEC 6.2). Inside a unit use the given manager only, and no `save()` (it would
 * open a nested transaction): insert/update/query.
 */
@Injectable()
export class Db {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly dataSource: DataSource) {}

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs `fn` in one transaction. `afterCommit` callbacks run right after COMMIT, before the next unit
   * of work starts: in-memory state that mirrors the database (the settings) changes exactly when the
   * database does, as every later unit sees it.
   */
  transaction<T>(fn: (m: EntityManager, tx: { afterCommit(cb: () => void): void }) => Promise<T>): Promise<T> {
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
    });
  }

  read<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(() => fn(this.dataSource.manager));
  }
}
