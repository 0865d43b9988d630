/** Shapes shared by the agent's modules (the hub's agent API, SPEC sections 4, 6.2, 6.5, 9). */

export type CommandType = 'ensure_issue' | 'ensure_fields' | 'ensure_status' | 'ensure_link' | 'ensure_sprint' | 'ensure_comment' | 'refresh';

export interface AgentCommand {
  id: number;
  type: string;
  params: Record<string, unknown>;
}

/** A command as `POST /agent/claim` hands it out. */
export interface ClaimedCommand extends AgentCommand {
  pause_seconds: number;
  batch_id: number;
  deliveries: number;
}

/**
 * `outage`: Jira as a whole could not be used (network failure, or 401 — the agent's credentials), so the
 * failure is the environment's, not the command's: the agent does not report it and runs the command again.
 * `stopped`: the stop signal ended the execution midway; the agent does not report it (the command stays claimed).
 */
export type CommandOutcome =
  | { status: 'done'; result: Record<string, unknown> }
  | { status: 'failed'; error: string; outage?: boolean; unauthorized?: boolean; stopped?: boolean };

/** Body of `POST /agent/commands/{id}/result`. */
export interface ReportBody {
  status: 'done' | 'failed';
  result?: Record<string, unknown>;
  error?: string;
  jira_calls?: number;
  rate_limited?: number;
}

/** `GET /agent/settings`. */
export interface AgentSettings {
  version: number;
  pacing: Record<string, number>;
  link_types: Record<string, string>;
  fields: string[];
}

/** An issue in a refresh result (SPEC 4). */
export interface HubIssue {
  key: string;
  summary: string | null;
  issue_type: string | null;
  status: string | null;
  sprint: string | null;
  assignee: string | null;
  priority: string | null;
  duedate: string | null;
  labels: string[];
  created: string | null;
  updated: string | null;
  fields?: Record<string, unknown>;
}

/** A link in a refresh result: "source ⟨outward⟩ target", e.g. source blocks target. */
export interface HubLink {
  source_key: string;
  target_key: string;
  link_type: string;
}
