import { Injectable, OnModuleInit } from '@nestjs/common';
import { Meter } from '../metrics/index.js';
import { Clock, isTempKey } from '../common/index.js';
import type { EntityManager } from 'typeorm';
import type { QueuedStatusTarget } from '@jira-hub/contracts';
import { agentQuietWarning } from '@jira-hub/contracts/russian';
import { IssueRepository } from '../mirror/index.js';
import { BackupService, Db, parseJson } from '../database/index.js';
import { SettingsService } from '../settings/index.js';
import { ageText, CommandRepository, type PlanRow } from '../queue/index.js';
import { AgentStatusRepository } from './agent-status.repository.js';
import type { AgentCurrentCommandView, AgentNextCommandView, AgentStatusView } from './agent.dto.js';
import { JiraAuthRegistry, jiraAuthWarning } from './jira-auth.js';

/** GET /agent (SPEC 10): is the agent there, is it up to date, what went wrong lately. */
@Injectable()
export class AgentStatusService implements OnModuleInit {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly backups: BackupService,
    private readonly jiraAuth: JiraAuthRegistry,
    private readonly meter: Meter,
    private readonly agents: AgentStatusRepository,
    private readonly commands: CommandRepository,
    private readonly issues: IssueRepository,
  ) {}

  /**
   * Statuses the unfinished ensure_status commands walk to (`path` steps, or `to`), sorted, each with the
   * issue types of the issues walked there: what the agent's `--check` verifies are in those types'
   * workflows and reachable (GET /agent/queued-statuses, issue 20). An issue's type comes from the mirror,
   * or for a temp key from the ensure_issue that defines it; an issue of neither is of unknown type.
   */
  async queuedStatuses(): Promise<QueuedStatusTarget[]> {
    return this.db.read(async (m) => {
      const commands = (await this.commands.unfinishedStatusCommands(m)).map((c) => ({ batchId: Number(c.batch_id), p: parseJson<{ key?: unknown; path?: unknown; to?: unknown }>(c.params, {}) }));
      const mirror = await this.issues.lookup(m, commands.flatMap(({ p }) => (typeof p.key === 'string' && !isTempKey(p.key) ? [p.key] : [])));
      const targets = new Map<string, { types: Set<string>; unknown: boolean }>();
      // A temp key's type, once per batch and key: a batch walks one new issue through several statuses.
      const defined = new Map<string, Promise<string | undefined>>();
      const definedType = (batchId: number, tempKey: string) => {
        const at = `${batchId}\u0000${tempKey}`;
        if (!defined.has(at)) defined.set(at, this.definedType(m, batchId, tempKey));
        return defined.get(at)!;
      };
      for (const { batchId, p } of commands) {
        const type = typeof p.key !== 'string' ? undefined : isTempKey(p.key) ? await definedType(batchId, p.key) : mirror.issue(p.key)?.issue_type;
        for (const step of [...(Array.isArray(p.path) ? p.path : []), p.to]) {
          if (typeof step !== 'string' || !step.trim()) continue;
          const target = targets.get(step.trim()) ?? { types: new Set<string>(), unknown: false };
          if (type) target.types.add(type);
          else target.unknown = true;
          targets.set(step.trim(), target);
        }
      }
      return [...targets.keys()].sort().map((status) => ({ status, issue_types: [...targets.get(status)!.types].sort(), unknown_type: targets.get(status)!.unknown }));
    });
  }

  /** The issue type the ensure_issue defining a temp key gives it, if any. */
  private async definedType(m: EntityManager, batchId: number, tempKey: string): Promise<string | undefined> {
    const params = await this.commands.definerParams(m, batchId, tempKey);
    const type = params === undefined ? undefined : parseJson<{ issue_type?: unknown }>(params, {}).issue_type;
    return typeof type === 'string' && type.trim() ? type.trim() : undefined;
  }

  onModuleInit(): void {
    this.meter.value('jira_hub_agent_online', '1 when the agent was seen within agent_offline_seconds, else 0', async () => ((await this.online()) ? 1 : 0));
  }

  private isOnline(lastSeenAt: string | null, now: Date): boolean {
    return lastSeenAt !== null && now.getTime() - Date.parse(lastSeenAt) <= this.settings.get().agent_offline_seconds * 1000;
  }

  /** Whether the agent is on line now (one read of its row). */
  async online(): Promise<boolean> {
    return this.isOnline(await this.db.read((m) => this.agents.lastSeen(m)), this.clock.now());
  }

  async status(): Promise<AgentStatusView> {
    const now = this.clock.now();
    const settings = this.settings.get();
    const since = new Date(now.getTime() - 24 * 3600_000).toISOString();
    const { row, rateLimited, redelivered, queued, work } = await this.db.read(async (m) => {
      const row = (await this.agents.get(m))!;
      const current = row.current_command_id === null ? undefined : await this.commands.heldBy(m, row.current_command_id);
      return {
        row,
        rateLimited: await this.commands.rateLimitedSince(m, since),
        redelivered: await this.commands.redelivered(m),
        queued: await this.commands.anyRunnable(m),
        work: { current: current ?? null, next: (await this.commands.nextRunnable(m)) ?? null },
      };
    });
    const online = this.isOnline(row.last_seen_at, now);
    const stale = row.settings_version !== null && row.settings_version < settings.version;
    const warnings: string[] = [];
    const auth = this.jiraAuth.current();
    const authWarning = jiraAuthWarning(auth);
    if (authWarning) warnings.push(authWarning);
    if (!online && queued) {
      warnings.push(
        row.last_seen_at
          ? agentQuietWarning(ageText(Math.floor((now.getTime() - Date.parse(row.last_seen_at)) / 1000)))
          : 'Агент ещё ни разу не выходил на связь, а в очереди есть команды.',
      );
    }
    if (stale) warnings.push(`Агент работает с настройками версии ${row.settings_version}, а текущая версия — ${settings.version}.`);
    const failure = this.backups.lastFailure();
    if (failure) warnings.push(`Не удалось сделать резервную копию перед пакетом #${failure.batchId} (${failure.at}); подробности в журнале хаба.`);
    return {
      online,
      last_seen_at: row.last_seen_at,
      agent_version: row.agent_version,
      settings_version: row.settings_version,
      settings_stale: stale,
      last_jira_call_at: row.last_jira_call_at,
      current_command_id: row.current_command_id,
      rate_limited_24h: rateLimited,
      redelivered,
      ...auth,
      warning: warnings.length ? warnings.join(' ') : null,
      ...agentStrip(work, row.last_jira_call_at, online, settings.pacing, now),
    };
  }
}

