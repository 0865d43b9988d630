/**
 * The `command` table's SQL, all of it (issue 21): what clients' batches write and read, the claim order
 * the Delivery module walks (SPEC 6.1–6.4), the report's writes (6.5, 6.6), the agent's work signals,
 * the counts of the views and /metrics, and where temp keys are resolved (SPEC 6.3, 6.5). Every method runs
 * on the caller's transaction (`m`).
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isJiraKey, isTempKey, MAX_INTEGER } from '../common/index.js';
import { engineOf, list, one, parseJson, raw, rows, run, sql, type Sql, type StoredJson } from '../database/index.js';
import type { NoteKeys } from '../mirror/index.js';
import type { CommandInput } from './commands/batch-rules.js';
import { READ_TYPES, type CommandType } from '@jira-hub/contracts/catalogue';
import { isTerminal, type CommandStatus } from './command.entity.js';
import type { Resolution } from './commands/temp-keys.js';
import type { CommandRow } from './rows.js';

/**
 * The next runnable command in queue order (runnable_at, id, seq; SPEC 6.1, 15.2): one probe of the
 * partial index `idx_command_runnable` on (queue_pos, seq). A batch's queue_pos is given when it becomes
 * runnable (batch.repository.ts) and copied to its commands; commands of a batch waiting for approval have
 * none. Cancelling a batch cancels its queued commands in the same transaction, so none of a cancelled batch is here.
 */
export const NEXT_RUNNABLE_SQL = `SELECT * FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL ORDER BY queue_pos, seq LIMIT 1`;

/**
 * The latest refresh_catalogue command, which every claim looks at (is a catalogue refresh due, SPEC
 * 16.1): one probe of the partial index `idx_command_catalogue`, however many other commands there are.
 */
export const LAST_CATALOGUE_COMMAND_SQL = `SELECT id, batch_id, status, finished_at FROM command WHERE type = 'refresh_catalogue' ORDER BY id DESC LIMIT 1`;

/**
 * Handed-out commands delivered more than once (GET /agent, the dashboard's strip), in the order of the
 * partial index `idx_command_claimed`: ordered by id, both engines walked the whole command table in id
 * order to find the one or two claimed rows (0.4 ms at 10,000 commands on SQLite, growing with each).
 */
export const REDELIVERED_SQL = `SELECT id, type, claimed_at, deliveries FROM command WHERE status = 'claimed' AND deliveries > 1 ORDER BY claimed_at, id`;

/**
 * The Queue page's counts (overviewCounts), each read through a partial index (idx_command_queued,
 * idx_command_claimed, idx_command_failed; the totals through idx_command_batch for the batches with a
 * queued command), never the whole command table.
 */
export const OVERVIEW_SQL = {
  queued: `SELECT batch_id, 'queued' AS status, count(*) AS n FROM command WHERE status = 'queued' GROUP BY batch_id`,
  // One row per claimed command (one in flight, SPEC 6.1): grouped by batch, SQLite would rather walk idx_command_batch.
  claimed: `SELECT batch_id, 'claimed' AS status, 1 AS n FROM command WHERE status = 'claimed'`,
  failedOrSkipped: `SELECT batch_id, status, count(*) AS n FROM command WHERE status IN ('failed', 'skipped') GROUP BY status, batch_id`,
  totals: `SELECT batch_id, count(*) AS n FROM command WHERE batch_id IN (SELECT batch_id FROM command WHERE status = 'queued') GROUP BY batch_id`,
} as const;

/** The latest refresh_catalogue command, as a claim looks at it (SPEC 16.1). */
export type CatalogueCommandRow = Pick<CommandRow, 'id' | 'batch_id' | 'status' | 'finished_at'>;

/** The row of `firstWriteSql`: the first handout of a batch that writes to Jira. */
export const isFirstWrite = (row: unknown): boolean => {
  const r = row as { first?: unknown; writes?: unknown } | undefined;
  return Boolean(r?.first) && Boolean(r?.writes);
};

/** A claimed command always has its claim time. */
export type RedeliveredRow = Pick<CommandRow, 'id' | 'type' | 'deliveries'> & { claimed_at: string };

/** A command as the agent strip shows it: what it is and where it stands. */
export type PlanRow = Pick<CommandRow, 'id' | 'batch_id' | 'seq' | 'type' | 'params' | 'claimed_at' | 'pause_seconds' | 'deliveries'>;

