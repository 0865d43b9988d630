import { describe, expect, it } from '@jest/globals';
import { jiraRefusalOf, jiraRefusalText, type JiraRefusal } from './jira-failure.js';

const NOT_FOUND = 'Issue does not exist or you do not have permission to see it.';

describe('jiraRefusalText: Jira\'s refusal in Russian first, Jira\'s own answer after it', () => {
  it.each<[string, JiraRefusal, string]>([
    [
      '400 naming the fields of Jira\'s `errors`',
      { status: 400, jiraMessage: 'duedate: Error parsing date string: 31.02; customfield_10020: Number value expected', subject: 'A-1', issueKeys: ['A-1'], fields: ['duedate', 'customfield_10020'] },
      'Jira: не приняла значения (срок, поле «customfield_10020») для задачи A-1 — исправьте их в команде или в пакете и повторите (HTTP 400: duedate: Error parsing date string: 31.02; customfield_10020: Number value expected)',
    ],
    [
      '400 without fields or subject',
      { status: 400, jiraMessage: 'Epic Name is required.' },
      'Jira: не приняла запрос — исправьте значения в команде или в пакете и повторите (HTTP 400: Epic Name is required.)',
    ],
    [
      '401',
      { status: 401, jiraMessage: 'Client must be authenticated to access this resource.' },
      'Jira: не принимает учётные данные агента — проверьте токен агента (JIRA_API_TOKEN или JIRA_PAT) и адрес Jira (HTTP 401: Client must be authenticated to access this resource.)',
    ],
    [
      '403 of an issue',
      { status: 403, jiraMessage: 'You do not have permission to edit issues in this project.', subject: 'A-1', issueKeys: ['A-1'] },
      'Jira: у агента нет прав на это действие с задачей A-1 — выдайте права учётной записи агента в Jira или сделайте это вручную (HTTP 403: You do not have permission to edit issues in this project.)',
    ],
    [
      '403 of a link',
      { status: 403, jiraMessage: "No Link Issue Permission for issue 'A-1'.", subject: 'A-1 → A-2' },
      "Jira: у агента нет прав на это действие (A-1 → A-2) — выдайте права учётной записи агента в Jira или сделайте это вручную (HTTP 403: No Link Issue Permission for issue 'A-1'.)",
    ],
    [
      '404 of an issue: maybe deleted, refresh it',
      { status: 404, jiraMessage: NOT_FOUND, subject: 'A-1', issueKeys: ['A-1'] },
      `Jira: задачи A-1 нет или у агента нет прав её видеть — возможно, её удалили или перенесли в другой проект; обновите её в зеркале (HTTP 404: ${NOT_FOUND})`,
    ],
    [
      '404 of something else (a sprint)',
      { status: 404, jiraMessage: 'Sprint does not exist or you do not have permission to see it.', subject: 'A-1, A-2' },
      'Jira: не нашла то, о чём запрос (A-1, A-2), или у агента нет прав это видеть — проверьте, что оно есть в Jira (HTTP 404: Sprint does not exist or you do not have permission to see it.)',
    ],
    [
      '409',
      { status: 409, jiraMessage: 'Conflicting update', subject: 'A-1', issueKeys: ['A-1'] },
      'Jira: отказала из-за конфликта с задачей A-1: задачу в то же время менял кто-то другой — повторите команду позже (HTTP 409: Conflicting update)',
    ],
    [
      '429 after the waiting budget',
      { status: 429, jiraMessage: 'Rate limit exceeded.', waitedMs: 30 * 60_000 },
      'Jira: ограничивает частоту запросов; агент ждал 30 мин, сколько ему позволено — повторите команду позже (HTTP 429: Rate limit exceeded.)',
    ],
    [
      '503 after the waiting budget',
      { status: 503, jiraMessage: 'Service Unavailable', waitedMs: 45_000 },
      'Jira: временно недоступна; агент ждал 45 с, сколько ему позволено — повторите команду позже (HTTP 503: Service Unavailable)',
    ],
    [
      '5xx',
      { status: 500, jiraMessage: 'Internal server error', subject: 'A-1', issueKeys: ['A-1'] },
      'Jira: внутренняя ошибка Jira для задачи A-1 — повторите команду позже; если ошибка повторяется, её причину знает администратор Jira (HTTP 500: Internal server error)',
    ],
    ['another code', { status: 418, jiraMessage: "I'm a teapot" }, "Jira: отказала (HTTP 418: I'm a teapot)"],
  ])('%s', (_case, refusal, text) => {
    expect(jiraRefusalText(refusal)).toBe(text);
    expect(jiraRefusalOf(text)).toEqual({ status: refusal.status, jiraMessage: refusal.jiraMessage });
  });
});

describe('jiraRefusalOf: Jira\'s code and words of a reported failure', () => {
  it.each([
    ['HTTP 404 (A-1): Issue does not exist.', { status: 404, jiraMessage: 'Issue does not exist.' }],
    ['HTTP 400: Field duedate is invalid', { status: 400, jiraMessage: 'Field duedate is invalid' }],
    ['HTTP 500', { status: 500, jiraMessage: '' }],
    ['Jira: временно недоступна (HTTP 503: Service (maintenance) Unavailable', { status: 503, jiraMessage: 'Service (maintenance) Unavailable' }],
    ['HTTP 4030: not a status', null],
    ['хаб не принял результат: HTTP 403: нет доступа', null],
    ['задача A-1 не найдена (HTTP 404: x)', null],
    ['Jira недоступна (GET /rest/api/3/issue/A-1): fetch failed', null],
  ])('%s', (error, refusal) => {
    expect(jiraRefusalOf(error)).toEqual(refusal);
  });
});