const workOf = (c: PlanRow) => ({ id: c.id, batch_id: c.batch_id, seq: c.seq, type: c.type, params: parseJson<Record<string, unknown>>(c.params, {}) });
const later = (a: number, b: number) => new Date(Math.max(a, b)).toISOString();

/**
 * What the agent does now and next (the dashboard's agent strip). The agent sleeps until `pause_seconds`
 * have passed since its last Jira call, which it reports with the claim; so the pause ends at
 * last_jira_call_at + pause_seconds. The next command starts at the earliest when the current one has
 * started (it runs in a few seconds) plus the next one's own pause; with nothing in hand, once its pause
 * since the last Jira call has passed. Offline: nobody can say.
 */
export function agentStrip(
  work: { current: PlanRow | null; next: PlanRow | null },
  lastJiraCallAt: string | null,
  online: boolean,
  pacing: Record<string, number>,
  now: Date,
): { current_command: AgentCurrentCommandView | null; next_command: AgentNextCommandView | null } {
  const { current, next } = work;
  let currentStart = now.getTime();
  let currentView: AgentCurrentCommandView | null = null;
  if (current && current.claimed_at) {
    const pauseEnd = lastJiraCallAt && current.pause_seconds ? Date.parse(lastJiraCallAt) + current.pause_seconds * 1000 : null;
    const pauseUntil = pauseEnd !== null && pauseEnd > Date.parse(current.claimed_at) ? pauseEnd : null;
    currentStart = Math.max(currentStart, pauseUntil ?? 0);
    currentView = {
      ...workOf(current),
      claimed_at: current.claimed_at,
      deliveries: current.deliveries,
      pause_seconds: current.pause_seconds,
      pause_until: pauseUntil === null ? null : new Date(pauseUntil).toISOString(),
    };
  }
  let nextView: AgentNextCommandView | null = null;
  if (next) {
    const pause = (pacing[next.type] ?? 0) * 1000;
    const base = currentView ? currentStart : lastJiraCallAt ? Date.parse(lastJiraCallAt) : now.getTime();
    nextView = { ...workOf(next), starts_at: online ? later(now.getTime(), base + pause) : null };
  }
  return { current_command: currentView, next_command: nextView };
}
