/** What GET /agent (SPEC 10) reads of the queue: Queue's repository for the Agent module's status view. */
import type { EntityManager } from 'typeorm';
import type { CommandRow } from './rows.js';

/** A claimed command always has its claim time. */
export type RedeliveredRow = Pick<CommandRow, 'id' | 'type' | 'deliveries'> & { claimed_at: string };

export interface AgentWorkSignals {
  /** Jira rate-limit answers of commands finished since `since` */
  rateLimited: number;
  /** handed-out commands delivered more than once, oldest first */
  redelivered: RedeliveredRow[];
  /** runnable work is waiting (a batch waiting for a person's approval is nothing the agent could take) */
  queued: boolean;
}

export async function agentWorkSignals(m: EntityManager, since: string): Promise<AgentWorkSignals> {
  const [rl]: { n: number | null }[] = await m.query('SELECT sum(rate_limited) AS n FROM command WHERE finished_at >= ?', [since]);
  const redelivered: RedeliveredRow[] = await m.query(
    `SELECT id, type, claimed_at, deliveries FROM command WHERE status = 'claimed' AND deliveries > 1 ORDER BY id`,
  );
  const [q] = await m.query(`SELECT 1 AS x FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL LIMIT 1`);
  return { rateLimited: rl?.n ?? 0, redelivered, queued: Boolean(q) };
}
