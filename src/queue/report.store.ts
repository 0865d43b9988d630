/** The report of a command's result (SPEC 6.5) and confirmation by state (6.6), in one transaction. */
import type { ReportBody } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import { NotClaimedError, NotFoundError, ValidationFailedError } from '../common/errors.js';
import { isJiraKey } from '../common/keys.js';
import { cutToCharacters } from '../common/text.js';
import { updateReturning } from '../database/engine.js';
import { parseJson } from '../database/json.js';
import { failSyncRun, mirrorLookup, moveNote } from '../mirror/mirror.store.js';
import { releaseCurrent } from './agent-status.store.js';
import { findCommand } from './batch.store.js';
import { CatalogueRepository } from '../catalogue/catalogue.repository.js';
import { noteFailure, storeCatalogue } from './catalogue-refresh.store.js';
import { closeDelivery, deliveredTo } from './delivery.store.js';
import { recordChanges } from './change.store.js';
import { isTerminal } from './command.entity.js';
import { keysNamed, type Params } from '@jira-hub/contracts/catalogue';
import { isConfirmedByState } from './commands/confirmation.js';
import { applyPart, finishRefresh } from './refresh-report.store.js';
import type { CommandRow } from './rows.js';

/** In characters (code points): an emoji is never cut in half. */
export const MAX_ERROR_LENGTH = 1500;
export const NO_REASON_ERROR = 'агент не сообщил причину';

/** The agent's report, as the wire contract has it (`partial`: one part of a refresh's result, SPEC 15.5). */
export type Report = ReportBody;

const resultKey = (r: Report): string | undefined => (isJiraKey(r.result?.key) ? (r.result!.key as string) : undefined);

/** The result a `done` of an ensure_issue must carry; a problem is a 422 with nothing changed (a refresh's: refresh-report.store). */
function checkDone(c: CommandRow, report: Report): void {
  if (c.type === 'ensure_issue' && !resultKey(report)) {
    const detail = 'результат ensure_issue должен содержать key — ключ задачи Jira';
    throw new ValidationFailedError(detail, [{ field: 'result.key', detail }]);
  }
}

/** Claimed commands whose desired result the mirror now shows become `confirmed_by_state` (SPEC 6.6). */
async function confirmByState(m: EntityManager, syncRunId: number, now: string, confirmed: CommandRow[]): Promise<void> {
  const claimed: CommandRow[] = await m.query(`SELECT * FROM command WHERE status = 'claimed'`);
  if (claimed.length === 0) return;
  const parsed = claimed.map((c) => ({ c, params: parseJson<Params>(c.params, {}) }));
  const lookup = await mirrorLookup(m, parsed.flatMap(({ c, params }) => keysNamed(c.type, params)));
  const result = JSON.stringify({ confirmed_by_sync_run: syncRunId });
  for (const { c, params } of parsed) {
    if (!isConfirmedByState(c.type, params, lookup)) continue;
    // `status = 'claimed'` again: a command that changed meanwhile is never overwritten.
    await m.query(`UPDATE command SET status = 'confirmed_by_state', finished_at = ?, result = ? WHERE id = ? AND status = 'claimed'`, [now, result, c.id]);
    await closeDelivery(m, c.id, 'confirmed_by_state');
    await releaseCurrent(m, c.id);
    confirmed.push(c);
  }
}

/**
 * SPEC 16.3: Jira refused the agent's credentials — the command goes back to `queued` in its place (its
 * queue_pos and seq are kept), this delivery closes as `released` and is not counted toward the limit.
 */
async function release(m: EntityManager, c: CommandRow, report: Report, now: string): Promise<Reported> {
  const jiraCalls = report.jira_calls ?? 0;
  const [after] = await updateReturning<CommandRow>(m, `UPDATE command SET status = 'queued', deliveries = CASE WHEN deliveries > 0 THEN deliveries - 1 ELSE 0 END, jira_calls = jira_calls + ? WHERE id = ?`, [jiraCalls, c.id]);
  const reason = report.error?.trim() ? cutToCharacters(report.error, MAX_ERROR_LENGTH) : 'Jira не принимает учётные данные агента';
  if (c.type === 'refresh') await failSyncRun(m, c.id, now, reason);
  await closeDelivery(m, c.id, 'released', { at: now, jiraCalls });
  await releaseCurrent(m, c.id);
  return { before: c, after: after! };
}

