import { CommandFailure, CommandStopped } from '../command-failure.js';
import { HubHttpError, HubStoppedError, type HubClient } from '../hub-client.js';
import { JiraApi, type JiraIssue } from '../jira-api.js';
import { JiraHttpError } from '../jira-client.js';
import { STANDARD_FIELDS, fieldKind, type ResolvedField } from '../field-values.js';
import { REFRESH_FIELDS, linksOf, toHubIssue, uniqueLinks } from '../issue-mapper.js';
import type { HubIssue, HubLink } from '../types.js';
import type { CommandResult, ExecutorContext } from './context.js';
import type { AgentCommand } from '../types.js';

const KEYS_PER_SEARCH = 50;
/** Cloud's bulkfetch takes at most 100 issues per call. */
const KEYS_PER_BULKFETCH = 100;

/** Issues per part of a large refresh result (the hub's body limit is 10 MB; a part stays well below). */
export const DEFAULT_PART_ISSUES = 1000;
/** A part is sent before its JSON would pass this many bytes, whatever its number of issues. */
export const DEFAULT_PART_BYTES = 4 * 1024 * 1024;

/**
 * refresh → {issues, links, missing_keys?}.
 * By JQL: every page of the search; on Cloud the search gives only the ids (in its order), and the issues are
 * read with POST /issue/bulkfetch by 100 (the search index may still hold their state from before this batch's
 * writes; an id bulkfetch no longer returns is left out). By keys on Cloud: POST /issue/bulkfetch by 100 keys (it reads the database,
 * while /search/jql may serve the state before the writes this batch just made); a key it does not return is
 * missing. By keys on DC: `key in (…)` searches of 50 keys; a key the search does not return (not indexed yet,
 * or gone) is read with GET /issue/{key}, and only a 404 makes it missing.
 *
 * Large results go in parts (SPEC 15.5): the issues read are passed on as they come, and once more than one
 * part's worth (ctx.refreshPartIssues, 1,000; or 4 MB) has been read, each full part is sent to the hub
 * (ctx.reportPart) before Jira is read further. The agent holds one part and one page at a time, never the
 * project; the returned result is the last slice. Without reportPart (tests of the executor alone) the result
 * comes whole.
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
  const parts = new PartWriter(ctx, (issue) => toHubIssue(api, issue, sprintFieldId, custom, epicLinkId));

  const { keys, jql } = cmd.params;
  let missing: string[] | undefined;
  if (Array.isArray(keys) && keys.length > 0 && jql === undefined) {
    missing = api.flavor === 'cloud' ? await byKeysCloud(api, keys.map(String), fields, parts) : await byKeys(api, keys.map(String), fields, parts);
  } else if (typeof jql === 'string' && jql.trim() !== '' && keys === undefined) {
    if (api.flavor === 'cloud') await byJqlCloud(api, jql, fields, parts);
    else for await (const page of api.searchPages(jql, fields)) await parts.add(page.issues);
  } else {
    throw new CommandFailure('refresh: нужен либо непустой список keys, либо непустой jql');
  }
  const result: CommandResult = parts.last();
  if (missing) result.missing_keys = missing;
  if (parts.sent > 0) ctx.log?.(`refresh: ${parts.total} issues sent in ${parts.sent} parts and the final report`);
  return result;
}

/** Collects issues into parts and sends each full part to the hub before the next is read. */
class PartWriter {
  private issues: HubIssue[] = [];
  private links: HubLink[] = [];
  private bytes = 0;
  sent = 0;
  total = 0;
  private readonly maxIssues: number;
  private readonly maxBytes: number;

  constructor(
    private readonly ctx: ExecutorContext,
    private readonly map: (issue: JiraIssue) => HubIssue,
  ) {
    this.maxIssues = Math.max(1, ctx.refreshPartIssues ?? DEFAULT_PART_ISSUES);
    this.maxBytes = ctx.refreshPartBytes ?? DEFAULT_PART_BYTES;
  }

  async add(issues: readonly JiraIssue[]): Promise<void> {
    for (const issue of issues) {
      const hub = this.map(issue);
      const links = linksOf(issue);
      const size = Buffer.byteLength(JSON.stringify(hub)) + Buffer.byteLength(JSON.stringify(links));
      // Only once more than one part's worth has come: a refresh that fits one part is reported whole.
      if (this.ctx.reportPart && this.issues.length > 0 && (this.issues.length >= this.maxIssues || this.bytes + size > this.maxBytes)) await this.flush();
      this.issues.push(hub);
      this.links.push(...links);
      this.bytes += size;
      this.total++;
    }
  }

  private async flush(): Promise<void> {
    const slice = { issues: this.issues, links: uniqueLinks(this.links) };
    this.issues = [];
    this.links = [];
    this.bytes = 0;
    this.sent++;
    await this.ctx.reportPart!(slice);
  }

