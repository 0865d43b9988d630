import { CommandFailure } from '../command-failure.js';
import { JiraApi, type JiraIssue } from '../jira-api.js';
import { JiraHttpError } from '../jira-client.js';
import { resolveField, type ResolvedField } from '../field-values.js';
import { REFRESH_FIELDS, linksOf, toHubIssue, uniqueLinks } from '../issue-mapper.js';
import type { CommandResult, ExecutorContext } from './context.js';
import type { AgentCommand } from '../types.js';

const KEYS_PER_SEARCH = 50;

/**
 * refresh → {issues, links, missing_keys?}.
 * By JQL: every page of the search. By keys: `key in (…)` searches of 50 keys; a key the search does not
 * return (not indexed yet, or gone) is read with GET /issue/{key}, and only a 404 makes it missing.
 */
export async function refresh(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const api = JiraApi.for(ctx.client);
  const sprintFieldId = await api.sprintFieldId();
  const custom: ResolvedField[] = [];
  for (const name of ctx.customFields ?? []) custom.push(await resolveField(api, name));
  const fields = [...REFRESH_FIELDS, ...(sprintFieldId ? [sprintFieldId] : []), ...custom.map((f) => f.id)];

  const { keys, jql } = cmd.params;
  let issues: JiraIssue[];
  let missing: string[] | undefined;
  if (Array.isArray(keys) && keys.length > 0 && jql === undefined) {
    ({ issues, missing } = await byKeys(api, keys.map(String), fields));
  } else if (typeof jql === 'string' && jql.trim() !== '' && keys === undefined) {
    issues = await api.search(jql, fields);
  } else {
    throw new CommandFailure('refresh: нужен либо непустой список keys, либо непустой jql');
  }

  const result: CommandResult = {
    issues: issues.map((issue) => toHubIssue(api, issue, sprintFieldId, custom)),
    links: uniqueLinks(issues.flatMap(linksOf)),
  };
  if (missing) result.missing_keys = missing;
  return result;
}

async function byKeys(api: JiraApi, keys: string[], fields: string[]): Promise<{ issues: JiraIssue[]; missing: string[] }> {
  const wanted = [...new Set(keys.map((k) => k.trim().toUpperCase()))];
  const byKey = new Map<string, JiraIssue>();
  for (let i = 0; i < wanted.length; i += KEYS_PER_SEARCH) {
    const chunk = wanted.slice(i, i + KEYS_PER_SEARCH);
    try {
      const found = await api.search(`key in (${chunk.map((k) => `"${k}"`).join(', ')}) ORDER BY key ASC`, fields);
      for (const issue of found) byKey.set(issue.key.toUpperCase(), issue);
    } catch (error) {
      // Jira may reject the whole JQL for one unknown key (400); those keys are read one by one below.
      if (!(error instanceof JiraHttpError && error.status === 400)) throw error;
    }
  }
  const issues: JiraIssue[] = [];
  const missing: string[] = [];
  for (const key of wanted) {
    const issue = byKey.get(key) ?? (await api.findIssue(key, fields));
    if (!issue) missing.push(key);
    else if (!issues.some((known) => known.id === issue.id)) issues.push(issue);
  }
  return { issues, missing };
}
