/** The queue's writes to the single agent_status row (SPEC 3, 6.2). */
import type { EntityManager } from 'typeorm';

import type { AgentInfo } from './agent-info.js';

export type { AgentInfo };

/**
 * SPEC 6.2 steps 1 and 4 in one statement, at the end of the claim: the agent was seen now, version
 * fields where given (times stored in UTC), and the command handed out (null: none). Nothing the claim
 * does in between reads these fields, except a delivery row's agent_version, which falls back to the
 * stored one only when the agent gave none: the same value before and after this update.
 */
export async function touchAgent(m: EntityManager, info: AgentInfo, now: string, current: number | null): Promise<void> {
  await m.query(
    `UPDATE agent_status SET last_seen_at = ?, agent_version = coalesce(?, agent_version), settings_version = coalesce(?, settings_version),
       last_jira_call_at = coalesce(?, last_jira_call_at), current_command_id = ? WHERE id = 1`,
    [now, info.agent_version ?? null, info.settings_version ?? null, info.last_jira_call_at ? new Date(info.last_jira_call_at).toISOString() : null, current],
  );
}

/** Clears current_command_id when it is this command (it finished or was cancelled). */
export async function releaseCurrent(m: EntityManager, id: number): Promise<void> {
  await m.query('UPDATE agent_status SET current_command_id = NULL WHERE id = 1 AND current_command_id = ?', [id]);
}
