/** The `delivery` table's SQL (SPEC 15.3): one row per handout, written inside the claim's, report's and cancel's transactions. */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DeliveryOutcome } from '../common/index.js';
import type { RowOf, Sql } from '../database/index.js';
import { engineOf, join, list, one, prepared, raw, rows, run, sql } from '../database/index.js';
import { isFirstWrite, type CatalogueCommandRow, type ChangeRow, type ClaimLooks, type CommandRow, type DeliveryView } from '../queue/index.js';
import type { AgentInfo } from './agent-info.js';
import { touchSql } from './agent-status.repository.js';
import type { DeliveryEntity } from './delivery.entity.js';

export type DeliveryRow = RowOf<DeliveryEntity>;

/** What a claim looked at first, read with the statement before it (undefined: not read; null: none). */
export interface Looked {
  claimed: CommandRow | null;
  next: CommandRow | null;
  catalogue: CatalogueCommandRow | null;
}

/** The statements of a final report that `finishPlain` runs as one, from the command's owner. */
export interface PlainReport {
  /** the command's row before the report */
  before: Sql;
  /** its write, made only for a plain report (RETURNING the row after it) */
  finish: Sql;
  /** the changes it records, given the delivery's id and the condition of the write (a `done` only) */
  record?: (deliveryId: Sql, when: Sql) => Sql[];
  /** the command's changes recorded before */
  changes: Sql;
  /** what the claim of the merged call looks at (not the command reported) */
  looks?: ClaimLooks;
}

/** A final report finished in one statement: the row before; when it was plain, the row after and what its view and the claim read. */
export interface PlainFinish {
  before: CommandRow | undefined;
  after?: CommandRow;
  /** the command's deliveries after the report, oldest first */
  history?: DeliveryRow[];
  /** the command's changes after the report, in order */
  changes?: ChangeRow[];
  looked?: Looked;
}

/**
 * Parts of one PostgreSQL statement: `WITH name AS (part), …` then one row with each part's rows as a JSON
 * array under its name (`coalesce(json_agg(name), '[]')`). A part may name an earlier one (`EXISTS (SELECT 1
 * FROM name)`) to depend on its RETURNING rows. Every part sees the database as it was when the statement
 * began — no part sees another's writes — and PostgreSQL runs each write once, read or not. One round trip.
 */
export function withParts(parts: Readonly<Record<string, Sql>>): Sql {
  const names = Object.keys(parts);
  if (!names.length || names.some((n) => !/^[a-z_][a-z0-9_]*$/.test(n))) throw new Error(`withParts: bad part names ${names.join(', ')}`);
  const ctes = join(names.map((n) => sql`${raw(n)} AS (${parts[n]})`), ', ');
  const outputs = join(names.map((n) => raw(`(SELECT coalesce(json_agg(${n}), '[]'::json) FROM ${n}) AS ${n}`)), ', ');
  return sql`WITH ${ctes} SELECT ${outputs}`;
}

/** Runs `withParts(parts)`, prepared (a few shapes, each run at every agent call), and answers each part's rows under its name (PostgreSQL only). */
export async function partsOf<K extends string>(m: EntityManager, parts: Readonly<Record<K, Sql>>): Promise<Record<K, unknown[]>> {
  return ((await one<Record<K, unknown[]>>(m, prepared(withParts(parts)))) ?? {}) as Record<K, unknown[]>;
}

/**
 * Statements that do not depend on one another, as one unit of a transaction: on PostgreSQL one statement
 * (`withParts`, one round trip), on SQLite one after another (in process, a statement costs no round trip).
 * Each part is a SELECT or a write with RETURNING, and none may read what another writes or write a row
 * another writes: on PostgreSQL none would see it. Each part's rows, under its name.
 */
export async function together<K extends string>(m: EntityManager, parts: Readonly<Record<K, Sql>>): Promise<Record<K, unknown[]>> {
  if (engineOf(m.connection) === 'postgres') return partsOf(m, parts);
  const answers = {} as Record<K, unknown[]>;
  for (const name of Object.keys(parts) as K[]) answers[name] = await rows(m, parts[name]);
  return answers;
}

const first = <T>(found: unknown[] | undefined): T | null => (found?.[0] as T | undefined) ?? null;

