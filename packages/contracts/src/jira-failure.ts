/**
 * Jira's refusal of a request, in words for people (`@jira-hub/contracts/jira-failure`): what happened and
 * what to do in Russian, then Jira's own answer as the evidence, `HTTP <code>: <Jira's text>`. The agent
 * words every refusal it reports here; the hub reads the code and Jira's text back (jiraRefusalOf) to decide
 * whether the catalogue is stale, for the agent's older wording (`HTTP <code> (<subject>): …`) too.
 * Dependency-free but for the field names.
 */
import { fieldWords } from './russian.js';

/** What the agent knows of one refusal. */
export interface JiraRefusal {
  status: number;
  /** Jira's own words (errorMessages and `field: message` pairs), often English: kept as they are. */
  jiraMessage: string;
  /** What the request was about as the agent names it: an issue key, «A-1 → A-2», a project key. */
  subject?: string;
  /** The issues the request named (an issue, a link's two): a 404 then means one of them is gone or hidden. */
  issueKeys?: readonly string[];
  /** The fields Jira's `errors` object named (its keys), for a 400. */
  fields?: readonly string[];
  /** A 429/503 given up: how long the agent had waited out Jira's rate limiting, in ms. */
  waitedMs?: number;
}

/** «для задачи A-1», «для задач », « (PRJ)», or nothing: what the request was about. */
function about(r: JiraRefusal): string {
  const keys = r.issueKeys ?? [];
  if (keys.length) return keys.length === 1 ? ` для задачи ${keys[0]}` : ` для задач ${keys.join(', ')}`;
  return r.subject ? ` (${r.subject})` : '';
}

/** «с задачей A-1», «с задачами », else as about. */
function withIssues(r: JiraRefusal): string {
  const keys = r.issueKeys ?? [];
  if (keys.length) return keys.length === 1 ? ` с задачей ${keys[0]}` : ` с задачами ${keys.join(', ')}`;
  return about(r);
}

function duration(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} мин` : `${Math.max(1, Math.round(ms / 1000))} с`;
}

/** The Russian part: what happened — what to do. */
function explanation(r: JiraRefusal): string {
  const { status } = r;
  const keys = r.issueKeys ?? [];
  if (status === 400) {
    if (!r.fields?.length) return `не приняла запрос${about(r)} — исправьте значения в команде или в пакете и повторите`;
    return `не приняла значения (${r.fields.map((f) => fieldWords(f)).join(', ')})${about(r)} — исправьте их в команде или в пакете и повторите`;
  }
  if (status === 401) return 'не принимает учётные данные агента — проверьте токен агента (JIRA_API_TOKEN или JIRA_PAT) и адрес Jira';
  if (status === 403) return `у агента нет прав на это действие${withIssues(r)} — выдайте права учётной записи агента в Jira или сделайте это вручную`;
  if (status === 404) {
    if (keys.length === 1) return `задачи ${keys[0]} нет или у агента нет прав её видеть — возможно, её удалили или перенесли в другой проект; обновите её в зеркале`;
    if (keys.length > 1) return `одной из задач ${keys.join(', ')} нет или у агента нет прав её видеть — возможно, её удалили или перенесли в другой проект; обновите их в зеркале`;
    return `не нашла то, о чём запрос${about(r)}, или у агента нет прав это видеть — проверьте, что оно есть в Jira`;
  }
  if (status === 409) return `отказала из-за конфликта${withIssues(r)}: ${keys.length ? 'задачу' : 'это'} в то же время менял кто-то другой — повторите команду позже`;
  if (status === 429 || status === 503) {
    const waited = r.waitedMs ? `; агент ждал ${duration(r.waitedMs)}, сколько ему позволено` : '';
    return `${status === 429 ? 'ограничивает частоту запросов' : 'временно недоступна'}${waited} — повторите команду позже`;
  }
  if (status >= 500) return `внутренняя ошибка Jira${about(r)} — повторите команду позже; если ошибка повторяется, её причину знает администратор Jira`;
  return `отказала${about(r)}`;
}

/** «Jira: задачи A-1 нет или … (HTTP 404: Issue does not exist …)». */
export function jiraRefusalText(r: JiraRefusal): string {
  return `Jira: ${explanation(r)} (HTTP ${r.status}: ${r.jiraMessage})`;
}

/**
 * The HTTP code and Jira's text of a failure the agent reported, in this wording or its older one
 * (`HTTP 400: …` at the start); null for any other failure (the agent's own reasons).
 */
export function jiraRefusalOf(error: string): { status: number; jiraMessage: string } | null {
  const old = /^HTTP (\d{3})\b(?: \([^)]*\))?(?::\s*([\s\S]*))?$/.exec(error);
  if (old) return { status: Number(old[1]), jiraMessage: old[2] ?? '' };
  if (!error.startsWith('Jira: ')) return null;
  const at = / \(HTTP (\d{3}): /.exec(error);
  if (!at) return null;
  const rest = error.slice(at.index + at[0].length);
  // The hub cuts a long error: the closing parenthesis may be gone.
  return { status: Number(at[1]), jiraMessage: rest.endsWith(')') ? rest.slice(0, -1) : rest };
}
