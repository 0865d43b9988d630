import type { JiraClient } from '../jira-client.js';
import type { CreatedKeyJournal } from '../journal.js';

export interface ExecutorContext {
  client: JiraClient;
  /** Key of the Jira project new issues go to (and duplicate searches look in). */
  project: string;
  journal: CreatedKeyJournal;
  /** Custom field names from the hub's settings `fields`; refresh reports them under Issue.fields. */
  customFields?: string[];
  /** One line for the agent's log (e.g. a settings field left out of a refresh); default: none. */
  log?: (line: string) => void;
}

export type CommandResult = Record<string, unknown>;
