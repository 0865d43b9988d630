import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { AgentFirst } from '../common/agent-first.js';
import { Clock } from '../common/clock.js';
import { HUB_CONFIG, type HubConfig } from '../common/config.js';
import type { AgentInfo } from './agent-info.js';
import { DeliveryService, type ClaimAnswer, type Report } from './delivery.service.js';
import type { CommandView } from '../queue/rows.js';
import { SettingsService } from '../settings/settings.service.js';
import { JiraAuthRegistry } from './jira-auth.js';
import { Waiters } from './waiters.js';

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
