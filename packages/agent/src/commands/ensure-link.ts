import { CommandFailure } from '../command-failure.js';
import { JiraHttpError, SERVER_ERRORS } from '../jira-client.js';
import { JiraApi } from '../jira-api.js';
import { linksOf } from '../issue-mapper.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { requireString } from './params.js';
import type { AgentCommand } from '../types.js';

const sameKey = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase();

/**
 * ensure_link → {created} (SPEC 4 as amended). Direction: "source ⟨outward⟩ target" — {source: A-1, target: A-2,
 * link_type: Blocks} means A-1 blocks A-2. Reads the source's links and the link types (GET /issueLinkType, once):
 * - the link source→target of that type exists → done, nothing created;
 * - a symmetric type (inward = outward description, e.g. Relates): a link either way counts as existing;
 * - a directional type with the reverse link target→source → failed «в Jira уже есть обратная связь: …», never a
 *   contradictory pair (A blocks B and B blocks A);
 * - else POST /issueLink with inwardIssue = source, outwardIssue = target (see JiraApi.createLink for why).
 * A type Jira does not list is left to POST /issueLink, whose 404 names it.
 */
export async function ensureLink(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const source = requireString(cmd.params, 'source');
  const target = requireString(cmd.params, 'target');
  const linkType = requireString(cmd.params, 'link_type');
  const api = JiraApi.for(ctx.client);
  const issue = await api.getIssue(source, ['issuelinks']);
  const type = (await api.linkTypes()).find((t) => t.name.toLowerCase() === linkType.toLowerCase());
  const ofType = linksOf(issue).filter((l) => l.link_type.toLowerCase() === linkType.toLowerCase());
  if (ofType.some((l) => l.source_key === issue.key && sameKey(l.target_key, target))) return { created: false };
  const reverse = ofType.find((l) => l.target_key === issue.key && sameKey(l.source_key, target));
  if (reverse && type) {
    if (type.inward.trim().toLowerCase() === type.outward.trim().toLowerCase()) return { created: false };
    throw new CommandFailure(`в Jira уже есть обратная связь: ${reverse.source_key} ${type.outward} ${issue.key} (тип «${type.name}»); связь ${source} ${type.outward} ${target} ей противоречит`);
  }
  const name = type?.name ?? linkType;
  // Jira's 201 has no body, so the new link's id is not known without one more read: the record names the link
  // by its ends and type, which is how remove_link finds it (decision 0601).
  const changes = [{ key: issue.key, what: 'link', after: { source: issue.key, target, link_type: name } }];
  ctx.journal.recordIntent(cmd.id, cmd, changes);
  try {
    await api.createLink(name, source, target);
  } catch (error) {
    // 500/502/504: Jira (or a gateway before it) may have made it before the answer failed — read again.
    if (!(error instanceof JiraHttpError && SERVER_ERRORS.has(error.status))) throw error;
    const again = linksOf(await api.getIssue(source, ['issuelinks'])).filter((l) => l.link_type.toLowerCase() === name.toLowerCase());
    if (!again.some((l) => l.source_key === issue.key && sameKey(l.target_key, target))) throw error;
    ctx.log?.(`link ${source} → ${target} (${name}) answered HTTP ${error.status}, but it is there: created`);
  }
  return { created: true, changes };
}
