import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { BackupService } from '../database/backup.service.js';
import { Db } from '../database/db.service.js';
import type { RowOf } from '../database/row.js';
import { SettingsService } from '../settings/settings.service.js';
import { agentWorkSignals, queuedStatusNames } from '../queue/agent-signals.store.js';
import type { AgentStatusEntity } from './agent-status.entity.js';
import type { AgentStatusView } from './agent.dto.js';
import { JiraAuthRegistry, jiraAuthWarning } from './jira-auth.js';

type StatusRow = RowOf<AgentStatusEntity>;

/** GET /agent (SPEC 10): is the agent there, is it up to date, what went wrong lately. */
@Injectable()
export class AgentStatusService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly backups: BackupService,
    private readonly jiraAuth: JiraAuthRegistry,
  ) {}

  /** Statuses the unfinished ensure_status commands name (GET /agent/queued-statuses, for the agent's `--check`). */
  queuedStatuses(): Promise<string[]> {
    return this.db.read((m) => queuedStatusNames(m));
  }

  async status(): Promise<AgentStatusView> {
    const now = this.clock.now();
    const settings = this.settings.get();
    const since = new Date(now.getTime() - 24 * 3600_000).toISOString();
    const { row, rateLimited, redelivered, queued } = await this.db.read(async (m) => {
      const [row]: StatusRow[] = await m.query('SELECT * FROM agent_status WHERE id = 1');
      return { row, ...(await agentWorkSignals(m, since)) };
    });
    const online = row.last_seen_at !== null && now.getTime() - Date.parse(row.last_seen_at) <= settings.agent_offline_seconds * 1000;
    const stale = row.settings_version !== null && row.settings_version < settings.version;
    const warnings: string[] = [];
    const auth = this.jiraAuth.current();
    const authWarning = jiraAuthWarning(auth);
    if (authWarning) warnings.push(authWarning);
    if (!online && queued) {
      warnings.push(
        row.last_seen_at
          ? `Агент не выходил на связь с ${row.last_seen_at}, а в очереди есть команды.`
          : 'Агент ещё ни разу не выходил на связь, а в очереди есть команды.',
      );
    }
    if (stale) warnings.push(`Агент работает с настройками версии ${row.settings_version}, а текущая версия — ${settings.version}.`);
    const failure = this.backups.lastFailure();
    if (failure) warnings.push(`Не удалось сделать резервную копию перед пакетом ${failure.batchId} (${failure.at}); подробности в журнале хаба.`);
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
    };
  }
}