/** What a report writes on a finished command (SPEC 6.5). */
export interface Outcome {
  result: string | null;
  jiraCalls: number;
  rateLimited: number;
  now: string;
}

/** A final report's write: `done`, or `failed` with its error. */
export type Finish = Outcome & ({ status: 'done' } | { status: 'failed'; error: string });

/** What a claim looks at first (SPEC 6.2–6.4, 16.1), as statements another repository may run together. */
export interface ClaimLooks {
  /** the oldest command with the agent */
  claimed: Sql;
  /** the next runnable command in queue order */
  next: Sql;
  /** the latest refresh_catalogue command */
  catalogue: Sql;
}

interface DefinerRow {
  status: CommandStatus;
  result: StoredJson | null;
}

/**
 * A definer's key: from a `done` result, or from the late report of a force-cancelled one (SPEC 6.5);
 * a `failed` report never resolves a temp key, whatever its result says.
 */
const RESOLVING: readonly CommandStatus[] = ['done', 'cancelled'];
const RESOLVING_SQL = raw(`status IN ('done', 'cancelled')`);

/**
 * `params.temp_key` and `result.key` as text, each engine's own way: PostgreSQL's `->>` on its json
 * columns, SQLite's json_extract on its JSON text. The same expressions as idx_command_temp_key's.
 */
function jsonFields(m: EntityManager): { tempKey: Sql; resultKey: Sql } {
  return engineOf(m.connection) === 'postgres'
    ? { tempKey: raw(`(params ->> 'temp_key')`), resultKey: raw(`(result ->> 'key')`) }
    : { tempKey: raw(`json_extract(params, '$.temp_key')`), resultKey: raw(`json_extract(result, '$.key')`) };
}

const keyOf = (d: DefinerRow): string | undefined => {
  if (!RESOLVING.includes(d.status)) return undefined;
  const key = parseJson<{ key?: unknown } | null>(d.result, null)?.key;
  return isJiraKey(key) ? key : undefined;
};

/** Also Mirror's `NoteKeys` port (wired in AppModule): where the note of a temp key lives. */
@Injectable()
export class CommandRepository implements NoteKeys {
  find(m: EntityManager, id: number): Promise<CommandRow | undefined> {
    return one<CommandRow>(m, this.findSql(id));
  }

  findSql(id: number): Sql {
    return sql`SELECT * FROM command WHERE id = ${id}`;
  }

  ofBatch(m: EntityManager, batchId: number): Promise<CommandRow[]> {
    return rows<CommandRow>(m, sql`SELECT * FROM command WHERE batch_id = ${batchId} ORDER BY seq`);
  }

  /** How many of a batch's commands are queued or with the agent. */
  async unfinishedOf(m: EntityManager, batchId: number): Promise<number> {
    const row = await one<{ n: number }>(m, sql`SELECT count(*) AS n FROM command WHERE batch_id = ${batchId} AND status IN ('queued', 'claimed')`);
    return Number(row?.n ?? 0);
  }

  typesAndStatuses(m: EntityManager, batchId: number): Promise<Pick<CommandRow, 'type' | 'status'>[]> {
    return rows(m, sql`SELECT type, status FROM command WHERE batch_id = ${batchId}`);
  }

  /** A batch's commands, numbered from 1; the first carries `retryOf`; `queuePos` null while the batch waits for approval. */
  async insertAll(m: EntityManager, batchId: number, commands: readonly CommandInput[], retryOf: number | null, queuePos: number | null): Promise<void> {
    let seq = 0;
    for (const c of commands) {
      seq += 1;
      await run(
        m,
        sql`INSERT INTO command (batch_id, seq, type, params, status, retry_of, queue_pos)
            VALUES (${batchId}, ${seq}, ${c.type}, ${JSON.stringify(c.params)}, 'queued', ${seq === 1 ? retryOf : null}, ${queuePos})`,
      );
    }
  }

  /** The batch's commands take its queue place (approval, SPEC 15.2). */
  async place(m: EntityManager, batchId: number, queuePos: number): Promise<void> {
    await run(m, sql`UPDATE command SET queue_pos = ${queuePos} WHERE batch_id = ${batchId}`);
  }

