/** The report of a command's result (SPEC 6.5) and confirmation by state (6.6): the body of one transaction, run by DeliveryService. */
import { Injectable } from '@nestjs/common';
import type { ReportBody } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import { cutToCharacters, isJiraKey, NotClaimedError, NotFoundError, ValidationFailedError } from '../common/index.js';
import { parseJson } from '../database/index.js';
import { IssueRepository, NoteRepository, SyncRunRepository } from '../mirror/index.js';
import { CatalogueRefreshes, ChangeRepository, CommandRepository, isConfirmedByState, isTerminal, type Outcome } from '../queue/index.js';
import { keysNamed, type Params } from '@jira-hub/contracts/catalogue';
import type { CommandRow } from '../queue/index.js';
import { AgentStatusRepository } from './agent-status.repository.js';
import { DeliveryRepository } from './delivery.repository.js';
import { applyPart, finishRefresh } from './refresh-report.js';

/** In characters (code points): an emoji is never cut in half. */
export const MAX_ERROR_LENGTH = 1500;
export const NO_REASON_ERROR = 'агент не сообщил причину';

/** The agent's report, as the wire contract has it (`partial`: one part of a refresh's result, SPEC 15.5). */
export type Report = ReportBody;

const resultKey = (r: Report): string | undefined => (isJiraKey(r.result?.key) ? (r.result!.key as string) : undefined);

/** The result a `done` of an ensure_issue must carry; a problem is a 422 with nothing changed (a refresh's: refresh-report.ts). */
function checkDone(c: CommandRow, report: Report): void {
  if (c.type === 'ensure_issue' && !resultKey(report)) {
    const detail = 'результат ensure_issue должен содержать key — ключ задачи Jira';
    throw new ValidationFailedError(detail, [{ field: 'result.key', detail }]);
  }
}

/** A report's command before and after it (the same row when nothing changed). */
export interface Reported {
  before: CommandRow;
  after: CommandRow;
}

@Injectable()
export class ReportRules {
  constructor(
    private readonly commands: CommandRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly agents: AgentStatusRepository,
    private readonly changes: ChangeRepository,
    private readonly catalogueRefreshes: CatalogueRefreshes,
    private readonly issues: IssueRepository,
    private readonly notes: NoteRepository,
    private readonly runs: SyncRunRepository,
  ) {}

