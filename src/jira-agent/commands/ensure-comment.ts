import { JiraApi } from '../jira-api.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { optionalString, requireString } from './params.js';
import type { AgentCommand } from '../types.js';

/**
 * ensure_comment → {created}. Reads every comment; with a `marker`, one containing the marker means done
 * (the marker is appended on a new line when the body lacks it, so the comment it adds is found next time);
 * without one, a comment with the same text means done.
 */
export async function ensureComment(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  const body = requireString(cmd.params, 'body');
  const marker = optionalString(cmd.params, 'marker') || undefined;
  const api = JiraApi.for(ctx.client);
  const texts = (await api.comments(key)).map((c) => api.decodeText(c.body));
  const exists = marker ? texts.some((t) => t.includes(marker)) : texts.some((t) => t.trim() === body.trim());
  if (exists) return { created: false };
  await api.addComment(key, marker && !body.includes(marker) ? `${body}\n${marker}` : body);
  return { created: true };
}