  /** SPEC 6.7: a batch's queued commands are cancelled; claimed ones are left to finish. */
  async cancelQueuedOf(m: EntityManager, batchId: number, now: string): Promise<void> {
    await run(m, sql`UPDATE command SET status = 'cancelled', finished_at = ${now} WHERE batch_id = ${batchId} AND status = 'queued'`);
  }

  async cancel(m: EntityManager, id: number, now: string): Promise<void> {
    await run(m, sql`UPDATE command SET status = 'cancelled', finished_at = ${now} WHERE id = ${id}`);
  }

  // ── the claim order (SPEC 6.1–6.4) ─────────────────────────────────────────────────────────────────

  /** The oldest command with the agent: the one a claim hands out again. */
  oldestClaimed(m: EntityManager): Promise<CommandRow | undefined> {
    return one<CommandRow>(m, this.claimLooks().claimed);
  }

  nextRunnable(m: EntityManager): Promise<CommandRow | undefined> {
    return one<CommandRow>(m, raw(NEXT_RUNNABLE_SQL));
  }

  /**
   * `oldestClaimed`, `nextRunnable` and `lastCatalogueCommand` as statements. `finished`: a command the
   * same statement finishes, so not with the agent any more (its part cannot see that write).
   */
  claimLooks(finished: number | null = null): ClaimLooks {
    return {
      claimed: sql`SELECT * FROM command WHERE status = 'claimed'${finished === null ? raw('') : sql` AND id <> ${finished}`} ORDER BY claimed_at, id LIMIT 1`,
      next: raw(NEXT_RUNNABLE_SQL),
      catalogue: raw(LAST_CATALOGUE_COMMAND_SQL),
    };
  }

  /** Handed out again: one more delivery, the claim time and the pause of now. */
  async redeliver(m: EntityManager, id: number, now: string, pause: number): Promise<void> {
    await run(m, sql`UPDATE command SET deliveries = deliveries + 1, claimed_at = ${now}, pause_seconds = ${pause} WHERE id = ${id}`);
  }

  /**
   * Handed out: claimed now with its temp keys substituted. deliveries + 1: a command released by the
   * agent (SPEC 16.3) is queued again with the deliveries that count. A statement (RETURNING the id),
   * run with the handout's other writes (DeliveryRepository.handOut).
   */
  handOutSql(id: number, now: string, pause: number, params: string): Sql {
    return sql`UPDATE command SET status = 'claimed', claimed_at = ${now}, deliveries = deliveries + 1, pause_seconds = ${pause}, params = ${params}
                WHERE id = ${id} RETURNING id`;
  }

  /** Failed without a report (the delivery limit) or skipped (a temp key that will not resolve). */
  async end(m: EntityManager, id: number, status: 'failed' | 'skipped', error: string, now: string): Promise<void> {
    await run(m, sql`UPDATE command SET status = ${status}, error = ${error}, finished_at = ${now} WHERE id = ${id}`);
  }

  /** The first handout of a batch that writes to Jira (SPEC 3.2: back the database up before it; a batch of refreshes and catalogue reads only reads). */
  async isFirstWriteOfBatch(m: EntityManager, c: Pick<CommandRow, 'id' | 'batch_id'>): Promise<boolean> {
    return isFirstWrite(await one(m, this.firstWriteSql(c)));
  }

  /** `isFirstWriteOfBatch` as a statement (read its row with `isFirstWrite`); it does not look at `c` itself. */
  firstWriteSql(c: Pick<CommandRow, 'id' | 'batch_id'>): Sql {
    return sql`SELECT NOT EXISTS (SELECT 1 FROM command WHERE batch_id = ${c.batch_id} AND id <> ${c.id} AND claimed_at IS NOT NULL) AS first,
                      EXISTS (SELECT 1 FROM command WHERE batch_id = ${c.batch_id} AND type NOT IN (${list(READ_TYPES)})) AS writes`;
  }

  /**
   * Nothing runnable, nothing with the agent, no hub batch (an auto-refresh) already waiting for approval
   * (SPEC 15.2: the hub's batches may need it too). Batches of others waiting for approval do not keep the mirror stale.
   */
  async idle(m: EntityManager): Promise<boolean> {
    const row = await one<{ busy: number }>(
      m,
      sql`SELECT EXISTS (SELECT 1 FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL)
              OR EXISTS (SELECT 1 FROM command WHERE status = 'claimed')
              OR EXISTS (SELECT 1 FROM batch WHERE awaiting_approval_since IS NOT NULL AND approved_at IS NULL AND cancelled_at IS NULL AND source = 'hub') AS busy`,
    );
    return !row?.busy;
  }

