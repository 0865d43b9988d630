/** All SQL of the `audit` table (issue 22): record a call, list calls newest first, drop old ones. */
import { Injectable } from '@nestjs/common';
import type { AuditRecord } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import { join, rows, run, sql, type Sql } from '../database/index.js';

/** A call as it is recorded; `GET /audit` adds its id. */
export type AuditRow = Omit<AuditRecord, 'id'>;

export type { AuditRecord };

export interface AuditQuery {
  limit: number;
  before_id?: number;
  batch_id?: number;
}

/** PostgreSQL's driver answers bigint as text: numbers in the view. */
const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

@Injectable()
export class AuditRepository {
  async insert(m: EntityManager, row: AuditRow): Promise<void> {
    await run(
      m,
      sql`INSERT INTO audit (at, channel, tool, route, arguments, outcome, status, detail, batch_id)
          VALUES (${row.at}, ${row.channel}, ${row.tool}, ${row.route}, ${row.arguments}, ${row.outcome}, ${row.status}, ${row.detail}, ${row.batch_id})`,
    );
  }

  /** Drops the calls recorded before `keepFrom`; answers how many. */
  deleteOlderThan(m: EntityManager, keepFrom: string): Promise<number> {
    return run(m, sql`DELETE FROM audit WHERE at < ${keepFrom}`);
  }

  /** Newest first: before `before_id`, of one batch when `batch_id` is given. */
  async list(m: EntityManager, q: AuditQuery): Promise<AuditRecord[]> {
    const where: Sql[] = [sql`id < CAST(${Math.min(q.before_id ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)} AS BIGINT)`];
    if (q.batch_id !== undefined) where.push(sql`batch_id = ${q.batch_id}`);
    const found = await rows<AuditRecord>(
      m,
      sql`SELECT id, at, channel, tool, route, arguments, outcome, status, detail, batch_id FROM audit WHERE ${join(where, ' AND ')} ORDER BY id DESC LIMIT ${q.limit}`,
    );
    return found.map((r) => ({ ...r, id: Number(r.id), status: num(r.status), batch_id: num(r.batch_id) }));
  }
}
