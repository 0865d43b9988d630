import { CommandFailure, CommandStopped, withChangesMade, withTransitionsSeen } from '../command-failure.js';
import { sleep as realSleep } from '../sleep.js';
import { JiraApi, type JiraTransition } from '../jira-api.js';
import { JiraHttpError, SERVER_ERRORS } from '../jira-client.js';
import { sameStatus } from '@jira-hub/contracts/catalogue';
import type { CommandResult, ExecutorContext } from './context.js';
import { requireString, requireStringArray } from './params.js';
import type { AgentCommand } from '../types.js';
import type { Change, SeenTransitions } from '@jira-hub/contracts';


/** A transition to `step`: one whose target status is `step` first, else one named `step`. */
export function pickTransition(transitions: JiraTransition[], step: string): JiraTransition | undefined {
  return transitions.find((t) => sameStatus(t.to.name, step)) ?? transitions.find((t) => sameStatus(t.name, step));
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
 *
 * Each transition is journaled just before it is sent (decision 0121): a report, or Jira's answer, lost after
 * Jira took it still leaves it in the walk a re-delivery reports. A re-delivery first settles the journaled
 * walk with Jira's status (`settledWalk`): a transition journaled but never carried out is dropped. When Jira
 * refuses a step, the walk taken so far goes with the failure (decision 1413).
 */
export async function ensureStatus(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  const path = requireStringArray(cmd.params, 'path');
  const target = path.at(-1)!;
  const api = JiraApi.for(ctx.client);
  const issue = await api.getIssue(key, ['status', 'issuetype']);
  const from = (issue.fields.status as { name: string }).name;
  const walk = (before: string, after: string, transitions: string[]): Change => ({ key: issue.key, what: 'status', before, after, ...(transitions.length ? { transitions } : {}) });

  // What an earlier execution of this command journaled: the status the walk began at, and its transitions.
  const earlier = ctx.journal.intentFor(cmd.id, cmd)?.find((c) => c.what === 'status' && c.key === issue.key);
  const began = typeof earlier?.before === 'string' ? earlier.before : from;
  const walked = settledWalk(path, began, from, earlier?.transitions ?? []);
  if (earlier && walked.length !== (earlier.transitions?.length ?? 0)) ctx.journal.reviseIntent(cmd.id, cmd, [walk(began, target, walked)]);

  let current = from;
  const reached = at(path, current);
  if (sameStatus(target, current)) return { from, to: current };
  const taken: string[] = [];
  ctx.journal.recordIntent(cmd.id, cmd, [walk(from, target, [])]);
  try {
    for (const step of path.slice(reached + 1)) {
      const transitions = await api.transitions(key);
      const transition = pickTransition(transitions, step);
      if (!transition) {
        const offered = transitions.map((t) => `«${t.name}» → «${t.to.name}»`).join(', ') || 'нет';
        // What Jira offered here goes with the failure: the hub's catalogue learns it (decision 1485).
        const failure = new CommandFailure(`переход в статус «${step}» недоступен из «${current}» (доступные переходы: ${offered})`);
        const seen = seenTransitions(issue, current, transitions);
        throw seen ? withTransitionsSeen(failure, seen) : failure;
      }
      const fields = requiredTransitionFields(transition);
      // Journaled before it is sent: Jira may carry it out and its answer never arrive.
      ctx.journal.recordIntent(cmd.id, cmd, [walk(from, target, [transition.name])]);
      await transitionOrSeen(api, key, transition, fields, current, ctx);
      taken.push(transition.name);
      current = transition.to.name;
    }
  } catch (error) {
    // The whole walk so far, an earlier execution's part included: Jira shows it whatever the command's outcome.
    const all = [...walked, ...taken];
    throw withChangesMade(error, all.length ? [walk(began, current, all)] : []);
  }
  return { from, to: current, changes: [walk(from, current, taken)] };
}

/**
 * The transitions Jira offered an issue in `status`, as the failed report carries them (decision 1485); `issue`
 * read with its issue type (undefined when Jira did not name it: the hub could not tell whose workflow they are).
 */
export function seenTransitions(issue: { key: string; fields: Record<string, unknown> }, status: string, transitions: JiraTransition[]): SeenTransitions | undefined {
  const type = (issue.fields.issuetype as { name?: unknown } | null | undefined)?.name;
  if (typeof type !== 'string' || type.trim() === '') return undefined;
  return {
    key: issue.key,
    issue_type: type,
    status,
    transitions: transitions.map((t) => ({
      id: t.id,
      name: t.name,
      to: t.to.name,
      required_fields: Object.entries(t.fields ?? {}).filter(([, meta]) => meta.required && !meta.hasDefaultValue).map(([id]) => id),
    })),
  };
}

/** The waits before each further look at the status after a server error to a transition (a 504's Jira may still be moving it). */
export const TRANSITION_RECHECK_DELAYS_MS = [2000, 5000];

/**
 * Sends the transition from `from`. A server error to it (500/502/504) leaves it unknown whether Jira carried
 * it out — a post-function that failed after the move, an answer lost at a gateway: the issue's status
 * decides, looked at at once and again after each of TRANSITION_RECHECK_DELAYS_MS. At the transition's
 * target, it was taken (the walk goes on and its record keeps it); still elsewhere, Jira's error stands, as a
 * refusal. A transition back to `from` itself cannot be told by the status: its error stands.
 */
async function transitionOrSeen(api: JiraApi, key: string, transition: JiraTransition, fields: Record<string, unknown>, from: string, ctx: ExecutorContext): Promise<void> {
  try {
    await api.transition(key, transition.id, fields);
  } catch (error) {
    if (!(error instanceof JiraHttpError && SERVER_ERRORS.has(error.status)) || sameStatus(transition.to.name, from)) throw error;
    const sleep = ctx.sleep ?? realSleep;
    for (const delay of [0, ...TRANSITION_RECHECK_DELAYS_MS]) {
      if (delay > 0) await sleep(delay, ctx.stopSignal);
      if (ctx.stopSignal?.aborted) throw new CommandStopped('остановлено во время проверки статуса после ошибки Jira');
      const now = ((await api.getIssue(key, ['status'])).fields.status as { name: string }).name;
      if (sameStatus(now, transition.to.name)) {
        ctx.log?.(`transition «${transition.name}» of ${key} answered HTTP ${error.status}, but the issue is in «${now}»: taken`);
        return;
      }
    }
    throw error;
  }
}

/** The last place of `status` in `path` (-1: not on it), as the walk finds where it stands. */
const at = (path: string[], status: string): number => path.map((step) => sameStatus(step, status)).lastIndexOf(true);

/**
 * The transitions of a journaled walk that Jira carried out. The walk began at `began` and went along `path`,
 * its k-th transition to the step after `began` plus k, each journaled just before it was sent: so only as
 * many were taken as the steps from `began` to where Jira's status (`now`) stands; the rest — the one in
 * flight when the agent stopped, its answer or the request itself lost — never reached Jira.
 */
export function settledWalk(path: string[], began: string, now: string, journaled: readonly string[]): string[] {
  const steps = Math.max(0, Math.min(journaled.length, at(path, now) - at(path, began)));
  return journaled.slice(0, steps);
}