  /** The latest refresh_catalogue command, or none (SPEC 16.1). */
  lastCatalogueCommand(m: EntityManager): Promise<CatalogueCommandRow | undefined> {
    return one(m, this.claimLooks().catalogue);
  }

  // ── the report (SPEC 6.5, 6.6, 16.3) ───────────────────────────────────────────────────────────────

  /** `done`: the command's row after it. */
  async markDone(m: EntityManager, id: number, o: Outcome): Promise<CommandRow> {
    const [after] = await rows<CommandRow>(m, this.finishSql(id, { ...o, status: 'done' }));
    return after;
  }

  /** `failed` with its error: the command's row after it. */
  async markFailed(m: EntityManager, id: number, error: string, o: Outcome): Promise<CommandRow> {
    const [after] = await rows<CommandRow>(m, this.finishSql(id, { ...o, status: 'failed', error }));
    return after;
  }

  /**
   * `markDone` or `markFailed` as a statement (RETURNING the row after it). `plainExcept`: only while the
   * command is still claimed and of none of these types (a report decided without reading the row first).
   */
  finishSql(id: number, f: Finish, plainExcept?: readonly CommandType[]): Sql {
    const only = plainExcept ? sql` AND status = 'claimed' AND type NOT IN (${list(plainExcept)})` : raw('');
    return sql`UPDATE command SET status = ${f.status}, result = ${f.result}, error = ${f.status === 'failed' ? f.error : null}, jira_calls = ${f.jiraCalls},
                      rate_limited = ${f.rateLimited}, finished_at = ${f.now}
                WHERE id = ${id}${only} RETURNING *`;
  }

  /** The late report of a force-cancelled ensure_issue (SPEC 6.5): its result is kept, the status stays. */
  async keepLateResult(m: EntityManager, id: number, o: Omit<Outcome, 'now'>): Promise<CommandRow> {
    const [after] = await rows<CommandRow>(
      m,
      sql`UPDATE command SET result = ${o.result}, jira_calls = ${o.jiraCalls}, rate_limited = ${o.rateLimited} WHERE id = ${id} RETURNING *`,
    );
    return after;
  }

  /**
   * SPEC 16.3: back to `queued` in its place (queue_pos and seq kept); this delivery does not count. Its
   * Jira calls add up, stopping at MAX_INTEGER: the column holds no more (decision 0104). A command of a
   * batch cancelled while the agent held it is `cancelled` instead (SPEC 6.7): nothing of a cancelled batch
   * is handed out again.
   */
  async release(m: EntityManager, id: number, jiraCalls: number, now: string): Promise<CommandRow> {
    const cancelled = sql`EXISTS (SELECT 1 FROM batch b WHERE b.id = command.batch_id AND b.cancelled_at IS NOT NULL)`;
    const [after] = await rows<CommandRow>(
      m,
      sql`UPDATE command SET status = CASE WHEN ${cancelled} THEN 'cancelled' ELSE 'queued' END,
                 finished_at = CASE WHEN ${cancelled} THEN ${now} ELSE finished_at END,
                 deliveries = CASE WHEN deliveries > 0 THEN deliveries - 1 ELSE 0 END,
                 jira_calls = CASE WHEN jira_calls > ${MAX_INTEGER - jiraCalls} THEN ${MAX_INTEGER} ELSE jira_calls + ${jiraCalls} END
           WHERE id = ${id} RETURNING *`,
    );
    return after;
  }

  /** Every command with the agent (the candidates for confirmation by state, SPEC 6.6). */
  claimed(m: EntityManager): Promise<CommandRow[]> {
    return rows<CommandRow>(m, sql`SELECT * FROM command WHERE status = 'claimed'`);
  }

  /** `confirmed_by_state` if still claimed (a command that changed meanwhile is never overwritten); whether it changed. */
  async confirmByState(m: EntityManager, id: number, now: string, result: string): Promise<boolean> {
    return (await run(m, sql`UPDATE command SET status = 'confirmed_by_state', finished_at = ${now}, result = ${result} WHERE id = ${id} AND status = 'claimed'`)) > 0;
  }

