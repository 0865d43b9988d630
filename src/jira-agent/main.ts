import { clampWaitSeconds, runAgent, type AgentRunSummary } from './agent-loop.js';
import { HubClient } from './hub-client.js';
import { JiraClient, type JiraAuth, type JiraFlavor } from './jira-client.js';
import { FileJournal } from './journal.js';

export type Env = Record<string, string | undefined>;

/** Jira client settings from the environment: JIRA_URL, JIRA_FLAVOR (cloud|dc), JIRA_EMAIL + JIRA_API_TOKEN (Cloud) or JIRA_PAT (DC). */
export function jiraClientFromEnv(env: Env, stopSignal?: AbortSignal): JiraClient {
  const baseUrl = required(env, 'JIRA_URL');
  const flavor = (env.JIRA_FLAVOR ?? 'cloud').trim().toLowerCase();
  if (flavor !== 'cloud' && flavor !== 'dc') throw new Error(`JIRA_FLAVOR должен быть cloud или dc, а не «${flavor}»`);
  let auth: JiraAuth;
  if (flavor === 'cloud') {
    auth = env.JIRA_EMAIL && env.JIRA_API_TOKEN ? { kind: 'basic', email: env.JIRA_EMAIL, apiToken: env.JIRA_API_TOKEN } : { kind: 'none' };
  } else {
    auth = env.JIRA_PAT ? { kind: 'bearer', token: env.JIRA_PAT } : { kind: 'none' };
  }
  return new JiraClient({ baseUrl, flavor: flavor as JiraFlavor, auth, stopSignal });
}

/**
 * `jira-hub agent`: runs the reference agent until SIGINT/SIGTERM (or `stopSignal`).
 * Reads HUB_URL, HUB_AGENT_TOKEN, JIRA_URL, JIRA_FLAVOR, JIRA_EMAIL, JIRA_API_TOKEN, JIRA_PAT, JIRA_PROJECT,
 * AGENT_JOURNAL (default ./data/agent-journal.jsonl), AGENT_WAIT_SECONDS (default 30, a whole number 0..60),
 * AGENT_ONCE (1 = one claim), AGENT_REFRESH_PART_ISSUES (issues per part of a large refresh result, default 1000).
 */
export async function runAgentFromEnv(env: Env = process.env, stopSignal?: AbortSignal): Promise<AgentRunSummary> {
  const hubUrl = required(env, 'HUB_URL');
  const project = required(env, 'JIRA_PROJECT');
  const controller = new AbortController();
  // The stop signal also ends Jira's retry waits and requests in flight, so SIGTERM is not held up by them.
  const jira = jiraClientFromEnv(env, controller.signal);
  const journal = new FileJournal(env.AGENT_JOURNAL || './data/agent-journal.jsonl');
  const log = (line: string): void => console.log(`${new Date().toISOString()} agent ${line}`);

  const stop = (): void => controller.abort();
  stopSignal?.addEventListener('abort', stop, { once: true });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const hub = new HubClient({ baseUrl: hubUrl, token: env.HUB_AGENT_TOKEN || undefined, stopSignal: controller.signal, log });
  log(`started: hub ${hubUrl}, Jira ${env.JIRA_URL} (${jira.flavor}), project ${project}, journal ${journal.path}`);
  try {
    const summary = await runAgent({
      hub,
      jira,
      journal,
      project,
      log,
      stopSignal: controller.signal,
      once: env.AGENT_ONCE === '1' || env.AGENT_ONCE === 'true',
      waitSeconds: waitSecondsFromEnv(env),
      refreshPartIssues: partIssuesFromEnv(env),
    });
    log(`stopped (${summary.stoppedBy}): executed ${summary.executed}, reported ${summary.reported}`);
    return summary;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    journal.close();
  }
}

/** AGENT_WAIT_SECONDS as a whole number of seconds 0..60 (the hub answers 422 above 60); unset or not a number → 30. */
export function waitSecondsFromEnv(env: Env): number {
  const raw = env.AGENT_WAIT_SECONDS?.trim();
  return clampWaitSeconds(raw ? Number(raw) : undefined);
}

/** AGENT_REFRESH_PART_ISSUES as a whole number from 1; unset → the default (1,000). */
export function partIssuesFromEnv(env: Env): number | undefined {
  const raw = env.AGENT_REFRESH_PART_ISSUES?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`AGENT_REFRESH_PART_ISSUES должно быть целым числом от 1, а не «${raw}»`);
  return n;
}

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`не задана переменная окружения ${name}`);
  return value;
}
