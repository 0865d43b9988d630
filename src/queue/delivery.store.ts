/** The delivery history (SPEC 15.3): one row per handout, written inside the claim's, report's and cancel's transactions. */
import type { EntityManager } from 'typeorm';
import type { DeliveryOutcome } from './delivery.entity.js';
import { deliveryView, type DeliveryRow, type DeliveryView } from './rows.js';

/**
 * A handout: the command's next delivery row (n counts every handout, released ones too, so it may pass
 * the delivery limit of the counted ones), pending until it is reported, released, superseded, expired or
 * cancelled.
 */
export async function startDelivery(m: EntityManager, commandId: number, agentVersion: string | undefined, now: string): Promise<void> {
  await m.query(
    `INSERT INTO delivery (command_id, n, handed_out_at, agent_version, outcome)
     VALUES (?, (SELECT coalesce(max(n), 0) + 1 FROM delivery WHERE command_id = ?), ?, coalesce(?, (SELECT agent_version FROM agent_status WHERE id = 1)), 'pending')`,
    [commandId, commandId, now, agentVersion ?? null],
  );
}

/**
 * Closes the command's pending delivery with its outcome. `reported` (the report's time and Jira calls)
 * only for what the agent reported. A command handed out by a hub older than this history has no row:
 * nothing to close.
 */
export async function closeDelivery(
  m: EntityManager,
  commandId: number,
  outcome: Exclude<DeliveryOutcome, 'pending'>,
  reported?: { at: string; jiraCalls: number },
): Promise<void> {
  await m.query(`UPDATE delivery SET outcome = ?, reported_at = ?, jira_calls = ? WHERE command_id = ? AND outcome = 'pending'`, [
    outcome,
    reported?.at ?? null,
    reported?.jiraCalls ?? null,
    commandId,
  ]);
}

/** The history of each command of a batch, oldest handout first. */
export async function batchHistory(m: EntityManager, batchId: number): Promise<(commandId: number) => DeliveryView[]> {
  const rows: DeliveryRow[] = await m.query(
    'SELECT d.* FROM delivery d JOIN command c ON c.id = d.command_id WHERE c.batch_id = ? ORDER BY d.command_id, d.n',
    [batchId],
  );
  const by = new Map<number, DeliveryView[]>();
  for (const r of rows) by.set(r.command_id, [...(by.get(r.command_id) ?? []), deliveryView(r)]);
  return (id) => by.get(id) ?? [];
}

export async function commandHistory(m: EntityManager, commandId: number): Promise<DeliveryView[]> {
  const rows: DeliveryRow[] = await m.query('SELECT * FROM delivery WHERE command_id = ? ORDER BY n', [commandId]);
  return rows.map(deliveryView);
}

/** The agent version of a command's latest handout (null: none recorded). */
export async function deliveredTo(m: EntityManager, commandId: number): Promise<string | null> {
  const [row]: { agent_version: string | null }[] = await m.query('SELECT agent_version FROM delivery WHERE command_id = ? ORDER BY n DESC LIMIT 1', [commandId]);
  return row?.agent_version ?? null;
}
