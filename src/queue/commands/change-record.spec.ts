import { describe, expect, it } from '@jest/globals';
import { changesProblems, sprintOfChange, subjectKey, withSubjectKeys } from './change-record.js';

describe('subjectKey: the issue a command changes', () => {
  it.each([
    ['ensure_fields', { key: 'AURORA-1', duedate: '2026-12-01' }, undefined, 'AURORA-1'],
    ['ensure_status', { key: 'AURORA-2', to: 'Done' }, undefined, 'AURORA-2'],
    ['ensure_issue', { temp_key: 'new:1', summary: 'x' }, { key: 'AURORA-9', created: true }, 'AURORA-9'],
    ['ensure_issue', { temp_key: 'new:1', summary: 'x' }, {}, null],
    ['ensure_link', { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }, undefined, 'AURORA-1'],
    ['remove_link', { source: 'AURORA-3', target: 'AURORA-2', link_type: 'Blocks' }, undefined, 'AURORA-3'],
    ['ensure_link', { source: 'new:1', target: 'AURORA-2', link_type: 'Blocks' }, undefined, null],
    ['refresh', { keys: ['AURORA-1'] }, undefined, null],
  ])('%s %j (result %j) → %s', (type, params, result, expected) => {
    expect(subjectKey(type, params, result)).toBe(expected);
  });
});

describe('withSubjectKeys: a change without key gets the subject only when it is of the command’s own kind', () => {
  const noKey = (what: string) => ({ what, before: null, after: 'x' });
  it.each([
    ['ensure_fields', 'field:duedate', 'AURORA-1'],
    ['ensure_fields', 'issue', undefined],
    ['ensure_fields', 'status', undefined],
    ['ensure_issue', 'issue', 'AURORA-1'],
    ['ensure_issue', 'field:labels', 'AURORA-1'],
    ['ensure_status', 'status', 'AURORA-1'],
    ['ensure_sprint', 'sprint', 'AURORA-1'],
    ['ensure_comment', 'comment', 'AURORA-1'],
    ['ensure_link', 'link', 'AURORA-1'],
    ['remove_link', 'link_removed', 'AURORA-1'],
    ['remove_comment', 'comment_removed', 'AURORA-1'],
    ['delete_issue', 'issue_deleted', 'AURORA-1'],
    ['delete_issue', 'issue', undefined],
    ['refresh', 'field:duedate', undefined],
  ])('%s: %s → key %s', (type, what, key) => {
    expect(withSubjectKeys(type, [noKey(what)], 'AURORA-1')[0].key).toBe(key);
  });

  it('keeps a key the agent sent, and leaves every change keyless when there is no subject', () => {
    expect(withSubjectKeys('ensure_fields', [{ key: 'AURORA-7', what: 'field:duedate' }], 'AURORA-1')).toEqual([{ key: 'AURORA-7', what: 'field:duedate' }]);
    expect(withSubjectKeys('ensure_fields', [noKey('field:duedate')], null)).toEqual([noKey('field:duedate')]);
  });
});

describe('changesProblems: what a report\'s `what` may name', () => {
  it.each([
    ['field:duedate', true],
    ['field:customfield_10016', true],
    // a field by the name settings `fields` gives it, as the agent reports it: Jira's display names hold spaces
    ['field:Story Points', true],
    ['field:Epic Name', true],
    ['field:Срок релиза', true],
    ['status', true],
    ['field:', false],
    ['field: Story Points', false],
    ['field:Story Points ', false],
    ['field:Story\nPoints', false],
    ['field:Story\tPoints', false],
    ['field:Story\u2028Points', false],
    ['field:Story\u0001Points', false],
    [`field:${'x'.repeat(201)}`, false],
    [`field:${'x'.repeat(200)}`, true],
    ['state', false],
  ])('%j → valid: %s', (what, valid) => {
    const problems = changesProblems([{ key: 'AURORA-1', what, before: null, after: 5 }]);
    expect(problems.length === 0).toBe(valid);
    // in Russian, so the API's answer keeps it (a text without Cyrillic would become «некорректное значение»)
    for (const p of problems) expect(p).toMatch(/^changes\.0\.what: нужно «field:<поле>»/);
  });
});

describe("changesProblems: a sprint change's before and after (decision 1430)", () => {
  it.each<[string, unknown, unknown, boolean]>([
    ['names (an older agent)', 'Спринт 1', 'Спринт 2', true],
    ['the backlog', { id: 1, name: 'Спринт 1', board_id: 1 }, null, true],
    ['by id, name and board', { id: 7, name: 'Спринт 2', board_id: 2 }, { id: 2, name: 'Спринт 2', board_id: 1 }, true],
    ['a board Jira did not give', { id: 7, name: 'Спринт 2', board_id: null }, null, true],
    ['no name', { id: 7, board_id: 2 }, null, false],
    ['an id that is not a whole number', { id: '7', name: 'Спринт 2' }, null, false],
    ['a number', 7, null, false],
  ])('%s → valid: %s', (_, before, after, valid) => {
    const problems = changesProblems([{ key: 'AURORA-1', what: 'sprint', before, after }]);
    expect(problems.length === 0).toBe(valid);
    for (const p of problems) expect(p).toMatch(/^changes\.0\.before: нужен спринт/);
  });

  it('reads each form as a sprint', () => {
    expect(sprintOfChange('Спринт 1')).toEqual({ name: 'Спринт 1', id: null, board_id: null });
    expect(sprintOfChange({ id: 7, name: 'Спринт 2', board_id: 2 })).toEqual({ name: 'Спринт 2', id: 7, board_id: 2 });
    expect(sprintOfChange(null)).toBeNull();
    expect(sprintOfChange([1])).toBeUndefined();
  });
});
