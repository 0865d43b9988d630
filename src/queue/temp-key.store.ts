/** Where temp keys are resolved (SPEC 6.3): the ensure_issue that defines them, and its result. */
import type { EntityManager } from 'typeorm';
import { isJiraKey, isTempKey } from '../common/keys.js';
import { engineOf } from '../database/engine.js';
import { parseJson, type StoredJson } from '../database/json.js';
import { one, raw, rows as select, sql, type Sql } from '../database/sql.js';
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

/**
 * `params.temp_key` and `result.key` as text, each engine's own way: PostgreSQL's `->>` on its jsonb
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

/**
 * The newest resolution of a temp key by any batch (optionally only batches before one), or undefined.
 * The expression index `idx_command_temp_key` makes this a probe, not a scan of the history.
 */
export async function resolvedKey(m: EntityManager, tempKey: string, beforeBatchId?: number): Promise<string | undefined> {
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
export async function resolveFor(m: EntityManager, batchId: number, tempKey: string): Promise<Resolution> {
  const definer = await one<DefinerRow>(
    m,
    sql`SELECT status, result FROM command WHERE batch_id = ${batchId} AND type = 'ensure_issue' AND ${jsonFields(m).tempKey} = ${tempKey} LIMIT 1`,
  );
  if (definer) {
    if (!isTerminal(definer.status)) return { state: 'pending' };
    const key = keyOf(definer);
    return key ? { state: 'resolved', key } : { state: 'failed' };
  }
  const key = await resolvedKey(m, tempKey, batchId);
  return key ? { state: 'resolved', key } : { state: 'failed' };
}

/** The whole current mapping temp key → Jira key (newest resolution wins), for imports. */
export async function tempKeyMapping(m: EntityManager): Promise<Map<string, string>> {
  const f = jsonFields(m);
  const definers = await select<DefinerRow & { temp_key: string }>(
    m,
    sql`SELECT ${f.tempKey} AS temp_key, status, result FROM command
      WHERE type = 'ensure_issue' AND ${RESOLVING_SQL} AND ${f.resultKey} IS NOT NULL ORDER BY id`,
  );
  const map = new Map<string, string>();
  for (const r of definers) {
    const key = keyOf(r);
    if (key) map.set(r.temp_key, key);
  }
  return map;
}

/** Temp keys that an `ensure_issue` still queued or handed out defines (one key, or all). */
export async function pendingTempKeys(m: EntityManager, tempKey?: string): Promise<Set<string>> {
  const f = jsonFields(m);
  const pending = await select<{ temp_key: string }>(
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
export async function currentResolutions(m: EntityManager): Promise<Map<string, string>> {
  const mapping = await tempKeyMapping(m);
  for (const key of await pendingTempKeys(m)) mapping.delete(key);
  return mapping;
}

/** `currentResolutions` for one key (PUT and GET /notes/{key}): a probe or two, no scan. */
export async function currentResolution(m: EntityManager, tempKey: string): Promise<string | undefined> {
  if (!isTempKey(tempKey) || (await pendingTempKeys(m, tempKey)).size > 0) return undefined;
  return resolvedKey(m, tempKey);
}
