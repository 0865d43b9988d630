import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { BatchSource, Caller } from '../common/index.js';
import { Clock, DuplicateSummaryError, isJiraKey, NotFoundError, PlanFailedError, ValidationFailedError } from '../common/index.js';
import { CatalogueRepository } from '../catalogue/index.js';
import { Db } from '../database/index.js';
import { writePackageNotes } from '../import/index.js';
import {
  type BatchAlongside,
  BatchRepository,
  BatchesService,
  CommandRepository,
  type CreateBatchDto,
  IdempotencyRepository,
  MAX_COMMANDS,
  PlanService,
} from '../queue/index.js';
import { IssueRepository, NoteRepository, PackageViewRepository, SyncRunRepository } from '../mirror/index.js';
import type { BatchView, PlanView } from '../queue/index.js';
import { SettingsService } from '../settings/index.js';
import { knownValues } from './known-values.js';
import { filesHash, filesOf, parsePackage, planAgainstMirror, type PackageFiles, type ParsedPackage } from './package-reading.js';
import { listFindings } from './listed-findings.js';
import { applyText, detailInFiles, driftText, overCapText, partsOf, planSummary, refusalInFiles } from './package-text.js';
import { PackageRepository, type StoredPackage } from './package.repository.js';
import type { ApplyView, DriftView, PackagePlanView, PackageView } from './package.view.js';
import type { PackagePlan } from './plan.js';

/** Batches still to finish: applying the same files again answers such a batch. */
const RUNNING = new Set(['awaiting_approval', 'queued', 'running']);

/** The most commands a plan's answer lists: five batches' worth; a plan over the batch cap may have tens of thousands (decision 1450). */
export const MAX_LISTED_COMMANDS = 5 * MAX_COMMANDS;

export const DEFAULT_PACKAGE_NAME = 'пакет планирования';
/** The longest package name: the routes' `name` (PackageFormDto) and the CLI's --name. */
export const MAX_PACKAGE_NAME = 200;
export const batchTitle = (id: number | null, name: string) => `Пакет планирования${id === null ? '' : ` #${id}`} «${name}»`;

const packageView = (p: Omit<StoredPackage, 'files'>): PackageView => ({ id: p.id, name: p.name, created_at: p.created_at, batch_id: p.batch_id, applied_from: p.applied_from });

/**
 * A submit's refusal (SPEC 16.2) located in the package's files: each finding names the file, row and
 * column its command comes from, as the package's own errors do; the code and the findings stay.
 */
function inFiles(err: unknown, plan: PackagePlan): unknown {
  if (!(err instanceof PlanFailedError || err instanceof ValidationFailedError || err instanceof DuplicateSummaryError) || err.findings.length === 0) return err;
  const origins = plan.commands.map((c, i) => ({ seq: i + 1, ...c.from }));
  const findings = err.findings.map((f) => ({ ...f, ...origins[f.seq - 1], seq: f.seq, detail: detailInFiles(f.detail, origins) }));
  const errors = findings.map((f) => ({ field: f.file ? `${f.file}:${f.row}${f.column ? `:${f.column}` : ''}` : 'commands', detail: `${f.param}: ${f.detail}` }));
  const detail = refusalInFiles(err.findings, origins);
  return err instanceof PlanFailedError
    ? new PlanFailedError(detail, errors, findings)
    : err instanceof DuplicateSummaryError
      ? new DuplicateSummaryError(detail, errors, findings)
      : new ValidationFailedError(detail, errors, findings);
}

/**
 * Planning packages as the desired state (SPEC 18): plan (only what differs from the mirror, through the
 * hub's dry run), apply (store the package and submit the plan's batch), drift (where the mirror moved
 * away from an applied package).
 */
@Injectable()
export class PackagesService {
  constructor(
    private readonly db: Db,
    private readonly batches: BatchesService,
    private readonly planner: PlanService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly catalogues: CatalogueRepository,
    private readonly packages: PackageRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly commands: CommandRepository,
    private readonly notes: NoteRepository,
    private readonly mirror: PackageViewRepository,
    private readonly batchRows: BatchRepository,
    private readonly issues: IssueRepository,
    private readonly runs: SyncRunRepository,
  ) {}

