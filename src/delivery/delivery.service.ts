import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, HUB_CONFIG, type HubConfig } from '../common/index.js';
import type { EntityManager } from 'typeorm';
import type { DeliveredCommand } from '@jira-hub/contracts';
import { BackupService, Db, parseJson } from '../database/index.js';
import { EventBus } from '../events/index.js';
import type { HubEvent } from '../events/index.js';
import { Meter } from '../metrics/index.js';
import { SettingsService } from '../settings/index.js';
import { BatchViews } from '../queue/index.js';
import type { CommandRow, CommandView } from '../queue/index.js';
import type { AgentInfo } from './agent-info.js';
import { ClaimRules, DELIVERY_LIMIT_ERROR, type ClaimNotes, type Claimed } from './claim-rules.js';
import { deliveryView, type Looked } from './delivery.repository.js';
import { ReportRules, type Report } from './report-rules.js';

export type { Report };

/** A claim's transaction that found a backup copy running: nothing changed, claim again after it. */
const COPYING = Symbol('copying');

/** What the agent receives for a command (SPEC 6.2): the wire contract the agent reads. */
export type { DeliveredCommand };

function delivered(row: CommandRow): DeliveredCommand {
  return {
    id: row.id,
    type: row.type,
    params: parseJson<Record<string, unknown>>(row.params, {}),
    pause_seconds: row.pause_seconds ?? 0,
    batch_id: row.batch_id,
    deliveries: row.deliveries,
  };
}

/** What a claim changed: the agent was seen; commands handed out, failed at the limit, skipped; an auto-refresh. */
function claimEvents(c: Claimed | null, notes: ClaimNotes): HubEvent[] {
  const events: HubEvent[] = [{ kind: 'agent', change: 'claim' }];
  const batches = new Set<number>();
  if (notes.created != null) events.push({ kind: 'batch', change: 'created', batch_id: notes.created });
  for (const e of notes.expired) events.push({ kind: 'command', change: 'expired', command_id: e.id, batch_id: e.batch_id }), batches.add(e.batch_id);
  for (const e of notes.skipped) events.push({ kind: 'command', change: 'skipped', command_id: e.id, batch_id: e.batch_id }), batches.add(e.batch_id);
  if (c) events.push({ kind: 'command', change: 'claimed', command_id: c.command.id, batch_id: c.command.batch_id }), batches.add(c.command.batch_id);
  for (const b of batches) events.push({ kind: 'batch', change: 'progress', batch_id: b });
  return events;
}

/** What a report changed: its command, those a refresh confirmed by state, their batches, the agent's current command. */
function reportEvents(c: CommandRow, confirmed: CommandRow[]): HubEvent[] {
  const events: HubEvent[] = [{ kind: 'command', change: 'reported', command_id: c.id, batch_id: c.batch_id }];
  for (const o of confirmed) events.push({ kind: 'command', change: 'confirmed', command_id: o.id, batch_id: o.batch_id });
  for (const b of new Set([c.batch_id, ...confirmed.map((o) => o.batch_id)])) events.push({ kind: 'batch', change: 'progress', batch_id: b });
  events.push({ kind: 'agent', change: 'status' });
  return events;
}

/** A claim's answer: the command (null: nothing to hand out now) and the settings version it went out under. */
export interface ClaimAnswer {
  command: DeliveredCommand | null;
  settingsVersion: number;
}

type Tx = { afterCommit(cb: () => void): void };

/** The claim part of a unit of work, and what to do with its outcome once committed. */
interface ClaimStep {
  claimed: Claimed | null | typeof COPYING;
  notes: ClaimNotes;
  settingsVersion: number;
  /** the backup copy the claim started (after its commit), if any */
  copy?: Promise<unknown>;
}

