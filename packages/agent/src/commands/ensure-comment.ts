import { JiraHttpError, SERVER_ERRORS } from '../jira-client.js';
import { JiraApi } from '../jira-api.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { lookAgain } from './look-again.js';
import { optionalString, requireString } from './params.js';
import type { AgentCommand } from '../types.js';

/** Characters of Jira's wiki markup (DC comment bodies) that would turn a marker like [hub:1] into a link or a macro. */
const WIKI_SPECIALS = /[[\]{}|]/g;

/** A marker as sent in a DC comment: wiki characters escaped with a backslash, so "[hub:1]" shows as written. */
export function escapeWikiMarker(marker: string): string {
  return marker.replace(WIKI_SPECIALS, '\\$&');
}

/**
 * Text as compared: wiki escapes before [ ] { } | dropped, CR LF and CR as LF, runs of spaces and tabs as one space,
 * spaces around line ends and at both ends trimmed (Jira and editors change these freely).
 */
export function normalizeCommentText(text: string): string {
  return text
    .replace(/\\([[\]{}|])/g, '$1')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

/**
 * ensure_comment → {created}. Reads every comment; with a `marker`, one containing the marker means done
 * (the marker is appended on a new line when the body lacks it, so the comment it adds is found next time);
 * without one, a comment with the same text means done. Both compare normalised text (normalizeCommentText).
 * On Data Center, where comment bodies are wiki markup, the marker is sent escaped so it does not render as a link.
 */
export async function ensureComment(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  const body = requireString(cmd.params, 'body');
  const marker = optionalString(cmd.params, 'marker')?.trim() || undefined;
  const api = JiraApi.for(ctx.client);
  const read = async () => (await api.comments(key)).map((c) => ({ id: c.id, text: normalizeCommentText(api.decodeText(c.body)) }));
  const mine = (comments: { id: string; text: string }[]) => (marker ? comments.find((c) => c.text.includes(normalizeCommentText(marker))) : comments.find((c) => c.text === normalizeCommentText(body)));
  const intent = ctx.journal.intentFor(cmd.id, cmd);
  // An earlier delivery of this very command sent the comment (the journal says so) and did not hear back —
  // a Jira slower than the agent's timeout may still be adding it: look again before adding a second one.
  const found =
    mine(await read()) ??
    (intent
      ? await lookAgain(
          ctx,
          async () => mine(await read()),
          (seconds) => `ensure_comment: an earlier delivery sent the comment on ${key} and heard nothing back; looking again for up to ${seconds} s before adding it`,
          'остановлено во время повторной проверки комментария',
        )
      : undefined);
  if (found) {
    // An earlier delivery of this very command added it and its report was lost (the journal says so): the change is this command's.
    return intent ? { created: true, changes: [{ key, what: 'comment', after: { id: found.id, body: (intent[0]?.after as { body?: string } | undefined)?.body ?? body } }] } : { created: false };
  }
  let text = marker && !body.includes(marker) ? `${body}\n${marker}` : body;
  if (marker && api.flavor === 'dc') text = text.split(marker).join(escapeWikiMarker(marker));
  ctx.journal.recordIntent(cmd.id, cmd, [{ key, what: 'comment', after: { body: text } }]);
  let id: string | null;
  try {
    id = await api.addComment(key, text);
  } catch (error) {
    // 500/502/504: Jira (or a gateway before it) may have added it before the answer failed — read again.
    if (!(error instanceof JiraHttpError && SERVER_ERRORS.has(error.status))) throw error;
    const added = mine(await read());
    if (!added) throw error;
    ctx.log?.(`comment on ${key} answered HTTP ${error.status}, but it is there: added`);
    id = added.id;
  }
  return { created: true, changes: [{ key, what: 'comment', after: { id, body: text } }] };
}
