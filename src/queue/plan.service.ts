import { Injectable } from '@nestjs/common';
import type { BatchSource } from '../common/auth.guard.js';
import { Clock } from '../common/clock.js';
import { Db } from '../database/db.service.js';
import { issuesBySummary, mirrorLookup } from '../mirror/mirror.store.js';
import { SettingsService } from '../settings/settings.service.js';
import { runnableSeconds } from './batch.store.js';
import { BatchesService, commandsOf } from './batches.service.js';
import { checkTempKeys, pauseSum, withTailRefresh } from './commands/batch-rules.js';
import { keysNamed } from './commands/catalogue.js';
import type { Resolution } from './commands/temp-keys.js';
import { VERDICTS, verdictOf, type Verdict } from './commands/verdict.js';
import type { CreateBatchDto } from './dto/create-batch.dto.js';
import type { PlanView } from './plan.view.js';
import { resolvedKey } from './temp-key.store.js';

function summary(counts: Record<Verdict, number>, total: number): string {
  if (counts.holds === total) return `Все ${total} команд уже выполнены по данным зеркала: отправлять пакет не нужно.`;
  const parts = [
    counts.would_change && `изменят Jira: ${counts.would_change}`,
    counts.holds && `уже выполнены: ${counts.holds}`,
    counts.unknown_key && `называют ключи, которых нет в зеркале: ${counts.unknown_key} (сначала refresh)`,
    counts.cannot_judge && `не проверить заранее: ${counts.cannot_judge}`,
  ].filter(Boolean);
  return `Из ${total} команд ${parts.join('; ')}.`;
}

/**
 * The dry run (SPEC 15.4): the body goes through the same rules as a submit — the validation pipe's
 * (same DTO) and the stored-state ones (BatchesService.checkAgainstState) — and nothing is written: it
 * runs as a read, outside any transaction.
 */
@Injectable()
export class PlanService {
  constructor(
    private readonly db: Db,
    private readonly batches: BatchesService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  plan(dto: CreateBatchDto, source: BatchSource): Promise<PlanView> {
    return this.db.read(async (m) => {
      const given = commandsOf(dto);
      await this.batches.checkAgainstState(m, given);
      const settings = this.settings.get();
      const stored = withTailRefresh(given);
      const ownTempKeys = new Set(stored.flatMap((c) => (c.type === 'ensure_issue' && typeof c.params.temp_key === 'string' ? [c.params.temp_key] : [])));
      const resolved = new Map<string, string>();
      for (const t of checkTempKeys(given).external) resolved.set(t, (await resolvedKey(m, t))!);
      const tempKey = (t: string): Resolution => (ownTempKeys.has(t) || !resolved.has(t) ? { state: 'pending' } : { state: 'resolved', key: resolved.get(t)! });
      const keys = stored.flatMap((c) => keysNamed(c.type, c.params)).map((k) => resolved.get(k) ?? k);
      const mirror = await mirrorLookup(m, keys);
      const sameSummary = await issuesBySummary(
        m,
        stored.flatMap((c) => (c.type === 'ensure_issue' && typeof c.params.summary === 'string' ? [c.params.summary.trim()] : [])),
      );
      const now = this.clock.now();
      const commands = stored.map((c, i) => ({
        seq: i + 1,
        type: c.type,
        params: c.params,
        tail_refresh: i >= given.length,
        ...verdictOf(c.type, c.params, mirror, tempKey, now, (summary) => sameSummary.get(summary) ?? []),
      }));
      const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
      for (const c of commands.slice(0, given.length)) counts[c.verdict] += 1;
      const estimate = pauseSum(stored.map((c) => c.type), settings.pacing);
      return {
        title: dto.title.trim(),
        source,
        awaiting_approval: settings.approval[source],
        estimate_seconds: estimate,
        remaining_seconds: (await runnableSeconds(m, settings.pacing)) + estimate,
        all_hold: counts.holds === given.length,
        counts,
        text: summary(counts, given.length),
        commands,
      };
    });
  }
}
