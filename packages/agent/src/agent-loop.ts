import { partSender } from './commands/refresh.js';
import { executeCommand } from './executors.js';
import { HubHttpError, HubStoppedError, type HubClient } from './hub-client.js';
import { JiraApi } from './jira-api.js';
import { JiraHttpError, JiraStoppedError, type JiraClient } from './jira-client.js';
import type { AgentJournal } from './journal.js';
import { sleep as realSleep, type Sleep } from './sleep.js';
import type { AgentSettings, ClaimedCommand, CommandOutcome, ReportBody } from './types.js';
import type { AgentInfo, ClaimResponse } from '@jira-hub/contracts';

export const AGENT_VERSION = '0.1.0';

export interface RunAgentOptions {
  hub: HubClient;
  jira: JiraClient;
  journal: AgentJournal;
  /** Jira project key for new issues. */
  project: string;
  /** One line per event; default console.log. */
  log?: (line: string) => void;
  stopSignal?: AbortSignal;
  /** Handle at most one claim (after re-sending held results), then return. */
  once?: boolean;
  /** Long-poll of each claim in whole seconds, 0..60 (default 30; the hub answers 422 above 60). */
  waitSeconds?: number;
  agentVersion?: string;
  /** Test hook: stop after executing a command and journaling its result, before reporting it (a lost report). */
  crashAfterExecute?: boolean;
  sleep?: Sleep;
  now?: () => number;
  /** Back-off while Jira is unreachable: first wait (default 5000 ms), doubled up to the max (default 60000 ms). */
  outageRetryBaseMs?: number;
  outageRetryMaxMs?: number;
  /**
   * Give up a command Jira's outage keeps from running once this long (default 30 min) has passed since its
   * first outage failure, and report it `failed` with the last error. In `once` mode the command is given up
   * after the first failed retry.
   */
  outageGiveUpMs?: number;
  /**
   * SPEC 16.3: while Jira refuses the credentials (401) the agent re-checks GET /myself after this wait
   * (default 30000 ms), doubled each time up to authRetryMaxMs (default 300000 ms = 5 min).
   */
  authRetryBaseMs?: number;
  authRetryMaxMs?: number;
  /** After an empty claim with wait_seconds 0, wait this long before claiming again (default 1000 ms). */
  idleClaimDelayMs?: number;
  /** refresh: issues per part of a large result (default 1,000), SPEC 15.5. */
  refreshPartIssues?: number;
  /** ensure_issue's waits before re-searching after a create whose answer was lost (default 5, 10, 20, 20 s); see ExecutorContext. */
  createRecheckDelaysMs?: number[];
  /**
   * The merged call (default true): each report also claims the next command in the same request and
   * transaction (`claim` in the report body), saving the hub a request and a commit per command. Off in
   * `once` mode and when stopping (a command claimed then would wait for a re-delivery), and for the
   * rest of the run once a hub refuses the `claim` field (an older hub).
   */
  mergedClaim?: boolean;
}

export interface AgentRunSummary {
  executed: number;
  reported: number;
  stoppedBy: 'once' | 'signal' | 'crash';
}

/** While Jira refuses the credentials, the hub hears from the agent at least this often (its offline threshold is 120 s by default). */
const AUTH_HEARTBEAT_MS = 60_000;
/** A command Jira's outage keeps from running is given up after this long (then reported failed). */
const DEFAULT_OUTAGE_GIVE_UP_MS = 30 * 60_000;

const DEFAULT_SETTINGS: AgentSettings = { version: 0, pacing: {}, link_types: {}, fields: [] };

