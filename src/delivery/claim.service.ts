/** The long poll of SPEC 6.2: the claims waiting for work (Waiters) and the claim that waits (ClaimService). */
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { AgentFirst, Clock, HUB_CONFIG, type HubConfig } from '../common/index.js';
import { EventBus } from '../events/index.js';
import type { HubEvent } from '../events/index.js';
import { Notifier } from '../database/index.js';
import type { AgentInfo } from './agent-info.js';
import { DeliveryService, type ClaimAnswer, type Report } from './delivery.service.js';
import type { CommandView } from '../queue/index.js';
import { SettingsService } from '../settings/index.js';
import { JiraAuthRegistry } from './jira-auth.js';

/** Why a wait ended: new work may be there, the time passed, or the claim must answer now (closed connection, shutdown). */
export type WaitOutcome = 'woken' | 'timeout' | 'closed';

/** New work may be there: a batch became runnable (created, approved, a retry's), or the settings changed (an auto-refresh may be due). */
function wakes(e: HubEvent): boolean {
  if (e.kind === 'settings') return true;
  if (e.kind !== 'batch') return false;
  // A batch made waiting for approval (SPEC 15.2) is no work yet: its approval wakes the claims.
  if (e.change === 'created') return (e.view as { status?: string } | undefined)?.status !== 'awaiting_approval';
  return e.change === 'approved';
}

/** The Notifier channel of "new work may be there". */
const WAKE = 'work';

/**
 * Long-poll waiters (SPEC 6.2): a claim with nothing to hand out sleeps here until new work may be
 * there (a batch was queued, or the settings changed: an auto-refresh may be due), its time passes,
 * its connection closes, or the hub shuts down. Its time is the hub's `Clock`'s.
 *
 * Wake-ups go through the Notifier, so a batch queued (or settings changed) on another replica of
 * the same PostgreSQL database wakes the claims held here too.
 *
 * A claim takes a `ticket` before it looks at the queue and waits with it: a wake-up that came in
 * between (after its transaction, before its wait began) ends the wait at once instead of being lost.
 */
@Injectable()
export class Waiters {
  private readonly waiting = new Set<(outcome: WaitOutcome) => void>();
  private wakes = 0;
  private isClosed = false;

  constructor(
    events: EventBus,
    notifier: Notifier,
    private readonly clock: Clock,
  ) {
    notifier.listen(WAKE, () => this.wakeAll());
    events.subscribe((e) => {
      if (wakes(e)) notifier.notify(WAKE);
    });
  }

  /** The hub is shutting down: no claim waits, and none should look at the queue again. */
  get closed(): boolean {
    return this.isClosed;
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Taken before a claim looks at the queue. */
  ticket(): number {
    return this.wakes;
  }

  wait(ms: number, ticket: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (this.isClosed || signal?.aborted) return Promise.resolve('closed');
    if (ticket !== this.wakes) return Promise.resolve('woken');
    if (ms <= 0) return Promise.resolve('timeout');
    return new Promise((resolve) => {
      const finish = (outcome: WaitOutcome) => {
        cancel();
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(finish);
        resolve(outcome);
      };
      const onAbort = () => finish('closed');
      const cancel = this.clock.after(ms, () => finish('timeout'));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.add(finish);
    });
  }

  private wakeAll(): void {
    this.wakes++;
    for (const finish of [...this.waiting]) finish('woken');
  }

  /** Every waiting claim answers now; no new claim waits. */
  close(): void {
    this.isClosed = true;
    for (const finish of [...this.waiting]) finish('closed');
  }
}

/**
 * A claim with the long poll of SPEC 6.2: claim; while nothing and time left, wait for new work and
 * claim again. When the time passes it claims once more (an auto-refresh may have come due meanwhile);
 * a closed connection or a shutdown answers with what it has, and nothing more is handed out. The
 * deadline is on the hub's `Clock`, as every other time of the hub.
 */
@Injectable()
export class ClaimService implements BeforeApplicationShutdown {
  private readonly active = new Set<Promise<unknown>>();

  constructor(
    private readonly delivery: DeliveryService,
    private readonly waiters: Waiters,
    private readonly settings: SettingsService,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
    private readonly clock: Clock,
    private readonly first: AgentFirst,
    private readonly jiraAuth: JiraAuthRegistry,
  ) {}

  claim(info: AgentInfo, waitSeconds: number, signal?: AbortSignal): Promise<ClaimAnswer> {
    this.jiraAuth.record(info, this.clock.iso());
    // Jira refuses the agent's credentials (SPEC 16.3): the claim only tells so; no waiting, nothing handed out.
    if (info.jira_auth === 'failed') waitSeconds = 0;
    // Shutting down: nothing more is handed out (the answer could be cut, and the delivery wasted).
    if (this.waiters.closed) return Promise.resolve({ command: null, settingsVersion: this.settings.get().version });
    return this.track(this.poll(info, this.clock.now().getTime() + Math.min(waitSeconds, this.config.claimMaxWaitSeconds) * 1000, signal));
  }

  /**
   * A report that also claims the next command (the merged call): no waiting, and during a shutdown
   * the report alone, as a claim then hands out nothing.
   */
  reportAndClaim(id: number, report: Report, info: AgentInfo): Promise<{ view: CommandView; next: ClaimAnswer }> {
    this.jiraAuth.record(info, this.clock.iso());
    return this.track(this.delivery.reportAndClaim(id, report, info, () => this.waiters.closed));
  }

  /** Held until answered at shutdown (see beforeApplicationShutdown). */
  private track<T>(run: Promise<T>): Promise<T> {
    this.active.add(run);
    void run.finally(() => this.active.delete(run)).catch(() => undefined);
    return run;
  }

  private async poll(info: AgentInfo, deadline: number, signal?: AbortSignal): Promise<ClaimAnswer> {
    for (;;) {
      const ticket = this.waiters.ticket();
      const answer = await this.delivery.claim(info, () => this.waiters.closed || Boolean(signal?.aborted));
      if (answer.command || this.clock.now().getTime() >= deadline || signal?.aborted) return answer;
      if ((await this.first.parkedWhile(this.waiters.wait(deadline - this.clock.now().getTime(), ticket, signal))) === 'closed') return answer;
    }
  }

  /**
   * Before Nest closes the HTTP server (which cuts open connections): held claims answer
   * `command: null` and their answers are written.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.waiters.close();
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
    await new Promise((resolve) => setImmediate(resolve)); // the controller's reply runs in the continuation
  }
}
