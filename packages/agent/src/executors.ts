import { changesMadeBefore, CommandFailure, CommandStopped, RetryLater, transitionsSeenBefore } from './command-failure.js';
import type { CommandResult, ExecutorContext } from './commands/context.js';
import { ensureComment } from './commands/ensure-comment.js';
import { ensureFields } from './commands/ensure-fields.js';
import { ensureIssue } from './commands/ensure-issue.js';
import { ensureLink } from './commands/ensure-link.js';
import { ensureSprint } from './commands/ensure-sprint.js';
import { ensureStatus } from './commands/ensure-status.js';
import { refresh } from './commands/refresh.js';
import { refreshCatalogue } from './commands/refresh-catalogue.js';
import { deleteIssue, removeComment, removeLink } from './commands/remove.js';
import { JiraApi } from './jira-api.js';
import { JiraHttpError, JiraNetworkError, JiraStoppedError } from './jira-client.js';
import type { AgentCommand, CommandOutcome, CommandType } from './types.js';
import type { Change } from '@jira-hub/contracts';

export type { ExecutorContext } from './commands/context.js';

type Executor = (cmd: AgentCommand, ctx: ExecutorContext) => Promise<CommandResult>;

/** The command types the agent runs: SPEC 4's, and refresh_catalogue (SPEC 16.1). */
const EXECUTORS: Record<CommandType | 'refresh_catalogue', Executor> = {
  ensure_issue: ensureIssue,
  ensure_fields: ensureFields,
  ensure_status: ensureStatus,
  ensure_link: ensureLink,
  ensure_sprint: ensureSprint,
  ensure_comment: ensureComment,
  refresh,
  refresh_catalogue: refreshCatalogue,
  remove_link: removeLink,
  remove_comment: removeComment,
  delete_issue: deleteIssue,
};

/**
 * Executes one command in Jira. Never throws: Jira's refusals are worded in Russian with Jira's answer after
 * it («Jira: задачи A-1 нет … (HTTP 404: …)», JiraHttpError), the agent's own reasons are Russian
 * sentences, anything unexpected is reported as an internal error.
 * A failure keeps the changes the command made before it (the executor marks its error with them,
 * withChangesMade): they are reported with it (decision 1413).
 * A Jira-wide outage (network failure, 401) is marked `outage`: the loop retries instead of reporting it (and,
 * should it give up, reports the changes the outcome carries: decision 1497);
 * an execution the stop signal ended midway (a wait, or a Jira request: JiraStoppedError) is marked `stopped`: the loop neither reports nor retries it.
 */
