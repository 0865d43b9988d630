/**
 * The reference agent of Jira Hub (SPEC 6–8): claims commands from the hub and runs them in Jira at a
 * human pace. Its public surface: the entry points (`agentMain`, `runAgentFromEnv`, the `jira-hub-agent`
 * bin), the loop and its clients for embedding and tests (`runAgent`, `HubClient`, `JiraClient`, journals,
 * `executeCommand`, `preflight`). It imports nothing of the hub: only `@jira-hub/contracts` (types) and Node.
 */
export { AGENT_VERSION, runAgent, clampWaitSeconds, type AgentRunSummary, type RunAgentOptions } from './agent-loop.js';
export { AgentConfigError, agentBin, agentMain, checkEnvironment, envProblems, jiraClientFromEnv, runAgentFromEnv, waitSecondsFromEnv, partIssuesFromEnv, type Env } from './main.js';
export { agentHelp } from './help.js';
export { AGENT_VARIABLES, type Variable } from './variables.js';
export { HubClient, HubHttpError, HubStoppedError, type HubClientOptions, type ClaimRequest, type ClaimResponse } from './hub-client.js';
export { JiraClient, JiraHttpError, JiraNetworkError, JiraStoppedError, RATE_LIMIT_DEFAULTS, type JiraAuth, type JiraClientOptions, type JiraFlavor } from './jira-client.js';
export { FileJournal, MemoryJournal, type AgentJournal } from './journal.js';
export { executeCommand } from './executors.js';
export { preflight, formatChecklist, type CheckLine } from './preflight.js';
export { duplicateSearchJql } from './commands/ensure-issue.js';
export { STANDARD_FIELDS } from './field-values.js';
export type { AgentCommand, ClaimedCommand, CommandOutcome, HubIssue, HubLink } from './types.js';
export type { AgentSettings, ReportBody } from '@jira-hub/contracts';
