import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { seedProblem } from './seed-shape.js';
import { defaultSeed } from './seed.js';

describe('the shape of a seed file (JIRA_SIM_SEED), checked before the simulator is made from it', () => {
  it('takes the default seed, the example file, an empty object and nullable or free-form values where the types allow them', () => {
    expect(seedProblem(defaultSeed())).toBeUndefined();
    expect(seedProblem(JSON.parse(readFileSync('examples/jira-sim-seed.json', 'utf8')))).toBeUndefined();
    expect(seedProblem({})).toBeUndefined();
    expect(
      seedProblem({
        issues: [{ summary: 'a', description: null, assignee: null, priority: null, parent: null, custom: { customfield_10070: { value: 'High' } }, createdAtMs: 0 }],
        transitions: [{ id: '1', name: 'Anywhere', from: '*', to: 'Done' }],
        workflows: { 'Sub-task': { statuses: ['Open'], initialStatus: 'Open', transitions: [] } },
        legacyCreateMeta: true,
      }),
    ).toBeUndefined();
  });

  // The first three crashed the start with Node's or Jira's English words and exit code 1.
  it.each([
    [{ links: 'x' }, 'links: нужен список связей, а не строка «x»'],
    [{ issues: [1, 2] }, 'issues[0]: нужен объект задачи с summary, а не число 1'],
    [{ issues: 'x' }, 'issues: нужен список задач, а не строка «x»'],
    [{ issues: [{}] }, 'issues[0]: нужен объект задачи с summary, а в нём нет summary'],
    [{ issues: [{ summary: 'a' }, { summary: ' ' }] }, 'issues[1].summary: нужна непустая строка, а не строка « »'],
    [{ issues: [{ summary: 'a', labels: 'x y' }] }, 'issues[0].labels: нужен список строк, а не строка «x y»'],
    [{ issues: [{ summary: 'a', labels: null }] }, 'issues[0].labels: нужен список строк, а не null'],
    [{ issues: [{ summary: 'a', sprintIds: [1.5] }] }, 'issues[0].sprintIds[0]: нужно целое число, а не число 1.5'],
    [{ issues: [{ summary: 'a', custom: [] }] }, 'issues[0].custom: нужен объект «id поля: значение», а не пустой список'],
    [{ issues: [{ summary: 'a', key: 'AURORA-7' }] }, 'issues[0]: неизвестное поле «key» (бывают: project, summary, issueType, status, description, assignee, priority, duedate, labels, parent, sprintIds, custom, createdAtMs)'],
    [{ links: [{ source: 'AURORA-1', target: 'AURORA-2' }] }, 'links[0]: нужен объект связи с source, target и type, а в нём нет type'],
    [{ links: [['AURORA-1', 'AURORA-2']] }, 'links[0]: нужен объект связи с source, target и type, а не список'],
    [{ projects: [] }, 'projects: нужен непустой список проектов, а не пустой список'],
    [{ users: [{ accountId: 'x' }] }, 'users[0]: нужен объект пользователя с accountId, name, displayName и emailAddress, а в нём нет name, displayName, emailAddress'],
    [{ statuses: 'To Do' }, 'statuses: нужен список строк, а не строка «To Do»'],
    [{ boards: [{ id: 1, name: 'b', type: 'team', projectKey: 'A' }] }, 'boards[0].type: нужно одно из: scrum, kanban, simple, а не строка «team»'],
    [{ legacyCreateMeta: 'yes' }, 'legacyCreateMeta: нужно true или false, а не строка «yes»'],
    [{ customFields: [{ id: 'c', name: 'n', custom: 'x', type: 'string', scope: { type: 'PROJECT', project: {} } }] }, 'customFields[0].scope.project: нужен объект проекта с id, а в нём нет id'],
    [
      { workflows: { 'Sub-task': { statuses: [], initialStatus: 'a', transitions: [{ id: '1', name: 'n', from: 'any', to: 'b' }] } } },
      'workflows["Sub-task"].transitions[0].from: нужен список статусов или «*», а не строка «any»',
    ],
    [{ issue: [] }, /^неизвестный ключ «issue» \(бывают: projects, issueTypes, .*, issues, links\)$/],
  ])('%j → %s', (seed, problem) => {
    if (typeof problem === 'string') expect(seedProblem(seed)).toBe(problem);
    else expect(seedProblem(seed)).toMatch(problem);
  });
});
