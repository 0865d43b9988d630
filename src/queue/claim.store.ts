/** The claim (SPEC 6.2–6.4): the body of one transaction, run by DeliveryService.claim. */
import type { EntityManager } from 'typeorm';
import { parseJson } from '../database/json.js';
import type { Settings } from '../settings/defaults.js';
import { closeDelivery, startDelivery } from './delivery.store.js';
import { failSyncRun, lastSyncStart, openSyncRun } from '../mirror/mirror.store.js';
import { touchAgent, type AgentInfo } from './agent-status.store.js';
import { insertBatch } from './batch.store.js';
import { pacedAs, tempKeysNeeded, type Params } from '@jira-hub/contracts/catalogue';
import { substitute } from './commands/temp-keys.js';
import type { CommandRow } from './rows.js';
import { resolveFor } from './temp-key.store.js';
import type { CatalogueRepository } from '../catalogue/catalogue.repository.js';
import { catalogueRefreshDue, queueCatalogueRefresh } from './catalogue-refresh.store.js';

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

/** Re-delivers the oldest claimed command, failing those past the delivery limit (SPEC 6.4). */
async function redeliver(m: EntityManager, info: AgentInfo, settings: Settings, now: string, notes: ClaimNotes): Promise<CommandRow | undefined> {
  for (;;) {
    const [c]: CommandRow[] = await m.query(`SELECT * FROM command WHERE status = 'claimed' ORDER BY claimed_at, id LIMIT 1`);
    if (!c) return undefined;
    if (c.deliveries < MAX_DELIVERIES) {
      const pause = settings.pacing[pacedAs(c.type)];
      await m.query('UPDATE command SET deliveries = deliveries + 1, claimed_at = ?, pause_seconds = ? WHERE id = ?', [now, pause, c.id]);
      await closeDelivery(m, c.id, 'lost');
      await startDelivery(m, c.id, info.agent_version, now);
      return { ...c, deliveries: c.deliveries + 1, claimed_at: now, pause_seconds: pause };
    }
    await m.query(`UPDATE command SET status = 'failed', error = ?, finished_at = ? WHERE id = ?`, [DELIVERY_LIMIT_ERROR, now, c.id]);
    await closeDelivery(m, c.id, 'expired');
    notes.expired.push({ id: c.id, batch_id: c.batch_id });
    if (c.type === 'refresh') await failSyncRun(m, c.id, now, DELIVERY_LIMIT_ERROR);
  }
}

/**
 * The next runnable command in queue order (runnable_at, id, seq; SPEC 6.1, 15.2): one probe of the
 * partial index `idx_command_runnable` on (queue_pos, seq). A batch's queue_pos is given when it becomes
 * runnable (batch.store.ts) and copied to its commands; commands of a batch waiting for approval have none.
 * Cancelling a batch cancels its queued commands in the same transaction, so none of a cancelled batch is here.
 */
export const NEXT_RUNNABLE_SQL = `SELECT * FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL ORDER BY queue_pos, seq LIMIT 1`;

async function nextQueued(m: EntityManager): Promise<CommandRow | undefined> {
  const [c]: CommandRow[] = await m.query(NEXT_RUNNABLE_SQL);
  return c;
}

async function isFirstWriteOfBatch(m: EntityManager, c: CommandRow): Promise<boolean> {
  const [row]: { first: number; writes: number }[] = await m.query(
    `SELECT NOT EXISTS (SELECT 1 FROM command WHERE batch_id = ? AND id <> ? AND claimed_at IS NOT NULL) AS first,
            EXISTS (SELECT 1 FROM command WHERE batch_id = ? AND type <> 'refresh') AS writes`,
    [c.batch_id, c.id, c.batch_id],
  );
  return Boolean(row.first) && Boolean(row.writes);
}

/** Nothing runnable, nothing with the agent, no auto-refresh waiting for approval. */
async function idle(m: EntityManager): Promise<boolean> {
  // Busy: runnable or handed-out work, or an auto-refresh already waiting for approval (SPEC 15.2: the
  // hub's batches may need it too). Batches of others waiting for approval do not keep the mirror stale.
  const [{ busy }]: { busy: number }[] = await m.query(
    `SELECT EXISTS (SELECT 1 FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL)
         OR EXISTS (SELECT 1 FROM command WHERE status = 'claimed')
         OR EXISTS (SELECT 1 FROM batch WHERE awaiting_approval_since IS NOT NULL AND approved_at IS NULL AND cancelled_at IS NULL AND source = 'hub') AS busy`,
  );
  return !busy;
}

