import { BeforeApplicationShutdown, Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Response } from 'express';
import { AgentStatusService } from '../delivery/index.js';
import type { AgentStatusView } from '../delivery/index.js';
import { Clock, HUB_CONFIG, HubStoppingError, type HubConfig, NotFoundError } from '../common/index.js';
import { MAX_BROADCAST, Notifier } from '../database/index.js';
import { EventBus } from '../events/index.js';
import type { HubEvent } from '../events/index.js';
import { BatchesService } from '../queue/index.js';
import type { BatchSummary, BatchView, CommandView } from '../queue/index.js';

/**
 * One server-sent event of GET /events: the bus event plus what a page needs to update itself
 * without asking (a batch's summary, a command's view, the agent's status).
 */
export type LiveMessage =
  | { event: 'batch'; data: { change: string; batch_id: number; batch: BatchSummary | null } }
  | { event: 'command'; data: { change: string; command_id: number; batch_id: number; command: CommandView | null; batch: BatchSummary | null } }
  | { event: 'agent'; data: { change: string; agent: AgentStatusView } }
  | { event: 'settings'; data: { version: number } };

function summaryOf(view: BatchView | null): BatchSummary | null {
  if (!view) return null;
  const { commands: _commands, ...summary } = view;
  return summary;
}

/** The Notifier channel that carries bus events to the other replicas' streams. */
const LIVE_CHANNEL = 'live';

/** The events as another replica gets them: ids only (its LiveService reads the views itself), in NOTIFY-sized parts. */
export function broadcastParts(events: HubEvent[], max = MAX_BROADCAST): string[] {
  const parts: string[] = [];
  let part: string[] = [];
  let size = 2;
  for (const e of events) {
    const { view: _view, ...ids } = e as HubEvent & { view?: object };
    const json = JSON.stringify(ids);
    const bytes = Buffer.byteLength(json) + 1;
    if (part.length && size + bytes > max) {
      parts.push(`[${part.join(',')}]`);
      part = [];
      size = 2;
    }
    part.push(json);
    size += bytes;
  }
  if (part.length) parts.push(`[${part.join(',')}]`);
  return parts;
}

/**
 * GET /events: listens to the bus and sends each event to every open stream. Events that come
 * together (a report: its command, its batch, the agent) are read once, in one pass after the
 * commit, and sent in the order they were published. No stream, no reads.
 *
 * Replicas (PostgreSQL): the events of this hub's bus also go to the other replicas through the
 * Notifier (ids only, sent with the unit's COMMIT), and theirs come here, so a page connected to any replica
 * sees every change.
 */
