import { Injectable } from '@nestjs/common';
import type { BatchSource } from '../common/index.js';
import { CatalogueRepository, withCatalogue } from '../catalogue/index.js';
import { plural } from '@jira-hub/contracts/russian';
import { Clock, comparableText, mapInSlices } from '../common/index.js';
import { Db } from '../database/index.js';
import { IssueRepository, SyncRunRepository } from '../mirror/index.js';
import { SettingsService } from '../settings/index.js';
import { BatchViews } from './batch-views.js';
import { commandsOf } from './batches.service.js';
import { checksModeOf, checksView, findingLine, refusing, runChecks } from './plan-checks.js';
import { pauseSum, withTailRefresh } from './commands/batch-rules.js';
import { keysNamed } from '@jira-hub/contracts/catalogue';
import type { Resolution } from './commands/temp-keys.js';
import { VERDICTS, verdictOf, verdictText, WITH_FINDINGS_REASON, type CommandVerdict, type Verdict } from './commands/verdict.js';
import type { CreateBatchDto } from './dto/create-batch.dto.js';
import type { PlanView } from './plan.view.js';
import { CommandRepository } from './command.repository.js';

function summary(counts: Record<Verdict, number>, total: number): string {
  if (counts.holds === total) {
    return total === 1 ? 'Команда уже выполнена по данным зеркала: отправлять пакет не нужно.' : `Все ${total} ${plural(total, 'команда', 'команды', 'команд')} уже выполнены по данным зеркала: отправлять пакет не нужно.`;
  }
  const parts = [
    counts.would_change && `изменят Jira: ${counts.would_change}`,
    counts.holds && `уже выполнены: ${counts.holds}`,
    counts.unknown_key && `называют ключи, которых нет в зеркале: ${counts.unknown_key} (сначала обновите зеркало)`,
    counts.cannot_judge && `не проверить заранее: ${counts.cannot_judge}`,
  ].filter(Boolean);
  // «из 1 команды», «из 21 команды», «из 2 команд»: after «из» the genitive, singular for 1 and 21
  return `Из ${total} ${plural(total, 'команды', 'команд', 'команд')} ${parts.join('; ')}.`;
}

const WITH_FINDINGS_PARTS: Omit<CommandVerdict, 'text'> = { verdict: 'cannot_judge', changes: [], unknown_keys: [], why: WITH_FINDINGS_REASON, synced_at: null, age_seconds: null };
const WITH_FINDINGS: CommandVerdict = { ...WITH_FINDINGS_PARTS, text: verdictText(WITH_FINDINGS_PARTS) };

/**
 * The dry run (SPEC 15.4, 16.2): the body goes through the same checks as a submit — the validation
 * pipe's (same DTO) and the one check function (catalogue/checks.ts, every finding at once) — and
 * nothing is written: it runs as a read, outside any transaction. Findings do not make it fail: the
 * answer lists them with a verdict per command, and `ok` says whether a submit would pass.
 */
@Injectable()
export class PlanService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly catalogues: CatalogueRepository,
    private readonly views: BatchViews,
    private readonly commands: CommandRepository,
    private readonly issues: IssueRepository,
    private readonly runs: SyncRunRepository,
  ) {}

  plan(dto: CreateBatchDto, source: BatchSource): Promise<PlanView> {
    const mode = checksModeOf(dto.checks, source);
    return this.db.read(async (m) => {
      const given = commandsOf(dto);
      const settings = this.settings.get();
      const now = this.clock.now();
      const checks = await runChecks(m, given, settings, this.catalogues, now, this.commands, this.issues, this.runs);
      const bad = new Set(checks.findings.map((f) => f.seq));
      const stored = withTailRefresh(checks.commands.map((c) => ({ type: c.type, params: c.params })));
      const ownTempKeys = new Set(stored.flatMap((c) => (c.type === 'ensure_issue' && typeof c.params.temp_key === 'string' ? [c.params.temp_key] : [])));
      const resolved = new Map<string, string>();
      for (const t of new Set(stored.flatMap((c) => keysNamed(c.type, c.params)).filter((k) => k.startsWith('new:') && !ownTempKeys.has(k)))) {
        const key = await this.commands.resolvedKey(m, t);
        if (key) resolved.set(t, key);
      }
      const tempKey = (t: string): Resolution => (ownTempKeys.has(t) || !resolved.has(t) ? { state: 'pending' } : { state: 'resolved', key: resolved.get(t)! });
      const clean = stored.filter((_, i) => !bad.has(i + 1));
      // The dry run's verdicts read the mirror with the catalogue, as the checks do: a symmetric link type
      // either way (SPEC 4), a sprint on a named board by its id (decision 1430); and with the keys runs did not
      // get back, as package plans do: an issue Jira no longer has is not judged by its last copy.
      const named = clean.flatMap((c) => keysNamed(c.type, c.params)).map((k) => resolved.get(k) ?? k);
      const mirror = withCatalogue(await this.issues.lookup(m, named, checks.missing), checks.catalogue);
      const sameSummary = await this.issues.bySummary(
        m,
        clean.flatMap((c) => (c.type === 'ensure_issue' && typeof c.params.summary === 'string' ? [comparableText(c.params.summary)] : [])),
      );
      const record = checksView(checks, mode);
      const commands = await mapInSlices(stored, (c, i) => {
        const checked = checks.commands[i];
        return {
          seq: i + 1,
          type: c.type,
          params: c.params,
          tail_refresh: i >= given.length,
          check: checked?.verdict ?? 'no_change',
          findings: checked?.findings ?? [],
          notes: checked?.notes ?? [],
          ...(bad.has(i + 1) ? WITH_FINDINGS : verdictOf(c.type, c.params, mirror, tempKey, now, (s) => sameSummary.get(s) ?? [])),
        };
      });
      const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
      for (const c of commands.slice(0, given.length)) counts[c.verdict] += 1;
      const estimate = pauseSum(stored.map((c) => c.type), settings.pacing);
      const findings = checks.findings;
      // What a submit of this body would refuse: in `warn` mode the catalogue's findings stay warnings.
      const refused = refusing(findings, mode);
      const head = refused.length ? `Пакет не пройдёт: замечаний ${refused.length} — ${refused.map(findingLine).join('; ')}. ` : '';
      const tail = !refused.length && record.counts.unknown ? ` По каталогу Jira не оценить: ${record.counts.unknown} (см. notes команд).` : '';
      return {
        title: dto.title.trim(),
        source,
        awaiting_approval: settings.approval[source],
        estimate_seconds: estimate,
        remaining_seconds: (await this.views.runnableSeconds(m, settings.pacing)) + estimate,
        all_hold: counts.holds === given.length,
        counts,
        ok: refused.length === 0,
        findings,
        checks: record.counts,
        catalogue: record.catalogue,
        text: head + summary(counts, given.length) + tail,
        commands,
      };
    });
  }
}
