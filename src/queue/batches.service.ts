import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { ClaimedError, ConflictError, FinishedError, NotFoundError, ValidationFailedError, type FieldError } from '../common/errors.js';
import { Db } from '../database/db.service.js';
import { EventBus } from '../events/event-bus.js';
import { parseJson } from '../database/json.js';
import { failSyncRun } from '../mirror/mirror.store.js';
import { SettingsService } from '../settings/settings.service.js';
import { releaseCurrent } from './agent-status.store.js';
import { batchView, cancelBatch, findBatch, findCommand, insertBatch, listBatches, type BatchListQuery } from './batch.store.js';
import { isTerminal } from './command.entity.js';
import { checkTempKeys, withTailRefresh, type CommandInput } from './commands/batch-rules.js';
import { checkParams, type Params } from './commands/catalogue.js';
import type { CreateBatchDto } from './dto/create-batch.dto.js';
import { commandView, type BatchSummary, type BatchView, type CommandView } from './rows.js';
import { resolvedKey } from './temp-key.store.js';

export const RETRY_TITLE = (id: number) => `Повтор команды #${id}`;
const RETRYABLE = ['failed', 'cancelled', 'skipped'];
export const CANCELLED_RUN_ERROR = 'команда отменена до отчёта агента';

/** The client side of the queue: batches and commands (SPEC 5, 6.7, 6.8). */
@Injectable()
export class BatchesService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  async create(dto: CreateBatchDto, caller: string): Promise<BatchView> {
    const commands: CommandInput[] = dto.commands.map((c) => ({ type: c.type, params: c.params }));
    return this.db.transaction(async (m, tx) => {
      await this.checkAgainstState(m, commands);
      const id = await insertBatch(m, { title: dto.title.trim(), author: dto.author?.trim() || caller, commands: withTailRefresh(commands) }, this.clock.iso());
      const view = await this.view(m, id);
      this.events.afterCommit(tx, [{ kind: 'batch', change: 'created', batch_id: id, view }]);
      return view;
    });
  }

  /** The rules that need stored state: custom fields listed in settings, temp keys resolved by earlier batches. */
  private async checkAgainstState(m: EntityManager, commands: CommandInput[]): Promise<void> {
    const allowed = new Set(this.settings.get().fields);
    const errors: FieldError[] = [];
    commands.forEach((c, i) => {
      for (const f of checkParams(c.type, c.params).customFields.filter((f) => !allowed.has(f))) {
        errors.push({ field: `commands.${i}.params.${f}`, detail: `поле ${f} не стандартное и не указано в настройке fields` });
      }
    });
    for (const t of checkTempKeys(commands).external) {
      if (!(await resolvedKey(m, t))) errors.push({ field: 'commands', detail: `временный ключ ${t} не создаётся в этом пакете и не создан раньше` });
    }
    if (errors.length) throw new ValidationFailedError(errors.map((e) => e.detail).join('; '), errors);
  }

  private async view(m: EntityManager, id: number): Promise<BatchView> {
    const batch = await findBatch(m, id);
    if (!batch) throw new NotFoundError(`пакета ${id} нет`);
    return batchView(m, batch, this.settings.get().pacing);
  }

  get(id: number): Promise<BatchView> {
    return this.db.read((m) => this.view(m, id));
  }

  list(q: BatchListQuery): Promise<BatchSummary[]> {
    return this.db.read((m) => listBatches(m, q, this.settings.get().pacing));
  }

  cancel(id: number): Promise<BatchView> {
    return this.db.transaction(async (m, tx) => {
      if (!(await findBatch(m, id))) throw new NotFoundError(`пакета ${id} нет`);
      await cancelBatch(m, id, this.clock.iso());
      const view = await this.view(m, id);
      this.events.afterCommit(tx, [{ kind: 'batch', change: 'cancelled', batch_id: id, view }]);
      return view;
    });
  }

  getCommand(id: number): Promise<CommandView> {
    return this.db.read(async (m) => {
      const c = await findCommand(m, id);
      if (!c) throw new NotFoundError(`команды ${id} нет`);
      return commandView(c);
    });
  }

  /** SPEC 6.7: queued → cancelled; claimed only with force; a finished command → 409. */
  cancelCommand(id: number, force: boolean): Promise<CommandView> {
    return this.db.transaction(async (m, tx) => {
      const c = await findCommand(m, id);
      if (!c) throw new NotFoundError(`команды ${id} нет`);
      if (isTerminal(c.status)) throw new FinishedError(id, c.status);
      if (c.status === 'claimed' && !force) throw new ClaimedError(id);
      const now = this.clock.iso();
      await m.query(`UPDATE command SET status = 'cancelled', finished_at = ? WHERE id = ?`, [now, id]);
      await releaseCurrent(m, id);
      // A refresh cancelled while handed out will never report: close its sync run.
      await failSyncRun(m, id, now, CANCELLED_RUN_ERROR);
      this.events.afterCommit(tx, [
        { kind: 'command', change: 'cancelled', command_id: id, batch_id: c.batch_id },
        { kind: 'batch', change: 'progress', batch_id: c.batch_id },
        ...(c.status === 'claimed' ? [{ kind: 'agent', change: 'status' } as const] : []),
      ]);
      return commandView((await findCommand(m, id))!);
    });
  }

  /** SPEC 6.7: a new batch with the same command (plus its tail refresh); the old command stays as it was. */
  retry(id: number, caller: string): Promise<BatchView> {
    return this.db.transaction(async (m, tx) => {
      const c = await findCommand(m, id);
      if (!c) throw new NotFoundError(`команды ${id} нет`);
      if (!RETRYABLE.includes(c.status)) {
        throw new ConflictError(`повторить можно только команду в статусе failed, cancelled или skipped; у команды ${id} статус ${c.status}`);
      }
      const commands: CommandInput[] = [{ type: c.type, params: parseJson<Params>(c.params, {}) }];
      await this.checkAgainstState(m, commands);
      const batchId = await insertBatch(m, { title: RETRY_TITLE(id), author: caller, commands: withTailRefresh(commands), retryOf: id }, this.clock.iso());
      const view = await this.view(m, batchId);
      this.events.afterCommit(tx, [
        { kind: 'command', change: 'retried', command_id: id, batch_id: c.batch_id },
        { kind: 'batch', change: 'created', batch_id: batchId, view },
      ]);
      return view;
    });
  }
}
