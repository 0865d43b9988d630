/** Shapes shared by the agent's modules (the hub's agent API, SPEC sections 4, 6.2, 6.5, 9). */

import type { Change, DeliveredCommand, RefreshIssue, RefreshLink, SeenTransitions } from '@jira-hub/contracts';

export type { AgentSettings, CommandType, ReportBody } from '@jira-hub/contracts';

/** What an executor needs of a command. */
export type AgentCommand = Pick<DeliveredCommand, 'id' | 'type' | 'params'>;

/** A command as `POST /agent/claim` hands it out. */
export type ClaimedCommand = DeliveredCommand;

/**
 * `changes`: what the command changed in Jira (SPEC 17.1) — with `failed` too, what it changed before it
 * failed (decision 1413).
 * `outage`: Jira as a whole could not be used (network failure, or 401 — the agent's credentials), so the
 * failure is the environment's, not the command's: the agent does not report it and runs the command again.
 * `stopped`: the stop signal ended the execution midway; the agent does not report it (the command stays claimed).
 * `missing_keys`: Jira answered 404 for the one issue a request named (deleted, moved or hidden): reported with
 * the failure, the hub marks it gone in its mirror (decision 1448).
 * `transitions_seen`: a status walk stopped for want of a transition: what Jira offered there, for the hub's
 * catalogue (decision 1485).
 */
export type CommandOutcome =
  | { status: 'done'; result: Record<string, unknown>; changes?: Change[] }
  | { status: 'failed'; error: string; changes?: Change[]; missing_keys?: string[]; transitions_seen?: SeenTransitions; outage?: boolean; unauthorized?: boolean; stopped?: boolean };

/** An issue and a link in a refresh result (SPEC 4). */
export type HubIssue = RefreshIssue;
export type HubLink = RefreshLink;
