import type { JiraClient } from '../jira-client.js';
import type { CreatedKeyJournal } from '../journal.js';
import type { Sleep } from '../sleep.js';

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
   * ensure_issue, when the journal holds a create attempt but no key and search finds nothing: the waits before
   * each further search (default 5, 10, 20, 20 s), after which the issue is created if still not found.
   */
  createRecheckDelaysMs?: number[];
}

export type CommandResult = Record<string, unknown>;