export async function executeCommand(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandOutcome> {
  const executor = EXECUTORS[cmd.type as keyof typeof EXECUTORS] as Executor | undefined;
  if (!executor) return { status: 'failed', error: `неизвестный тип команды «${cmd.type}»` };
  JiraApi.for(ctx.client).projectKey ??= ctx.project; // field names are looked up as the project sees them
  try {
    const { changes: made, ...own } = await executor(cmd, ctx);
    const intent = ctx.journal.intentFor(cmd.id, cmd);
    const changes = withIntent(made ?? [], intent);
    const result = intent?.length ? resultOfChanges(cmd.type, own, changes) : own;
    return changes.length ? { status: 'done', result, changes } : { status: 'done', result };
  } catch (error) {
    if (error instanceof CommandStopped || error instanceof JiraStoppedError) return { status: 'failed', error: error.message, stopped: true };
    if (!isOutage(error)) {
      // What the command changed before it failed (a status walk refused partway) is reported with the failure (decision 1413).
      const changes = changesMadeBefore(error);
      const missing = missingKeys(error);
      // What Jira offered where a status walk stopped, for the hub's catalogue (decision 1485).
      const seen = transitionsSeenBefore(error);
      return { status: 'failed', error: failureText(error), ...(changes.length ? { changes } : {}), ...(missing.length ? { missing_keys: missing } : {}), ...(seen ? { transitions_seen: seen } : {}) };
    }
    const unauthorized = error instanceof JiraHttpError && error.status === 401;
    // Not reported while the loop runs the command again; but an outage it gives up on is reported, with what
    // the command had changed before Jira went away (decision 1497).
    const changes = changesMadeBefore(error);
    return { status: 'failed', error: failureText(error), outage: true, ...(unauthorized ? { unauthorized: true } : {}), ...(changes.length ? { changes } : {}) };
  }
}

/**
 * The changes to report: what this execution changed, and what an earlier execution of the same command
 * journaled just before its write (SPEC 17.1). The command succeeded, so Jira is now as it wanted: a change
 * this execution did not make again was made by the earlier one, whose report was lost; one it made again
 * (a walk of statuses cut short) keeps the earlier `before`, the value before the command, and the
 * transitions journaled as they were taken, the earlier execution's among them.
 */
export function withIntent(made: readonly Change[], intent: readonly Change[] | undefined): Change[] {
  if (!intent?.length) return [...made];
  const subject = (c: Change) => `${c.key ?? ''} ${c.what}`;
  const madeBy = new Map(made.map((c) => [subject(c), c]));
  const merged: Change[] = intent.map((earlier) => {
    const again = madeBy.get(subject(earlier));
    madeBy.delete(subject(earlier));
    // The journal's transitions are the whole walk (each journaled as taken); this execution's may be its end only.
    return again ? { ...again, ...('before' in earlier ? { before: earlier.before } : {}), ...(earlier.transitions?.length ? { transitions: earlier.transitions } : {}) } : earlier;
  });
  return [...merged, ...madeBy.values()];
}

/** What a command's result says of its changes, read from the changes it reports (the types withIntent serves). */
const RESULT_OF_CHANGES: Partial<Record<string, (changes: readonly Change[]) => Record<string, unknown>>> = {
  ensure_fields: (c) => ({ changed: c.filter((x) => x.what.startsWith('field:')).map((x) => x.what.slice('field:'.length)) }),
  ensure_status: (c) => {
    const walk = c.find((x) => x.what === 'status');
    return walk ? { from: walk.before } : {};
  },
  ensure_link: (c) => ({ created: c.some((x) => x.what === 'link') }),
  ensure_comment: (c) => ({ created: c.some((x) => x.what === 'comment') }),
  remove_link: (c) => ({ removed: c.some((x) => x.what === 'link_removed') }),
  remove_comment: (c) => ({ removed: c.some((x) => x.what === 'comment_removed') }),
  delete_issue: (c) => ({ deleted: c.some((x) => x.what === 'issue_deleted') }),
};

/**
 * The result made to agree with the changes reported: after a lost report an earlier execution made the
 * change the journal's intent records (withIntent reports it), so `created`, `removed`, `deleted`, `changed`
 * and a status walk's `from` say what the command did, not what this execution alone found left to do.
 */
export function resultOfChanges(type: string, result: Record<string, unknown>, changes: readonly Change[]): Record<string, unknown> {
  const read = RESULT_OF_CHANGES[type];
  return read ? { ...result, ...read(changes) } : result;
}

/**
 * Jira unreachable, or refusing the agent's credentials (401): nothing about this command, the same command is
 * run again later; so is a command whose outcome Jira left unknown (RetryLater: a 5xx to POST /issue).
 */
export function isOutage(error: unknown): boolean {
  return error instanceof JiraNetworkError || error instanceof RetryLater || (error instanceof JiraHttpError && error.status === 401);
}

/**
 * The issue a failure says Jira no longer has (or hides from the agent): Jira's 404 to a request that named
 * one issue (JiraHttpError.issueKeys) — the `missing_keys` of the failed report, as a refresh's (decision 1448).
 * A 404 to a request naming several issues does not say which one is gone: none is reported; nor is any
 * other refusal, whatever its words.
 */
export function missingKeys(error: unknown): string[] {
  return error instanceof JiraHttpError && error.status === 404 && error.issueKeys.length === 1 ? [...error.issueKeys] : [];
}

export function failureText(error: unknown): string {
  if (error instanceof JiraHttpError || error instanceof JiraNetworkError || error instanceof CommandFailure) return error.message;
  return `внутренняя ошибка агента: ${error instanceof Error ? error.message : String(error)}`;
}
