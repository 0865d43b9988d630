import { Injectable } from '@nestjs/common';
import type { AgentInfo } from './agent-info.js';

/** What the agent last told about Jira's view of its credentials (SPEC 16.3). */
export interface JiraAuthView {
  jira_auth: 'ok' | 'failed' | null;
  jira_auth_failed_since: string | null;
}

/**
 * Jira's view of the agent's credentials, as the agent tells it with every claim (SPEC 16.3). Held in
 * memory (decision record 0301): the agent repeats it with each claim, at least every 5 minutes while
 * Jira refuses it, so a restarted hub knows it again within one back-off step.
 */
@Injectable()
export class JiraAuthRegistry {
  private state: JiraAuthView = { jira_auth: null, jira_auth_failed_since: null };

  /** Records what a claim said; a claim that says nothing about it changes nothing. */
  record(info: AgentInfo, now: string): void {
    if (info.jira_auth === 'failed') this.state = { jira_auth: 'failed', jira_auth_failed_since: info.jira_auth_failed_since ?? this.state.jira_auth_failed_since ?? now };
    else if (info.jira_auth === 'ok') this.state = { jira_auth: 'ok', jira_auth_failed_since: null };
  }

  current(): JiraAuthView {
    return this.state;
  }
}

/** The Russian warning of GET /agent while Jira refuses the agent's credentials; null otherwise. */
export function jiraAuthWarning(view: JiraAuthView): string | null {
  if (view.jira_auth !== 'failed') return null;
  return (
    `Jira не принимает учётные данные агента${view.jira_auth_failed_since ? ` с ${view.jira_auth_failed_since}` : ''} (HTTP 401): ` +
    'команды не выполняются и ждут в очереди. Обновите токен агента (JIRA_API_TOKEN или JIRA_PAT) — агент проверяет Jira сам и продолжит без перезапуска.'
  );
}