/** A report's command before and after it (the same row when nothing changed). */
export interface Reported {
  before: CommandRow;
  after: CommandRow;
}

/**
 * The transaction body of POST /agent/commands/{id}/result. `confirmed` receives the other commands a
 * refresh confirmed by state. The command's own row is read once and its new state comes back from the
 * UPDATE that makes it (RETURNING); nothing later in the transaction writes that row.
 */
export async function reportInTransaction(
  m: EntityManager,
  id: number,
  report: Report,
  now: string,
  confirmed: CommandRow[] = [],
  catalogues: CatalogueRepository = new CatalogueRepository(),
): Promise<Reported> {
  const c = await findCommand(m, id);
  if (!c) throw new NotFoundError(`команды ${id} нет`);
  if (c.status === 'queued') throw new NotClaimedError(id);
  const params = parseJson<Params>(c.params, {});
  const jiraCalls = report.jira_calls ?? 0;
  const rateLimited = report.rate_limited ?? 0;
  const update = async (sql: string, values: unknown[]) => ({ before: c, after: (await updateReturning<CommandRow>(m, sql, values))[0] });

  if (isTerminal(c.status)) {
    // Idempotent, except a late `done` of a force-cancelled ensure_issue that was handed out: its issue exists in Jira.
    // `claimed_at` tells "handed out": rows of an earlier hub that were cancelled there have no deliveries counted.
    // What a late `done` changed happened in Jira all the same: the record keeps it (once).
    if (report.status === 'done') await recordChanges(m, id, report.changes, now);
    const key = resultKey(report);
    const lateCreate = c.status === 'cancelled' && c.type === 'ensure_issue' && c.claimed_at !== null && c.result === null;
    if (!(lateCreate && report.status === 'done' && key)) return { before: c, after: c };
    await moveNote(m, String(params.temp_key), key, now);
    return update('UPDATE command SET result = ?, jira_calls = ?, rate_limited = ? WHERE id = ?', [JSON.stringify(report.result), jiraCalls, rateLimited, id]);
  }

  // The command stays claimed; the mirror changes, confirmation waits for the final report.
  if (report.status === 'partial') return await applyPart(m, c, report.part!, report.result, now), { before: c, after: c };
  if (report.status === 'released') return release(m, c, report, now);

  let done: Reported;
  if (report.status === 'done') {
    checkDone(c, report);
    const refresh = c.type === 'refresh' ? await finishRefresh(m, c, report.result, now) : undefined;
    if (c.type === 'refresh_catalogue') await storeCatalogue(m, catalogues, report.result, now, await deliveredTo(m, id));
    done = await update(`UPDATE command SET status = 'done', result = ?, jira_calls = ?, rate_limited = ?, finished_at = ?, error = NULL WHERE id = ?`, [
      JSON.stringify((refresh ? refresh.result : report.result) ?? {}),
      jiraCalls,
      rateLimited,
      now,
      id,
    ]);
    if (c.type === 'ensure_issue') await moveNote(m, String(params.temp_key), resultKey(report)!, now);
    await recordChanges(m, id, report.changes, now);
    if (refresh) await confirmByState(m, refresh.runId, now, confirmed);
  } else {
    const error = report.error?.trim() ? cutToCharacters(report.error, MAX_ERROR_LENGTH) : NO_REASON_ERROR;
    done = await update(`UPDATE command SET status = 'failed', error = ?, jira_calls = ?, rate_limited = ?, finished_at = ?, result = ? WHERE id = ?`, [
      error,
      jiraCalls,
      rateLimited,
      now,
      report.result === undefined ? null : JSON.stringify(report.result),
      id,
    ]);
    if (c.type === 'refresh') await failSyncRun(m, id, now, error);
    await noteFailure(m, catalogues, c, error, now);
  }
  await closeDelivery(m, id, report.status === 'done' ? 'reported_done' : 'reported_failed', { at: now, jiraCalls });
  await releaseCurrent(m, id);
  return done;
}