  // ── what GET /agent and the agent's --check read (SPEC 10, issue 20) ───────────────────────────────

  /** Jira rate-limit answers of commands finished since `since`. */
  async rateLimitedSince(m: EntityManager, since: string): Promise<number> {
    const row = await one<{ n: number | null }>(m, sql`SELECT sum(rate_limited) AS n FROM command WHERE finished_at >= ${since}`);
    return row?.n ?? 0;
  }

  /** Handed-out commands delivered more than once, the oldest handout first. */
  redelivered(m: EntityManager): Promise<RedeliveredRow[]> {
    return rows<RedeliveredRow>(m, raw(REDELIVERED_SQL));
  }

  /** Runnable work is waiting (a batch waiting for a person's approval is nothing the agent could take). */
  async anyRunnable(m: EntityManager): Promise<boolean> {
    return Boolean(await one(m, sql`SELECT 1 AS x FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL LIMIT 1`));
  }

  /**
   * The writes still to come: the batch, type and params of every queued or handed-out command that
   * changes an issue's fields, status or sprint or deletes it, outside one batch (a revert's look ahead).
   */
  async unfinishedWrites(m: EntityManager, exceptBatchId: number): Promise<Pick<CommandRow, 'batch_id' | 'type' | 'params'>[]> {
    return rows(
      m,
      sql`SELECT batch_id, type, params FROM command
           WHERE status IN ('queued', 'claimed') AND batch_id <> ${exceptBatchId}
             AND type IN ('ensure_fields', 'ensure_status', 'ensure_sprint', 'delete_issue') ORDER BY batch_id, seq`,
    );
  }

  /** The unfinished ensure_status commands: their batch and params. */
  unfinishedStatusCommands(m: EntityManager): Promise<{ batch_id: number; params: string }[]> {
    return rows<{ batch_id: number; params: string }>(m, sql`SELECT batch_id, params FROM command WHERE status IN ('queued', 'claimed') AND type = 'ensure_status'`);
  }

  /**
   * The params of the ensure_issue a temp key of `batchId` stands for, as resolveFor reads it: its own
   * batch's definer, else the newest earlier one that resolved it; one that failed or was skipped
   * stands for no issue.
   */
  async definerParams(m: EntityManager, batchId: number, tempKey: string): Promise<string | undefined> {
    const f = jsonFields(m);
    const row = await one<{ params: string }>(
      m,
      sql`SELECT params FROM command WHERE type = 'ensure_issue' AND ${f.tempKey} = ${tempKey} AND batch_id <= ${batchId}
             AND (status IN ('queued', 'claimed') OR (${RESOLVING_SQL} AND ${f.resultKey} IS NOT NULL))
           ORDER BY CASE WHEN batch_id = ${batchId} THEN 0 ELSE 1 END, id DESC LIMIT 1`,
    );
    return row?.params;
  }

  /** The command the agent holds, if it is still claimed. */
  heldBy(m: EntityManager, id: number): Promise<PlanRow | undefined> {
    return one<PlanRow>(m, sql`SELECT * FROM command WHERE id = ${id} AND status = 'claimed'`);
  }

  /**
   * Open commands by where they stand (/metrics): `queued` the agent can take now, `awaiting_approval`
   * queued in a batch waiting for a person, `claimed` handed out. Each one probe of a partial index
   * (idx_command_runnable, idx_command_queued, idx_command_claimed).
   */
  async depth(m: EntityManager): Promise<Record<'queued' | 'awaiting_approval' | 'claimed', number>> {
    const count = async (q: Sql) => Number((await one<{ n: number }>(m, q))?.n ?? 0);
    return {
      queued: await count(sql`SELECT count(*) AS n FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL`),
      awaiting_approval: await count(sql`SELECT count(*) AS n FROM command WHERE status = 'queued' AND queue_pos IS NULL`),
      claimed: await count(sql`SELECT count(*) AS n FROM command WHERE status = 'claimed'`),
    };
  }

  /** When the batch of the oldest command the agent could take joined the queue (null: none waits). */
  async oldestRunnableSince(m: EntityManager): Promise<string | null> {
    const row = await one<{ at: string | null }>(
      m,
      sql`SELECT min(b.runnable_at) AS at FROM batch b WHERE b.queue_pos = (SELECT min(queue_pos) FROM command WHERE status = 'queued' AND queue_pos IS NOT NULL)`,
    );
    return row?.at ?? null;
  }

