import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Caller } from '../common/index.js';
import { Clock, ConflictError, NotFoundError, type FindingView } from '../common/index.js';
import { plural } from '@jira-hub/contracts/russian';
import { CatalogueRepository } from '../catalogue/index.js';
import { Db, parseJson } from '../database/index.js';
import type { Params } from '@jira-hub/contracts/catalogue';
import { IssueRepository, SyncRunRepository } from '../mirror/index.js';
import { SettingsService } from '../settings/index.js';
import { BatchRepository } from './batch.repository.js';
import { BatchesService } from './batches.service.js';
import { ChangesService } from './changes.service.js';
import { CommandRepository } from './command.repository.js';
import type { CommandInput } from './commands/batch-rules.js';
import { buildRevert, pendingChanges, pendingToken, REVERT_TITLE, staleLabels, writtenBy, type RevertPlan } from './commands/revert.js';
import type { CreateBatchDto } from './dto/create-batch.dto.js';
import { runChecks } from './plan-checks.js';
import { isAwaiting, type BatchView } from './rows.js';
import type { RevertView } from './revert.view.js';

/** SPEC 17.2: a batch's revert, built from its change record against the mirror, made through the normal batch creation. */
@Injectable()
export class RevertService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly batches: BatchesService,
    private readonly catalogues: CatalogueRepository,
    private readonly batchRows: BatchRepository,
    private readonly commands: CommandRepository,
    private readonly changes: ChangesService,
    private readonly issues: IssueRepository,
    private readonly clock: Clock,
    private readonly runs: SyncRunRepository,
  ) {}

  /**
   * The revert as a dry run shows it and as it is made. The inverse commands go through the checks of
   * every submit (SPEC 16.2, plan-checks.ts) here too, so that the dry run shows what the revert itself
   * would refuse (a sprint closed since, a status the settings name as Jira does not): its findings,
   * and `ok`. The revert then makes its batch through the normal creation, which checks again.
   *
   * `leavePending`: whether to make the revert over `retry_later` conflicts, leaving them for good (decision 1467):
   * false — not while any is listed; a dry run's `pending_token` — only while the list is still the one that dry
   * run showed (decision 1491); true — whatever is listed at this moment.
   */
  async revert(id: number, caller: Caller, dryRun: boolean, leavePending: boolean | string = false): Promise<RevertView> {
    const plan = await this.db.read(async (m) => {
      const batch = await this.batchRows.find(m, id);
      if (!batch) throw new NotFoundError(`пакета #${id} нет`);
      await this.revertable(m, id);
      if (isAwaiting(batch)) throw new ConflictError(`пакет #${id} ждёт одобрения и ещё ничего не изменил: откатить можно пакет, все команды которого закончены (или отменены)`);
      if ((await this.commands.unfinishedOf(m, id)) > 0) {
        throw new ConflictError(`пакет #${id} ещё не завершён: откатить можно пакет, все команды которого закончены (или отменены)`);
      }
      const built = await this.build(m, id);
      const checked = await runChecks(m, built.commands, this.settings.get(), this.catalogues, this.clock.now(), this.commands, this.issues, this.runs);
      const unchecked = checked.commands.filter((c) => c.verdict === 'unknown').map(({ seq, notes }) => ({ seq, notes }));
      return { ...built, findings: checked.findings, unchecked };
    });
    const title = REVERT_TITLE(id);
    const findings = plan.findings as FindingView[];
    const later = plan.conflicts.filter((c) => c.retry_later);
    const token = pendingToken(plan.conflicts);
    const view: RevertView = {
      dry_run: dryRun, revert_of: id, title, commands: plan.commands, conflicts: plan.conflicts, retry_later: later.length, pending_token: token, ok: findings.length === 0, findings, unchecked: plan.unchecked, batch: null,
    };
    if (dryRun) return view;
    // A batch is reverted once: made now, the revert would leave these for good, though a refresh or another
    // batch's end would let them be put back. Only when the person says to leave them (decision 1467), and
    // when they say it with a dry run's token, only those that dry run listed (decision 1491).
    if (later.length > 0 && leavePending === false) throw new ConflictError(notYet(id, later));
    if (typeof leavePending === 'string' && leavePending !== token) throw new ConflictError(changedSince(id, later));
    if (plan.commands.length === 0) {
      const why = plan.conflicts.length ? `ни одно изменение пакета не откатить (конфликтов: ${plan.conflicts.length})` : 'в итоге пакет ничего не изменил в Jira (что он менял, он сам и вернул, или не менял ничего)';
      throw new ConflictError(`откатывать нечего: ${why}`);
    }
    const dto = { title, commands: plan.commands } as CreateBatchDto;
    const { view: batch } = await this.batches.create(dto, caller, undefined, undefined, { revertOf: id, guard: (m) => this.revertable(m, id) });
    return { ...view, batch };
  }

  /**
   * The revert of batch `id` against the mirror as it is now and the writes still to come in other
   * batches (decision 0120); `besides` is a batch whose own commands are not counted among those (the
   * revert itself, when its approval is checked).
   */
  private async build(m: EntityManager, id: number, besides?: number): Promise<RevertPlan> {
    const changes = await this.changes.ofBatch(m, id);
    const keys = changes.flatMap((c) => {
      const link = (c.after ?? c.before) as { source?: unknown; target?: unknown } | undefined;
      return [c.key, link?.source, link?.target].filter((k): k is string => typeof k === 'string');
    });
    const { revert } = this.settings.get();
    // The catalogue says whether the agent's account may delete (SPEC 17.2); unknown, the agent checks before deleting.
    const catalogue = await this.catalogues.get(m);
    const mayDelete = catalogue?.permissions?.DELETE_ISSUES;
    // What batches not yet finished will change: the revert runs after them (or beside them) and must not overwrite it.
    const temps = await this.commands.tempKeyMapping(m);
    const unfinished = (await this.commands.unfinishedWrites(m, id))
      .filter((c) => c.batch_id !== besides)
      .map((c) => ({ ...c, params: parseJson<Params>(c.params, {}) }));
    // With the runs that missed keys: an issue Jira no longer has is a conflict, not a command that would fail there.
    return buildRevert(changes, await this.issues.lookup(m, keys, await this.runs.missingKeys(m)), {
      createdIssueStatus: revert.created_issue_status,
      deleteCreated: revert.delete_created,
      ...(typeof mayDelete === 'boolean' ? { mayDelete } : {}),
      pendingBy: pendingChanges(unfinished, (key) => temps.get(key)),
      // With a catalogue: a sprint goes back named with the board the checks find it on (decision 1430: a shared
      // sprint is listed once), and a conflict names a sprint's board and a custom field as the catalogue does (else by their ids).
      ...(catalogue ? { openSprint: (sprintId: number) => catalogue.sprints.find((s) => s.id === sprintId && s.state !== 'closed'), boards: catalogue.boards, fields: catalogue.fields } : {}),
    });
  }

  /**
   * `POST /batches/{id}/approve`. A revert waits for approval with the plan made when it was asked for;
   * approved, it runs after everything runnable by then. A change made since (a batch that ran meanwhile,
   * one still to run before it) that it would put back is refused with 409, the revert left waiting: the
   * person rejects it and asks for the revert again, which lists those changes as conflicts.
   */
  approve(id: number, by: string): Promise<BatchView> {
    return this.batches.approve(id, by, async (m) => {
      const batch = await this.batchRows.find(m, id);
      if (batch?.revert_of == null) return;
      const fresh = await this.build(m, batch.revert_of, id);
      const waiting = (await this.commands.ofBatch(m, id)).filter((c) => c.status === 'queued').map((c) => ({ type: c.type, params: parseJson<Params>(c.params, {}) }));
      const subjects = new Set(waiting.flatMap((c) => (typeof c.params.key === 'string' ? writtenBy(c.type, c.params).map((what) => `${c.params.key} ${what}`) : [])));
      const stale = [...fresh.conflicts.filter((c) => c.key !== null && subjects.has(`${c.key} ${c.what}`)).map((c) => c.detail), ...staleLabels(waiting, fresh)];
      if (stale.length > 0) {
        throw new ConflictError(
          `откат пакета #${batch.revert_of} устарел: после того как его составили, изменилось то, что он вернул бы назад — ${stale.join('; ')}. ` +
            `Одобрить его значит затереть эти изменения: отклоните этот пакет и запросите откат пакета #${batch.revert_of} заново`,
        );
      }
    });
  }

  /** A batch is reverted once (SPEC 17.2); a revert that was rejected does not count. */
  private async revertable(m: EntityManager, id: number): Promise<void> {
    const earlier = await this.batchRows.revertOf(m, id);
    if (earlier) throw new ConflictError(`пакет #${id} уже откатывается или откачен: пакет #${earlier.id}`);
  }
}

