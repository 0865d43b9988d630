/**
 * The hub's own `refresh_catalogue` (SPEC 16.1), inside Queue's transactions: when one is due at a
 * claim, queueing it (source `hub`, never waiting for approval), storing its result at the report, and
 * marking the catalogue stale when Jira refuses a command for a screen, a field or a transition.
 */
import type { EntityManager } from 'typeorm';
import { ValidationFailedError } from '../common/errors.js';
import { parseCatalogueResult } from '../catalogue/catalogue-result.js';
import type { CatalogueRepository } from '../catalogue/catalogue.repository.js';
import type { Settings } from '../settings/defaults.js';
import { insertBatch } from './batch.store.js';
import type { CommandRow } from './rows.js';

export const CATALOGUE_TITLE = 'Каталог Jira';

/** The latest refresh_catalogue command, or none. */
async function lastCatalogueCommand(m: EntityManager): Promise<Pick<CommandRow, 'id' | 'batch_id' | 'status' | 'finished_at'> | undefined> {
  const [row]: Pick<CommandRow, 'id' | 'batch_id' | 'status' | 'finished_at'>[] = await m.query(
    `SELECT id, batch_id, status, finished_at FROM command WHERE type = 'refresh_catalogue' ORDER BY id DESC LIMIT 1`,
  );
  return row;
}

/** The batch of a refresh_catalogue still queued or with the agent, if any. */
export async function pendingCatalogueBatch(m: EntityManager): Promise<number | null> {
  const last = await lastCatalogueCommand(m);
  return last && (last.status === 'queued' || last.status === 'claimed') ? last.batch_id : null;
}

const olderThan = (at: string | null, minutes: number, now: Date) => at === null || now.getTime() - Date.parse(at) > minutes * 60_000;

/**
 * SPEC 16.1: at the first claim when there has never been one; later only while the queue is idle, once
 * the catalogue is missing, marked stale or older than `catalogue_max_age_minutes`. A refresh_catalogue
 * that ended without a catalogue (an agent that cannot read it) is tried again only after that age, so
 * an old agent does not get one at every claim.
 */
export async function catalogueRefreshDue(m: EntityManager, catalogues: CatalogueRepository, settings: Settings, now: Date, idle: boolean): Promise<boolean> {
  const last = await lastCatalogueCommand(m);
  if (!last) return true;
  if (last.status === 'queued' || last.status === 'claimed' || !idle) return false;
  const maxAge = settings.catalogue_max_age_minutes;
  if (last.status !== 'done') return olderThan(last.finished_at, maxAge, now);
  const stored = await catalogues.freshness(m);
  return !stored || stored.stale || olderThan(stored.synced_at, maxAge, now);
}

/** A batch «Каталог Jira» of one refresh_catalogue (source `hub`, runnable at once: never waits for approval); its id. */
export function queueCatalogueRefresh(m: EntityManager, author: string, now: string): Promise<number> {
  return insertBatch(m, { title: CATALOGUE_TITLE, author, source: 'hub', awaitingApproval: false, commands: [{ type: 'refresh_catalogue', params: {} }] }, now);
}

/** A `done` refresh_catalogue: its catalogue stored (422 and nothing changed when it is not one). */
export async function storeCatalogue(m: EntityManager, catalogues: CatalogueRepository, raw: unknown, now: string, agentVersion: string | null): Promise<void> {
  const catalogue = parseCatalogueResult(raw);
  if (typeof catalogue === 'string') throw new ValidationFailedError(catalogue, [{ field: 'result', detail: catalogue }]);
  await catalogues.save(m, catalogue, now, agentVersion);
}

/** Jira refused a write naming a screen, a field or a transition (the agent's `HTTP 400: …`), or the agent found no transition. */
export const namesConfiguration = (error: string): boolean =>
  (/^HTTP 400\b/.test(error) && /\b(screen|field|fields|transition)\b/i.test(error)) || /переход/i.test(error);

/** SPEC 16.1: such a failure marks the catalogue stale (the next idle claim refreshes it; checks answer `unknown`). */
export async function noteFailure(m: EntityManager, catalogues: CatalogueRepository, c: CommandRow, error: string, now: string): Promise<void> {
  if (c.type === 'refresh' || c.type === 'refresh_catalogue' || !namesConfiguration(error)) return;
  await catalogues.markStale(m, `команда ${c.id} (${c.type}): ${error.slice(0, 300)}`, now);
}
