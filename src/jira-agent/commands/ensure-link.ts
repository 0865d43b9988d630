import { JiraApi } from '../jira-api.js';
import { linksOf } from '../issue-mapper.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { requireString } from './params.js';
import type { AgentCommand } from '../types.js';

/**
 * ensure_link → {created}. Direction: "source ⟨outward⟩ target" — {source: A-1, target: A-2, link_type: Blocks}
 * means A-1 blocks A-2. Reads the source's links (an `outwardIssue: A-2` entry of that type means the link exists);
 * else POST /issueLink with inwardIssue = source, outwardIssue = target (see JiraApi.createLink for why).
 */
export async function ensureLink(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const source = requireString(cmd.params, 'source');
  const target = requireString(cmd.params, 'target');
  const linkType = requireString(cmd.params, 'link_type');
  const api = JiraApi.for(ctx.client);
  const issue = await api.getIssue(source, ['issuelinks']);
  const exists = linksOf(issue).some(
    (l) => l.source_key === issue.key && l.target_key.toUpperCase() === target.toUpperCase() && l.link_type.toLowerCase() === linkType.toLowerCase(),
  );
  if (exists) return { created: false };
  await api.createLink(linkType, source, target);
  return { created: true };
}
