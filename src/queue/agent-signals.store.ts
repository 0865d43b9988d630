/** What GET /agent (SPEC 10) reads of the queue: Queue's repository for the Agent module's status view. */
import type { EntityManager } from 'typeorm';
import { parseJson } from '../database/json.js';
import { NEXT_RUNNABLE_SQL } from './claim.store.js';
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

/**
 * Statuses the unfinished ensure_status commands walk to (`path` steps, or `to`), sorted: what the agent's
 * `--check` verifies are in the project's workflows and reachable (issue 20).
 */
export async function queuedStatusNames(m: EntityManager): Promise<string[]> {
  const rows: { params: string }[] = await m.query(`SELECT params FROM command WHERE status IN ('queued', 'claimed') AND type = 'ensure_status'`);
  const names = new Set<string>();
  for (const { params } of rows) {
    const p = parseJson<{ path?: unknown; to?: unknown }>(params, {});
    for (const step of [...(Array.isArray(p.path) ? p.path : []), p.to]) if (typeof step === 'string' && step.trim()) names.add(step.trim());
  }
  return [...names].sort();
}

/** A command as the agent strip shows it: what it is and where it stands. */
export type PlanRow = Pick<CommandRow, 'id' | 'batch_id' | 'seq' | 'type' | 'params' | 'claimed_at' | 'pause_seconds' | 'deliveries'>;

/** The command the agent holds (by `current_command_id`) and the next runnable one in queue order (SPEC 6.1). */
export async function agentWork(m: EntityManager, currentId: number | null): Promise<{ current: PlanRow | null; next: PlanRow | null }> {
  const [current]: PlanRow[] = currentId === null ? [] : await m.query(`SELECT * FROM command WHERE id = ? AND status = 'claimed'`, [currentId]);
  const [next]: PlanRow[] = await m.query(NEXT_RUNNABLE_SQL);
  return { current: current ?? null, next: next ?? null };
}
