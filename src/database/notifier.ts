import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { HUB_CONFIG, type HubConfig } from '../common/index.js';
import { Db } from './db.service.js';
import { usePgDriver } from './postgres.js';

/** The most bytes of data one `broadcast` carries (PostgreSQL's NOTIFY payload limit is 8000, with the sender's id). */
export const MAX_BROADCAST = 7_900;

/** Seconds between attempts to get the LISTEN connection back after it broke. */
const RECONNECT_MS = 1_000;

/**
 * Wake-ups between the hubs on one database (SPEC 6.2's long poll across replicas). `notify(channel)`
 * reaches every `listen(channel, fn)` of this process at once and, on PostgreSQL, of every other
 * replica through NOTIFY (a dedicated LISTEN connection, re-opened after the server restarts; when it
 * comes back every listener is woken once, as a notification may have been missed meanwhile). On
 * SQLite the hub is one process and the notifier stays in it. Channels are scoped to the hub's schema.
 * A wake-up only says "look again": listeners must tolerate extra ones.
 */
@Injectable()
export class Notifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Notifier');
  private readonly local = new EventEmitter().setMaxListeners(0);
  private readonly self = randomUUID();
  private prefix = 'hub';
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.db.engine !== 'postgres') return;
    const [row]: { schema: string }[] = await this.db.read((m) => m.query('SELECT current_schema() AS schema'));
    this.prefix = `hub_${row.schema}`;
    await this.connect();
  }

  /** PostgreSQL: the LISTEN connection is up and listens on every channel asked for (it comes back by itself after a break). */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Whether other processes share the database (PostgreSQL): only then does `broadcast` send anything. */
  get replicated(): boolean {
    return this.db.engine === 'postgres';
  }

  /** `fn` gets the data of a `broadcast` from another replica, nothing for a wake-up (`notify`, or the LISTEN connection back). */
  listen(channel: string, fn: (data?: string) => void): void {
    const known = this.local.listenerCount(channel) > 0;
    this.local.on(channel, fn);
    if (!known && this.client) this.client.query(`LISTEN "${this.pgChannel(channel)}"`).catch(() => undefined);
  }

  notify(channel: string): void {
    this.local.emit(channel);
    if (this.db.engine !== 'postgres') return;
    // Fire and forget: a lost wake-up costs a waiting claim at most its long-poll time, never a command.
    this.db.dataSource
      .query('SELECT pg_notify($1, $2)', [this.pgChannel(channel), this.self])
      .catch((err: Error) => this.logger.warn(`could not notify other replicas: ${err.message}`));
  }

  /**
   * Sends `data` (at most MAX_BROADCAST bytes) to the listeners of `channel` on every other replica,
   * not this process's; nothing on SQLite. Fire and forget, as `notify`.
   */
  broadcast(channel: string, data: string): void {
    if (!this.replicated) return;
    this.db.dataSource
      .query('SELECT pg_notify($1, $2)', [this.pgChannel(channel), `${this.self}|${data}`])
      .catch((err: Error) => this.logger.warn(`could not notify other replicas: ${err.message}`));
  }

  /**
   * `broadcast`, sent with a unit of work's COMMIT (its `notify`, PostgreSQL): the other replicas get it
   * when the unit commits, in the COMMIT's round trip. A unit without `notify` broadcasts at once.
   */
  broadcastWith(unit: { notify?(channel: string, payload: string): void }, channel: string, data: string): void {
    if (!this.replicated) return;
    if (unit.notify) unit.notify(this.pgChannel(channel), `${this.self}|${data}`);
    else this.broadcast(channel, data);
  }

  private pgChannel(channel: string): string {
    return `${this.prefix}_${channel}`.toLowerCase();
  }

  private async connect(): Promise<void> {
    const client = new (await usePgDriver()).Client({ connectionString: this.config.databaseUrl, application_name: 'jira-hub-listen' });
    let dead = false;
    const onDead = () => {
      if (dead) return;
      dead = true;
      this.reconnectLater(client);
    };
    client.on('error', onDead);
    client.on('end', onDead);
    client.on('notification', (n) => {
      const payload = n.payload ?? '';
      const bar = payload.indexOf('|');
      if ((bar < 0 ? payload : payload.slice(0, bar)) === this.self) return;
      const channel = n.channel.slice(this.prefix.length + 1);
      this.local.emit(channel, bar < 0 ? undefined : payload.slice(bar + 1));
    });
    try {
      await client.connect();
      for (const channel of this.local.eventNames()) await client.query(`LISTEN "${this.pgChannel(String(channel))}"`);
      // Stopped while it connected (a reconnect that the shutdown caught half-way): not kept.
      if (this.stopped) return void (await client.end().catch(() => undefined));
      this.client = client;
    } catch (err) {
      this.logger.warn(`LISTEN connection failed: ${(err as Error).message}; retrying`);
      onDead();
    }
  }

  private reconnectLater(broken: pg.Client): void {
    // A connection that was listening and went away (a failover, a pooler reset) is logged as a failed connect is.
    if (this.client === broken && !this.stopped) this.logger.warn('LISTEN connection lost; reconnecting');
    if (this.client === broken) this.client = null;
    broken.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect().then(() => {
        if (this.client) for (const channel of this.local.eventNames()) this.local.emit(channel);
      });
    }, RECONNECT_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
