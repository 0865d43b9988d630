/** The report of a command's result (SPEC 6.5) and confirmation by state (6.6): the body of one transaction, run by DeliveryService. */
import { Injectable } from '@nestjs/common';
import type { ReportBody } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import { cutToCharacters, isJiraKey, NotClaimedError, NotFoundError, ValidationFailedError } from '../common/index.js';
import { parseJson } from '../database/index.js';
import { IssueRepository, NoteRepository, SyncRunRepository } from '../mirror/index.js';
import { CatalogueRefreshes, ChangeRepository, CommandRepository, isConfirmedByState, isTerminal, subjectKey, withSubjectKeys, type Finish, type Outcome } from '../queue/index.js';
import { keysNamed, type CommandType, type Params } from '@jira-hub/contracts/catalogue';
import type { ChangeRow, CommandRow } from '../queue/index.js';
import { AgentStatusRepository } from './agent-status.repository.js';
import { DeliveryRepository, type DeliveryRow, type Looked, type PlainFinish } from './delivery.repository.js';
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
  /** a plain report's view data, read with its write: the command's deliveries and changes after it */
  read?: { history: DeliveryRow[]; changes: ChangeRow[] };
  /** what the next claim looks at, read with a plain report's write when asked (`look`) */
  looked?: Looked;
}

/** Types whose final report writes more than the command's own rows: never finished in one statement. */
const NOT_PLAIN: CommandType[] = ['refresh', 'refresh_catalogue'];