  // ── what the batch views read ──────────────────────────────────────────────────────────────────────

  /**
   * Unfinished commands of runnable batches up to queue place `upTo`, counted per (queue place, batch,
   * type): one grouped query over the partial indexes of runnable and claimed commands (remaining_seconds, SPEC 6.8).
   */
  unfinishedUpTo(m: EntityManager, upTo: number): Promise<{ batch_id: number; queue_pos: number; type: CommandType; n: number }[]> {
    return rows(
      m,
      sql`SELECT batch_id, queue_pos, type, count(*) AS n FROM command
           WHERE status = 'queued' AND queue_pos IS NOT NULL AND queue_pos <= CAST(${upTo} AS BIGINT) GROUP BY queue_pos, batch_id, type
          UNION ALL
          SELECT batch_id, queue_pos, type, count(*) AS n FROM command
           WHERE status = 'claimed' AND queue_pos <= CAST(${upTo} AS BIGINT) GROUP BY queue_pos, batch_id, type`,
    );
  }

  /**
   * What the Queue page's overview needs of each batch, read through partial indexes only (schema v14):
   * its queued, claimed, failed and skipped commands, and the number of all its commands for the
   * batches with one still queued (the only ones whose status depends on it: all queued is `queued`).
   * The finished rest of the command table is never read.
   */
  async overviewCounts(m: EntityManager): Promise<{ byStatus: { batch_id: number; status: CommandStatus; n: number }[]; totals: { batch_id: number; n: number }[] }> {
    const byStatus: { batch_id: number; status: CommandStatus; n: number }[] = [];
    for (const query of [OVERVIEW_SQL.queued, OVERVIEW_SQL.claimed, OVERVIEW_SQL.failedOrSkipped]) byStatus.push(...(await rows<(typeof byStatus)[number]>(m, raw(query))));
    return { byStatus, totals: await rows<{ batch_id: number; n: number }>(m, raw(OVERVIEW_SQL.totals)) };
  }