/**
 * The agent: re-send any result the journal still holds, then claim (long poll), wait until the command's
 * pause has passed since the last Jira call, execute, journal the result, report it, mark it acknowledged.
 * A result is never dropped: while the hub is unreachable the report is retried with back-off; a report the
 * hub refuses (413/422) is sent again smaller (smallerReport: without its change record, then as `failed`
 * with the hub's reason); only a hub that refuses a report outright otherwise (404/409), or refuses even
 * that failure, makes the agent log it and let it go. While Jira is unreachable nothing is
 * reported: the agent backs off and runs the same command again — for at most `outageGiveUpMs` (30 min) or
 * one retry in `once` mode; then it reports `failed` with the last error. A 401 (Jira refuses the
 * credentials, SPEC 16.3) releases the command back to the queue and pauses the agent until Jira accepts
 * them again (see release). With wait_seconds 0 an empty claim is followed by a pause of about 1 s.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunSummary> {
  const loop = new AgentLoop(options);
  try {
    return await loop.run();
  } catch (error) {
    if (error instanceof HubStoppedError) return loop.summary('signal');
    throw error;
  }
}

class AgentLoop {
  private readonly log: (line: string) => void;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private settings: AgentSettings | undefined;
  private executed = 0;
  private reported = 0;
  private merged: boolean;
  /** The next command, claimed by the last report (the merged call). */
  private next: ClaimResponse | null = null;
  /** SPEC 16.3: since when Jira refuses the agent's credentials (epoch ms), null while it accepts them. */
  private authFailedSince: number | null = null;

  constructor(private readonly o: RunAgentOptions) {
    this.log = o.log ?? ((line) => console.log(line));
    this.sleep = o.sleep ?? realSleep;
    this.now = o.now ?? Date.now;
    this.merged = (o.mergedClaim ?? true) && !o.once;
  }

  summary(stoppedBy: AgentRunSummary['stoppedBy']): AgentRunSummary {
    return { executed: this.executed, reported: this.reported, stoppedBy };
  }

  private get stopped(): boolean {
    return this.o.stopSignal?.aborted ?? false;
  }

  async run(): Promise<AgentRunSummary> {
    for (const pending of this.o.journal.pendingResults()) {
      this.log(`#${pending.command_id} re-sending the result held in the journal (${pending.report.status})`);
      await this.deliver(pending.command_id, pending.report);
    }
    while (!this.stopped) {
      this.settings ??= await this.loadSettings();
      const claim = this.next?.command ? this.next : await this.o.hub.claim({ ...this.agentInfo(), wait_seconds: clampWaitSeconds(this.o.waitSeconds) }, this.o.stopSignal);
      this.next = null;
      if (claim.settings_version !== this.settings.version) {
        this.settings = await this.loadSettings();
        JiraApi.for(this.o.jira).clearFieldCache(); // settings `fields` may name a field Jira got since
      }
      if (claim.command) {
        const outcome = await this.handle(claim.command);
        if (outcome === 'crash') return this.summary('crash');
      }
      if (this.o.once) return this.summary('once');
      // No long poll: do not hammer the hub with claims.
      if (!claim.command && !this.stopped && clampWaitSeconds(this.o.waitSeconds) === 0) await this.sleep(this.o.idleClaimDelayMs ?? 1000, this.o.stopSignal);
    }
    return this.summary('signal');
  }

  private async handle(cmd: ClaimedCommand): Promise<'reported' | 'crash' | 'stopped'> {
    await this.waitForPause(cmd);
    if (this.stopped) return 'stopped'; // still claimed: the hub hands it out again
    const before = this.o.jira.stats();
    const started = this.now();
    let outcome: CommandOutcome;
    let outageSince: number | null = null;
    /**
     * What the command had changed in Jira when an outage ended an execution (a status walk's transitions taken):
     * a later execution that fails before it reads Jira knows nothing of it, and an outage given up is reported
     * with it (decision 1497). The latest execution that knew any knows the most (it settles the journal's walk).
     */
    let madeBeforeOutage: CommandOutcome['changes'];
    const reportPart = cmd.type === 'refresh' ? partSender(this.o.hub, cmd.id) : undefined;
    for (let attempt = 0; ; attempt++) {
      outcome = await executeCommand(cmd, {
        client: this.o.jira,
        project: this.o.project,
        journal: this.o.journal,
        customFields: this.settings?.fields ?? [],
        log: (line) => this.log(`#${cmd.id} ${line}`),
        sleep: this.sleep,
        stopSignal: this.o.stopSignal,
        createRecheckDelaysMs: this.o.createRecheckDelaysMs,
        reportPart,
        refreshPartIssues: this.o.refreshPartIssues,
        agentVersion: this.o.agentVersion ?? AGENT_VERSION,
      });
      if (outcome.status === 'failed' && outcome.stopped) return 'stopped'; // still claimed: the hub hands it out again
      if (outcome.status === 'failed' && outcome.unauthorized) return this.release(cmd, outcome.error, before);
      if (outcome.status === 'done' || !outcome.outage) break;
      if (outcome.changes?.length) madeBeforeOutage = outcome.changes;
      outageSince ??= this.now();
      const giveUp =
        this.now() - outageSince >= (this.o.outageGiveUpMs ?? DEFAULT_OUTAGE_GIVE_UP_MS)
            ? 'the outage outlasted the retry limit'
            : this.o.once && attempt >= 1
              ? 'once mode: the retry failed too'
              : null;
      if (giveUp) {
        // Bounded: credentials do not fix themselves quickly, and a long outage must not hold the queue forever.
        this.log(`#${cmd.id} ${cmd.type}: Jira unavailable (${outcome.error}); giving up (${giveUp}), reporting failed`);
        if (madeBeforeOutage && !outcome.changes?.length) outcome = { ...outcome, changes: madeBeforeOutage };
        break;
      }
      // Jira as a whole is unusable: not this command's failure. Keep the command (the agent still holds it,
      // nothing is claimed meanwhile) and run it again after a back-off; commands are idempotent, and
      // ensure_issue's journal keeps a created key from being created twice (and, when POST /issue's answer
      // was lost, its create attempt makes the retry search again with back-off before creating).
      const base = this.o.outageRetryBaseMs ?? 5000;
      const delay = Math.min(base * 2 ** Math.min(attempt, 20), this.o.outageRetryMaxMs ?? 60_000);
      this.log(`#${cmd.id} ${cmd.type}: Jira unavailable (${outcome.error}); not reported, the same command again in ${Math.round(delay / 1000)} s`);
      await this.sleep(delay, this.o.stopSignal);
      if (this.stopped) return 'stopped'; // still claimed: the hub hands it out again
    }
    const after = this.o.jira.stats();
    const report: ReportBody = {
      ...(outcome.status === 'done'
        ? { status: 'done', result: outcome.result, ...(outcome.changes ? { changes: outcome.changes } : {}) }
        : { status: 'failed', error: outcome.error, ...(outcome.changes ? { changes: outcome.changes } : {}), ...(outcome.missing_keys ? { missing_keys: outcome.missing_keys } : {}), ...(outcome.transitions_seen ? { transitions_seen: outcome.transitions_seen } : {}) }),
      jira_calls: after.jiraCalls - before.jiraCalls,
      rate_limited: after.rateLimited - before.rateLimited,
    };
    this.o.journal.recordResult(cmd.id, report, this.lastJiraCallIso());
    this.executed++;
    this.log(
      `#${cmd.id} ${cmd.type} ${outcome.status} in ${((this.now() - started) / 1000).toFixed(1)} s, ` +
        `jira_calls=${report.jira_calls} rate_limited=${report.rate_limited}, delivery ${cmd.deliveries}: ${describe(cmd, outcome)}`,
    );
    if (this.o.crashAfterExecute) return 'crash';
    await this.deliver(cmd.id, report);
    return 'reported';
  }

  /**
   * SPEC 16.3: Jira refused the credentials (401). The command did not fail: it is reported `released` (back
   * to the queue in its place, the delivery not counted), then the agent claims nothing and re-checks
   * GET /myself with back-off (authRetryBaseMs doubling to authRetryMaxMs), telling the hub
   * `jira_auth: "failed"` with a claim that hands out nothing, until Jira accepts the credentials again.
   */
  private async release(cmd: ClaimedCommand, error: string, before: { jiraCalls: number; rateLimited: number }): Promise<'reported' | 'stopped'> {
    const after = this.o.jira.stats();
    const report: ReportBody = { status: 'released', error, jira_calls: after.jiraCalls - before.jiraCalls, rate_limited: after.rateLimited - before.rateLimited };
    this.authFailedSince ??= this.now();
    this.log(`#${cmd.id} ${cmd.type}: Jira refuses the credentials (${error}); released back to the queue, pausing until Jira accepts them`);
    this.o.journal.recordResult(cmd.id, report, this.lastJiraCallIso());
    await this.deliver(cmd.id, report);
    if (this.o.once) return 'reported';
    await this.waitForJiraAuth();
    return this.stopped ? 'stopped' : 'reported';
  }

  /** Claims nothing until GET /myself answers; each failed check is told to the hub (jira_auth: failed). */
  private async waitForJiraAuth(): Promise<void> {
    const max = this.o.authRetryMaxMs ?? 300_000;
    let delay = Math.min(this.o.authRetryBaseMs ?? 30_000, max);
    while (!this.stopped) {
      this.log(`Jira refuses the credentials since ${new Date(this.authFailedSince!).toISOString()}; checking again in ${Math.round(delay / 1000)} s`);
      // Told at least every minute, so the hub does not take the paused agent for an offline one.
      for (let left = delay; left > 0 && !this.stopped; left -= AUTH_HEARTBEAT_MS) {
        await this.o.hub.claim({ ...this.agentInfo(), wait_seconds: 0 }, this.o.stopSignal);
        await this.sleep(Math.min(left, AUTH_HEARTBEAT_MS), this.o.stopSignal);
      }
      if (this.stopped) return;
      try {
        await this.o.jira.api('GET', '/myself');
        this.log('Jira accepts the credentials again; going on');
        this.authFailedSince = null;
        return;
      } catch (error) {
        if (error instanceof JiraStoppedError) return;
        if (!(error instanceof JiraHttpError && error.status === 401)) {
          // Not the credentials (Jira unreachable, a 5xx): check again after the same wait.
          this.log(`GET /myself failed (${(error as Error).message}); checking again`);
          continue;
        }
      }
      delay = Math.min(delay * 2, max);
    }
  }

  /** Sleeps until pause_seconds have passed since the last Jira call (pacing survives restarts via the journal). */
  private async waitForPause(cmd: ClaimedCommand): Promise<void> {
    const last = this.lastJiraCallMs();
    if (last === null) return;
    const waitMs = last + cmd.pause_seconds * 1000 - this.now();
    if (waitMs <= 0) return;
    this.log(`#${cmd.id} ${cmd.type}: pausing ${Math.ceil(waitMs / 1000)} s since the last Jira call`);
    await this.sleep(waitMs, this.o.stopSignal);
  }

  /**
   * Reports a journaled result until the hub answers. A final report the hub refuses as too large (413) or
   * invalid (422) is sent again smaller (smallerReport: first without its change record, then as a `failed`
   * carrying the hub's reason), each journaled before it is sent, so the command does not stay claimed with
   * its outcome lost and get run again. Any other refusal (404, 409) is logged and the result dropped, with
   * the key and create attempt ensure_issue journaled for the id (a new hub database reuses ids).
   */
  private async deliver(commandId: number, report: ReportBody): Promise<void> {
    // A release claims nothing: the agent pauses until Jira accepts its credentials again.
    const merged = this.merged && !this.stopped && report.status !== 'released';
    try {
      const answer = await this.o.hub.report(commandId, merged ? { ...report, claim: this.agentInfo() } : report);
      this.reported++;
      this.o.journal.markAcknowledged(commandId);
      if (merged) this.next = answer.next ?? null;
    } catch (error) {
      if (!(error instanceof HubHttpError) || error.status === 401 || error.status === 403) throw error;
      if (merged && error.status === 422 && /\bclaim\b/.test(error.message)) {
        // A hub without the merged call refused the whole request: nothing was written there.
        this.log(`#${commandId} the hub does not take a claim with the report (${error.message}); reporting and claiming separately from now on`);
        this.merged = false;
        return this.deliver(commandId, report);
      }
      const smaller = error.status === 413 || error.status === 422 ? smallerReport(report, `${REFUSED} HTTP ${error.status}${error.detail ? `: ${error.detail}` : ''}`) : undefined;
      if (smaller) {
        const what = report.changes?.length ? 'reporting it without its change record' : 'reporting the command as failed';
        this.log(`#${commandId} the hub refused the result (${error.message}); ${what}`);
        this.o.journal.recordResult(commandId, smaller, this.lastJiraCallIso());
        await this.deliver(commandId, smaller);
        return;
      }
      this.log(`#${commandId} the hub refused the result (${error.message}); dropping it`);
      this.o.journal.dropResult(commandId);
    }
  }

  /** What the agent tells the hub with each claim (SPEC 6.2 step 1). */
  private agentInfo(): AgentInfo {
    return {
      agent_version: this.o.agentVersion ?? AGENT_VERSION,
      settings_version: this.settings?.version,
      last_jira_call_at: this.lastJiraCallIso(),
      ...(this.authFailedSince === null ? { jira_auth: 'ok' } : { jira_auth: 'failed', jira_auth_failed_since: new Date(this.authFailedSince).toISOString() }),
    };
  }

  private async loadSettings(): Promise<AgentSettings> {
    try {
      const settings = await this.o.hub.settings();
      return { ...DEFAULT_SETTINGS, ...settings };
    } catch (error) {
      if (!(error instanceof HubHttpError) || error.status === 401 || error.status === 403) throw error;
      this.log(`settings unavailable (${error.message}); using defaults`);
      return DEFAULT_SETTINGS;
    }
  }

  private lastJiraCallMs(): number | null {
    if (this.o.jira.lastCallAt !== null) return this.o.jira.lastCallAt;
    const stored = this.o.journal.lastJiraCallAt();
    return stored ? Date.parse(stored) : null;
  }

  private lastJiraCallIso(): string | null {
    const ms = this.lastJiraCallMs();
    return ms === null ? null : new Date(ms).toISOString();
  }
}

