/** A tiny in-process stand-in for the hub's agent API (claim / result / settings), for the agent's specs. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCommand, ClaimedCommand, ReportBody } from './types.js';
import type { QueuedStatusTarget } from '@jira-hub/contracts';

export interface FakeHubEvent {
  kind: 'claim' | 'report' | 'settings';
  id?: number;
  body?: unknown;
  status: number;
}

export class FakeHub {
  readonly events: FakeHubEvent[] = [];
  readonly reports: Array<{ id: number; body: ReportBody }> = [];
  private readonly queue: ClaimedCommand[] = [];
  private claimed: ClaimedCommand | null = null;
  private server: Server | undefined;
  /** The next N requests answer 503 (hub restarting). */
  unavailable = 0;
  /** The next N reports answer 503. */
  failReports = 0;
  /** Status the next report gets instead of 200 (once). */
  refuseNextReport: number | undefined;
  /** Body of that refusal (default: not_claimed). */
  refuseNextReportBody: unknown;
  /** Every report this answers with a status and body is refused so (after refuseNextReport). */
  refuseReports: ((report: ReportBody) => { status: number; body: unknown } | undefined) | undefined;
  settingsVersion = 1;
  /** link_types and fields GET /agent/settings hands out. */
  settings: { link_types: Record<string, string>; fields: string[] } = { link_types: {}, fields: ['Story Points'] };
  /** What GET /agent/queued-statuses answers (the agent's --check): the statuses alone, as a hub before issue types per status did… */
  queuedStatuses: string[] = [];
  /** …or, when set, each with the issue types walked there. */
  queuedTargets: QueuedStatusTarget[] | undefined;
  /** Called when a claim finds nothing to hand out. */
  onIdle: (() => void) | undefined;
  /** Called after a report was accepted. */
  onReport: ((id: number) => void) | undefined;

  constructor(readonly token = 'agent-token') {}

  enqueue(command: AgentCommand, pauseSeconds = 0): void {
    this.queue.push({ ...command, pause_seconds: pauseSeconds, batch_id: 1, deliveries: 0 });
  }

  /** A command the agent claimed and never reported: handed out again with deliveries + 1. */
  get claimedCommand(): ClaimedCommand | null {
    return this.claimed;
  }

  /** A claim: the unfinished command again (deliveries + 1), else the next queued one, else null. */
  private take(): ClaimedCommand | null {
    if (!this.claimed) this.claimed = this.queue.shift() ?? null;
    if (this.claimed) this.claimed = { ...this.claimed, deliveries: this.claimed.deliveries + 1 };
    return this.claimed;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = text ? JSON.parse(text) : undefined;
        const send = (kind: FakeHubEvent['kind'], status: number, payload: unknown, id?: number) => {
          this.events.push({ kind, id, body, status });
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(payload));
        };
        const url = req.url ?? '';
        const kind: FakeHubEvent['kind'] = url.startsWith('/agent/claim') ? 'claim' : url.startsWith('/agent/settings') ? 'settings' : 'report';
        if (req.headers.authorization !== `Bearer ${this.token}`) return send(kind, 401, { error: 'unauthorized' });
        if (this.unavailable > 0) {
          this.unavailable--;
          return send(kind, 503, { error: 'internal' });
        }
        if (kind === 'settings') return send(kind, 200, { version: this.settingsVersion, pacing: {}, ...this.settings });
        if (url.startsWith('/agent/queued-statuses')) return send('settings', 200, this.queuedTargets ? { statuses: this.queuedTargets.map((t) => t.status), targets: this.queuedTargets } : { statuses: this.queuedStatuses });
        if (kind === 'claim') {
          // SPEC 16.3: a claim telling that Jira refuses the agent's credentials hands out nothing.
          if ((body as { jira_auth?: string } | undefined)?.jira_auth === 'failed') return send(kind, 200, { command: null, settings_version: this.settingsVersion });
          const command = this.take();
          if (!command) this.onIdle?.();
          return send(kind, 200, { command, settings_version: this.settingsVersion });
        }
        const id = Number(/\/agent\/commands\/(\d+)\/result/.exec(url)?.[1]);
        if (this.failReports > 0) {
          this.failReports--;
          return send(kind, 503, { error: 'internal' }, id);
        }
        if (this.refuseNextReport) {
          const status = this.refuseNextReport;
          const payload = this.refuseNextReportBody ?? { error: 'not_claimed', detail: 'команда не выдана' };
          this.refuseNextReport = undefined;
          this.refuseNextReportBody = undefined;
          return send(kind, status, payload, id);
        }
        const refusal = this.refuseReports?.(body as ReportBody);
        if (refusal) return send(kind, refusal.status, refusal.body, id);
        const released = (body as ReportBody | undefined)?.status === 'released' && this.claimed?.id === id ? this.claimed : null;
        if (this.claimed?.id === id) this.claimed = null;
        // A release puts the command back at the head of the queue, the delivery not counted.
        if (released) this.queue.unshift({ ...released, deliveries: released.deliveries - 1 });
        const { claim, ...report } = body as ReportBody;
        this.reports.push({ id, body: report as ReportBody });
        this.onReport?.(id);
        if (!claim) return send(kind, 200, { id, status: report.status }, id);
        // The merged call: the report, then a claim in the same request (recorded as a claim event too).
        this.events.push({ kind: 'report', id, body, status: 200 });
        const next = this.take();
        this.events.push({ kind: 'claim', body: claim, status: 200 });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        // No onIdle here: after an empty `next` the agent claims on its own, and that claim calls it.
        res.end(JSON.stringify({ id, status: report.status, next: { command: next, settings_version: this.settingsVersion } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