  /**
   * The transaction body of POST /agent/commands/{id}/result. `confirmed` receives the other commands a
   * refresh confirmed by state. The command's own row is read once and its new state comes back from the
   * UPDATE that makes it (RETURNING); nothing later in the transaction writes that row.
   */
  async report(m: EntityManager, id: number, report: Report, now: string, confirmed: CommandRow[] = []): Promise<Reported> {
    const c = await this.commands.find(m, id);
    if (!c) throw new NotFoundError(`команды ${id} нет`);
    if (c.status === 'queued') throw new NotClaimedError(id);
    const params = parseJson<Params>(c.params, {});
    const jiraCalls = report.jira_calls ?? 0;
    const rateLimited = report.rate_limited ?? 0;

    if (isTerminal(c.status)) {
      // Idempotent, except a late `done` of a force-cancelled ensure_issue that was handed out: its issue exists in Jira.
      // `claimed_at` tells "handed out": rows of an earlier hub that were cancelled there have no deliveries counted.
      // What a late `done` changed happened in Jira all the same: the record keeps it (once).
      if (report.status === 'done') await this.recordChanges(m, id, report, now);
      const key = resultKey(report);
      const lateCreate = c.status === 'cancelled' && c.type === 'ensure_issue' && c.claimed_at !== null && c.result === null;
      if (!(lateCreate && report.status === 'done' && key)) return { before: c, after: c };
      await this.notes.move(m, String(params.temp_key), key, now);
      return { before: c, after: await this.commands.keepLateResult(m, id, { result: JSON.stringify(report.result), jiraCalls, rateLimited }) };
    }

    // The command stays claimed; the mirror changes, confirmation waits for the final report.
    if (report.status === 'partial') return await applyPart(m, c, report.part!, report.result, now, { issues: this.issues, runs: this.runs }), { before: c, after: c };
    if (report.status === 'released') return this.release(m, c, report, now);

    let after: CommandRow;
    if (report.status === 'done') {
      checkDone(c, report);
      const refresh = c.type === 'refresh' ? await finishRefresh(m, c, report.result, now, { issues: this.issues, runs: this.runs }) : undefined;
      if (c.type === 'refresh_catalogue') await this.catalogueRefreshes.store(m, report.result, now, (await this.deliveries.latest(m, id))?.agent_version ?? null);
      const outcome: Outcome = { result: JSON.stringify((refresh ? refresh.result : report.result) ?? {}), jiraCalls, rateLimited, now };
      after = await this.commands.markDone(m, id, outcome);
      if (c.type === 'ensure_issue') await this.notes.move(m, String(params.temp_key), resultKey(report)!, now);
      await this.recordChanges(m, id, report, now);
      if (refresh) await this.confirmByState(m, refresh.runId, now, confirmed);
    } else {
      const error = report.error?.trim() ? cutToCharacters(report.error, MAX_ERROR_LENGTH) : NO_REASON_ERROR;
      after = await this.commands.markFailed(m, id, error, { result: report.result === undefined ? null : JSON.stringify(report.result), jiraCalls, rateLimited, now });
      if (c.type === 'refresh') await this.runs.fail(m, id, now, error);
      await this.catalogueRefreshes.noteFailure(m, c, error, now);
    }
    await this.deliveries.close(m, id, report.status === 'done' ? 'reported_done' : 'reported_failed', { at: now, jiraCalls });
    await this.agents.releaseCurrent(m, id);
    return { before: c, after };
  }

  /** The change record of a `done` (SPEC 17.1), kept with the handout whose report carried it. */
  private async recordChanges(m: EntityManager, id: number, report: Report, now: string): Promise<void> {
    if (!report.changes?.length) return;
    await this.changes.record(m, id, (await this.deliveries.latest(m, id))?.id ?? null, report.changes, now);
  }

  /** Claimed commands whose desired result the mirror now shows become `confirmed_by_state` (SPEC 6.6). */
  private async confirmByState(m: EntityManager, syncRunId: number, now: string, confirmed: CommandRow[]): Promise<void> {
    const claimed = await this.commands.claimed(m);
    if (claimed.length === 0) return;
    const parsed = claimed.map((c) => ({ c, params: parseJson<Params>(c.params, {}) }));
    const lookup = await this.issues.lookup(m, parsed.flatMap(({ c, params }) => keysNamed(c.type, params)));
    const result = JSON.stringify({ confirmed_by_sync_run: syncRunId });
    for (const { c, params } of parsed) {
      if (!isConfirmedByState(c.type, params, lookup)) continue;
      await this.commands.confirmByState(m, c.id, now, result);
      await this.deliveries.close(m, c.id, 'confirmed_by_state');
      await this.agents.releaseCurrent(m, c.id);
      confirmed.push(c);
    }
  }

  /**
   * SPEC 16.3: Jira refused the agent's credentials — the command goes back to `queued` in its place (its
   * queue_pos and seq are kept), this delivery closes as `released` and is not counted toward the limit.
   */
  private async release(m: EntityManager, c: CommandRow, report: Report, now: string): Promise<Reported> {
    const jiraCalls = report.jira_calls ?? 0;
    const after = await this.commands.release(m, c.id, jiraCalls);
    const reason = report.error?.trim() ? cutToCharacters(report.error, MAX_ERROR_LENGTH) : 'Jira не принимает учётные данные агента';
    if (c.type === 'refresh') await this.runs.fail(m, c.id, now, reason);
    await this.deliveries.close(m, c.id, 'released', { at: now, jiraCalls });
    await this.agents.releaseCurrent(m, c.id);
    return { before: c, after };
  }
}
