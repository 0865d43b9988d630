import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The label of a request that matched no route: raw paths would make one series per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds from a hand-out to its report: the agent's pause is 90–180 s, so the buckets reach 15 minutes. */
const REPORT_BUCKETS = [1, 5, 15, 30, 60, 90, 120, 180, 300, 600, 900];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The process's own series (memory, CPU, event loop, GC): one set per process, shared by every hub in
 * it, collected from the first scrape on (no event-loop monitor runs in a hub nobody scrapes).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The hub's Prometheus registry and the counters other modules increment at the source. It depends
 * on nothing, so the queue and the database can inject it without knowing where the numbers go;
 * a module with state to show at scrape time registers a gauge here (`gauge`), computed when scraped.
 * Each hub has its own registry (tests run several hubs in one process).
 */
@Injectable()
export class Meter {
  readonly registry = new Registry();

  private readonly claims = new Counter({
    name: 'jira_hub_claims_total',
    help: 'Commands handed out to the agent, first deliveries and re-deliveries',
    registers: [this.registry],
  });
  private readonly redeliveries = new Counter({
    name: 'jira_hub_redeliveries_total',
    help: 'Commands handed out again because the agent did not report (SPEC 6.4)',
    registers: [this.registry],
  });
  private readonly deliveryLimit = new Counter({
    name: 'jira_hub_delivery_limit_failures_total',
    help: 'Commands failed because the agent did not report after the last delivery',
    registers: [this.registry],
  });
  private readonly reportLatency = new Histogram({
    name: 'jira_hub_report_latency_seconds',
    help: 'Time from a hand-out to the report that finished the command, by reported status',
    labelNames: ['status'],
    buckets: REPORT_BUCKETS,
    registers: [this.registry],
  });
  private readonly backups = new Counter({
    name: 'jira_hub_backups_total',
    help: 'Database copies before a batch writes (SPEC 3.2), by outcome (made, failed)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly http = new Histogram({
    name: 'jira_hub_http_request_duration_seconds',
    help: 'HTTP request durations by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  constructor() {
    this.backups.inc({ outcome: 'made' }, 0);
    this.backups.inc({ outcome: 'failed' }, 0);
  }

  /** One hand-out: its delivery number (1 = first) and the commands a claim failed at the delivery limit. */
  claimed(deliveries: number): void {
    this.claims.inc();
    if (deliveries > 1) this.redeliveries.inc();
  }

  failedAtDeliveryLimit(count: number): void {
    if (count > 0) this.deliveryLimit.inc(count);
  }

  /** A report that finished a claimed command: seconds since its (last) hand-out. */
  reported(status: string, claimedAt: string, reportedAt: string): void {
    const seconds = (Date.parse(reportedAt) - Date.parse(claimedAt)) / 1000;
    if (Number.isFinite(seconds)) this.reportLatency.observe({ status }, Math.max(0, seconds));
  }

  backup(outcome: 'made' | 'failed'): void {
    this.backups.inc({ outcome });
  }

  /** A gauge computed at scrape time (`read` returns the value of each label set). */
  gauge(name: string, help: string, label: string, read: () => Promise<Record<string, number>>): void {
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      async collect() {
        for (const [value, n] of Object.entries(await read())) this.set({ [label]: value }, n);
      },
    });
  }

  /** A gauge without labels, computed at scrape time. */
  value(name: string, help: string, read: () => Promise<number>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /**
   * Express middleware timing every request until its answer is written. The route is the matched
   * pattern (`/batches/:id`), never the raw URL; a request that matched none is `unmatched`.
   */
  httpTimer() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const end = this.http.startTimer();
      res.once('finish', () => {
        const route = (req.route as { path?: unknown } | undefined)?.path;
        const pattern = typeof route === 'string' ? `${req.baseUrl}${route}` : UNMATCHED_ROUTE;
        end({ method: req.method, route: pattern, status: String(res.statusCode) });
      });
      next();
    };
  }

  async scrape(): Promise<string> {
    return Registry.merge([this.registry, processMetrics()]).metrics();
  }
}
