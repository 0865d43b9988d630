import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Caller } from '../common/index.js';
import {
  BatchFinishedError,
  ClaimedError,
  Clock,
  ConflictError,
  cutToCharacters,
  FinishedError,
  IdempotencyMismatchError,
  NotFoundError,
} from '../common/index.js';
import { CatalogueRepository } from '../catalogue/index.js';
import { checkedForSubmit, checksModeOf } from './plan-checks.js';
import { Db, parseJson } from '../database/index.js';
import { EventBus } from '../events/index.js';
import { IssueRepository, SyncRunRepository } from '../mirror/index.js';
import { SettingsService } from '../settings/index.js';
import { BatchRepository } from './batch.repository.js';
import { BatchViews, type BatchListQuery } from './batch-views.js';
import { CommandRepository } from './command.repository.js';
import { isTerminal } from './command.entity.js';
import { withTailRefresh, type CommandInput } from './commands/batch-rules.js';
import { ageText } from './commands/verdict.js';
import type { Params } from '@jira-hub/contracts/catalogue';
import { DELIVERY_LEDGER, type DeliveryLedger } from './delivery-ledger.js';
import { MAX_AUTHOR, type CreateBatchDto } from './dto/create-batch.dto.js';
import { bodyHash, IdempotencyRepository } from './idempotency.repository.js';
import { isAwaiting, type BatchSummary, type BatchView, type CommandView } from './rows.js';
import { cancelAnswer, type CancelBatchView } from './cancel.view.js';

export const RETRY_TITLE = (id: number) => `Повтор команды #${id}`;
const RETRYABLE = ['failed', 'cancelled', 'skipped'];
export const CANCELLED_RUN_ERROR = 'команда отменена до отчёта агента';

/**
 * Work that commits or rolls back with a new batch (a planning package stored by its apply, SPEC 18):
 * `before` runs after the checks and may give the batch its title; `after` learns the batch's id.
 */
export interface BatchAlongside {
  before(m: EntityManager): Promise<{ title?: string }>;
  after(m: EntityManager, batchId: number): Promise<void>;
}

/** The commands of a create body, as the rules read them. */
export const commandsOf = (dto: CreateBatchDto): CommandInput[] => dto.commands.map((c) => ({ type: c.type, params: c.params }));

/** A batch the hub makes for a caller (a revert, SPEC 17.2): what it reverts, and a check inside the creating transaction. */
export interface MadeBy {
  revertOf?: number;
  /** throws to refuse, inside the transaction that would create the batch */
  guard?: (m: EntityManager) => Promise<void>;
}

/** The client side of the queue: batches and commands (SPEC 5, 6.7, 6.8, 15.2). */
/**
 * The batch's author: the caller's identity, or the name given. An assistant's name is its claim,
 * recorded as such beside its role (issue 22): «Иванов (со слов ассистента)».
 */
export function authorOf(given: string | undefined, caller: Caller): string {
  const claim = given?.trim();
  if (!claim) return caller.name;
  if (caller.source !== 'assistant') return claim;
  // Said once however often the name was passed on, and within MAX_AUTHOR with it (a longer name gives way).
  const name = claim.endsWith(ASSISTANT_CLAIM) ? claim.slice(0, -ASSISTANT_CLAIM.length).trimEnd() : claim;
  const room = MAX_AUTHOR - ASSISTANT_CLAIM.length;
  return `${[...name].length > room ? `${cutToCharacters(name, room - 1)}…` : name}${ASSISTANT_CLAIM}`;
}

const ASSISTANT_CLAIM = ' (со слов ассистента)';

