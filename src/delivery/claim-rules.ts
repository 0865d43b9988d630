/**
 * The claim (SPEC 6.2–6.4, 15.2, 16.1): the body of one transaction, run by DeliveryService. Re-delivery
 * of the oldest handed-out command first, else the next runnable one with its temp keys resolved, the
 * hub's own refreshes when due, and the agent's status; every statement through the owners' repositories.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CatalogueRepository } from '../catalogue/index.js';
import { parseJson } from '../database/index.js';
import { SyncRunRepository } from '../mirror/index.js';
import { BatchRepository, CatalogueRefreshes, CommandRepository, substitute, type CatalogueCommandRow, type Resolution } from '../queue/index.js';
import { pacedAs, tempKeysNeeded, type Params } from '@jira-hub/contracts/catalogue';
import type { CommandRow } from '../queue/index.js';
import type { Settings } from '../settings/index.js';
import type { AgentInfo } from './agent-info.js';
import { AgentStatusRepository } from './agent-status.repository.js';
import { DeliveryRepository, type Looked } from './delivery.repository.js';

/** A command is handed out at most this many times; then it fails (SPEC 6.4). */
export const MAX_DELIVERIES = 3;
export const DELIVERY_LIMIT_ERROR = `агент не отчитался после ${MAX_DELIVERIES} выдач`;
export const AUTO_REFRESH_TITLE = 'Автообновление';

export interface Claimed {
  command: CommandRow;
  /**
   * A delivery of the first command of a batch with writes: back the database up (SPEC 3.2) — at the
   * first delivery, and at a re-delivery when the batch has no copy yet.
   */
  backupBatchId: number | null;
}

/** What else a claim decided, for the log: commands failed at the delivery limit, dependents skipped. */
export interface ClaimNotes {
  expired: { id: number; batch_id: number }[];
  skipped: { id: number; batch_id: number; error: string }[];
  /** the batch of an auto-refresh this claim created */
  created?: number;
}

const olderThan = (at: string | null, minutes: number, now: Date) => at === null || now.getTime() - Date.parse(at) > minutes * 60_000;

@Injectable()
export class ClaimRules {
  constructor(
    private readonly commands: CommandRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly agents: AgentStatusRepository,
    private readonly batches: BatchRepository,
    private readonly catalogueRefreshes: CatalogueRefreshes,
    private readonly catalogues: CatalogueRepository,
    private readonly runs: SyncRunRepository,
  ) {}

  /**
   * The whole claim transaction body. `autoCatalogue` false: the hub does not queue refresh_catalogue by
   * itself (HUB_CATALOGUE_AUTO_REFRESH=off).
   */
  async claim(
    m: EntityManager,
    info: AgentInfo,
    settings: Settings,
    now: Date,
    notes: ClaimNotes = { expired: [], skipped: [] },
    autoCatalogue = false,
    looked?: Looked,
  ): Promise<Claimed | null> {
    const iso = now.toISOString();
    if (info.jira_auth === 'failed') {
      // SPEC 16.3: Jira refuses the agent's credentials; the agent was seen, nothing is handed out.
      await this.agents.touch(m, info, iso, null);
      return null;
    }
    // The first look at each of the three, in one statement (or with the report of the merged call); a loop looks again.
    const first = looked ?? (await this.deliveries.look(m, this.commands.claimLooks()));
    const again = await this.redeliver(m, info, settings, iso, notes, first.claimed);
    if (again) {
      await this.agents.touch(m, info, iso, again.id);
      // The caller makes the copy only if the batch has none (SPEC 3.2: a copy lost to a crash).
      return { command: again, backupBatchId: (await this.commands.isFirstWriteOfBatch(m, again)) ? again.batch_id : null };
    }
    // A handout writes the agent's status with it (DeliveryRepository.handOut); nothing after it here reads that row.
    let next = await this.takeNext(m, info, settings, iso, notes, first.next);
    if (!next && (await this.autoRefreshDue(m, settings, now))) {
      const commands = [{ type: 'refresh' as const, params: { jql: settings.auto_refresh.jql } }];
      notes.created = await this.batches.insert(m, { title: AUTO_REFRESH_TITLE, author: 'hub', source: 'hub', awaitingApproval: settings.approval.hub, commands }, iso);
      next = await this.takeNext(m, info, settings, iso, notes);
    }
    // SPEC 16.1: the catalogue at the first claim, then whenever it is old or stale and the queue is idle.
    const idle = async () => !next && (await this.commands.idle(m));
    if (autoCatalogue && notes.created === undefined && (await this.catalogueRefreshDue(m, settings, now, idle, first.catalogue))) {
      notes.created = await this.catalogueRefreshes.queue(m, 'hub', iso);
      next ??= await this.takeNext(m, info, settings, iso, notes);
    }
    if (!next) await this.agents.touch(m, info, iso, null);
    return next;
  }

