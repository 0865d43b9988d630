/**
 * Where temp keys are resolved (SPEC 6.3, 6.5): the `command` table's statements on `params.temp_key` and
 * `result.key`. The statements are shared; how a JSON field is read is each engine's own (PostgreSQL's `->>`
 * on its jsonb columns, SQLite's json_extract on its JSON text), given by the engine's class
 * (sqlite-command.repository.ts, postgres-command.repository.ts; chosen in command.provider.ts). Every
 * method runs on the caller's transaction (`m`).
 */
import type { EntityManager } from 'typeorm';
import { isJiraKey, isTempKey } from '../common/index.js';
import { one, parseJson, raw, rows, sql, type Sql, type StoredJson } from '../database/index.js';
import type { NoteKeys } from '../mirror/index.js';
import { isTerminal, type CommandStatus } from './command.entity.js';
import type { Resolution } from './commands/temp-keys.js';

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

const keyOf = (d: DefinerRow): string | undefined => {
  if (!RESOLVING.includes(d.status)) return undefined;
  const key = parseJson<{ key?: unknown } | null>(d.result, null)?.key;
  return isJiraKey(key) ? key : undefined;
};

/** The temp-key part of CommandRepository, and so Mirror's `NoteKeys` port (wired in AppModule): where the note of a temp key lives. */
export abstract class CommandTempKeys implements NoteKeys {
  /** `params.temp_key` as text: the expression of idx_command_temp_key on this engine. */
  protected abstract readonly tempKey: Sql;
  /** `result.key` as text. */
  protected abstract readonly resultKey: Sql;

  /**
   * The newest resolution of a temp key by any batch (optionally only batches before one), or undefined.
   * The expression index `idx_command_temp_key` makes this a probe, not a scan of the history.
   */
  async resolvedKey(m: EntityManager, tempKey: string, beforeBatchId?: number): Promise<string | undefined> {
    const row = await one<DefinerRow>(
      m,
      sql`SELECT status, result FROM command
           WHERE type = 'ensure_issue' AND ${this.tempKey} = ${tempKey} AND ${RESOLVING_SQL}
             AND ${this.resultKey} IS NOT NULL AND batch_id < CAST(${beforeBatchId ?? Number.MAX_SAFE_INTEGER} AS BIGINT)
           ORDER BY id DESC LIMIT 1`,
    );
    return row ? keyOf(row) : undefined;
  }

  /** How a temp key stands for a command of `batchId`: its own batch's definer first, then earlier batches. */
  async resolveFor(m: EntityManager, batchId: number, tempKey: string): Promise<Resolution> {
    const definer = await one<DefinerRow>(
      m,
      sql`SELECT status, result FROM command WHERE batch_id = ${batchId} AND type = 'ensure_issue' AND ${this.tempKey} = ${tempKey} LIMIT 1`,
    );
    if (definer) {
      if (!isTerminal(definer.status)) return { state: 'pending' };
      const key = keyOf(definer);
      return key ? { state: 'resolved', key } : { state: 'failed' };
    }
    const key = await this.resolvedKey(m, tempKey, batchId);
    return key ? { state: 'resolved', key } : { state: 'failed' };
  }

  /** The whole current mapping temp key → Jira key (newest resolution wins), for imports. */
  async tempKeyMapping(m: EntityManager): Promise<Map<string, string>> {
    const definers = await rows<DefinerRow & { temp_key: string }>(
      m,
      sql`SELECT ${this.tempKey} AS temp_key, status, result FROM command
           WHERE type = 'ensure_issue' AND ${RESOLVING_SQL} AND ${this.resultKey} IS NOT NULL ORDER BY id`,
    );
    const map = new Map<string, string>();
    for (const r of definers) {
      const key = keyOf(r);
      if (key) map.set(r.temp_key, key);
    }
    return map;
  }

  /** Temp keys that an `ensure_issue` still queued or handed out defines (one key, or all). */
  async pendingTempKeys(m: EntityManager, tempKey?: string): Promise<Set<string>> {
    const pending = await rows<{ temp_key: string }>(
      m,
      sql`SELECT DISTINCT ${this.tempKey} AS temp_key FROM command
           WHERE type = 'ensure_issue' AND status IN ('queued', 'claimed')${tempKey === undefined ? raw('') : sql` AND ${this.tempKey} = ${tempKey}`}`,
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
