import { comparableText } from '@jira-hub/contracts/catalogue';
import { CommandFailure } from '../command-failure.js';
import { JiraApi } from '../jira-api.js';
import { JiraHttpError } from '../jira-client.js';
import { linksWithIds } from '../issue-mapper.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { requireString } from './params.js';
import type { AgentCommand } from '../types.js';

const sameKey = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase();

/** A DELETE whose first try may have gone through before a retry: a 404 then means it is gone. */
async function deleted(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof JiraHttpError && error.status === 404)) throw error;
  }
}

/**
 * remove_link → {removed} (SPEC 17.2). Reads the source's links; the link source→target of that type (by name,
 * case-insensitively) is deleted by its id (DELETE /issueLink/{id}); none there → {removed: false}.
 */
export async function removeLink(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const source = requireString(cmd.params, 'source');
  const target = requireString(cmd.params, 'target');
  const linkType = requireString(cmd.params, 'link_type');
  const api = JiraApi.for(ctx.client);
  const issue = await api.findIssue(source, ['issuelinks']);
  if (!issue) return { removed: false };
  const link = linksWithIds(issue).find(
    (l) => l.source_key === issue.key && sameKey(l.target_key, target) && l.link_type.toLowerCase() === linkType.toLowerCase(),
  );
  if (!link) return { removed: false };
  if (!link.id) throw new CommandFailure(`Jira не сообщила id связи ${link.source_key} → ${link.target_key} (${link.link_type}): удалить её нельзя`);
  const before = { source: link.source_key, target: link.target_key, link_type: link.link_type, id: link.id };
  const changes = [{ key: issue.key, what: 'link_removed', before }];
  ctx.journal.recordIntent(cmd.id, cmd, changes);
  await deleted(() => api.deleteLink(link.id!, `${link.source_key} → ${link.target_key}`));
  return { removed: true, changes };
}

/** remove_comment → {removed} (SPEC 17.2): DELETE …/comment/{id}; a comment that is not there → {removed: false}. */
export async function removeComment(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  const raw = cmd.params.comment_id;
  const id = typeof raw === 'number' ? String(raw) : requireString(cmd.params, 'comment_id');
  const api = JiraApi.for(ctx.client);
  const comment = await api.findComment(key, id);
  if (!comment) return { removed: false };
  const changes = [{ key, what: 'comment_removed', before: { id, body: api.decodeText(comment.body) } }];
  ctx.journal.recordIntent(cmd.id, cmd, changes);
  await deleted(() => api.deleteComment(key, id));
  return { removed: true, changes };
}

/**
 * delete_issue → {deleted} (SPEC 17.2). Deletes only when Jira's summary still equals `summary` (after trimming
 * both), the issue has no sub-tasks (Jira deletes an issue only together with them, which the agent never asks
 * for: they are not the command's) and the account holds DELETE_ISSUES in the issue's project; otherwise fails
 * saying why, nothing deleted. An issue that is already gone → {deleted: false}.
 */
export async function deleteIssue(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  const summary = requireString(cmd.params, 'summary').trim();
  const api = JiraApi.for(ctx.client);
  const issue = await api.findIssue(key, ['summary', 'project', 'subtasks']);
  if (!issue) return { deleted: false };
  const actual = typeof issue.fields.summary === 'string' ? issue.fields.summary.trim() : '';
  if (comparableText(actual) !== comparableText(summary)) throw new CommandFailure(`тема задачи ${issue.key} в Jira изменилась: «${actual}», а не «${summary}»; задача не удалена`);
  // Jira answers a bare 400 («The issue has subtasks…»), which the agent would word as values to fix in the command.
  const subtasks = (Array.isArray(issue.fields.subtasks) ? issue.fields.subtasks : []).map((s) => (s as { key?: unknown } | null)?.key).filter((k): k is string => typeof k === 'string');
  if (subtasks.length > 0) {
    throw new CommandFailure(
      `у задачи ${issue.key} есть подзадачи (${subtasks.join(', ')}): Jira удаляет задачу только вместе с ними, а агент подзадачи не удаляет — удалите или перенесите их и повторите команду; задача ${issue.key} не удалена`,
    );
  }
  const project = (issue.fields.project as { key?: string } | undefined)?.key ?? /^(.+)-\d+$/.exec(issue.key)?.[1] ?? ctx.project;
  if (!(await api.hasPermission(project, 'DELETE_ISSUES'))) {
    throw new CommandFailure(`у учётной записи агента нет права удалять задачи в проекте ${project} (DELETE_ISSUES); задача ${issue.key} не удалена`);
  }
  const changes = [{ key: issue.key, what: 'issue_deleted', before: { key: issue.key, summary: actual } }];
  ctx.journal.recordIntent(cmd.id, cmd, changes);
  await deleted(() => api.deleteIssue(issue.key));
  return { deleted: true, changes };
}