/** The agent side of the queue: claim and report, one transaction each (SPEC 6.2–6.6), or both in one. */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger('Delivery');

  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly backups: BackupService,
    private readonly meter: Meter,
    private readonly events: EventBus,
    private readonly claims: ClaimRules,
    private readonly reports: ReportRules,
    private readonly views: BatchViews,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /**
   * One claim: the command (null when there is nothing to hand out now) and the settings version it
   * was handed out under. Settings are read inside the transaction, so a PATCH that committed first
   * always sets the pause.
   *
   * The backup of SPEC 3.2 runs after the commit, registered in the commit's `afterCommit` (before any
   * other unit of work starts). No claim looks at the queue while a copy runs: it waits first, and a
   * claim already queued behind the one that started the copy sees the copy inside its transaction,
   * changes nothing and waits too. So a copy never holds a re-delivery made after it, and a long copy
   * never uses up the agent's deliveries. The claim that started the copy answers once it is made.
   *
   * `stop` is asked before each look at the queue: a closed connection or a shutdown gets null.
   */
  async claim(info: AgentInfo, stop: () => boolean = () => false): Promise<ClaimAnswer> {
    const notes: ClaimNotes = { expired: [], skipped: [] };
    let step: ClaimStep;
    do {
      await this.backups.idle();
      if (stop()) return { command: null, settingsVersion: this.settings.get().version };
      step = await this.db.transaction((m, tx) => this.claimStep(m, tx, info, notes));
    } while (step.claimed === COPYING);
    return this.claimed(step);
  }

  /**
   * The claim inside a unit of work: nothing when a backup copy runs (COPYING), else SPEC 6.2–6.4 with
   * its events and, after the commit, the copy of SPEC 3.2 when due.
   */
  private async claimStep(m: EntityManager, tx: Tx, info: AgentInfo, notes: ClaimNotes, looked?: Looked): Promise<ClaimStep> {
    const settings = this.settings.get();
    const step: ClaimStep = { claimed: COPYING, notes, settingsVersion: settings.version };
    if (this.backups.busy()) return step;
    const c = (step.claimed = await this.claims.claim(m, info, settings, this.clock.now(), notes, this.config.catalogueAutoRefresh, looked));
    this.events.afterCommit(tx, () => claimEvents(c, notes));
    // The first delivery makes the copy; a re-delivery makes it only when the batch has none
    // (the hub died between the claim's commit and the end of the copy, or the copy failed).
    if (c?.backupBatchId != null && (c.command.deliveries === 1 || !this.backups.hasCopy(c.backupBatchId))) {
      const [batchId, keep] = [c.backupBatchId, settings.backup_keep];
      tx.afterCommit(() => (step.copy = this.backups.beforeBatch(batchId, keep)));
    }
    return step;
  }

  /** After a claim's commit: its log lines and counts, and the copy it started made before it answers. */
  private async claimed({ claimed, notes, settingsVersion, copy }: ClaimStep): Promise<ClaimAnswer> {
    this.meter.failedAtDeliveryLimit(notes.expired.length);
    for (const { id } of notes.expired) this.logger.warn(`command ${id} failed: ${DELIVERY_LIMIT_ERROR}`);
    for (const { id, error } of notes.skipped) this.logger.warn(`command ${id} skipped: ${error}`);
    if (!claimed || claimed === COPYING) return { command: null, settingsVersion };
    await copy; // the copy this claim started, if any
    const c = claimed.command;
    this.meter.claimed(c.deliveries);
    this.logger.log(`handed out command ${c.id} (${c.type}, batch ${c.batch_id}, delivery ${c.deliveries})`);
    return { command: delivered(c), settingsVersion };
  }

  report(id: number, report: Report): Promise<CommandView> {
    return this.reportAnd(id, report, null).then(({ view }) => view);
  }

  /**
   * The merged call: the report and, in the same transaction, the claim of what comes next (SPEC 6.2
   * as a claim right after the report, with every rule of both). A report the hub refuses claims
   * nothing. While a backup copy runs the report is made and the claim answers null: the agent then
   * claims on its own, as after an empty claim.
   */
  async reportAndClaim(id: number, report: Report, info: AgentInfo, stop: () => boolean = () => false): Promise<{ view: CommandView; next: ClaimAnswer }> {
    const { view, next } = await this.reportAnd(id, report, info, stop);
    return { view, next: next ?? { command: null, settingsVersion: this.settings.get().version } };
  }

  private async reportAnd(id: number, report: Report, info: AgentInfo | null, stop = () => false): Promise<{ view: CommandView; next: ClaimAnswer | null }> {
    const now = this.clock.iso();
    const notes: ClaimNotes = { expired: [], skipped: [] };
    const { view, handedOutAt, step } = await this.db.transaction(async (m, tx) => {
      const confirmed: CommandRow[] = [];
      const claims = info !== null && !stop();
      const { before, after, read, looked } = await this.reports.report(m, id, report, now, confirmed, claims);
      // A repeated report changes nothing, and its event tells a listener nothing new: harmless, and no extra read.
      this.events.afterCommit(tx, reportEvents(after, confirmed));
      const view = read
        ? this.views.commandWith(after, read.history.map(deliveryView), read.changes, new Map(read.history.map((d) => [d.id, d.n])))
        : await this.views.command(m, after);
      const step = claims ? await this.claimStep(m, tx, info, notes, looked) : null;
      return { view, handedOutAt: before.status === 'claimed' ? before.claimed_at : null, step };
    });
    // Only a report that finished a handed-out command counts: a repeated one changes nothing, and a release is
    // no report of the command (one of a batch cancelled meanwhile ends cancelled, by the person's cancel).
    if (handedOutAt && report.status !== 'released' && view.status !== 'claimed' && view.status !== 'queued') this.meter.reported(view.status, handedOutAt, now);
    this.logger.log(`report for command ${id} (${report.status}): now ${view.status}${view.error ? `, error: ${view.error.slice(0, 200)}` : ''}`);
    return { view, next: step ? await this.claimed(step) : null };
  }
}
