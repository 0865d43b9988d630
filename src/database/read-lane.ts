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
  private readonly separate: boolean;
  private reader: Promise<DataSource> | undefined;
  private closed = false;
  private tail: Promise<unknown> = Promise.resolve();
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly writer: DataSource) {
    const options = writer.options;
    this.separate = options.type === 'better-sqlite3' && databaseFile(String(options.database)) !== null;
  }

  /** SQLite: reads go to the read-only connection (until `close`; then to the writer's queue). */
  get open(): boolean {
    return this.separate && !this.closed;
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

  /**
   * Closes the read-only connection once the reads on it have ended; later reads go to the writer. It
   * must close before the writer does: SQLite checkpoints the WAL into the file and removes it when the
   * last connection closes, and a read-only connection cannot, so a reader closed last would leave the
   * file without its WAL incomplete (a copy of it alone would hold none of the data).
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
    const reader = this.reader;
    this.reader = undefined;
    if (reader) await (await reader.catch(() => undefined))?.destroy();
  }

  private connection(): Promise<DataSource> {
    // No entities: the repositories' reads are SQL of their own (m.query), so the reader needs no
    // metadata, and building all of it again cost each hub's first read ~3 ms of CPU.
    this.reader ??= new HubDataSource({ ...this.writer.options, readonly: true, migrations: [], entities: [] } as typeof this.writer.options).initialize().catch((err: unknown) => {
      this.reader = undefined; // the next read tries again
      throw err;
    });
    return this.reader;
  }
}
