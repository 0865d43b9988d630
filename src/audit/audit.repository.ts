/** All SQL of the `audit` table (issue 22): record a call, list calls newest first, drop old ones. */
import { Injectable } from '@nestjs/common';
import type { AuditRecord } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import { Db } from '../database/db.service.js';

/** A call as it is recorded; `GET /audit` adds its id. */
export type AuditRow = Omit<AuditRecord, 'id'>;

export type { AuditRecord };

export interface AuditQuery {
  limit: number;
  before_id?: number;
  batch_id?: number;
}

const COLUMNS = 'id, at, channel, tool, route, arguments, outcome, status, detail, batch_id';

@Injectable()
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** Records a call and drops the calls older than `keepFrom` (the retention), in one transaction. */
  add(row: AuditRow, keepFrom: string): Promise<void> {
    return this.db.transaction(async (m: EntityManager) => {
      await m.query(
        'INSERT INTO audit (at, channel, tool, route, arguments, outcome, status, detail, batch_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [row.at, row.channel, row.tool, row.route, row.arguments, row.outcome, row.status, row.detail, row.batch_id],
      );
      await m.query('DELETE FROM audit WHERE at < ?', [keepFrom]);
    });
  }

  list(q: AuditQuery): Promise<AuditRecord[]> {
    const where = ['id < CAST(? AS BIGINT)'];
    const args: unknown[] = [Math.min(q.before_id ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)];
    if (q.batch_id !== undefined) {
      where.push('batch_id = ?');
      args.push(q.batch_id);
    }
    return this.db.read(async (m) => {
      const rows: AuditRecord[] = await m.query(`SELECT ${COLUMNS} FROM audit WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, [...args, q.limit]);
      return rows.map((r) => ({ ...r, id: Number(r.id), status: r.status === null ? null : Number(r.status), batch_id: r.batch_id === null ? null : Number(r.batch_id) }));
    });
  }
}