/** How the error of a report the agent sends in place of a refused one begins (smallerReport). */
const REFUSED = 'хаб не принял результат:';

/**
 * What to send instead of a final report the hub refused as too large or invalid (413/422), `reason` being
 * the hub's answer in words (starting with REFUSED); undefined when nothing smaller tells the outcome (the
 * result is then dropped).
 * Step by step, each smaller than the last, so the ladder ends:
 * 1. a failure with `missing_keys` or `transitions_seen`, without them: a hub before decision 1448 (1485)
 *    refuses the field it does not know, and they are worth least (the next refresh, or read of the catalogue,
 *    tells the hub the same) — dropped before the change record, which that hub takes;
 * 2. a report with a change record, without it: the outcome (a `done` stays done: it happened in Jira) is
 *    worth more than the record, which the hub may have refused for one value Jira sent (decision 1416);
 * 3. any other, a `failed` with the hub's reason and the Jira call counts (a failure's own text may be what
 *    the hub refused: a character from Jira's message it cannot store);
 * 4. that failure refused too: nothing.
 */
export function smallerReport(report: ReportBody, reason: string): ReportBody | undefined {
  if (report.status !== 'done' && report.status !== 'failed') return undefined;
  if (report.missing_keys !== undefined || report.transitions_seen !== undefined) {
    const { missing_keys: _dropped, transitions_seen: _seen, ...rest } = report;
    return rest;
  }
  if (report.changes?.length) {
    const { changes: _dropped, ...rest } = report;
    return rest;
  }
  if (report.status === 'failed' && report.result === undefined && report.error?.startsWith(REFUSED)) return undefined;
  return { status: 'failed', error: Array.from(reason).slice(0, 1500).join(''), jira_calls: report.jira_calls, rate_limited: report.rate_limited };
}

/** The long poll in whole seconds 0..60 (default 30): the hub answers 422 to more than 60. */
export function clampWaitSeconds(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return 30;
  return Math.min(60, Math.max(0, Math.trunc(value)));
}

function describe(cmd: ClaimedCommand, outcome: CommandOutcome): string {
  if (outcome.status === 'failed') return outcome.error;
  const r = outcome.result;
  if (cmd.type === 'refresh') {
    const missing = Array.isArray(r.missing_keys) ? ` missing=${r.missing_keys.length}` : '';
    return `issues=${(r.issues as unknown[]).length} links=${(r.links as unknown[]).length}${missing}`;
  }
  if (cmd.type === 'refresh_catalogue') {
    const c = r.catalogue as { issue_types?: unknown[]; fields?: unknown[]; transitions_source?: string; assignable?: unknown[] } | undefined;
    return `issue_types=${c?.issue_types?.length ?? 0} fields=${c?.fields?.length ?? 0} transitions=${c?.transitions_source ?? '?'} assignable=${c?.assignable?.length ?? 0}`;
  }
  return JSON.stringify(r);
}