  /**
   * The plan against the mirror; values a command would set are checked against the catalogue of the
   * project the package names first (a stale catalogue is not trusted for that: the dry run says so).
   * Drift (`checkValues: false`) only compares with the mirror: a value Jira no longer offers (a sprint
   * closed since the package was applied) is where Jira moved away, not a refusal; nor does it look for
   * other batches defining its temp keys. `running`: the unfinished batch these very files submitted (its
   * temp keys are the package's own).
   */
  private async compute(m: EntityManager, pkg: ParsedPackage, checkValues = true, stored?: StoredPackage, running?: number): Promise<PackagePlan> {
    const project = [...pkg.issues.map((r) => r.key), ...pkg.links.flatMap((l) => [l.from, l.to])].find(isJiraKey)?.replace(/-\d+$/, '');
    const catalogue = await this.catalogues.get(m, project);
    const known = checkValues && catalogue && !catalogue.stale_since ? knownValues(catalogue) : undefined;
    // Link types read as the submit reads them, even from a stale catalogue: they rarely change, and a
    // wrong guess only leaves the link as written (the dry run then names it).
    const tempKeyLine = stored ? await this.lineOf(m, stored) : undefined;
    const ownBatches = checkValues ? [...(tempKeyLine?.own ?? []), ...(running === undefined ? [] : [running])] : null;
    return planAgainstMirror(m, pkg, {
      linkTypes: this.settings.get().link_types,
      known,
      catalogue,
      now: this.clock.now(),
      commands: this.commands,
      mirror: this.mirror,
      tempKeyLine,
      summaries: this.issues,
      project: project ?? catalogue?.project_key ?? undefined,
      ownBatches,
      runs: this.runs,
    });
  }

  /**
   * The batches whose issues a stored package's temp keys mean (decision 1422): up to its line's first
   * batch — the batch of the package applied from files, or the newest when it was stored (Jira matched
   * then) — and the batches of every package of the line (applied again from that one, or from another
   * applied again from it). A temp
   * key another batch defines again later is that batch's issue, not the package's: drift and the way
   * back keep comparing with the issue the package made, also after a retry created it.
   */
  private async lineOf(m: EntityManager, stored: StoredPackage): Promise<{ upTo: number; own: number[] }> {
    const line = await this.packages.line(m, stored.id);
    const first = line[0] ?? stored;
    const upTo = first.batch_id ?? (await this.batchRows.lastCreatedBy(m, first.created_at)) ?? 0;
    return { upTo, own: line.flatMap((p) => (p.batch_id === null ? [] : [p.batch_id])) };
  }

  private body(plan: PackagePlan, title: string): CreateBatchDto {
    if (plan.commands.length > MAX_COMMANDS) throw new ValidationFailedError(overCapText(plan.commands.length));
    return { title, commands: plan.commands.map((c) => ({ type: c.type, params: c.params })) } as CreateBatchDto;
  }

  private view(name: string, plan: PackagePlan, dry: PlanView | null, stored?: StoredPackage): PackagePlanView {
    const total = plan.commands.length;
    const over_cap = total > MAX_COMMANDS ? { commands: total, max_commands: MAX_COMMANDS, parts: partsOf(total), listed: Math.min(total, MAX_LISTED_COMMANDS) } : null;
    const commands = plan.commands.map((c, i) => ({
      seq: i + 1,
      type: c.type,
      params: c.params,
      ...c.from,
      changes: c.changes,
      verdict: dry?.commands[i]?.verdict ?? null,
      verdict_text: dry?.commands[i]?.text ?? null,
    }));
    const listed = listFindings(plan.findings);
    return {
      name,
      empty: commands.length === 0,
      // A stored package's temp keys are its own issues: no warning about keys an earlier batch created.
      text: planSummary({ commands, ...listed, temp_keys: stored ? [] : plan.resolved, mirror: plan.mirror, dry_run: dry, over_cap }),
      commands: over_cap ? commands.slice(0, over_cap.listed) : commands,
      ...listed,
      mirror: plan.mirror,
      refresh: plan.refresh,
      dry_run: dry,
      over_cap,
      temp_keys: plan.resolved,
    };
  }

  /** `POST /packages/plan`: the batch that makes Jira match the package, with the dry run's verdicts; writes nothing. */
  async plan(files: PackageFiles, source: BatchSource, name = DEFAULT_PACKAGE_NAME, stored?: StoredPackage): Promise<PackagePlanView> {
    const pkg = parsePackage(files);
    // These very files' batch that still runs: applying them answers it, so its temp keys are this package's.
    const { batch: running } = await this.running(filesHash(pkg.texts));
    const plan = await this.db.read((m) => this.compute(m, pkg, true, stored, running?.id));
    // A plan over the batch cap is no batch: its dry run would judge one that cannot be submitted (decision 1450).
    const fits = plan.commands.length > 0 && plan.commands.length <= MAX_COMMANDS;
    const dry = fits ? await this.planner.plan(this.body(plan, batchTitle(null, name)), source) : null;
    return this.view(name, plan, dry, stored);
  }

  /**
   * The batch these very files submitted that still runs, if any. The idempotency key of a package is
   * `package:<hash of the files>`; once its batch has finished, the next apply of the same files gets
   * `<that key>:<batch id>`, and so on: the chain's last key is the one to use now.
   */
  private async running(fileHash: string): Promise<{ key: string; batch?: BatchView }> {
    let key = `package:${fileHash}`;
    for (;;) {
      const known = await this.db.read((m) => this.idempotency.find(m, key));
      if (!known) return { key };
      const batch = await this.batches.get(known.batch_id);
      if (RUNNING.has(batch.status)) return { key, batch };
      key = `package:${fileHash}:${known.batch_id}`;
    }
  }

