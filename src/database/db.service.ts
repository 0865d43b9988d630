import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { dirname } from 'node:path';
import { DataSource, EntityManager, QueryRunner, type BeforeQueryEvent, type EntitySubscriberInterface } from 'typeorm';
import { pause, UnavailableError } from '../common/index.js';
import type { AfterCommit } from '../events/index.js';
import { unavailableFor, isBusy } from './disk-full.js';
import { engineOf, type Engine } from './engine.js';
import { isUnavailable, QUEUE_LOCK_KEY, WRITE_LOCK_KEY } from './postgres.js';
import { ReadLane } from './read-lane.js';
import { databaseFile } from './sqlite-copy.js';

/**
 * Which queue a unit of work waits in. `bulk` is for large writes people make (creating a batch, an
 * import): a unit in the `normal` queue (the agent's claim and report, settings, reads) runs before
 * every `bulk` unit still waiting, so that clients posting batches do not starve the agent (SPEC 6:
 * a claim never waits behind a queue of batch creations). Each queue keeps arrival order.
 */
export type Lane = 'normal' | 'bulk';

/**
 * PostgreSQL: the advisory lock a writing unit takes first (decision 1202). `writer`: the one writer of
 * the hub (every unit but one kind); `queue`: the queue-order lock alone, for a batch's creation, which
 * writes only its own new rows and numbers its queue place under that lock, so it never waits for the
 * agent's claims and reports on other replicas. SQLite has one writer either way.
 */
export type WriteLock = 'writer' | 'queue';

/**
 * PostgreSQL: a read every unit of work makes first, for state this process keeps in memory that another
 * replica may have changed. Its statement rides on the unit's first round trip (with `BEGIN` and the
 * write lock); `apply` gets its rows, inside the unit.
 */
export interface UnitCheck {
  sql: string;
  apply(rows: Record<string, unknown>[], m: EntityManager): Promise<void>;
}

/**
 * better-sqlite3 runs each statement synchronously, and a unit's statements chained by awaits alone
 * never give the event loop a turn: a 1,000-command batch creation held it for its whole transaction,
 * and a search on the read connection (or any request) waited that long (issue 21). This subscriber
 * (TypeORM's `beforeQuery` hook, whose promise the query runner awaits) lets the loop run before a
 * statement of the unit's runner once the turn's slice (SLICE_MS, common/turns.ts) is used up; the
 * clock is the one the request's other stretches share (its validation, its checks, its view). The unit
 * keeps its transaction and the write lock, and `busy` keeps every other unit of work out meanwhile,
 * so it stays one atomic unit.
 */
class Slices implements EntitySubscriberInterface {
  private runner: QueryRunner | null = null;

  /** Slices the statements of `runner` until the answered function is called. */
  during(runner: QueryRunner): () => void {
    this.runner = runner;
    return () => {
      if (this.runner === runner) this.runner = null;
    };
  }

  beforeQuery(event: BeforeQueryEvent): Promise<void> | void {
    if (event.queryRunner !== this.runner) return;
    return pause();
  }
}

interface PgClient {
  query(sql: string): Promise<{ rows: Record<string, unknown>[] } | { rows: Record<string, unknown>[] }[]>;
  escapeLiteral(value: string): string;
}

/** Statements without parameters sent in one round trip on the runner's connection: each one's rows. */
async function simpleQuery(q: QueryRunner, sql: string | ((client: PgClient) => string)): Promise<{ rows: Record<string, unknown>[] }[]> {
  const client = (await q.connect()) as PgClient;
  const answer = await client.query(typeof sql === 'string' ? sql : sql(client));
  return Array.isArray(answer) ? answer : [answer];
}

/** What a unit of work's body gets besides its manager: the events module's `AfterCommit`. */
type Unit = AfterCommit;

/**
 * The one way services touch the database. SQLite has one connection here, and TypeORM shares one
 * query runner for it, so interleaved transactions of concurrent requests would nest into each other.
 * Every unit of work is therefore queued and runs alone: `transaction` as `BEGIN IMMEDIATE … COMMIT`
 * (the write lock taken up front, so another process can never turn it into a deadlock), `read`
 * without a transaction. They run one at a time, in arrival order within their lane (below); two
 * claims at the same moment are two units one after the other (SPEC 6.2). Inside a unit use the
 * given manager only, and no `save()` (it would open a nested transaction): insert/update/query.
 *
 * On PostgreSQL each unit borrows a pooled connection; a transaction is `BEGIN` + `pg_advisory_xact_lock`
 * on the writer's key — the same single writer as SQLite's write lock, across every replica on the
 * database — or, for a batch's creation, on the queue-order key (`WriteLock`, decision 1202). A unit that
 * fails because the server cannot be reached throws UnavailableError (503).
 *
 * `read` never waits in that queue (decision 0800): on a SQLite file it runs on a second, read-only
 * connection (WAL: a reader sees the last commit and never waits for the writer), one read unit at a
 * time there, each in its own read transaction; on PostgreSQL it borrows a pooled connection beside
 * the writer's. An in-memory SQLite database has one connection, so its reads keep the queue.
 */
@Injectable()
export class Db implements BeforeApplicationShutdown {
  readonly engine: Engine;
  private readonly unitChecks: UnitCheck[] = [];
  private readonly waiting: Record<Lane, (() => void)[]> = { normal: [], bulk: [] };
  /** A unit runs, or the hand-off to the next one is pending: new units wait their turn. */
  private busy = false;

