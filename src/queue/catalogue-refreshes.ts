/**
 * The hub's own `refresh_catalogue` (SPEC 16.1), inside the callers' transactions (the claim decides when
 * one is due: delivery/claim-rules.ts): queueing it (source `hub`, never waiting for approval), storing its result at the report, and
 * marking the catalogue stale when Jira refuses a command for a screen, a field, a transition or a permission,
 * or a sprint or board the catalogue listed is no longer open in Jira.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { jiraRefusalOf } from '@jira-hub/contracts/jira-failure';
import { ValidationFailedError } from '../common/index.js';
import type { SeenTransitions } from '@jira-hub/contracts';
import { CatalogueRepository, keepObserved, learnSeenTransitions, parseCatalogueResult } from '../catalogue/index.js';
import { BatchRepository } from './batch.repository.js';
import { CommandRepository } from './command.repository.js';
import type { CommandRow } from './rows.js';

export const CATALOGUE_TITLE = 'Каталог Jira';

/**
 * Jira refused a write naming a screen, a field or a transition (a 400 of the agent's, by Jira's own words),
 * the agent found no transition, or Jira refused the account a permission (a 403: the catalogue's
 * `permissions` said it held it, since the checks let the command through; decision 0130). Or the sprint or
 * board the checks found among the catalogue's open ones is closed, gone or no longer the only one of its
 * name in Jira (the agent's words, or Jira's for a sprint it had cached): sprints close every few weeks, and
 * until the catalogue is read again the checks would let every move into that sprint through to fail.
 * Jira's code and words are read by jiraRefusalOf, in the agent's wording and in its older one.
 */
export const namesConfiguration = (error: string): boolean => {
  const jira = jiraRefusalOf(error);
  return (
    (jira?.status === 400 && /\b(screen|field|fields|transition)\b/i.test(jira.jiraMessage)) ||
    jira?.status === 403 ||
    /переход/i.test(jira ? jira.jiraMessage : error) ||
    /^(спринт «.*» (закрыт|не найден|неоднозначен)|доска «.*» (не найдена|неоднозначна))/.test(error) ||
    ((jira?.status === 400 || jira?.status === 404) && /\b(closed sprint|Sprint does not exist)/i.test(jira.jiraMessage))
  );
};

@Injectable()
export class CatalogueRefreshes {
  constructor(
    private readonly catalogues: CatalogueRepository,
    private readonly batches: BatchRepository,
    private readonly commands: CommandRepository,
  ) {}

  /** The batch of a refresh_catalogue still queued or with the agent, if any. */
  async pendingBatch(m: EntityManager): Promise<number | null> {
    const last = await this.commands.lastCatalogueCommand(m);
    return last && (last.status === 'queued' || last.status === 'claimed') ? last.batch_id : null;
  }

  /** A batch «Каталог Jira» of one refresh_catalogue (source `hub`, runnable at once: never waits for approval); its id. */
  queue(m: EntityManager, author: string, now: string): Promise<number> {
    return this.batches.insert(m, { title: CATALOGUE_TITLE, author, source: 'hub', awaitingApproval: false, commands: [{ type: 'refresh_catalogue', params: {} }] }, now);
  }

  /** A `done` refresh_catalogue: its catalogue stored (422 and nothing changed when it is not one). */
  async store(m: EntityManager, raw: unknown, now: string, agentVersion: string | null): Promise<void> {
    const catalogue = parseCatalogueResult(raw);
    if (typeof catalogue === 'string') throw new ValidationFailedError(catalogue, [{ field: 'result', detail: catalogue }]);
    // Transitions only observed: what the earlier read saw and this one could not is kept (decision 1428).
    const previous = await this.catalogues.get(m, catalogue.project_key);
    await this.catalogues.save(m, keepObserved(previous, catalogue, new Date(now)), now, agentVersion);
  }

  /**
   * SPEC 16.1 (and decision 0130 for permissions): such a failure marks the catalogue stale (the next idle claim
   * refreshes it; checks answer `unknown`). A status walk that stopped for want of a transition and reports what
   * Jira offered there teaches an observed catalogue instead (decision 1485): those edges are stored, the
   * catalogue is not marked stale, and the next plan routes by what Jira showed rather than guessing again.
   */
  async noteFailure(m: EntityManager, c: CommandRow, error: string, now: string, seen?: SeenTransitions): Promise<void> {
    if (c.type === 'refresh' || c.type === 'refresh_catalogue' || !namesConfiguration(error)) return;
    if (c.type === 'ensure_status' && seen) {
      const project = seen.key.replace(/-\d+$/, '');
      const learned = learnSeenTransitions(await this.catalogues.get(m, project), seen, new Date(now));
      if (learned) return this.catalogues.saveTypes(m, learned.project_key, learned.per_type);
    }
    await this.catalogues.markStale(m, `команда #${c.id} (${c.type}): ${error.slice(0, 300)}`, now);
  }
}
