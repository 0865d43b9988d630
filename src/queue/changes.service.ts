import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Db, parseJson } from '../database/index.js';
import { ChangeRepository, type ChangeRow } from './change.repository.js';
import type { IssueChangeView, RecordedChangeView } from './change.view.js';
import { DELIVERY_LEDGER, type DeliveryLedger } from './delivery-ledger.js';

function changeView(r: ChangeRow, deliveryN: Map<number, number>): RecordedChangeView {
  return {
    ...(r.issue_key ? { key: r.issue_key } : {}),
    what: r.what,
    ...(r.before !== null ? { before: parseJson<unknown>(r.before, null) } : {}),
    ...(r.after !== null ? { after: parseJson<unknown>(r.after, null) } : {}),
    ...(r.transitions !== null ? { transitions: parseJson<string[]>(r.transitions, []) } : {}),
    command_id: r.command_id,
    delivery_n: r.delivery_id === null ? null : (deliveryN.get(r.delivery_id) ?? null),
    recorded_at: r.recorded_at,
  };
}

/** The read side of the change record (SPEC 17): a command's, a batch's and an issue's changes, each with the handout that reported it. */
@Injectable()
export class ChangesService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRepository,
    @Inject(DELIVERY_LEDGER) private readonly ledger: DeliveryLedger,
  ) {}

  private async views<R extends ChangeRow>(m: EntityManager, found: R[]): Promise<{ row: R; view: RecordedChangeView }[]> {
    const ids = [...new Set(found.flatMap((r) => (r.delivery_id === null ? [] : [r.delivery_id])))];
    const numbers = ids.length ? await this.ledger.numbers(m, ids) : new Map<number, number>();
    return found.map((row) => ({ row, view: changeView(row, numbers) }));
  }

  /** The views of changes already read, with the numbers (n) of their deliveries by id. */
  viewsOf(found: readonly ChangeRow[], deliveryNumbers: Map<number, number>): RecordedChangeView[] {
    return found.map((row) => changeView(row, deliveryNumbers));
  }

  async ofCommand(m: EntityManager, commandId: number): Promise<RecordedChangeView[]> {
    return (await this.views(m, await this.changes.ofCommand(m, commandId))).map((v) => v.view);
  }

  /** Every change of a batch's commands, in the order they happened (command seq, then change seq). */
  async ofBatch(m: EntityManager, batchId: number): Promise<RecordedChangeView[]> {
    return (await this.views(m, await this.changes.ofBatch(m, batchId))).map((v) => v.view);
  }

  /** Every change the hub made to an issue, oldest first (SPEC 17, the audit view). */
  forIssue(key: string): Promise<IssueChangeView[]> {
    return this.db.read(async (m) =>
      (await this.views(m, await this.changes.ofIssue(m, key))).map(({ row: r, view }) => ({
        ...view,
        batch_id: r.batch_id,
        batch_title: r.title,
        author: r.author,
        source: r.source,
        approved_by: r.approved_by,
        approved_at: r.approved_at,
        command_type: r.type,
      })),
    );
  }
}