  /** Failed commands of every batch, the latest first, with their batch's title; `beforeId` pages on. */
  failed(m: EntityManager, limit: number, beforeId?: number): Promise<(CommandRow & { batch_title: string })[]> {
    const before = Math.min(beforeId ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    return rows(
      m,
      sql`SELECT c.*, b.title AS batch_title FROM command c JOIN batch b ON b.id = c.batch_id
           WHERE c.status = 'failed' AND c.id < CAST(${before} AS BIGINT) ORDER BY c.id DESC LIMIT ${limit}`,
    );
  }

  // ── temp keys (SPEC 6.3, 6.5) ──────────────────────────────────────────────────────────────────────

  /**
   * The newest resolution of a temp key by any batch (optionally only batches before one), or undefined.
   * The expression index `idx_command_temp_key` makes this a probe, not a scan of the history.
   */
  async resolvedKey(m: EntityManager, tempKey: string, beforeBatchId?: number): Promise<string | undefined> {
    const f = jsonFields(m);
    const row = await one<DefinerRow>(
      m,
      sql`SELECT status, result FROM command
           WHERE type = 'ensure_issue' AND ${f.tempKey} = ${tempKey} AND ${RESOLVING_SQL}
             AND ${f.resultKey} IS NOT NULL AND batch_id < CAST(${beforeBatchId ?? Number.MAX_SAFE_INTEGER} AS BIGINT)
           ORDER BY id DESC LIMIT 1`,
    );
    return row ? keyOf(row) : undefined;
  }

  /** How a temp key stands for a command of `batchId`: its own batch's definer first, then earlier batches. */
  async resolveFor(m: EntityManager, batchId: number, tempKey: string): Promise<Resolution> {
    const definer = await one<DefinerRow>(
      m,
      sql`SELECT status, result FROM command WHERE batch_id = ${batchId} AND type = 'ensure_issue' AND ${jsonFields(m).tempKey} = ${tempKey} LIMIT 1`,
    );
    if (definer) {
      if (!isTerminal(definer.status)) return { state: 'pending' };
      const key = keyOf(definer);
      return key ? { state: 'resolved', key } : { state: 'failed' };
    }
    const key = await this.resolvedKey(m, tempKey, batchId);
    return key ? { state: 'resolved', key } : { state: 'failed' };
  }

  /**
   * The whole current mapping temp key → Jira key (newest resolution wins), for imports; with `line`, the
   * mapping a stored package's line of batches gives its temp keys (decision 1422): the resolutions by
   * the line's first batch and the batches before it (`upTo`), and those by the line's own batches
   * (`own`) and by the retries of their commands, however late.
   */
  async tempKeyMapping(m: EntityManager, line?: { upTo: number; own: readonly number[] }): Promise<Map<string, string>> {
    const f = jsonFields(m);
    const ofLine = line
      ? sql` AND (batch_id <= CAST(${line.upTo} AS BIGINT) OR id IN (
            WITH RECURSIVE own(id) AS (
              SELECT id FROM command WHERE batch_id IN (${list(line.own)}) AND type = 'ensure_issue'
              UNION SELECT c.id FROM command c JOIN own ON c.retry_of = own.id WHERE c.retry_of IS NOT NULL
            )
            SELECT id FROM own))`
      : raw('');
    const definers = await rows<DefinerRow & { temp_key: string }>(
      m,
      sql`SELECT ${f.tempKey} AS temp_key, status, result FROM command
           WHERE type = 'ensure_issue' AND ${RESOLVING_SQL} AND ${f.resultKey} IS NOT NULL${ofLine} ORDER BY id`,
    );
    const map = new Map<string, string>();
    for (const r of definers) {
      const key = keyOf(r);
      if (key) map.set(r.temp_key, key);
    }
    return map;
  }

  /**
   * Of these temp keys, those an `ensure_issue` still queued or handed out defines, outside the batches
   * `besides`: each with the first such batch and the summary its command would create. In parts of 500
   * keys (a package may have tens of thousands of rows; SQLite binds at most 32,766 values).
   */
  async pendingDefiners(m: EntityManager, tempKeys: readonly string[], besides: readonly number[] = []): Promise<Map<string, { batchId: number; summary: string }>> {
    const out = new Map<string, { batchId: number; summary: string }>();
    const f = jsonFields(m);
    const unique = [...new Set(tempKeys)];
    for (let i = 0; i < unique.length; i += 500) {
      const found = await rows<{ temp_key: string; batch_id: number | string; params: StoredJson }>(
        m,
        sql`SELECT ${f.tempKey} AS temp_key, batch_id, params FROM command
             WHERE type = 'ensure_issue' AND status IN ('queued', 'claimed') AND ${f.tempKey} IN (${list(unique.slice(i, i + 500))})
               ${besides.length ? sql`AND batch_id NOT IN (${list(besides)})` : raw('')} ORDER BY id`,
      );
      for (const r of found) {
        if (out.has(r.temp_key)) continue;
        const summary = parseJson<{ summary?: unknown }>(r.params, {}).summary;
        out.set(r.temp_key, { batchId: Number(r.batch_id), summary: typeof summary === 'string' ? summary : '' });
      }
    }
    return out;
  }

  /** Temp keys that an `ensure_issue` still queued or handed out defines (one key, or all). */
  async pendingTempKeys(m: EntityManager, tempKey?: string): Promise<Set<string>> {
    const f = jsonFields(m);
    const pending = await rows<{ temp_key: string }>(
      m,
      sql`SELECT DISTINCT ${f.tempKey} AS temp_key FROM command
           WHERE type = 'ensure_issue' AND status IN ('queued', 'claimed')${tempKey === undefined ? raw('') : sql` AND ${f.tempKey} = ${tempKey}`}`,
    );
    return new Set(pending.map((r) => r.temp_key));
  }

  /**
   * Where notes of temp keys go (SPEC 6.5): the newest resolution of each temp key, except one that an
   * unfinished `ensure_issue` defines again — its report will move the note to the issue it creates.
   */
  async currentResolutions(m: EntityManager): Promise<Map<string, string>> {
    const mapping = await this.tempKeyMapping(m);
    for (const key of await this.pendingTempKeys(m)) mapping.delete(key);
    return mapping;
  }

  /** `currentResolutions` for one key (PUT and GET /notes/{key}): a probe or two, no scan. */
  async currentResolution(m: EntityManager, tempKey: string): Promise<string | undefined> {
    if (!isTempKey(tempKey) || (await this.pendingTempKeys(m, tempKey)).size > 0) return undefined;
    return this.resolvedKey(m, tempKey);
  }
}