const errorOf = (r: Report): string => (r.error?.trim() ? cutToCharacters(r.error, MAX_ERROR_LENGTH) : NO_REASON_ERROR);

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
  async report(m: EntityManager, id: number, report: Report, now: string, confirmed: CommandRow[] = [], look = false): Promise<Reported> {
    report = await this.keyed(m, id, report);
    const plain = await this.finishPlain(m, id, report, now, look);
    if (plain?.after) {
      const c = plain.before!;
      if (c.type === 'ensure_issue' && report.status === 'done') await this.notes.move(m, String(parseJson<Params>(c.params, {}).temp_key), resultKey(report)!, now);
      if (report.status === 'failed') {
        await this.catalogueRefreshes.noteFailure(m, c, plain.after.error!, now, report.transitions_seen);
        await this.recordMissing(m, c, report, now);
      }
      return { before: c, after: plain.after, read: { history: plain.history!, changes: plain.changes! }, looked: plain.looked };
    }
    const c = plain ? plain.before : await this.commands.find(m, id);
    if (!c) throw new NotFoundError(`команды #${id} нет`);
    if (c.status === 'queued') throw new NotClaimedError(id);
    const params = parseJson<Params>(c.params, {});
    const jiraCalls = report.jira_calls ?? 0;
    const rateLimited = report.rate_limited ?? 0;

    if (isTerminal(c.status)) {
      // Idempotent, except a late `done` of a force-cancelled ensure_issue that was handed out: its issue exists in Jira.
      // `claimed_at` tells "handed out": rows of an earlier hub that were cancelled there have no deliveries counted.
      // What a late `done` or `failed` changed happened in Jira all the same: the record keeps it (once, decision 1413).
      if (report.status === 'done' || report.status === 'failed') await this.recordChanges(m, id, report, now);
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
      const error = errorOf(report);
      after = await this.commands.markFailed(m, id, error, { result: report.result === undefined ? null : JSON.stringify(report.result), jiraCalls, rateLimited, now });
      // What the command changed before it failed (a status walk refused partway) is kept as a done's is (decision 1413).
      await this.recordChanges(m, id, report, now);
      if (c.type === 'refresh') await this.runs.fail(m, id, now, error);
      await this.catalogueRefreshes.noteFailure(m, c, error, now, report.transitions_seen);
      await this.recordMissing(m, c, report, now);
    }
    await this.deliveries.close(m, id, report.status === 'done' ? 'reported_done' : 'reported_failed', { at: now, jiraCalls });
    await this.agents.releaseCurrent(m, id);
    return { before: c, after };
  }

  /**
   * A plain final report — a command still claimed, of a type whose report writes nothing beyond its own
   * row, history and change record (not a refresh, whose result goes to the mirror, nor refresh_catalogue;
   * not a `done` of ensure_issue without its key, a 422) — is the general path's writes in one statement
   * on PostgreSQL (DeliveryRepository.finishPlain). `undefined`: not a final report; no `after`: not plain
   * (or SQLite), nothing written, the general path goes on from `before`.
   */
  private finishPlain(m: EntityManager, id: number, report: Report, now: string, look: boolean): Promise<PlainFinish> | undefined {
    if (report.status !== 'done' && report.status !== 'failed') return undefined;
    const base = { jiraCalls: report.jira_calls ?? 0, rateLimited: report.rate_limited ?? 0, now };
    const finish: Finish =
      report.status === 'done'
        ? { ...base, status: 'done', result: JSON.stringify(report.result ?? {}) }
        : { ...base, status: 'failed', error: errorOf(report), result: report.result === undefined ? null : JSON.stringify(report.result) };
    const notPlain: CommandType[] = report.status === 'done' && !resultKey(report) ? [...NOT_PLAIN, 'ensure_issue'] : NOT_PLAIN;
    // A `failed` records the changes made before the failure, as a `done` records its own (decision 1413).
    const changes = report.changes?.length ? report.changes : undefined;
    return this.deliveries.finishPlain(
      m,
      id,
      {
        before: this.commands.findSql(id),
        finish: this.commands.finishSql(id, finish, notPlain),
        record: changes && ((deliveryId, when) => this.changes.recordSql(id, deliveryId, changes, now, when)),
        changes: this.changes.ofCommandSql(id),
        looks: look ? this.commands.claimLooks(id) : undefined,
      },
      { outcome: report.status === 'done' ? 'reported_done' : 'reported_failed', at: now, jiraCalls: base.jiraCalls },
    );
  }

  /**
   * The report with each change that names no issue given the command's subject (subjectKey): the view
   * groups changes by issue and a revert finds its issue by it. One read more, only for such a report
   * (the reference agent names the issue of every change).
   */
  private async keyed(m: EntityManager, id: number, report: Report): Promise<Report> {
    if (!report.changes?.some((c) => c.key === undefined)) return report;
    const c = await this.commands.find(m, id);
    if (!c) return report; // the report's own path answers 404
    const subject = subjectKey(c.type, parseJson<Params>(c.params, {}), report.result ?? parseJson<Record<string, unknown> | undefined>(c.result, undefined));
    return { ...report, changes: withSubjectKeys(c.type, report.changes, subject) };
  }

  /**
   * A failure's `missing_keys` — issues Jira answered 404 for — recorded in the mirror as a refresh's missing
   * keys are (SPEC 7, decision 1448): only the Jira keys the command names count, as only the keys a refresh
   * asked for do. Once, with the report that finishes the command (a repeated report writes nothing). Not for a
   * refresh: its run is the one its parts fill (a refresh tells the keys it did not get back in its result).
   */
  private async recordMissing(m: EntityManager, c: CommandRow, report: Report, now: string): Promise<void> {
    if (!report.missing_keys?.length || c.type === 'refresh' || c.type === 'refresh_catalogue') return;
    const named = keysNamed(c.type, parseJson<Params>(c.params, {}));
    const missing = [...new Set(report.missing_keys)].filter((k) => isJiraKey(k) && named.includes(k));
    if (missing.length) await this.runs.recordMissing(m, c.id, missing, c.claimed_at ?? now, now);
  }

  /**
   * The change record of a `done` (SPEC 17.1), or of a `failed`: what the command changed before it failed
   * (decision 1413); kept with the handout whose report carried it, once per command (a repeated report adds nothing).
   */
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
    const after = await this.commands.release(m, c.id, jiraCalls, now);
    const reason = report.error?.trim() ? cutToCharacters(report.error, MAX_ERROR_LENGTH) : 'Jira не принимает учётные данные агента';
    if (c.type === 'refresh') await this.runs.fail(m, c.id, now, reason);
    await this.deliveries.close(m, c.id, 'released', { at: now, jiraCalls });
    await this.agents.releaseCurrent(m, c.id);
    return { before: c, after };
  }
}