  /** Re-delivers the oldest claimed command, failing those past the delivery limit (SPEC 6.4). `first`: the first look, already made. */
  private async redeliver(m: EntityManager, info: AgentInfo, settings: Settings, now: string, notes: ClaimNotes, first?: CommandRow | null): Promise<CommandRow | undefined> {
    for (let look = first; ; look = undefined) {
      const c = look === undefined ? await this.commands.oldestClaimed(m) : look;
      if (!c) return undefined;
      if (c.deliveries < MAX_DELIVERIES) {
        const pause = settings.pacing[pacedAs(c.type)];
        await this.commands.redeliver(m, c.id, now, pause);
        await this.deliveries.close(m, c.id, 'lost');
        await this.deliveries.start(m, c.id, info.agent_version, now);
        return { ...c, deliveries: c.deliveries + 1, claimed_at: now, pause_seconds: pause };
      }
      await this.commands.end(m, c.id, 'failed', DELIVERY_LIMIT_ERROR, now);
      await this.deliveries.close(m, c.id, 'expired');
      notes.expired.push({ id: c.id, batch_id: c.batch_id });
      if (c.type === 'refresh') await this.runs.fail(m, c.id, now, DELIVERY_LIMIT_ERROR);
    }
  }

  /** Hands out the next queued command: temp keys substituted, dependents of failed definers skipped (SPEC 6.3). */
  private async takeNext(m: EntityManager, info: AgentInfo, settings: Settings, now: string, notes: ClaimNotes, first?: CommandRow | null): Promise<Claimed | null> {
    for (let look = first; ; look = undefined) {
      const c = look === undefined ? await this.commands.nextRunnable(m) : look;
      if (!c) return null;
      let params = parseJson<Params>(c.params, {});
      const needed = tempKeysNeeded(c.type, params);
      if (needed.length > 0) {
        // One after another: the unit's statements share one connection (the pg driver queues concurrent ones, and deprecates doing so).
        const resolutions = new Map<string, Resolution>();
        for (const t of needed) resolutions.set(t, await this.commands.resolveFor(m, c.batch_id, t));
        const s = substitute(c.type, params, (t) => resolutions.get(t)!);
        if (s.kind === 'wait') return null;
        if (s.kind === 'skip') {
          await this.commands.end(m, c.id, 'skipped', s.error, now);
          notes.skipped.push({ id: c.id, batch_id: c.batch_id, error: s.error });
          continue;
        }
        params = s.params;
      }
      const pause = settings.pacing[pacedAs(c.type)];
      const paramsText = JSON.stringify(params);
      const handOut = { id: c.id, handOut: this.commands.handOutSql(c.id, now, pause, paramsText), firstWrite: this.commands.firstWriteSql(c) };
      const firstWrite = await this.deliveries.handOut(m, handOut, info, now);
      if (c.type === 'refresh') await this.runs.open(m, c.id, params, now);
      const command: CommandRow = { ...c, status: 'claimed', claimed_at: now, deliveries: c.deliveries + 1, pause_seconds: pause, params: paramsText };
      return { command, backupBatchId: firstWrite ? c.batch_id : null };
    }
  }

  private async autoRefreshDue(m: EntityManager, settings: Settings, now: Date): Promise<boolean> {
    const { interval_minutes, jql } = settings.auto_refresh;
    if (!interval_minutes || !jql || !(await this.commands.idle(m))) return false;
    const last = await this.runs.lastStart(m);
    return !last || now.getTime() - Date.parse(last) > interval_minutes * 60_000;
  }

  /**
   * SPEC 16.1: at the first claim when there has never been one; later only while the queue is idle, once
   * the catalogue is missing, marked stale or older than `catalogue_max_age_minutes`. A refresh_catalogue
   * that ended without a catalogue (an agent that cannot read it) is tried again only after that age, so
   * an old agent does not get one at every claim.
   */
  private async catalogueRefreshDue(m: EntityManager, settings: Settings, now: Date, idle: () => Promise<boolean>, looked?: CatalogueCommandRow | null): Promise<boolean> {
    const last = looked === undefined ? await this.commands.lastCatalogueCommand(m) : (looked ?? undefined);
    if (!last) return true;
    if (last.status === 'queued' || last.status === 'claimed' || !(await idle())) return false;
    const maxAge = settings.catalogue_max_age_minutes;
    if (last.status !== 'done') return olderThan(last.finished_at, maxAge, now);
    const stored = await this.catalogues.freshness(m);
    return !stored || stored.stale || olderThan(stored.synced_at, maxAge, now);
  }
}