  /** What is left: the whole result, or the last slice after parts. */
  last(): CommandResult {
    return { issues: this.issues, links: uniqueLinks(this.links) };
  }
}

/**
 * ExecutorContext.reportPart for one claimed refresh: numbers the parts from 1 for as long as the agent holds
 * the command (a run again after a Jira outage goes on numbering, and sends everything again: the hub applies
 * each new part). A hub that refuses a part fails the refresh with its reason; a command the hub has finished
 * meanwhile (cancelled) stops the reading; the stop signal stops it without a report.
 */
export function partSender(hub: HubClient, commandId: number): NonNullable<ExecutorContext['reportPart']> {
  let part = 0;
  return async (slice) => {
    part++;
    let view: { status?: string };
    try {
      view = await hub.reportPart(commandId, part, slice);
    } catch (error) {
      if (error instanceof HubStoppedError) throw new CommandStopped(error.message);
      if (error instanceof HubHttpError && error.status !== 401 && error.status !== 403) throw new CommandFailure(`хаб не принял часть ${part} результата: ${error.message}`);
      throw error;
    }
    if (view?.status !== undefined && view.status !== 'claimed') throw new CommandFailure(`команда уже завершена в хабе (${view.status}); чтение Jira остановлено на части ${part}`);
  };
}

function normalizeKeys(keys: string[]): string[] {
  return [...new Set(keys.map((k) => k.trim().toUpperCase()))];
}

/** Ids from the search, a page at a time; the issues read by bulkfetch once 100 ids are gathered. */
async function byJqlCloud(api: JiraApi, jql: string, fields: string[], parts: PartWriter): Promise<void> {
  let ids: string[] = [];
  const fetch = async (): Promise<void> => {
    const chunk = [...new Set(ids)];
    ids = [];
    const byId = new Map((await api.bulkFetch(chunk, fields)).issues.map((issue) => [issue.id, issue]));
    await parts.add(chunk.flatMap((id) => byId.get(id) ?? []));
  };
  for await (const page of api.searchPages(jql, ['id'])) {
    for (const issue of page.issues) {
      ids.push(issue.id);
      if (ids.length === KEYS_PER_BULKFETCH) await fetch();
    }
  }
  if (ids.length > 0) await fetch();
}

/** Returns the missing keys; the issues go to `parts` chunk by chunk. */
async function byKeysCloud(api: JiraApi, keys: string[], fields: string[], parts: PartWriter): Promise<string[]> {
  const wanted = normalizeKeys(keys);
  const missing: string[] = [];
  const reported = new Set<string>(); // ids: bounded by the keys asked for
  for (let i = 0; i < wanted.length; i += KEYS_PER_BULKFETCH) {
    const chunk = wanted.slice(i, i + KEYS_PER_BULKFETCH);
    const answer = await api.bulkFetch(chunk, fields);
    const byKey = new Map(answer.issues.map((issue) => [issue.key.toUpperCase(), issue]));
    const issues: JiraIssue[] = [];
    for (const key of chunk) {
      // A key bulkfetch left out is gone (or moved: Jira returns the issue under its new key). Only when Jira
      // also listed retriable issueErrors (ids, not keys) is a left-out key read once more with GET /issue.
      const issue = byKey.get(key) ?? (answer.issueErrors.length > 0 ? await api.findIssue(key, fields) : null);
      if (!issue) missing.push(key);
      else if (!reported.has(issue.id)) {
        issues.push(issue);
        reported.add(issue.id);
      }
    }
    // A moved issue requested by its old key comes back under the new one: report it too.
    for (const issue of answer.issues) {
      if (reported.has(issue.id)) continue;
      issues.push(issue);
      reported.add(issue.id);
    }
    await parts.add(issues);
  }
  return missing;
}

async function byKeys(api: JiraApi, keys: string[], fields: string[], parts: PartWriter): Promise<string[]> {
  const wanted = normalizeKeys(keys);
  const missing: string[] = [];
  const reported = new Set<string>();
  for (let i = 0; i < wanted.length; i += KEYS_PER_SEARCH) {
    const chunk = wanted.slice(i, i + KEYS_PER_SEARCH);
    const byKey = new Map<string, JiraIssue>();
    try {
      const found = await api.search(`key in (${chunk.map((k) => `"${k}"`).join(', ')}) ORDER BY key ASC`, fields);
      for (const issue of found) byKey.set(issue.key.toUpperCase(), issue);
    } catch (error) {
      // Jira may reject the whole JQL for one unknown key (400); those keys are read one by one below.
      if (!(error instanceof JiraHttpError && error.status === 400)) throw error;
    }
    const issues: JiraIssue[] = [];
    for (const key of chunk) {
      const issue = byKey.get(key) ?? (await api.findIssue(key, fields));
      if (!issue) missing.push(key);
      else if (!reported.has(issue.id)) {
        issues.push(issue);
        reported.add(issue.id);
      }
    }
    await parts.add(issues);
  }
  return missing;
}
