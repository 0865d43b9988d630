/** The change record (SPEC 17.1): written in the report's transaction, read by the command, batch and issue views. */
import type { BatchSource, Change, CommandType } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import { parseJson } from '../database/json.js';
import type { CommandChangeEntity } from './command-change.entity.js';
import type { RowOf } from '../database/row.js';
import type { IssueChangeView, RecordedChangeView } from './change.view.js';

export type ChangeRow = RowOf<CommandChangeEntity>;

const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));

/**
 * Stores the changes a `done` report carried, once per command: a repeated report (re-delivery answered
 * twice) adds nothing. `delivery_id` is the command's pending delivery, the one this report closes.
 */
export async function recordChanges(m: EntityManager, commandId: number, changes: readonly Change[] | undefined, now: string): Promise<void> {
  if (!changes?.length) return;
  const [known]: { n: number }[] = await m.query('SELECT count(*) AS n FROM command_change WHERE command_id = ?', [commandId]);
  if (Number(known?.n ?? 0) > 0) return;
  const [delivery]: { id: number }[] = await m.query(`SELECT id FROM delivery WHERE command_id = ? ORDER BY n DESC LIMIT 1`, [commandId]);
  let seq = 0;
  for (const c of changes) {
    seq += 1;
    await m.query(
      'INSERT INTO command_change (command_id, delivery_id, seq, issue_key, what, before, after, transitions, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [commandId, delivery?.id ?? null, seq, c.key ?? null, c.what, json(c.before), json(c.after), json(c.transitions), now],
    );
  }
}

type JoinedRow = ChangeRow & { delivery_n: number | null };

export function changeView(r: JoinedRow): RecordedChangeView {
  return {
    ...(r.issue_key ? { key: r.issue_key } : {}),
    what: r.what,
    ...(r.before !== null ? { before: parseJson<unknown>(r.before, null) } : {}),
    ...(r.after !== null ? { after: parseJson<unknown>(r.after, null) } : {}),
    ...(r.transitions !== null ? { transitions: parseJson<string[]>(r.transitions, []) } : {}),
    command_id: r.command_id,
    delivery_n: r.delivery_n,
    recorded_at: r.recorded_at,
  };
}

const SELECT = 'SELECT cc.*, d.n AS delivery_n FROM command_change cc LEFT JOIN delivery d ON d.id = cc.delivery_id';

export async function commandChanges(m: EntityManager, commandId: number): Promise<RecordedChangeView[]> {
  const rows: JoinedRow[] = await m.query(`${SELECT} WHERE cc.command_id = ? ORDER BY cc.seq`, [commandId]);
  return rows.map(changeView);
}

/** Every change of a batch's commands, in the order they happened (command seq, then change seq). */
export async function batchChanges(m: EntityManager, batchId: number): Promise<RecordedChangeView[]> {
  const rows: JoinedRow[] = await m.query(
    `${SELECT} JOIN command c ON c.id = cc.command_id WHERE c.batch_id = ? ORDER BY c.seq, cc.seq`,
    [batchId],
  );
  return rows.map(changeView);
}

/** Every change the hub made to an issue, oldest first (SPEC 17, the audit view). */
export async function issueChanges(m: EntityManager, key: string): Promise<IssueChangeView[]> {
  const rows: (JoinedRow & { batch_id: number; title: string; author: string; source: BatchSource; approved_by: string | null; approved_at: string | null; type: CommandType })[] =
    await m.query(
      `SELECT cc.*, d.n AS delivery_n, b.id AS batch_id, b.title, b.author, b.source, b.approved_by, b.approved_at, c.type
         FROM command_change cc
         JOIN command c ON c.id = cc.command_id
         JOIN batch b ON b.id = c.batch_id
         LEFT JOIN delivery d ON d.id = cc.delivery_id
        WHERE cc.issue_key = ? ORDER BY cc.id`,
      [key],
    );
  return rows.map((r) => ({
    ...changeView(r),
    batch_id: r.batch_id,
    batch_title: r.title,
    author: r.author,
    source: r.source,
    approved_by: r.approved_by,
    approved_at: r.approved_at,
    command_type: r.type,
  }));
}
