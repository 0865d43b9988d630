import { readCatalogue } from '../catalogue/read.js';
import { JiraApi } from '../jira-api.js';
import type { AgentCommand } from '../types.js';
import type { CommandResult, ExecutorContext } from './context.js';

/** refresh_catalogue (no params) → {catalogue} (SPEC 16.1): the project's configuration, read from Jira. */
export async function refreshCatalogue(_cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const catalogue = await readCatalogue(JiraApi.for(ctx.client), ctx.project);
  return { catalogue: { ...catalogue, ...(ctx.agentVersion ? { agent_version: ctx.agentVersion } : {}) } };
}
