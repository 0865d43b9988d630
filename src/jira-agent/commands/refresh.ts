import { CommandFailure } from '../command-failure.js';
import { JiraApi, type JiraIssue } from '../jira-api.js';
import { JiraHttpError } from '../jira-client.js';
import { STANDARD_FIELDS, fieldKind, type ResolvedField } from '../field-values.js';
import { REFRESH_FIELDS, linksOf, toHubIssue, uniqueLinks } from '../issue-mapper.js';
import type { CommandResult, ExecutorContext } from './context.js';
import type { AgentCommand } from '../types.js';

const KEYS_PER_SEARCH = 50;
/** Cloud's bulkfetch takes at most 100 issues per call. */
const KEYS_PER_BULKFETCH = 100;

/**
 * refresh → {issues, links, missing_keys?}.
 * By JQL: every page of the search; on Cloud the search gives only the ids (in its order), and the issues are
 * read with POST /issue/bulkfetch by 100 (the search index may still hold their state from before this batch's
 * writes; an id bulkfetch no longer returns is left out). By keys on Cloud: POST /issue/bulkfetch by 100 keys (it reads the database,
 * while /search/jql may serve the state before the writes this batch just made); a key it does not return is
 * missing. By keys on DC: `key in (…)` searches of 50 keys; a key the search does not return (not indexed yet,
 * or gone) is read with GET /issue/{key}, and only a 404 makes it missing.
 */
export async function refresh(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const api = JiraApi.for(ctx.client);
  // A settings field Jira does not know (deleted, renamed, a typo) is left out with a log line: it must not
  // stop the mirror from being refreshed.
  const custom: ResolvedField[] = [];
  const standard = new Set<string>(STANDARD_FIELDS);
  const names = [...new Set(ctx.customFields ?? [])];
  const ids = await api.fieldIdsFor(names.filter((name) => !standard.has(name)));
  for (const name of names) {
    const id = standard.has(name) ? name : ids.get(name);
    if (id) custom.push(standard.has(name) ? { name, id } : { name, id, kind: fieldKind(await api.fieldMeta(id)) });
    else ctx.log?.(`refresh: field «${name}» from settings is not in Jira; left out`);
  }
  const sprintFieldId = await api.sprintFieldId(); // after the lookup above, which may have re-read the field list
  const epicLinkId = api.flavor === 'dc' ? await api.epicLinkFieldId() : null; // DC: an epic is the Epic Link's, not `parent`
  const fields = [...REFRESH_FIELDS, ...(sprintFieldId ? [sprintFieldId] : []), ...(epicLinkId ? [epicLinkId] : []), ...custom.map((f) => f.id)];

  const { keys, jql } = cmd.params;
  let issues: JiraIssue[];
  let missing: string[] | undefined;
  if (Array.isArray(keys) && keys.length > 0 && jql === undefined) {
    ({ issues, missing } = api.flavor === 'cloud' ? await byKeysCloud(api, keys.map(String), fields) : await byKeys(api, keys.map(String), fields));
  } else if (typeof jql === 'string' && jql.trim() !== '' && keys === undefined) {
    issues = api.flavor === 'cloud' ? await byJqlCloud(api, jql, fields) : await api.search(jql, fields);
  } else {
    throw new CommandFailure('refresh: нужен либо непустой список keys, либо непустой jql');
  }

  const result: CommandResult = {
    issues: issues.map((issue) => toHubIssue(api, issue, sprintFieldId, custom, epicLinkId)),
    links: uniqueLinks(issues.flatMap(linksOf)),
  };
  if (missing) result.missing_keys = missing;
  return result;
}

function normalizeKeys(keys: string[]): string[] {
  return [...new Set(keys.map((k) => k.trim().toUpperCase()))];
}

async function byJqlCloud(api: JiraApi, jql: string, fields: string[]): Promise<JiraIssue[]> {
  const ids = [...new Set((await api.search(jql, ['id'])).map((issue) => issue.id))];
  const byId = new Map<string, JiraIssue>();
  for (let i = 0; i < ids.length; i += KEYS_PER_BULKFETCH) {
    const answer = await api.bulkFetch(ids.slice(i, i + KEYS_PER_BULKFETCH), fields);
    for (const issue of answer.issues) byId.set(issue.id, issue);
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function byKeysCloud(api: JiraApi, keys: string[], fields: string[]): Promise<{ issues: JiraIssue[]; missing: string[] }> {
  const wanted = normalizeKeys(keys);
  const byKey = new Map<string, JiraIssue>();
  let retriableErrors = false;
  for (let i = 0; i < wanted.length; i += KEYS_PER_BULKFETCH) {
    const answer = await api.bulkFetch(wanted.slice(i, i + KEYS_PER_BULKFETCH), fields);
    for (const issue of answer.issues) byKey.set(issue.key.toUpperCase(), issue);
    if (answer.issueErrors.length > 0) retriableErrors = true;
  }
  const issues: JiraIssue[] = [];
  const missing: string[] = [];
  for (const key of wanted) {
    // A key bulkfetch left out is gone (or moved: Jira returns the issue under its new key). Only when Jira
    // also listed retriable issueErrors (ids, not keys) is a left-out key read once more with GET /issue.
    const issue = byKey.get(key) ?? (retriableErrors ? await api.findIssue(key, fields) : null);
    if (!issue) missing.push(key);
    else if (!issues.some((known) => known.id === issue.id)) issues.push(issue);
  }
  // A moved issue requested by its old key comes back under the new one: report it too.
  for (const issue of byKey.values()) if (!issues.some((known) => known.id === issue.id)) issues.push(issue);
  return { issues, missing };
}

async function byKeys(api: JiraApi, keys: string[], fields: string[]): Promise<{ issues: JiraIssue[]; missing: string[] }> {
  const wanted = normalizeKeys(keys);
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