/** The rows of a claim's looks (`ClaimLooks`' parts), from a statement's answer. */
const lookedOf = (found: Record<string, unknown[]>): Looked => ({
  claimed: first<CommandRow>(found.claimed),
  next: first<CommandRow>(found.next),
  catalogue: first<CatalogueCommandRow>(found.catalogue),
});

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
    await run(m, this.startSql(commandId, agentVersion, now));
  }

  private startSql(commandId: number, agentVersion: string | undefined, now: string): Sql {
    return sql`INSERT INTO delivery (command_id, n, handed_out_at, agent_version, outcome)
               VALUES (${commandId}, (SELECT coalesce(max(n), 0) + 1 FROM delivery WHERE command_id = ${commandId}), ${now},
                       coalesce(${agentVersion ?? null}, (SELECT agent_version FROM agent_status WHERE id = 1)), 'pending')`;
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

  /**
   * PostgreSQL: a final report in one statement and one round trip (issue 21.3). The command's write is
   * made only when it is a plain report (the owner's `finish` condition); then, in the same statement, the
   * pending delivery closes with `close`, the agent's current command is cleared, the changes are recorded,
   * and the command's history and changes come back for its view, with what the next claim looks at. When
   * the write was not made nothing is: the caller takes the rules' general path from the row before.
   * SQLite (in process, no round trips): the row before only.
   */
  async finishPlain(m: EntityManager, commandId: number, report: PlainReport, close: { outcome: 'reported_done' | 'reported_failed'; at: string; jiraCalls: number }): Promise<PlainFinish> {
    if (engineOf(m.connection) !== 'postgres') return { before: await one<CommandRow>(m, report.before) };
    const made = raw('EXISTS (SELECT 1 FROM finished)');
    const latest = sql`(SELECT id FROM delivery WHERE command_id = ${commandId} ORDER BY n DESC LIMIT 1)`;
    const recorded = report.record?.(latest, made) ?? [];
    const parts: Record<string, Sql> = {
      prior: report.before,
      finished: report.finish,
      closed: sql`UPDATE delivery SET outcome = ${close.outcome}, reported_at = ${close.at}, jira_calls = ${close.jiraCalls}
                   WHERE command_id = ${commandId} AND outcome = 'pending' AND ${made} RETURNING *`,
      released: sql`UPDATE agent_status SET current_command_id = NULL WHERE id = 1 AND current_command_id = ${commandId} AND ${made} RETURNING id`,
      history: sql`SELECT * FROM delivery WHERE command_id = ${commandId}`,
      changes: report.changes,
      ...Object.fromEntries(recorded.map((r, i) => [`recorded_${i}`, r])),
      ...(report.looks ?? {}),
    };
    const found = await partsOf(m, parts);
    const before = first<CommandRow>(found.prior) ?? undefined;
    const after = first<CommandRow>(found.finished);
    if (!after) return { before };
    const closed = new Map((found.closed as DeliveryRow[]).map((d) => [d.id, d]));
    const history = (found.history as DeliveryRow[]).map((d) => closed.get(d.id) ?? d).sort((a, b) => a.n - b.n);
    const prior = found.changes as ChangeRow[];
    const changes = (prior.length ? prior : recorded.flatMap((_, i) => found[`recorded_${i}`] as ChangeRow[])).sort((a, b) => a.seq - b.seq);
    return { before, after, history, changes, looked: report.looks ? lookedOf(found) : undefined };
  }

  /** What a claim looks at first (the owner's statements), together: one round trip on PostgreSQL. */
  async look(m: EntityManager, looks: ClaimLooks): Promise<Looked> {
    return lookedOf(await together(m, looks));
  }

  /**
   * A handout's writes together (PostgreSQL: one round trip): the command's (`handOut`, from its owner),
   * the delivery row (`start`), the agent's status with this command as its current one (`touch` of
   * agent-status.repository.ts), and whether it is the batch's first write (`firstWrite`, read with it).
   */
  async handOut(m: EntityManager, command: { handOut: Sql; firstWrite: Sql; id: number }, info: AgentInfo, now: string): Promise<boolean> {
    const found = await together(m, {
      handed: command.handOut,
      started: sql`${this.startSql(command.id, info.agent_version, now)} RETURNING id`,
      touched: sql`${touchSql(info, now, command.id)} RETURNING id`,
      batch_first: command.firstWrite,
    });
    return isFirstWrite(found.batch_first[0]);
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