/** How many conflicts the refusal of a revert names before «и ещё N». */
const NAMED = 5;

/** Names the issues of conflicts: « (A-1, A-2 и ещё N)», or nothing when none has a key. */
function issuesOf(conflicts: readonly { key: string | null }[]): string {
  const keys = [...new Set(conflicts.map((c) => c.key).filter((k): k is string => k !== null))];
  return keys.length ? ` (${keys.slice(0, NAMED).join(', ')}${keys.length > NAMED ? ` и ещё ${keys.length - NAMED}` : ''})` : '';
}

/**
 * Why a revert is not made while conflicts wait for a refresh or another batch (decision 1467), in Russian. It names
 * the issues, not the conflicts' words: those carry Jira's names (a field's, a link type's), which the dry run shows
 * (fenced as Jira's text for an assistant); this refusal is the hub's own advice.
 */
export function notYet(id: number, conflicts: readonly { key: string | null }[]): string {
  const n = conflicts.length;
  return (
    `откат пакета #${id} не создан: ${n} ${plural(n, 'изменение', 'изменения', 'изменений')} пакета пока не откатить${issuesOf(conflicts)} — какие и почему, показывает пробный откат (dry_run). ` +
    `Обновите эти задачи в зеркале или дождитесь названных там пакетов и запросите откат снова: откат, созданный сейчас, оставил бы ${n === 1 ? 'его' : 'их'} ` +
    `неоткаченными насовсем (пакет откатывают один раз). Чтобы откатить остальное сейчас и оставить ${n === 1 ? 'его' : 'их'} как есть, запросите откат с leave_pending, ` +
    'равным pending_token пробного отката'
  );
}

/**
 * Why a revert asked for with a dry run's `pending_token` is not made (decision 1491): the conflicts that are not final
 * are no longer those that dry run listed (another batch touching the same issue was submitted since, a refresh lifted
 * one), and the person agreed to leave only those. In Russian; it names the issues, as `notYet` does.
 */
export function changedSince(id: number, conflicts: readonly { key: string | null }[]): string {
  const n = conflicts.length;
  const now = n ? `теперь их ${n}${issuesOf(conflicts)}` : 'теперь таких нет';
  return (
    `откат пакета #${id} не создан: список изменений, которые пока не откатить, изменился после пробного отката — ${now}. ` +
    'Оставить насовсем можно только те, что вы видели: посмотрите пробный откат (dry_run) снова и решите заново'
  );
}
