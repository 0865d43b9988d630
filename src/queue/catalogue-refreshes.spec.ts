import { describe, expect, it } from '@jest/globals';
import { jiraRefusalText } from '@jira-hub/contracts/jira-failure';
import { namesConfiguration } from './catalogue-refreshes.js';

describe('namesConfiguration: which failures mark the catalogue stale (SPEC 16.1, decision 0130)', () => {
  it.each([
    ["HTTP 400: Field 'customfield_10020' cannot be set. It is not on the appropriate screen, or unknown.", true],
    ['HTTP 400 (AURORA-1): Transition id 31 is not valid for this issue.', true],
    ['переход в статус «Done» недоступен из «To Do» (доступные переходы: нет)', true],
    ['HTTP 403 (AURORA-1): You do not have permission to edit issues in this project.', true],
    ['HTTP 403: You do not have the permission to comment on this issue.', true],
    ["HTTP 403 (AURORA-1 → AURORA-2): No Link Issue Permission for issue 'AURORA-1'.", true],
    // a sprint or board the catalogue listed that Jira no longer has open (closed, deleted, renamed, a second of the name)
    ['спринт «Спринт 2» закрыт («AURORA board»: «Спринт 2» (id 2)): Jira не переносит задачи в закрытый спринт', true],
    ['спринт «Спринт 2» не найден среди активных и будущих спринтов досок проекта AURORA', true],
    ['спринт «Спринт 2» неоднозначен: в проекте AURORA несколько таких спринтов — «A»: «Спринт 2» (id 2), «B»: «Спринт 2» (id 7); укажите доску в параметре board', true],
    ['доска «Поддержка» не найдена среди досок проекта AURORA со спринтами: «AURORA board» (id 1)', true],
    ['HTTP 400 (AURORA-1): Cannot move issues to a closed sprint.', true],
    ['HTTP 404: Sprint does not exist or you do not have permission to see it.', true],
    ['HTTP 400: Summary must be less than 255 characters.', false],
    ['HTTP 404 (AURORA-9): Issue does not exist or you do not have permission to see it.', false],
    ['HTTP 4030: not a status', false],
    ['хаб не принял результат: HTTP 403: нет доступа', false],
    ['HTTP 500: Internal server error', false],
    // the agent's wording: Russian first, Jira's answer in parentheses (@jira-hub/contracts/jira-failure)
    [jiraRefusalText({ status: 400, jiraMessage: "customfield_10020: Field 'customfield_10020' cannot be set. It is not on the appropriate screen, or unknown.", fields: ['customfield_10020'] }), true],
    [jiraRefusalText({ status: 400, jiraMessage: 'Transition id 31 is not valid for this issue.', subject: 'AURORA-1', issueKeys: ['AURORA-1'] }), true],
    [jiraRefusalText({ status: 400, jiraMessage: 'Переход недоступен.', issueKeys: ['AURORA-1'] }), true],
    [jiraRefusalText({ status: 403, jiraMessage: 'You do not have permission to edit issues in this project.', issueKeys: ['AURORA-1'] }), true],
    [jiraRefusalText({ status: 400, jiraMessage: 'Cannot move issues to a closed sprint.', subject: 'AURORA-1' }), true],
    [jiraRefusalText({ status: 404, jiraMessage: 'Sprint does not exist or you do not have permission to see it.', subject: 'AURORA-1, AURORA-2' }), true],
    [jiraRefusalText({ status: 400, jiraMessage: 'summary: Summary must be less than 255 characters.', fields: ['summary'] }), false],
    [jiraRefusalText({ status: 404, jiraMessage: 'Issue does not exist or you do not have permission to see it.', issueKeys: ['AURORA-9'] }), false],
    [jiraRefusalText({ status: 500, jiraMessage: 'Internal server error', issueKeys: ['AURORA-9'] }), false],
  ])('%s → %s', (error, marks) => {
    expect(namesConfiguration(error)).toBe(marks);
  });

  it('reads Jira\'s code of the agent\'s wording cut by the hub (SPEC 6.5: 1500 characters)', () => {
    const long = jiraRefusalText({ status: 403, jiraMessage: `You do not have permission. ${'x'.repeat(2000)}`, issueKeys: ['AURORA-1'] });
    expect(namesConfiguration(long.slice(0, 1500))).toBe(true);
  });
});
