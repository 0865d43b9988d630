/** The `delivery` table's SQL (SPEC 15.3): one row per handout, written inside the claim's, report's and cancel's transactions. */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DeliveryOutcome } from '../common/index.js';
import type { RowOf } from '../database/index.js';
import { list, one, rows, run, sql } from '../database/index.js';
import type { DeliveryView } from '../queue/index.js';
import type { DeliveryEntity } from './delivery.entity.js';

export type DeliveryRow = RowOf<DeliveryEntity>;

export function deliveryView(r: DeliveryRow): DeliveryView {
  return { n: r.n, handed_out_at: r.handed_out_at, agent_version: r.agent_version, outcome: r.outcome, reported_at: r.reported_at, jira_calls: r.jira_calls };
}

@Injectable()
export class DeliveryRepository {
  /**
   * A handout: the command's next delivery row (n counts every handout, released ones too, so it may pass
   * the delivery limit of the counted ones), pending until it is reported, released, superseded, expired or
   * cancelled. The agent version falls back to the last one the agent reported (agent_status).
   */
  async start(m: EntityManager, commandId: number, agentVersion: string | undefined, now: string): Promise<void> {
    await run(
      m,
      sql`INSERT INTO delivery (command_id, n, handed_out_at, agent_version, outcome)
          VALUES (${commandId}, (SELECT coalesce(max(n), 0) + 1 FROM delivery WHERE command_id = ${commandId}), ${now},
                  coalesce(${agentVersion ?? null}, (SELECT agent_version FROM agent_status WHERE id = 1)), 'pending')`,
    );
  }

  /**
   * Closes the command's pending delivery with its outcome. `reported` (the report's time and Jira calls)
   * only for what the agent reported. A command handed out by a hub older than this history has no row:
   * nothing to close.
   */
  async close(m: EntityManager, commandId: number, outcome: Exclude<DeliveryOutcome, 'pending'>, reported?: { at: string; jiraCalls: number }): Promise<void> {
    await run(
      m,
      sql`UPDATE delivery SET outcome = ${outcome}, reported_at = ${reported?.at ?? null}, jira_calls = ${reported?.jiraCalls ?? null}
           WHERE command_id = ${commandId} AND outcome = 'pending'`,
    );
  }

  /** The history of each of these commands (a batch's), oldest handout first; read in slices of 500 ids. */
  async ofCommands(m: EntityManager, commandIds: readonly number[]): Promise<(commandId: number) => DeliveryView[]> {
    const by = new Map<number, DeliveryView[]>();
    for (let i = 0; i < commandIds.length; i += 500) {
      const part = commandIds.slice(i, i + 500);
      for (const r of await rows<DeliveryRow>(m, sql`SELECT * FROM delivery WHERE command_id IN (${list(part)}) ORDER BY command_id, n`)) {
        by.set(r.command_id, [...(by.get(r.command_id) ?? []), deliveryView(r)]);
      }
    }
    return (id) => by.get(id) ?? [];
  }

  async ofCommand(m: EntityManager, commandId: number): Promise<DeliveryView[]> {
    return (await rows<DeliveryRow>(m, sql`SELECT * FROM delivery WHERE command_id = ${commandId} ORDER BY n`)).map(deliveryView);
  }

  /** The command's latest handout: its id and agent version (undefined: none recorded). */
  latest(m: EntityManager, commandId: number): Promise<Pick<DeliveryRow, 'id' | 'agent_version'> | undefined> {
    return one(m, sql`SELECT id, agent_version FROM delivery WHERE command_id = ${commandId} ORDER BY n DESC LIMIT 1`);
  }

  /** The number (n) of each of these deliveries. */
  async numbers(m: EntityManager, ids: readonly number[]): Promise<Map<number, number>> {
    const found = await rows<Pick<DeliveryRow, 'id' | 'n'>>(m, sql`SELECT id, n FROM delivery WHERE id IN (${list(ids)})`);
    return new Map(found.map((r) => [Number(r.id), r.n]));
  }
}
