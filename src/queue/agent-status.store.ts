/** The queue's writes to the single agent_status row (SPEC 3, 6.2). */
import type { EntityManager } from 'typeorm';

import type { AgentInfo } from './agent-info.js';

export type { AgentInfo };

/** SPEC 6.2 step 1: the agent was seen now; version fields where given (times stored in UTC). */
export async function touchAgent(m: EntityManager, info: AgentInfo, now: string): Promise<void> {
  await m.query(
    `UPDATE agent_status SET last_seen_at = ?, agent_version = coalesce(?, agent_version),
       settings_version = coalesce(?, settings_version), last_jira_call_at = coalesce(?, last_jira_call_at) WHERE id = 1`,
    [now, info.agent_version ?? null, info.settings_version ?? null, info.last_jira_call_at ? new Date(info.last_jira_call_at).toISOString() : null],
  );
}

export async function setCurrent(m: EntityManager, id: number | null): Promise<void> {
  await m.query('UPDATE agent_status SET current_command_id = ? WHERE id = 1', [id]);
}

/** Clears current_command_id when it is this command (it finished or was cancelled). */
export async function releaseCurrent(m: EntityManager, id: number): Promise<void> {
  await m.query('UPDATE agent_status SET current_command_id = NULL WHERE id = 1 AND current_command_id = ?', [id]);
}
