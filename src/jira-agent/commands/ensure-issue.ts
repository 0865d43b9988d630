import { JiraApi } from '../jira-api.js';
import { encodeValue, resolveField } from '../field-values.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { optionalObject, optionalString, requireString } from './params.js';
import type { AgentCommand } from '../types.js';

/** Characters with a meaning in Jira's text search (Lucene); they are replaced by spaces in the `~` phrase. */
const TEXT_SEARCH_SPECIALS = /[+\-&|!(){}[\]^~*?\\:"'/]/g;

/** JQL for possible duplicates: a phrase search on the summary (fuzzy in Jira; the caller compares exactly). */
export function duplicateSearchJql(project: string, summary: string): string {
  const phrase = summary.replace(TEXT_SEARCH_SPECIALS, ' ').replace(/\s+/g, ' ').trim();
  const projectClause = `project = "${project.replace(/["\\]/g, '\\$&')}"`;
  return phrase ? `${projectClause} AND summary ~ "\\"${phrase}\\"" ORDER BY created ASC` : `${projectClause} ORDER BY created ASC`;
}

/**
 * ensure_issue → {key, created}.
 * 1. The journal: a key created by an earlier delivery of this command wins (Jira search is eventually
 *    consistent, so a just-created issue may not be found yet).
 * 2. A duplicate search in the project, comparing summaries exactly (after trimming) on the client; the oldest wins.
 * 3. Create, then record the key in the journal at once.
 */
export async function ensureIssue(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const earlier = ctx.journal.createdKeyFor(cmd.id);
  if (earlier) return { key: earlier, created: true };

  const summary = requireString(cmd.params, 'summary').trim();
  const issueType = requireString(cmd.params, 'issue_type');
  const description = optionalString(cmd.params, 'description');
  const parent = optionalString(cmd.params, 'parent');
  const extra = optionalObject(cmd.params, 'fields') ?? {};
  const api = JiraApi.for(ctx.client);

  const candidates = await api.search(duplicateSearchJql(ctx.project, summary), ['summary', 'created'], 20);
  const duplicate = candidates.find((issue) => typeof issue.fields.summary === 'string' && issue.fields.summary.trim() === summary);
  if (duplicate) return { key: duplicate.key, created: false };

  const fields: Record<string, unknown> = {
    project: { key: ctx.project },
    issuetype: { name: issueType },
    summary,
  };
  if (description) fields.description = api.encodeText(description);
  if (parent) fields.parent = { key: parent };
  for (const [name, value] of Object.entries(extra)) {
    const field = await resolveField(api, name);
    fields[field.id] = encodeValue(api, field, value);
  }
  const created = await api.createIssue(fields);
  ctx.journal.recordCreated(cmd.id, created.key);
  return { key: created.key, created: true };
}
