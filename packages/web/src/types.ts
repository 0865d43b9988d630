/**
 * The hub's views as the dashboard reads them (SPEC 11.3, 15.3). The agent's status, notes and the
 * import report come from `@jira-hub/contracts` (type-only imports: nothing of it reaches the bundle);
 * the batch, command, settings and issue views below are still the page's own copies of
 * src/queue/rows.ts, src/settings and src/mirror/mirror.dto.ts, until they move to the contracts too.
 */
import type { Note } from '@jira-hub/contracts';

export type { AgentStatus, ExpectedLink, ImportReport, Note } from '@jira-hub/contracts';

export type CommandStatus = 'queued' | 'claimed' | 'done' | 'failed' | 'cancelled' | 'skipped' | 'confirmed_by_state';
export type BatchStatus = 'awaiting_approval' | 'queued' | 'running' | 'done' | 'cancelled';

export interface Delivery {
  id?: number;
  n: number;
  handed_out_at: string;
  agent_version?: string | null;
  outcome: string;
  reported_at?: string | null;
  jira_calls?: number | null;
}

export interface Command {
  id: number;
  batch_id: number;
  seq: number;
  type: string;
  params: Record<string, unknown>;
  status: CommandStatus;
  deliveries: number;
  pause_seconds: number | null;
  claimed_at: string | null;
  finished_at: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  jira_calls: number;
  rate_limited: number;
  retry_of: number | null;
  history?: Delivery[];
}

export interface BatchSummary {
  id: number;
  title: string;
  author: string;
  created_at: string;
  cancelled_at: string | null;
  status: BatchStatus;
  estimate_seconds: number;
  remaining_seconds: number;
  counts: Partial<Record<CommandStatus, number>>;
  source?: 'client' | 'assistant' | 'hub';
  awaiting_approval_since?: string | null;
  approved_by?: string | null;
  approved_at?: string | null;
  rejected_reason?: string | null;
}

export interface BatchView extends BatchSummary {
  commands: Command[];
  /** SPEC 17.1: what the batch did to Jira, by issue key (components/Changes.tsx) */
  changes?: Record<string, import('./components/Changes').RecordedChange[]>;
}

export interface Settings {
  version: number;
  pacing: Record<string, number>;
  link_types: Record<string, string>;
  fields: string[];
  auto_refresh: { interval_minutes: number; jql: string | null };
  backup_keep: number;
  agent_offline_seconds: number;
  approval?: Record<string, boolean>;
}

export interface Issue {
  key: string;
  summary: string | null;
  issue_type: string | null;
  status: string | null;
  sprint: string | null;
  assignee: string | null;
  priority: string | null;
  duedate: string | null;
  labels: string[];
  synced_at: string | null;
}

export interface IssueDetail extends Issue {
  links_out: { target_key: string; link_type: string }[];
  links_in: { source_key: string; link_type: string }[];
  note: Note | null;
}

