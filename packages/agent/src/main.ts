import { clampWaitSeconds, runAgent, type AgentRunSummary } from './agent-loop.js';
import { HubClient } from './hub-client.js';
import { JiraClient, type JiraAuth, type JiraClientOptions, type JiraFlavor } from './jira-client.js';
import { FileJournal } from './journal.js';
import { agentHelp } from './help.js';
import { formatChecklist, preflight, type CheckLine } from './preflight.js';
import type { AgentSettings } from './types.js';
import type { QueuedStatusTarget } from '@jira-hub/contracts';
import { headerTokenProblem } from '@jira-hub/contracts/catalogue';

export type Env = Record<string, string | undefined>;

/**
 * A start the agent refuses for a reason the operator fixes — a variable missing or bad, an unknown
 * option: one Russian line and exit code 2 in both entries (`jira-hub agent`, `jira-hub-agent`), as the
 * hub's CLI refuses (decision 0108). Any other error is a failure (exit code 1).
 */
export class AgentConfigError extends Error {}

const value = (env: Env, name: string): string | undefined => env[name]?.trim() || undefined;

/** The credentials each flavor needs: Cloud an account e-mail and an API token, DC a personal access token. */
const CREDENTIALS: Record<JiraFlavor, string[]> = { cloud: ['JIRA_EMAIL', 'JIRA_API_TOKEN'], dc: ['JIRA_PAT'] };

/** JIRA_FLAVOR as cloud | dc (default cloud), or null when it is something else. */
function flavorOf(env: Env): JiraFlavor | null {
  const flavor = (value(env, 'JIRA_FLAVOR') ?? 'cloud').toLowerCase();
  return flavor === 'cloud' || flavor === 'dc' ? flavor : null;
}

/**
 * Every problem of the agent's environment at once (Russian, for the operator): missing HUB_URL, JIRA_URL,
 * JIRA_PROJECT, the flavor's credentials, a wrong JIRA_FLAVOR. Empty when the agent can start.
 */
export function envProblems(env: Env): string[] {
  const problems: string[] = [];
  const flavor = flavorOf(env);
  const missing = ['HUB_URL', 'JIRA_URL', 'JIRA_PROJECT', ...(flavor ? CREDENTIALS[flavor] : [])].filter((name) => !value(env, name));
  if (missing.length > 0) problems.push(`не заданы переменные окружения: ${missing.join(', ')}`);
  if (!flavor) problems.push(`JIRA_FLAVOR должен быть cloud или dc, а не «${value(env, 'JIRA_FLAVOR')}»`);
  problems.push(...valueProblems(env));
  return problems;
}

/**
 * An address as printed: its «user:password@», if it has one, as «***@» — a password never goes to a log line or
 * the checklist. Up to the last «@» of the address: a password may hold «/», «?» or «#» unencoded (a Data Center
 * token is base64), which ends a URL's user part; masking an «@» of the path or query too only hides more.
 */
