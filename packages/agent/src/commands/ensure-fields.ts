import { CommandFailure } from '../command-failure.js';
import { JiraApi } from '../jira-api.js';
import { encodeValue, readOptionIds, readValue, resolveField, sameValue } from '../field-values.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { requireString } from './params.js';
import type { AgentCommand } from '../types.js';
import type { Change } from '@jira-hub/contracts';

/** ensure_fields → {changed: [names]}: reads the issue and sends only the fields that differ (one PUT, or none). */
export async function ensureFields(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  const names = Object.keys(cmd.params).filter((name) => name !== 'key');
  if (names.length === 0) throw new CommandFailure('не указано ни одного поля');
  const api = JiraApi.for(ctx.client);
  const fields = [];
  for (const name of names) fields.push(await resolveField(api, name));

  const issue = await api.getIssue(key, fields.map((f) => f.id));
  const update: Record<string, unknown> = {};
  const changed: string[] = [];
  const changes: Change[] = [];
  for (const field of fields) {
    const desired = cmd.params[field.name];
    const raw = issue.fields[field.id];
    const current = readValue(api, field, raw);
    if (sameValue(field, current, desired, readOptionIds(raw))) continue;
    update[field.id] = encodeValue(api, field, desired);
    changed.push(field.name);
    // The values as the mirror holds them, under the name the command used (what a revert sets back).
    changes.push({ key: issue.key, what: `field:${field.name}`, before: current, after: desired });
  }
  if (changed.length > 0) {
    ctx.journal.recordIntent(cmd.id, cmd, changes);
    await api.editIssue(key, update);
  }
  return { changed, changes };
}
