/**
 * Where `Db.read` runs (decision 0800). SQLite on a file: a second, read-only connection (opened on the
 * first read, so the start does not pay for it), one read unit at a time, each unit one read
 * transaction (`BEGIN` … `COMMIT`: its statements see one snapshot, as they did when reads ran in the
 * writer's queue). PostgreSQL: at most READ_SLOTS reads hold pooled connections at once, so that the
 * writer always finds one.
 */
import type { DataSource, EntityManager } from 'typeorm';
import { HubDataSource } from './engine-schema.js';
import { databaseFile } from './sqlite-copy.js';

/** PostgreSQL: reads at once, below the pool's 10 connections (postgres.ts), leaving the writer its own. */
export const READ_SLOTS = 8;

export class ReadLane {
  /** SQLite: reads have a connection of their own (a file database; an in-memory one has only one connection). */
  readonly separate: boolean;
  private reader: Promise<DataSource> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly writer: DataSource) {
    const options = writer.options;
    this.separate = options.type === 'better-sqlite3' && databaseFile(String(options.database)) !== null;
  }

  /** SQLite: `fn` in a read transaction on the read-only connection, after the read units before it. */
  run<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    const unit = this.tail.then(async () => {
      const q = (await this.connection()).createQueryRunner();
      await q.query('BEGIN');
      try {
        return await fn(q.manager);
      } finally {
        await q.query('COMMIT').catch(() => undefined);
      }
    });
    this.tail = unit.catch(() => undefined);
    return unit;
  }

  /** PostgreSQL: `work` once fewer than READ_SLOTS reads are running. */
  async pooled<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= READ_SLOTS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = undefined;
    if (reader) await (await reader).destroy();
  }

  private connection(): Promise<DataSource> {
    this.reader ??= new HubDataSource({ ...this.writer.options, readonly: true, migrations: [] } as typeof this.writer.options).initialize().catch((err: unknown) => {
      this.reader = undefined; // the next read tries again
      throw err;
    });
    return this.reader;
  }
}