@Injectable()
export class BatchesService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly catalogues: CatalogueRepository,
    private readonly batches: BatchRepository,
    private readonly commands: CommandRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly views: BatchViews,
    @Inject(DELIVERY_LEDGER) private readonly ledger: DeliveryLedger,
    private readonly runs: SyncRunRepository,
    private readonly issues: IssueRepository,
  ) {}

  /**
   * SPEC 5, 15.2, 15.4. With an idempotency key, the key is looked up and recorded in the same
   * transaction as the batch: a repeat (also a racing one — units of work run one at a time, and
   * `BEGIN IMMEDIATE` orders processes) finds the first batch; `replayed` says so.
   */
  async create(
    dto: CreateBatchDto,
    caller: Caller,
    idempotencyKey?: string,
    alongside?: BatchAlongside,
    made: MadeBy = {},
  ): Promise<{ view: BatchView; replayed: boolean }> {
    const commands = commandsOf(dto);
    const mode = checksModeOf(dto.checks, caller.source);
    const hash = idempotencyKey === undefined ? '' : bodyHash({ title: dto.title, author: dto.author ?? null, commands, ...(dto.checks ? { checks: dto.checks } : {}) });
    const out = await this.db.transaction(async (m, tx) => {
      if (idempotencyKey !== undefined) {
        const known = await this.idempotency.find(m, idempotencyKey);
        if (known && known.body_hash !== hash) throw new IdempotencyMismatchError(idempotencyKey, known.batch_id);
        if (known) return { view: await this.view(m, known.batch_id), replayed: true };
      }
      await made.guard?.(m);
      const checked = await checkedForSubmit(m, commands, this.settings.get(), this.catalogues, this.clock.now(), mode, this.commands, this.issues, this.runs);
      const title = (await alongside?.before(m))?.title ?? dto.title.trim();
      const awaitingApproval = this.settings.get().approval[caller.source];
      const id = await this.batches.insert(
        m,
        {
          title,
          author: authorOf(dto.author, caller),
          source: caller.source,
          awaitingApproval,
          commands: withTailRefresh(checked.commands),
          checks: checked.checks,
          revertOf: made.revertOf,
        },
        this.clock.iso(),
      );
      if (idempotencyKey !== undefined) await this.idempotency.remember(m, idempotencyKey, hash, id, this.clock.now());
      await alongside?.after(m, id);
      const view = await this.view(m, id);
      this.events.afterCommit(tx, [{ kind: 'batch', change: 'created', batch_id: id, view }]);
      return { view, replayed: false };
      // Behind the agent's claims and reports (Db's lanes). A plain creation writes only its own new rows
      // and takes its queue place under the queue-order lock alone (decision 1202): on PostgreSQL it never
      // waits for the agent's units on other replicas. A revert (its guard reads the reverted batch's
      // commands) and a package's apply (its own rows beside) keep the one writer's lock.
    }, 'bulk', made.guard || alongside ? 'writer' : 'queue');
    return out;
  }

  private async view(m: EntityManager, id: number): Promise<BatchView> {
    const batch = await this.batches.find(m, id);
    if (!batch) throw new NotFoundError(`пакета #${id} нет`);
    return this.views.batch(m, batch, this.settings.get().pacing);
  }

  get(id: number): Promise<BatchView> {
    return this.db.read((m) => this.view(m, id));
  }

  list(q: BatchListQuery): Promise<BatchSummary[]> {
    return this.db.read((m) => this.views.list(m, q, this.settings.get().pacing));
  }

  /**
   * SPEC 6.7 as amended: a batch whose commands have all ended and which was never cancelled → 409
   * `finished`, nothing changes; else the queued commands are cancelled, and the answer says how many
   * and which one, if any, is still with the agent.
   */
  cancel(id: number): Promise<CancelBatchView> {
    return this.db.transaction(async (m, tx) => {
      const batch = await this.batches.find(m, id);
      if (!batch) throw new NotFoundError(`пакета #${id} нет`);
      const before = await this.view(m, id);
      if (!batch.cancelled_at && before.commands.every((c) => isTerminal(c.status))) throw new BatchFinishedError(id);
      await this.batches.cancel(m, id, this.clock.iso());
      const view = await this.view(m, id);
      this.events.afterCommit(tx, [{ kind: 'batch', change: 'cancelled', batch_id: id, view }]);
      return cancelAnswer(view, before.commands.filter((c) => c.status === 'queued').length);
    });
  }

  /** SPEC 15.2: a waiting batch joins the queue behind what is runnable now; long-polling claims wake. */
  /** `guard` runs in the same unit before the approval is written; what it throws refuses the approval. */
  approve(id: number, by: string, guard?: (m: EntityManager) => Promise<void>): Promise<BatchView> {
    return this.db.transaction(async (m, tx) => {
      await this.awaiting(m, id, 'одобрить');
      await guard?.(m);
      await this.batches.approve(m, id, by, this.clock.iso());
      const view = await this.view(m, id);
      this.events.afterCommit(tx, [{ kind: 'batch', change: 'approved', batch_id: id, view }]);
      return view;
    });
  }

  /** SPEC 15.2: a waiting batch is cancelled with the reason; it never reaches the agent. */
  reject(id: number, reason: string): Promise<BatchView> {
    return this.db.transaction(async (m, tx) => {
      await this.awaiting(m, id, 'отклонить');
      await this.batches.reject(m, id, reason.trim(), this.clock.iso());
      const view = await this.view(m, id);
      this.events.afterCommit(tx, [{ kind: 'batch', change: 'rejected', batch_id: id, view }]);
      return view;
    });
  }

  private async awaiting(m: EntityManager, id: number, verb: string): Promise<void> {
    const batch = await this.batches.find(m, id);
    if (!batch) throw new NotFoundError(`пакета #${id} нет`);
    if (isAwaiting(batch)) return;
    const why = batch.approved_at
      ? `уже одобрен: его одобрил ${batch.approved_by} ${approvedWhen(batch.approved_at, this.clock.now())}`
      : batch.rejected_reason !== null
        ? `уже отклонён: ${batch.rejected_reason}`
        : batch.cancelled_at
          ? 'отменён'
          : 'не ждал одобрения';
    throw new ConflictError(`пакет #${id} не ждёт одобрения, ${verb} его нельзя: он ${why}`);
  }

  getCommand(id: number): Promise<CommandView> {
    return this.db.read(async (m) => {
      const c = await this.commands.find(m, id);
      if (!c) throw new NotFoundError(`команды #${id} нет`);
      return this.views.command(m, c);
    });
  }

  /** The batch a command belongs to; undefined for a command the hub does not have. */
  batchOfCommand(id: number): Promise<number | undefined> {
    return this.db.read(async (m) => {
      const c = await this.commands.find(m, id);
      return c ? Number(c.batch_id) : undefined;
    });
  }

  /** SPEC 6.7: queued → cancelled; claimed only with force; a finished command → 409. */
  cancelCommand(id: number, force: boolean): Promise<CommandView> {
    return this.db.transaction(async (m, tx) => {
      const c = await this.commands.find(m, id);
      if (!c) throw new NotFoundError(`команды #${id} нет`);
      if (isTerminal(c.status)) throw new FinishedError(id, c.status);
      if (c.status === 'claimed' && !force) throw new ClaimedError(id);
      const now = this.clock.iso();
      await this.commands.cancel(m, id, now);
      await this.ledger.cancelled(m, id);
      // A refresh cancelled while handed out will never report: close its sync run.
      await this.runs.fail(m, id, now, CANCELLED_RUN_ERROR);
      // A batch awaiting approval whose last open command this was has nothing left to approve: it is cancelled.
      const batch = (await this.batches.find(m, c.batch_id))!;
      const closed = isAwaiting(batch) && (await this.commands.unfinishedOf(m, c.batch_id)) === 0;
      if (closed) await this.batches.cancel(m, c.batch_id, now);
      this.events.afterCommit(tx, [
        { kind: 'command', change: 'cancelled', command_id: id, batch_id: c.batch_id },
        { kind: 'batch', change: closed ? 'cancelled' : 'progress', batch_id: c.batch_id },
        ...(c.status === 'claimed' ? [{ kind: 'agent', change: 'status' } as const] : []),
      ]);
      return this.views.command(m, (await this.commands.find(m, id))!);
    });
  }

  /** SPEC 6.7, 15.2: a new batch with the same command (plus its tail refresh), under the approval rule of the caller's source. */
  async retry(id: number, caller: Caller): Promise<BatchView> {
    return this.db.transaction(async (m, tx) => {
      const c = await this.commands.find(m, id);
      if (!c) throw new NotFoundError(`команды #${id} нет`);
      if (!RETRYABLE.includes(c.status)) {
        throw new ConflictError(`повторить можно только команду в статусе failed, cancelled или skipped; у команды #${id} статус ${c.status}`);
      }
      const given: CommandInput[] = [{ type: c.type, params: parseJson<Params>(c.params, {}) }];
      const checked = await checkedForSubmit(m, given, this.settings.get(), this.catalogues, this.clock.now(), 'refuse', this.commands, this.issues, this.runs);
      const awaitingApproval = this.settings.get().approval[caller.source];
      const batchId = await this.batches.insert(
        m,
        {
          title: RETRY_TITLE(id),
          author: caller.name,
          source: caller.source,
          awaitingApproval,
          commands: withTailRefresh(checked.commands),
          retryOf: id,
          checks: checked.checks,
        },
        this.clock.iso(),
      );
      const view = await this.view(m, batchId);
      this.events.afterCommit(tx, [
        { kind: 'command', change: 'retried', command_id: id, batch_id: c.batch_id },
        { kind: 'batch', change: 'created', batch_id: batchId, view },
      ]);
      return view;
    });
  }
}

/** When a batch was approved, for a person: how long ago and the time in UTC to the second («5 мин назад, 2026-12-02 10:15:22 UTC»). */
export function approvedWhen(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / 1000));
  return `${ageText(seconds)} назад, ${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