export function shownAddress(raw: string): string {
  return raw.replace(/^(\s*[a-z][a-z0-9+.-]*:\/*)\S*@/i, '$1***@');
}

/** Where an address's credentials go instead of «user:password@» in it. */
const CREDENTIALS_IN = {
  HUB_URL: 'токен хаба задаёт HUB_AGENT_TOKEN',
  JIRA_URL: 'учётные данные Jira задают JIRA_EMAIL и JIRA_API_TOKEN (Cloud) или JIRA_PAT (Data Center)',
};

/**
 * An address the agent calls: http or https with a host, and no «user:password@» (fetch refuses such a URL,
 * and its English refusal quoted the password into the agent's log); `undefined` when unset (reported as missing).
 */
function urlProblem(env: Env, name: 'HUB_URL' | 'JIRA_URL'): string | undefined {
  const raw = value(env, name);
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!(url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname)) {
    return `${name} — не адрес http(s): «${shownAddress(raw)}» (например, ${name === 'HUB_URL' ? 'http://127.0.0.1:3000' : 'https://example.atlassian.net'})`;
  }
  if (url.username || url.password) {
    return `${name} — адрес с логином или паролем («${shownAddress(raw)}»): такой адрес агент не открывает; уберите из него «логин:пароль@» — ${CREDENTIALS_IN[name]}`;
  }
  return undefined;
}

/** What is wrong with AGENT_WAIT_SECONDS (seconds, unset = 30; cut to a whole number in 0..60), if anything: it must be a number. */
function waitSecondsProblem(env: Env): string | undefined {
  const raw = env.AGENT_WAIT_SECONDS?.trim();
  return !raw || /^[+-]?\d+(\.\d+)?$/.test(raw) ? undefined : `AGENT_WAIT_SECONDS должно быть числом секунд (0..60), а не «${raw}»`;
}

/** A bearer token the agent would send in an Authorization header that no header carries (fetch would refuse each call, in English). */
function tokenProblem(env: Env, name: 'HUB_AGENT_TOKEN' | 'JIRA_PAT'): string | undefined {
  const problem = headerTokenProblem(value(env, name) ?? '');
  return problem && `${name}: ${problem}`;
}

/** The values that are set but unusable: the two addresses, the bearer tokens, AGENT_WAIT_SECONDS, AGENT_REFRESH_PART_ISSUES. */
function valueProblems(env: Env): string[] {
  return [urlProblem(env, 'HUB_URL'), urlProblem(env, 'JIRA_URL'), tokenProblem(env, 'HUB_AGENT_TOKEN'), tokenProblem(env, 'JIRA_PAT'), waitSecondsProblem(env), partIssuesProblem(env)].filter(
    (p): p is string => p !== undefined,
  );
}

/** The credentials line of the checklist: the agent never runs anonymously (Jira answers that with 404s and empty searches). */
function credentialsLine(env: Env): CheckLine {
  const flavor = flavorOf(env) ?? 'cloud';
  const names = CREDENTIALS[flavor];
  const missing = names.filter((name) => !value(env, name));
  const where = flavor === 'cloud' ? 'Jira Cloud' : 'Jira Data Center';
  return missing.length === 0
    ? { ok: true, text: `учётные данные для ${where} заданы (${names.join(', ')})` }
    : { ok: false, text: `учётные данные для ${where} не заданы: ${missing.join(', ')} — анонимно агент не работает (Jira отвечает анонимному пользователю 404 и пустыми поисками)` };
}

/** Jira client settings from the environment: JIRA_URL, JIRA_FLAVOR (cloud|dc), JIRA_EMAIL + JIRA_API_TOKEN (Cloud) or JIRA_PAT (DC). */
export function jiraClientFromEnv(env: Env, stopSignal?: AbortSignal, log?: (line: string) => void, options: Partial<JiraClientOptions> = {}): JiraClient {
  const baseUrl = value(env, 'JIRA_URL');
  if (!baseUrl) throw new AgentConfigError('не задана переменная окружения JIRA_URL');
  const flavor = flavorOf(env);
  if (!flavor) throw new AgentConfigError(`JIRA_FLAVOR должен быть cloud или dc, а не «${value(env, 'JIRA_FLAVOR')}»`);
  let auth: JiraAuth;
  if (flavor === 'cloud') {
    auth = env.JIRA_EMAIL && env.JIRA_API_TOKEN ? { kind: 'basic', email: env.JIRA_EMAIL, apiToken: env.JIRA_API_TOKEN } : { kind: 'none' };
  } else {
    auth = env.JIRA_PAT ? { kind: 'bearer', token: env.JIRA_PAT } : { kind: 'none' };
  }
  return new JiraClient({ baseUrl, flavor, auth, stopSignal, log, ...options });
}

/** GET /agent/settings once (no retries: the check must answer), or why it failed. */
function hubSettingsOnce(env: Env): Promise<AgentSettings | { error: string }> {
  return hubGetOnce<AgentSettings>(env, '/agent/settings');
}

/** One GET of the hub's agent API (no retries), or why it failed (an older hub without the route: 404). */
async function hubGetOnce<T>(env: Env, path: string, timeoutMs = 10_000): Promise<T | { error: string }> {
  const url = `${value(env, 'HUB_URL')!.replace(/\/+$/, '')}${path}`;
  const token = value(env, 'HUB_AGENT_TOKEN');
  try {
    const response = await fetch(url, { headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return { error: `хаб ответил HTTP ${response.status}${response.status === 401 ? ': проверьте HUB_AGENT_TOKEN' : ''}` };
    return (await response.json()) as T;
  } catch (error) {
    return { error: `хаб недоступен по адресу ${value(env, 'HUB_URL')}: ${(error as Error).message}` };
  }
}

/** The whole checklist for an environment: variables, credentials, the hub's settings, then Jira (preflight). */
export async function checkEnvironment(env: Env, log?: (line: string) => void): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  const missingBasics = ['HUB_URL', 'JIRA_URL', 'JIRA_PROJECT'].filter((name) => !value(env, name));
  const badFlavor = flavorOf(env) === null;
  if (missingBasics.length > 0) lines.push({ ok: false, text: `не заданы переменные окружения: ${missingBasics.join(', ')}` });
  if (badFlavor) lines.push({ ok: false, text: `JIRA_FLAVOR должен быть cloud или dc, а не «${value(env, 'JIRA_FLAVOR')}»` });
  const badValues = valueProblems(env);
  for (const text of badValues) lines.push({ ok: false, text });
  if (missingBasics.length === 0 && !badFlavor && badValues.length === 0) lines.push({ ok: true, text: `адреса заданы: хаб ${value(env, 'HUB_URL')}, Jira ${value(env, 'JIRA_URL')} (${flavorOf(env)}), проект ${value(env, 'JIRA_PROJECT')}` });
  const credentials = credentialsLine(env);
  lines.push(credentials);
  if (lines.some((l) => !l.ok)) return lines; // nothing is sent anywhere without addresses and credentials

  const settings = await hubSettingsOnce(env);
  if (!('error' in settings)) lines.push({ ok: true, hub: true, text: `хаб отвечает: настройки версии ${settings.version}` });
  // A hub older than the issue types per status names the statuses alone: each is then judged against every workflow.
  const queued = 'error' in settings ? { statuses: [] } : await hubGetOnce<{ statuses: string[]; targets?: QueuedStatusTarget[] }>(env, '/agent/queued-statuses').then((a) => ('error' in a ? { statuses: [] } : a));
  const statuses = queued.targets ?? queued.statuses.map((status) => ({ status, issue_types: [], unknown_type: true }));
  // One try per request: the checklist must answer now, not after a minute of retries against a Jira that is down.
  const jira = jiraClientFromEnv(env, undefined, log, { maxTries: 1, timeoutMs: 20_000 });
  lines.push(...(await preflight({ jira, project: value(env, 'JIRA_PROJECT')!, settings, statuses })));
  return lines;
}

/**
 * `jira-hub agent [--check]`: with --check prints the pre-flight checklist (Russian, ✓/✗ per line) and returns
 * 0 when every line is ✓, else 1, writing nothing anywhere; without it runs the agent (see runAgentFromEnv).
 */
export async function agentMain(args: string[], env: Env = process.env): Promise<number> {
  if (args.includes('--check')) {
    const lines = await checkEnvironment(env);
    const jiraUrl = value(env, 'JIRA_URL');
    console.log(formatChecklist(`Проверка подключения агента к Jira (${jiraUrl === undefined ? 'JIRA_URL не задан' : shownAddress(jiraUrl)})`, lines));
    return lines.every((l) => l.ok) ? 0 : 1;
  }
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) throw new AgentConfigError(`неизвестный параметр «${unknown[0]}»`);
  await runAgentFromEnv(env);
  return 0;
}

/**
 * `jira-hub-agent <args>` (bin.ts, which loads the .env file first): its exit code. A refusal
 * (AgentConfigError) is one Russian line on stderr with the pointer to --help and code 2; a failure its
 * line and code 1; --help the help and 0.
 */
export async function agentBin(args: string[], env: Env): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(agentHelp());
    return 0;
  }
  const once = args.includes('--once');
  try {
    return await agentMain(
      args.filter((a) => a !== '--once'),
      once ? { ...env, AGENT_ONCE: '1' } : env,
    );
  } catch (err) {
    const refused = err instanceof AgentConfigError;
    console.error(`jira-hub-agent: ${err instanceof Error ? err.message : String(err)}${refused ? ' (список параметров и переменных: jira-hub-agent --help)' : ''}`);
    return refused ? 2 : 1;
  }
}

