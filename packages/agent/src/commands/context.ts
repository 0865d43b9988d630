import type { Change } from '@jira-hub/contracts';
import type { JiraClient } from '../jira-client.js';
import type { CreatedKeyJournal } from '../journal.js';
import type { Sleep } from '../sleep.js';
import type { HubIssue, HubLink } from '../types.js';

export interface ExecutorContext {
  client: JiraClient;
  /** Key of the Jira project new issues go to (and duplicate searches look in). */
  project: string;
  journal: CreatedKeyJournal;
  /** Custom field names from the hub's settings `fields`; refresh reports them under Issue.fields. */
  customFields?: string[];
  /** One line for the agent's log (e.g. a settings field left out of a refresh); default: none. */
  log?: (line: string) => void;
  /** Waits between ensure_issue's re-searches after a create attempt whose answer was lost (default: real timers). */
  sleep?: Sleep;
  /** Ends such a wait early; the executor then throws CommandStopped (nothing is created, nothing reported). */
  stopSignal?: AbortSignal;
  /**
   * ensure_issue, when the journal holds a create attempt but no key and search finds nothing (and
   * ensure_comment, when an earlier delivery sent its comment and it is not there): the waits before each
   * further look (default 5, 10, 20, 20 s), after which it is created if still not found.
   */
  createRecheckDelaysMs?: number[];
  /**
   * refresh: sends one part of a large result to the hub (SPEC 15.5; the caller numbers the parts). Absent, a
   * refresh returns its result whole.
   */
  reportPart?: (slice: { issues: HubIssue[]; links: HubLink[] }) => Promise<void>;
  /** refresh: issues per part (default 1,000) and the most bytes of a part's JSON (default 4 MB). */
  refreshPartIssues?: number;
  refreshPartBytes?: number;
  /** refresh_catalogue: the agent's version, told in the catalogue */
  agentVersion?: string;
}

/**
 * What an executor returns: the result the hub stores, and under `changes` what the command changed in Jira
 * (SPEC 17.1), which executeCommand moves out of the result into the report's own `changes`.
 */
export type CommandResult = Record<string, unknown> & { changes?: Change[] };
