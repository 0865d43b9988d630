/** The `agent_status` table's SQL: the single row of what the agent last said and holds (SPEC 3, 6.2, 10). */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RowOf, Sql } from '../database/index.js';
import { one, run, sql } from '../database/index.js';
import type { AgentInfo } from './agent-info.js';
import type { AgentStatusEntity } from './agent-status.entity.js';

export type AgentStatusRow = RowOf<AgentStatusEntity>;

/** `AgentStatusRepository.touch` as a statement (DeliveryRepository.handOut runs it with the handout). */
export function touchSql(info: AgentInfo, now: string, current: number | null): Sql {
  const lastJiraCall = info.last_jira_call_at ? new Date(info.last_jira_call_at).toISOString() : null;
  return sql`UPDATE agent_status SET last_seen_at = ${now}, agent_version = coalesce(${info.agent_version ?? null}, agent_version),
               settings_version = coalesce(${info.settings_version ?? null}, settings_version), last_jira_call_at = coalesce(${lastJiraCall}, last_jira_call_at),
               current_command_id = ${current}
              WHERE id = 1`;
}

@Injectable()
export class AgentStatusRepository {
  /**
   * SPEC 6.2 steps 1 and 4 in one statement, at the end of the claim: the agent was seen now, version
   * fields where given (times stored in UTC), and the command handed out (null: none). Nothing the claim
   * does in between reads these fields, except a delivery row's agent_version, which falls back to the
   * stored one only when the agent gave none: the same value before and after this update.
   */
  async touch(m: EntityManager, info: AgentInfo, now: string, current: number | null): Promise<void> {
    await run(m, touchSql(info, now, current));
  }

  /** Clears current_command_id when it is this command (it finished or was cancelled). */
  async releaseCurrent(m: EntityManager, id: number): Promise<void> {
    await run(m, sql`UPDATE agent_status SET current_command_id = NULL WHERE id = 1 AND current_command_id = ${id}`);
  }

  get(m: EntityManager): Promise<AgentStatusRow | undefined> {
    return one<AgentStatusRow>(m, sql`SELECT * FROM agent_status WHERE id = 1`);
  }

  async lastSeen(m: EntityManager): Promise<string | null> {
    return (await one<Pick<AgentStatusRow, 'last_seen_at'>>(m, sql`SELECT last_seen_at FROM agent_status WHERE id = 1`))?.last_seen_at ?? null;
  }
}