/**
 * `jira-hub agent`: checks the environment and Jira like `--check` (the checklist goes to the log), refuses to
 * start on any ✗ about Jira or the environment (a hub that does not answer yet is only logged: the loop waits
 * for it), then runs the reference agent until SIGINT/SIGTERM (or `stopSignal`).
 * Reads HUB_URL, HUB_AGENT_TOKEN, JIRA_URL, JIRA_FLAVOR, JIRA_EMAIL, JIRA_API_TOKEN, JIRA_PAT, JIRA_PROJECT,
 * AGENT_JOURNAL (default ./data/agent-journal.jsonl), AGENT_WAIT_SECONDS (default 30, a whole number 0..60),
 * AGENT_ONCE (1 = one claim), AGENT_REFRESH_PART_ISSUES (issues per part of a large refresh result, default 1000).
 */
export async function runAgentFromEnv(env: Env = process.env, stopSignal?: AbortSignal): Promise<AgentRunSummary> {
  const problems = envProblems(env);
  if (problems.length > 0) throw new AgentConfigError(problems.join('; '));
  const hubUrl = value(env, 'HUB_URL')!;
  const project = value(env, 'JIRA_PROJECT')!;
  const log = (line: string): void => console.log(`${new Date().toISOString()} agent ${line}`);
  // A journal it cannot use is refused like a bad variable: before anything goes to the hub or to Jira.
  const journal = openJournal(env.AGENT_JOURNAL || './data/agent-journal.jsonl');

  const checks = await checkEnvironment(env, log);
  for (const line of checks) log(`check ${line.ok ? '✓' : '✗'} ${line.text}`);
  // A hub that does not answer yet is waited for by the loop; a queued command's ✗ fails that command alone when it runs.
  const blocking = checks.filter((l) => !l.ok && !l.hub && !l.command);
  if (blocking.length > 0) throw new Error(`проверка перед стартом не пройдена: ${blocking.map((l) => l.text).join('; ')}`);

  const controller = new AbortController();
  // The stop signal also ends Jira's retry waits and requests in flight, so SIGTERM is not held up by them.
  const jira = jiraClientFromEnv(env, controller.signal, log);

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

/** Why a journal path cannot be used, in words for the operator, by the file system's error code. */
const JOURNAL_FAILURES: Record<string, string> = {
  EISDIR: 'это папка, а нужен файл',
  ENOTDIR: 'часть пути — не папка',
  EACCES: 'нет прав на запись',
  EPERM: 'нет прав на запись',
  EROFS: 'файловая система только для чтения',
  ENOSPC: 'на диске нет места',
  ENOENT: 'папку для него не создать',
};

/** The agent's journal at `path`, or a refusal naming AGENT_JOURNAL (the file system's own words are English). */
function openJournal(path: string): FileJournal {
  try {
    return new FileJournal(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new AgentConfigError(`журнал агента AGENT_JOURNAL=${path} не открыть: ${JOURNAL_FAILURES[code] ?? `ошибка файловой системы ${code || (err as Error).message}`}`);
  }
}

/** AGENT_WAIT_SECONDS as a whole number of seconds 0..60 (the hub answers 422 above 60); unset → 30; not a number → AgentConfigError. */
export function waitSecondsFromEnv(env: Env): number {
  const problem = waitSecondsProblem(env);
  if (problem) throw new AgentConfigError(problem);
  const raw = env.AGENT_WAIT_SECONDS?.trim();
  return clampWaitSeconds(raw ? Number(raw) : undefined);
}

/** What is wrong with AGENT_REFRESH_PART_ISSUES (a whole number from 1, or unset), if anything. */
function partIssuesProblem(env: Env): string | undefined {
  const raw = env.AGENT_REFRESH_PART_ISSUES?.trim();
  const n = Number(raw);
  return !raw || (Number.isInteger(n) && n >= 1) ? undefined : `AGENT_REFRESH_PART_ISSUES должно быть целым числом от 1, а не «${raw}»`;
}

/** AGENT_REFRESH_PART_ISSUES as a whole number from 1; unset → the default (1,000). */
export function partIssuesFromEnv(env: Env): number | undefined {
  const problem = partIssuesProblem(env);
  if (problem) throw new AgentConfigError(problem);
  const raw = env.AGENT_REFRESH_PART_ISSUES?.trim();
  return raw ? Number(raw) : undefined;
}

