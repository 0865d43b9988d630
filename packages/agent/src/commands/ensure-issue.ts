import { comparableText } from '@jira-hub/contracts/catalogue';
import { CommandFailure, RetryLater } from '../command-failure.js';
import { JiraHttpError, SERVER_ERRORS } from '../jira-client.js';
import { JiraApi, type JiraIssue } from '../jira-api.js';
import { encodeValue, resolveField } from '../field-values.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { lookAgain } from './look-again.js';
import { optionalObject, optionalString, requireString } from './params.js';
import type { AgentCommand } from '../types.js';

/** Characters with a meaning in Jira's text search (Lucene): escaped with a backslash in the `~` phrase. */
const TEXT_SEARCH_SPECIALS = /[+\-&|!(){}[\]^~*?\\:"'/]/g;

/** Minutes added to a create attempt's age when bounding the search: the agent's and Jira's clocks may differ. */
export const ATTEMPT_MARGIN_MINUTES = 5;

/** Pages of 50 the duplicate search reads before giving up (1000 similar summaries). */
export const DUPLICATE_SEARCH_MAX_PAGES = 20;

/** A JQL string literal: backslashes and double quotes escaped. */
const jqlString = (text: string): string => `"${text.replace(/["\\]/g, '\\$&')}"`;

/** The `~` phrase clause for one spelling of a summary: spaces collapsed, Lucene's specials escaped. */
const phraseClause = (summary: string): string => `summary ~ ${jqlString(`"${summary.replace(/\s+/g, ' ').trim().replace(TEXT_SEARCH_SPECIALS, '\\$&')}"`)}`;

/**
 * JQL for possible duplicates: a phrase search on the summary (fuzzy in Jira; the caller compares exactly).
 * Lucene's special characters are escaped, not dropped, so a summary made only of them still has its clause.
 * Jira indexes a summary in the spelling it stores and does not normalize Unicode, so an issue saved with
 * «ё» as «е» + U+0308 (NFD; an older agent, another client) is not found by the composed phrase: when the
 * decomposed spelling differs, it is searched too (OR), and the caller compares both through comparableText.
 * The JQL goes in a POST body, so doubling a phrase of at most 255 units stays far from any request limit.
 * `sinceMinutes`: only issues created in the last that many minutes, newest first (a create attempt's own
 * issue); else every issue of the project, oldest first. The bound is relative ("-15m"), so Jira's time zone
 * for the user does not shift it.
 */
export function duplicateSearchJql(project: string, summary: string, sinceMinutes?: number): string {
  const spellings = [...new Set([summary.normalize('NFC'), summary.normalize('NFD')])].map(phraseClause);
  const text = spellings.length === 1 ? spellings[0]! : `(${spellings.join(' OR ')})`;
  const clauses = [`project = ${jqlString(project)}`, text];
  if (sinceMinutes !== undefined) clauses.push(`created >= "-${sinceMinutes}m"`);
  return `${clauses.join(' AND ')} ORDER BY created ${sinceMinutes === undefined ? 'ASC' : 'DESC'}`;
}


/**
 * ensure_issue → {key, created}.
 * 1. The journal: a key created by an earlier delivery of this command wins (Jira search is eventually
 *    consistent, so a just-created issue may not be found yet) — if it was journaled for the same summary and
 *    project (a new hub database reuses command ids); so does a create attempt below.
 * 2. If the journal holds a create attempt for this command (a POST /issue was sent but its answer, the key,
 *    never recorded: e.g. a network error after Jira created the issue): a search bounded by the attempt's
 *    time (minus ATTEMPT_MARGIN_MINUTES), newest first; an exact match is the issue the lost POST created:
 *    its key is journaled and reported with `created: true`.
 * 3. A duplicate search in the project, oldest first, comparing summaries exactly (after trimming) on the
 *    client; the oldest match is someone else's: `created: false`. A search that reads
 *    DUPLICATE_SEARCH_MAX_PAGES pages without a decision fails the command (nothing is created).
 *    With an attempt and no match, the bounded search runs again after each of `createRecheckDelaysMs` (the
 *    index may not hold the new issue yet) before creating.
 * 4. Journal the create attempt, create, then record the key in the journal at once (clearing the attempt).
 *    A 500/502/504 answer is taken as a lost answer: search again as in 3; an issue found is the one created,
 *    else RetryLater (the loop runs the command again like after an outage, bounded; never `failed` at once).
 */
export async function ensureIssue(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  // One Unicode spelling (NFC, as the hub compares): compared and created so; searched in NFC and NFD (duplicateSearchJql).
  const summary = comparableText(requireString(cmd.params, 'summary'));
  const origin = { summary, project: ctx.project };
  const earlier = ctx.journal.createdKeyFor(cmd.id, origin);
  if (earlier) return createdResult(earlier, summary);

  const issueType = requireString(cmd.params, 'issue_type');
  const description = optionalString(cmd.params, 'description');
  const parent = optionalString(cmd.params, 'parent');
  const extra = optionalObject(cmd.params, 'fields') ?? {};
  const api = JiraApi.for(ctx.client);

  const attempt = ctx.journal.createAttemptFor(cmd.id, origin);
  const ours = attempt ? await findDuplicate(api, ctx.project, summary, attempt.at) : undefined;
  if (ours) return journaled(ctx, cmd.id, ours.key, origin);
  const other = await findDuplicate(api, ctx.project, summary);
  if (other) return { key: other.key, created: false };
  const late = attempt ? await recheck(api, ctx, summary, attempt.at) : undefined;
  if (late) return journaled(ctx, cmd.id, late.key, origin);

  const fields: Record<string, unknown> = {
    project: { key: ctx.project },
    issuetype: { name: issueType },
    summary,
  };
  if (description) fields.description = api.encodeText(description);
  if (parent) Object.assign(fields, await parentFields(api, ctx.project, issueType, parent));
  for (const [name, value] of Object.entries(extra)) {
    const field = await resolveField(api, name);
    fields[field.id] = encodeValue(api, field, value);
  }
  ctx.journal.recordCreateAttempt(cmd.id, summary, ctx.project);
  let created: { key: string };
  try {
    created = await api.createIssue(fields);
  } catch (error) {
    // A 500/502/504 may come after Jira created the issue: like a lost answer, the attempt stays journaled and
    // search is tried again with back-off; if the issue still does not show, the loop runs the command again
    // (as for an outage), which searches once more before creating.
    if (!(error instanceof JiraHttpError && SERVER_ERRORS.has(error.status))) throw error;
    const found = await recheck(api, ctx, summary, ctx.journal.createAttemptFor(cmd.id)?.at ?? new Date().toISOString());
    if (!found) throw new RetryLater(error.message);
    created = found;
  }
  ctx.journal.recordCreated(cmd.id, created.key, origin);
  return createdResult(created.key, summary);
}

/** `{key, created: true}` with its change record (SPEC 17.1): the issue this command created. */
function createdResult(key: string, summary: string): CommandResult {
  return { key, created: true, changes: [{ key, what: 'issue', after: { key, summary } }] };
}

/**
 * How a new issue names its parent. Cloud: `parent` for sub-tasks and epics alike. Data Center: `parent` only for a
 * sub-task type (per the project's issue types); any other type goes into its epic through the Epic Link field
 * (found by its schema), as DC refuses `parent` there.
 */
async function parentFields(api: JiraApi, project: string, issueType: string, parent: string): Promise<Record<string, unknown>> {
  if (api.flavor === 'cloud') return { parent: { key: parent } };
  const type = (await api.projectIssueTypes(project)).find((t) => t.name.trim().toLowerCase() === issueType.trim().toLowerCase());
  const epicLink = type?.subtask ? null : await api.epicLinkFieldId();
  return epicLink ? { [epicLink]: parent } : { parent: { key: parent } };
}

function journaled(ctx: ExecutorContext, commandId: number, key: string, origin: { summary: string; project: string }): CommandResult {
  ctx.journal.recordCreated(commandId, key, origin);
  return createdResult(key, origin.summary);
}

/**
 * The first issue of the search whose summary equals `summary` exactly (after trimming): oldest first, or with
 * `attemptAt` newest first among those created since then (minus the margin). Pages are read until a match;
 * DUPLICATE_SEARCH_MAX_PAGES pages without one and without the end fail the command rather than risk a duplicate.
 */
async function findDuplicate(api: JiraApi, project: string, summary: string, attemptAt?: string): Promise<JiraIssue | undefined> {
  const sinceMinutes = attemptAt === undefined ? undefined : Math.max(0, Math.ceil((Date.now() - Date.parse(attemptAt)) / 60_000)) + ATTEMPT_MARGIN_MINUTES;
  let seen = 0;
  for await (const page of api.searchPages(duplicateSearchJql(project, summary, sinceMinutes), ['summary', 'created'], DUPLICATE_SEARCH_MAX_PAGES)) {
    // Compared as the hub compares summaries (comparableText): «Отчёт» typed with a combining mark is the same summary.
    const match = page.issues.find((issue) => typeof issue.fields.summary === 'string' && comparableText(issue.fields.summary) === summary);
    if (match) return match;
    seen += page.issues.length;
    if (page.last) return undefined;
  }
  throw new CommandFailure(
    `поиск дубликата не завершён: просмотрено ${seen} задач проекта ${project} с похожим названием, точного совпадения среди них нет, а Jira нашла больше; ` +
      `задача не создана, чтобы не завести дубликат — уточните название или создайте задачу вручную`,
  );
}

/** Searches again after each configured wait (honouring the stop signal); the issue found, or undefined. */
function recheck(api: JiraApi, ctx: ExecutorContext, summary: string, attemptedAt: string): Promise<JiraIssue | undefined> {
  return lookAgain(
    ctx,
    () => findDuplicate(api, ctx.project, summary, attemptedAt),
    (seconds) => `ensure_issue: the answer to POST /issue sent at ${attemptedAt} was lost and search does not find the issue yet; searching again for up to ${seconds} s before creating`,
    'остановлено во время повторного поиска созданной задачи',
  );
}
