/** The `command_change` table's SQL (SPEC 17.1): written in the report's transaction, read by the command, batch and issue views. */
import { Injectable } from '@nestjs/common';
import type { Change } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import type { RowOf } from '../database/index.js';
import { one, rows, run, sql, type Sql } from '../database/index.js';
import type { CommandChangeEntity } from './command-change.entity.js';
import type { BatchRow, CommandRow } from './rows.js';

export type ChangeRow = RowOf<CommandChangeEntity>;

/** A change with its command's batch, the batch's people and the command's type (an issue's history). */
export type IssueChangeRow = ChangeRow &
  Pick<BatchRow, 'title' | 'author' | 'source' | 'approved_by' | 'approved_at'> & { batch_id: number; type: CommandRow['type'] };

const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));

@Injectable()
export class ChangeRepository {
  /**
   * Stores the changes a `done` or `failed` report carried, once per command: a repeated report (re-delivery answered
   * twice) adds nothing. `deliveryId` is the handout this report closes.
   */
  async record(m: EntityManager, commandId: number, deliveryId: number | null, changes: readonly Change[] | undefined, now: string): Promise<void> {
    if (!changes?.length) return;
    const known = await one<{ n: number }>(m, sql`SELECT count(*) AS n FROM command_change WHERE command_id = ${commandId}`);
    if (Number(known?.n ?? 0) > 0) return;
    let seq = 0;
    for (const c of changes) {
      seq += 1;
      await run(
        m,
        sql`INSERT INTO command_change (command_id, delivery_id, seq, issue_key, what, before, after, transitions, recorded_at)
            VALUES (${commandId}, ${deliveryId}, ${seq}, ${c.key ?? null}, ${c.what}, ${json(c.before)}, ${json(c.after)}, ${json(c.transitions)}, ${now})`,
      );
    }
  }

  /**
   * `record` as statements to run together with the report's write (PostgreSQL): one INSERT per change,
   * each RETURNING its row, made only `when` holds and while the command has no change recorded. The
   * delivery's id is an expression of the statement they join (`deliveryId`).
   */
  recordSql(commandId: number, deliveryId: Sql, changes: readonly Change[], now: string, when: Sql): Sql[] {
    return changes.map(
      (c, i) =>
        sql`INSERT INTO command_change (command_id, delivery_id, seq, issue_key, what, before, after, transitions, recorded_at)
            SELECT CAST(${commandId} AS INTEGER), ${deliveryId}, CAST(${i + 1} AS INTEGER), CAST(${c.key ?? null} AS TEXT), CAST(${c.what} AS TEXT),
                   CAST(${json(c.before)} AS TEXT), CAST(${json(c.after)} AS TEXT), CAST(${json(c.transitions)} AS TEXT), CAST(${now} AS TEXT)
             WHERE ${when} AND NOT EXISTS (SELECT 1 FROM command_change WHERE command_id = ${commandId}) RETURNING *`,
    );
  }

  ofCommand(m: EntityManager, commandId: number): Promise<ChangeRow[]> {
    return rows<ChangeRow>(m, this.ofCommandSql(commandId));
  }

  ofCommandSql(commandId: number): Sql {
    return sql`SELECT * FROM command_change WHERE command_id = ${commandId} ORDER BY seq`;
  }

  /** Every change of a batch's commands, in the order they happened (command seq, then change seq). */
  ofBatch(m: EntityManager, batchId: number): Promise<ChangeRow[]> {
    return rows<ChangeRow>(
      m,
      sql`SELECT cc.* FROM command_change cc JOIN command c ON c.id = cc.command_id WHERE c.batch_id = ${batchId} ORDER BY c.seq, cc.seq`,
    );
  }

  /**
   * Every change the hub made to an issue, oldest first (SPEC 17, the audit view): its own, and the links
   * made or removed with it at their other end (a link's change is recorded under its source; its JSON
   * names the target as `"target":"KEY"`, JSON.stringify's spelling). The link changes are read through
   * their partial index (idx_command_change_link), not the whole table.
   */
  ofIssue(m: EntityManager, key: string): Promise<IssueChangeRow[]> {
    const target = `%"target":"${key.replace(/[\\%_]/g, (ch) => `\\${ch}`)}"%`;
    return rows<IssueChangeRow>(
      m,
      sql`SELECT cc.*, b.id AS batch_id, b.title, b.author, b.source, b.approved_by, b.approved_at, c.type
            FROM command_change cc
            JOIN command c ON c.id = cc.command_id
            JOIN batch b ON b.id = c.batch_id
           WHERE cc.id IN (
                   SELECT id FROM command_change WHERE issue_key = ${key}
                   UNION
                   SELECT id FROM command_change WHERE what IN ('link', 'link_removed')
                      AND (CASE WHEN what = 'link' THEN after ELSE before END) LIKE ${target} ESCAPE '\\'
                 )
           ORDER BY cc.id`,
    );
  }
}
