import { CommandFailure } from '../command-failure.js';
import { JiraApi, type JiraTransition } from '../jira-api.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { requireString, requireStringArray } from './params.js';
import type { AgentCommand } from '../types.js';

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A transition to `step`: one whose target status is `step` first, else one named `step`. */
export function pickTransition(transitions: JiraTransition[], step: string): JiraTransition | undefined {
  return transitions.find((t) => same(t.to.name, step)) ?? transitions.find((t) => same(t.name, step));
}

/** Resolutions taken, in this order, for a transition screen that requires one (else the first Jira offers). */
const PREFERRED_RESOLUTIONS = ['done', 'fixed', 'готово', 'решено', 'выполнено'];

/**
 * Values for the required fields of a transition's screen that have no default (Resolution on Done, as real
 * workflows have): `resolution` gets Done / Fixed (else the first offered); any other required field fails the
 * command clearly, naming it, before the transition is tried.
 */
export function requiredTransitionFields(transition: JiraTransition): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [id, meta] of Object.entries(transition.fields ?? {})) {
    if (!meta.required || meta.hasDefaultValue) continue;
    const offered = meta.allowedValues ?? [];
    if (id === 'resolution' && offered.length > 0) {
      const pick = PREFERRED_RESOLUTIONS.map((name) => offered.find((v) => v.name?.trim().toLowerCase() === name)).find(Boolean) ?? offered[0]!;
      fields.resolution = pick.name ? { name: pick.name } : { id: pick.id };
      continue;
    }
    throw new CommandFailure(`переход «${transition.name}» требует заполнить поле «${meta.name ?? id}» (${id}); агент заполняет только резолюцию — уберите поле с экрана перехода или сделайте переход вручную`);
  }
  return fields;
}

/**
 * ensure_status → {from, to}. Walks `path` from the current status: steps up to the current status are
 * skipped (so a re-delivery does nothing), then each step re-reads the available transitions.
 */
export async function ensureStatus(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  const path = requireStringArray(cmd.params, 'path');
  const api = JiraApi.for(ctx.client);
  const issue = await api.getIssue(key, ['status']);
  const from = (issue.fields.status as { name: string }).name;

  let current = from;
  const reached = path.map((step) => same(step, current)).lastIndexOf(true);
  if (same(path.at(-1)!, current)) return { from, to: current };
  const taken: string[] = [];
  ctx.journal.recordIntent(cmd.id, cmd, [{ key: issue.key, what: 'status', before: from, after: path.at(-1)! }]);
  for (const step of path.slice(reached + 1)) {
    const transitions = await api.transitions(key);
    const transition = pickTransition(transitions, step);
    if (!transition) {
      const offered = transitions.map((t) => `«${t.name}» → «${t.to.name}»`).join(', ') || 'нет';
      throw new CommandFailure(`переход в статус «${step}» недоступен из «${current}» (доступные переходы: ${offered})`);
    }
    await api.transition(key, transition.id, requiredTransitionFields(transition));
    taken.push(transition.name);
    current = transition.to.name;
    // Each transition journaled as taken: a report lost after the walk still tells which way it went.
    ctx.journal.recordIntent(cmd.id, cmd, [{ key: issue.key, what: 'status', before: from, after: path.at(-1)!, transitions: [transition.name] }]);
  }
  return { from, to: current, changes: [{ key: issue.key, what: 'status', before: from, after: current, transitions: taken }] };
}