@Injectable()
export class LiveService implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly streams = new Set<Response>();
  private pending: HubEvent[] = [];
  private flushing: Promise<void> | null = null;
  private unsubscribe = () => {};
  private heartbeat?: NodeJS.Timeout;
  private nextId = 1;
  private outgoing: HubEvent[] = [];
  /** The streams have ended for a stop. */
  private stopped = false;

  constructor(
    private readonly bus: EventBus,
    private readonly batches: BatchesService,
    private readonly agent: AgentStatusService,
    private readonly clock: Clock,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
    private readonly notifier: Notifier,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe((e) => {
      this.enqueue(e);
      if (!this.bus.wasSentWithCommit(e)) this.forward(e);
    });
    // A unit's events go to the other replicas with its COMMIT (one round trip, delivered when it commits).
    this.bus.sendWithCommit((events, tx) => {
      if (this.notifier.replicated) for (const part of broadcastParts(events)) this.notifier.broadcastWith(tx, LIVE_CHANNEL, part);
    });
    this.notifier.listen(LIVE_CHANNEL, (data) => {
      if (data) for (const e of JSON.parse(data) as HubEvent[]) this.enqueue(e);
      // No data: the LISTEN connection is back, and what other replicas committed while it was down never
      // came. The pages hear `resync` and load again what they show, as after a reconnect of their own.
      else this.write(`event: resync\ndata: ${JSON.stringify({ reason: 'events of other replicas may have been missed' })}\n\n`);
    });
    this.heartbeat = setInterval(() => this.write(`: heartbeat ${this.clock.iso()}\n\n`), this.config.eventsHeartbeatSeconds * 1000);
    this.heartbeat.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe();
    clearInterval(this.heartbeat);
  }

  /** Streams end before the server closes; the page reconnects to the next hub. */
  beforeApplicationShutdown(): void {
    this.stopped = true;
    for (const res of this.streams) res.end();
    this.streams.clear();
  }

  get size(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream. Refused (503) once the streams have ended for a stop: a request that came just before
   * the stop would otherwise open one that nothing ends, and the stop would wait its whole bound (decision 1429).
   */
  open(res: Response): void {
    if (this.stopped) throw new HubStoppingError();
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    // `retry`: how long a browser's EventSource waits before reconnecting; `hello`: the stream is live.
    res.write(`retry: 2000\nevent: hello\ndata: ${JSON.stringify({ heartbeat_seconds: this.config.eventsHeartbeatSeconds })}\n\n`);
    this.streams.add(res);
    res.on('close', () => this.streams.delete(res));
  }

  private enqueue(e: HubEvent): void {
    if (this.streams.size === 0) return;
    this.pending.push(e);
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  /** The events of one commit go to the other replicas together, once this turn of the loop is over. */
  private forward(e: HubEvent): void {
    if (!this.notifier.replicated) return;
    this.outgoing.push(e);
    if (this.outgoing.length > 1) return;
    setImmediate(() => {
      const events = this.outgoing;
      this.outgoing = [];
      for (const part of broadcastParts(events)) this.notifier.broadcast(LIVE_CHANNEL, part);
    });
  }

  private async flush(): Promise<void> {
    const events = this.pending;
    this.pending = [];
    try {
      const messages = await this.enrich(events);
      for (const m of messages) this.write(`id: ${this.nextId++}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`);
    } finally {
      this.flushing = null;
      if (this.pending.length) this.flushing = this.flush();
    }
  }

  private async enrich(events: HubEvent[]): Promise<LiveMessage[]> {
    // A view the transaction read itself (create, retry, cancel) is as of its commit: when no later
    // event of this pass touched the batch, it is the batch's state now, and no read is needed.
    const views = new Map<number, BatchView | null>();
    for (const e of events) {
      if (e.kind === 'batch' && e.view) views.set(e.batch_id, e.view as BatchView);
      else if (e.kind === 'batch' || e.kind === 'command') views.delete(e.batch_id);
    }
    const batchIds = new Set(events.flatMap((e) => (e.kind === 'batch' || e.kind === 'command' ? [e.batch_id] : [])).filter((id) => !views.has(id)));
    for (const id of batchIds) views.set(id, await this.batches.get(id).catch((err: unknown) => (err instanceof NotFoundError ? null : Promise.reject(err))));
    const agent = events.some((e) => e.kind === 'agent') ? await this.agent.status() : null;
    const sentAgent = new Set<string>();
    const out: LiveMessage[] = [];
    for (const e of events) {
      if (e.kind === 'batch') out.push({ event: 'batch', data: { change: e.change, batch_id: e.batch_id, batch: summaryOf(views.get(e.batch_id) ?? null) } });
      if (e.kind === 'command') {
        const view = views.get(e.batch_id) ?? null;
        const command = view?.commands.find((c) => c.id === e.command_id) ?? null;
        out.push({ event: 'command', data: { change: e.change, command_id: e.command_id, batch_id: e.batch_id, command, batch: summaryOf(view) } });
      }
      // The agent's status is read once per pass: one message per kind of change is enough.
      if (e.kind === 'agent' && agent && !sentAgent.has(e.change)) {
        sentAgent.add(e.change);
        out.push({ event: 'agent', data: { change: e.change, agent } });
      }
      if (e.kind === 'settings') out.push({ event: 'settings', data: { version: e.version } });
    }
    return out;
  }

  private write(chunk: string): void {
    for (const res of this.streams) res.write(chunk);
  }
}
