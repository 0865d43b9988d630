/** What the agent says about itself when it claims (SPEC 6.2 step 1): the claim records it in agent_status. */
export interface AgentInfo {
  agent_version?: string;
  settings_version?: number;
  last_jira_call_at?: string;
  /** SPEC 16.3: `failed` — Jira refuses the agent's credentials; such a claim hands out nothing */
  jira_auth?: 'ok' | 'failed';
  jira_auth_failed_since?: string | null;
}
