import type { Change, SeenTransitions } from '@jira-hub/contracts';

/** A reason of the agent's own (not Jira's) to fail a command; the message is a Russian sentence for a person. */
export class CommandFailure extends Error {}

/**
 * Jira's answer leaves it unknown whether the command took effect (e.g. a 5xx to POST /issue, which Jira may
 * have carried out): the agent loop handles it like an outage — nothing reported, the command runs again
 * (bounded). The message is the refusal's (JiraHttpError's).
 */
export class RetryLater extends CommandFailure {}

/** The stop signal ended a command's execution midway (nothing to report: the hub hands the command out again). */
export class CommandStopped extends Error {}

const madeBefore = new WeakMap<object, Change[]>();

/**
 * Marks `error` with what the command had changed in Jira before it (a status walk refused partway): the
 * failed report carries those changes (decision 1413). The error itself is unchanged (its class and message
 * still decide how it is reported). Returns it, to be thrown.
 */
export function withChangesMade(error: unknown, changes: Change[]): unknown {
  if (changes.length > 0 && typeof error === 'object' && error !== null) madeBefore.set(error, changes);
  return error;
}

/** What the command had changed before `error` ended it (none unless withChangesMade marked it). */
export function changesMadeBefore(error: unknown): Change[] {
  return (typeof error === 'object' && error !== null ? madeBefore.get(error) : undefined) ?? [];
}

const seenBefore = new WeakMap<object, SeenTransitions>();

/**
 * Marks `error` with the transitions Jira offered where a status walk stopped for want of one (decision 1485):
 * the failed report carries them, and the hub learns them into its catalogue. Returns it, to be thrown.
 */
export function withTransitionsSeen(error: unknown, seen: SeenTransitions): unknown {
  if (typeof error === 'object' && error !== null) seenBefore.set(error, seen);
  return error;
}

/** The transitions a failed status walk saw (undefined unless withTransitionsSeen marked the error). */
export function transitionsSeenBefore(error: unknown): SeenTransitions | undefined {
  return typeof error === 'object' && error !== null ? seenBefore.get(error) : undefined;
}