async function autoRefreshDue(m: EntityManager, settings: Settings, now: Date): Promise<boolean> {
  const { interval_minutes, jql } = settings.auto_refresh;
  if (!interval_minutes || !jql || !(await idle(m))) return false;
  const last = await lastSyncStart(m);
  return !last || now.getTime() - Date.parse(last) > interval_minutes * 60_000;
}

/** Hands out the next queued command: temp keys substituted, dependents of failed definers skipped (SPEC 6.3). */
async function takeNext(m: EntityManager, info: AgentInfo, settings: Settings, now: string, notes: ClaimNotes): Promise<Claimed | null> {
  for (;;) {
    const c = await nextQueued(m);
    if (!c) return null;
    let params = parseJson<Params>(c.params, {});
    const needed = tempKeysNeeded(c.type, params);
    if (needed.length > 0) {
      const resolutions = new Map(await Promise.all(needed.map(async (t) => [t, await resolveFor(m, c.batch_id, t)] as const)));
      const s = substitute(c.type, params, (t) => resolutions.get(t)!);
      if (s.kind === 'wait') return null;
      if (s.kind === 'skip') {
        await m.query(`UPDATE command SET status = 'skipped', error = ?, finished_at = ? WHERE id = ?`, [s.error, now, c.id]);
        notes.skipped.push({ id: c.id, batch_id: c.batch_id, error: s.error });
        continue;
      }
      params = s.params;
    }
    const pause = settings.pacing[pacedAs(c.type)];
    const paramsText = JSON.stringify(params);
    // deliveries + 1: a command released by the agent (SPEC 16.3) is queued again with the deliveries that count.
    await m.query(`UPDATE command SET status = 'claimed', claimed_at = ?, deliveries = deliveries + 1, pause_seconds = ?, params = ? WHERE id = ?`, [
      now,
      pause,
      paramsText,
      c.id,
    ]);
    await startDelivery(m, c.id, info.agent_version, now);
    if (c.type === 'refresh') await openSyncRun(m, c.id, params, now);
    const command: CommandRow = { ...c, status: 'claimed', claimed_at: now, deliveries: c.deliveries + 1, pause_seconds: pause, params: paramsText };
    return { command, backupBatchId: (await isFirstWriteOfBatch(m, c)) ? c.batch_id : null };
  }
}

/** The whole claim transaction body. */
export async function claimInTransaction(
  m: EntityManager,
  info: AgentInfo,
  settings: Settings,
  now: Date,
  notes: ClaimNotes = { expired: [], skipped: [] },
  /** null: the hub does not queue refresh_catalogue by itself (HUB_CATALOGUE_AUTO_REFRESH=off) */
  catalogues: CatalogueRepository | null = null,
): Promise<Claimed | null> {
  const iso = now.toISOString();
  if (info.jira_auth === 'failed') {
    // SPEC 16.3: Jira refuses the agent's credentials; the agent was seen, nothing is handed out.
    await touchAgent(m, info, iso, null);
    return null;
  }
  const again = await redeliver(m, info, settings, iso, notes);
  if (again) {
    await touchAgent(m, info, iso, again.id);
    // The caller makes the copy only if the batch has none (SPEC 3.2: a copy lost to a crash).
    return { command: again, backupBatchId: (await isFirstWriteOfBatch(m, again)) ? again.batch_id : null };
  }
  let next = await takeNext(m, info, settings, iso, notes);
  if (!next && (await autoRefreshDue(m, settings, now))) {
    const commands = [{ type: 'refresh' as const, params: { jql: settings.auto_refresh.jql } }];
    notes.created = await insertBatch(m, { title: AUTO_REFRESH_TITLE, author: 'hub', source: 'hub', awaitingApproval: settings.approval.hub, commands }, iso);
    next = await takeNext(m, info, settings, iso, notes);
  }
  // SPEC 16.1: the catalogue at the first claim, then whenever it is old or stale and the queue is idle.
  if (catalogues && notes.created === undefined && (await catalogueRefreshDue(m, catalogues, settings, now, !next && (await idle(m))))) {
    notes.created = await queueCatalogueRefresh(m, 'hub', iso);
    next ??= await takeNext(m, info, settings, iso, notes);
  }
  await touchAgent(m, info, iso, next?.command.id ?? null);
  return next;
}