  private readonly reads: ReadLane;
  private readonly slices = new Slices();
  private readonly logger = new Logger('Database');
  /** SQLite: the database file's folder, whose free space tells a full disk from another I/O error. */
  private readonly folder: string | undefined;

  constructor(readonly dataSource: DataSource) {
    this.engine = engineOf(dataSource);
    const file = this.engine === 'sqlite' ? databaseFile(String(dataSource.options.database)) : null;
    this.folder = file ? dirname(file) : undefined;
    this.reads = new ReadLane(dataSource);
    if (this.engine === 'sqlite') dataSource.subscribers.push(this.slices);
  }

  /** Before TypeORM closes the writer (its onApplicationShutdown): the reader must not be the last connection (ReadLane.close). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.reads.close();
  }

  /** PostgreSQL: `check` runs first in every unit of work (inside the transaction, after its lock). */
  onUnitStart(check: UnitCheck): void {
    this.unitChecks.push(check);
  }

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
   * Runs `fn` in one transaction (on SQLite, its statements in slices of SLICE_MS that let the event
   * loop in between them, inside the transaction: Slices). `afterCommit` callbacks run right after COMMIT, before the next unit
   * of work starts: in-memory state that mirrors the database (the settings) changes exactly when the
   * database does, as every later unit sees it.
   */
  transaction<T>(fn: (m: EntityManager, tx: Unit) => Promise<T>, lane: Lane = 'normal', lock: WriteLock = 'writer'): Promise<T> {
    if (this.engine === 'postgres') return this.enqueue(() => this.onPostgres(lock, (q, tx) => fn(q.manager, tx)), lane);
    return this.enqueue(async () => {
      const q = this.dataSource.createQueryRunner();
      const callbacks: (() => void)[] = [];
      // The write lock is taken here: another process holding the file past the busy timeout fails it.
      await q.query('BEGIN IMMEDIATE').catch((err: unknown) => Promise.reject(this.failed(err)));
      const undo = this.slices.during(q);
      try {
        const result = await fn(q.manager, { afterCommit: (cb) => callbacks.push(cb) });
        await q.query('COMMIT');
        for (const cb of callbacks) cb();
        return result;
      } catch (err) {
        await q.query('ROLLBACK').catch(() => undefined);
        throw this.failed(err);
      } finally {
        undo();
      }
    }, lane);
  }

  /** A unit that only reads: beside the writer (see the class), so that it never waits for a write. */
  read<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    if (this.engine === 'postgres') return this.reads.pooled(() => this.onPostgres(null, (q) => fn(q.manager)));
    if (!this.reads.open) return this.enqueue(() => fn(this.dataSource.manager));
    return this.reads.run(fn);
  }

  /**
   * What a failed unit of work throws: a full disk, or a file another process keeps locked, is 503
   * `unavailable` (the hub goes on, and the same request succeeds once there is room or the lock is
   * gone), told to the operator in one line; any other error as it came.
   */
  private failed(err: unknown): unknown {
    const out = unavailableFor(err, this.folder);
    if (out !== err) this.logger.warn(`${isBusy(err) ? 'another process holds the database locked' : "the database's disk is full"}: a write was rolled back (${(err as Error).message})`);
    return out;
  }

  private async onPostgres<T>(lock: WriteLock | null, fn: (q: QueryRunner, tx: Unit) => Promise<T>): Promise<T> {
    const write = lock !== null;
    const q = this.dataSource.createQueryRunner();
    const callbacks: (() => void)[] = [];
    const beforeCommit: (() => void)[] = [];
    const notifications: [channel: string, payload: string][] = [];
    let open = false;
    try {
      // One round trip: the simple query protocol runs the statements one after another and answers each.
      const key = lock === 'queue' ? QUEUE_LOCK_KEY : WRITE_LOCK_KEY;
      const head = [...(write ? ['BEGIN', `SELECT pg_advisory_xact_lock(${key})`] : []), ...this.unitChecks.map((c) => c.sql)];
      open = write;
      if (head.length > 0) {
        const results = await simpleQuery(q, head.join('; '));
        const first = head.length - this.unitChecks.length;
        for (const [i, check] of this.unitChecks.entries()) await check.apply(results[first + i].rows, q.manager);
      }
      const unit: Unit = {
        afterCommit: (cb) => callbacks.push(cb),
        beforeCommit: (cb) => beforeCommit.push(cb),
        notify: (channel, payload) => notifications.push([channel, payload]),
      };
      const result = await fn(q, unit);
      if (write) {
        for (const cb of beforeCommit) cb();
        // NOTIFY in the transaction, sent in COMMIT's round trip: delivered when it commits (escaped by the driver's own escapeLiteral).
        if (notifications.length) await simpleQuery(q, (client) => [...notifications.map(([c, p]) => `SELECT pg_notify(${client.escapeLiteral(c)}, ${client.escapeLiteral(p)})`), 'COMMIT'].join('; '));
        else await q.query('COMMIT');
      }
      open = false;
      for (const cb of callbacks) cb();
      return result;
    } catch (err) {
      if (open) await q.query('ROLLBACK').catch(() => undefined);
      throw isUnavailable(err) ? new UnavailableError() : this.failed(err);
    } finally {
      await q.release().catch(() => undefined);
    }
  }
}

