/** The `idempotency_key` table's SQL (SPEC 15.4), read and written inside the create transaction. */
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { one, run, sql } from '../database/index.js';

/** Keys are kept at least this long; older ones are purged by later creates. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;

/** JSON with object keys sorted at every depth: two bodies that differ only in key order are the same body. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

@Injectable()
export class IdempotencyRepository {
  find(m: EntityManager, key: string): Promise<{ body_hash: string; batch_id: number } | undefined> {
    return one(m, sql`SELECT body_hash, batch_id FROM idempotency_key WHERE key = ${key}`);
  }

  /** Records the key with the batch it made, and purges keys older than the keep time (an index range, opportunistically). */
  async remember(m: EntityManager, key: string, hash: string, batchId: number, now: Date): Promise<void> {
    await run(m, sql`DELETE FROM idempotency_key WHERE created_at < ${new Date(now.getTime() - IDEMPOTENCY_KEEP_MS).toISOString()}`);
    await run(m, sql`INSERT INTO idempotency_key (key, body_hash, batch_id, created_at) VALUES (${key}, ${hash}, ${batchId}, ${now.toISOString()})`);
  }
}