  /** `POST /packages/apply`: stores the package and submits the plan's batch under the caller's source, in one transaction. */
  async apply(files: PackageFiles, caller: Caller, name = DEFAULT_PACKAGE_NAME, stored?: StoredPackage): Promise<ApplyView> {
    if (!files.issues && !files.links && !files.notes) throw new ValidationFailedError('применять нечего: пришлите хотя бы один из файлов issues, links, notes');
    const pkg = parsePackage(files);
    const { key, batch: runningBatch } = await this.running(filesHash(pkg.texts));
    if (runningBatch) {
      const stored = await this.db.read((m) => this.packages.ofBatch(m, runningBatch.id));
      if (stored) return this.applied(packageView(stored), runningBatch, true, null);
    }
    const plan = await this.db.read((m) => this.compute(m, pkg, true, stored, runningBatch?.id));
    const now = this.clock.iso();
    let packageId = 0;
    if (plan.commands.length === 0) {
      // Jira already matches: the package is kept (drift compares with it), nothing is submitted.
      packageId = await this.db.transaction(async (m) => {
        await writePackageNotes(m, pkg.notes, now, this.commands, this.notes);
        return this.packages.insert(m, { name, files: pkg.texts, createdAt: now, appliedFrom: stored?.id ?? null });
      }, 'bulk');
      return this.applied({ id: packageId, name, created_at: now, batch_id: null, applied_from: stored?.id ?? null }, null, false, this.view(name, plan, null, stored));
    }
    const alongside: BatchAlongside = {
      before: async (m) => {
        await writePackageNotes(m, pkg.notes, now, this.commands, this.notes);
        packageId = await this.packages.insert(m, { name, files: pkg.texts, createdAt: now, appliedFrom: stored?.id ?? null });
        return { title: batchTitle(packageId, name) };
      },
      after: (m, batchId) => this.packages.setBatch(m, packageId, batchId),
    };
    const { view, replayed } = await this.batches.create(this.body(plan, batchTitle(null, name)), caller, key, alongside).catch((err: unknown) => {
      throw inFiles(err, plan);
    });
    if (replayed) {
      // Another apply of the same files won the race: answer its package and batch.
      const stored = await this.db.read((m) => this.packages.ofBatch(m, view.id));
      return this.applied(packageView(stored!), view, true, null);
    }
    return this.applied({ id: packageId, name, created_at: now, batch_id: view.id, applied_from: stored?.id ?? null }, view, false, this.view(name, plan, null, stored));
  }

  private applied(pkg: PackageView, batch: BatchView | null, replayed: boolean, plan: PackagePlanView | null): ApplyView {
    return { package: pkg, batch, replayed, plan, text: applyText({ package: pkg, batch, replayed, plan }) };
  }

  /** `GET /packages/{id}/drift`: per issue and field, where the mirror no longer matches the package. */
  async drift(id: number): Promise<DriftView> {
    const stored = await this.stored(id);
    const plan = await this.db.read((m) => this.compute(m, parsePackage(filesOf(stored.files)), false, stored));
    const batch_status = stored.batch_id === null ? null : (await this.batches.get(stored.batch_id)).status;
    const pkg = packageView(stored);
    // A key the mirror lacks is not a match: the package could not be compared there.
    const matches = plan.differences.length === 0 && plan.links.length === 0 && plan.mirror.missing_keys.length === 0 && plan.mirror.gone_keys.length === 0;
    const listed = listFindings(plan.findings.filter((f) => f.code !== 'reversed_link'));
    return {
      package: pkg,
      batch_status,
      matches,
      fields: plan.differences,
      links: plan.links,
      ...listed,
      mirror: plan.mirror,
      text: driftText({ package: pkg, fields: plan.differences, links: plan.links, matches, batch_status, mirror: plan.mirror, ...listed }),
    };
  }

  async get(id: number): Promise<PackageView> {
    return packageView(await this.stored(id));
  }

  private stored(id: number): Promise<StoredPackage> {
    return this.db.read(async (m) => {
      const stored = await this.packages.find(m, id);
      if (!stored) throw new NotFoundError(`пакета планирования #${id} нет`);
      return stored;
    });
  }

  /** The way back from drift (`POST /packages/{id}/plan`): the stored package planned again. */
  async planStored(id: number, source: BatchSource): Promise<PackagePlanView> {
    const stored = await this.stored(id);
    return this.plan(filesOf(stored.files), source, stored.name, stored);
  }

  /** `POST /packages/{id}/apply`: the stored package applied again (a new package row, as an apply of the same files). */
  async applyStored(id: number, caller: Caller): Promise<ApplyView> {
    const stored = await this.stored(id);
    return this.apply(filesOf(stored.files), caller, stored.name, stored);
  }

  list(limit: number, beforeId?: number): Promise<PackageView[]> {
    return this.db.read(async (m) => (await this.packages.list(m, limit, beforeId)).map(packageView));
  }
}
