import { describe, expect, it } from 'vitest';
import { sprintOf } from './Mirror';

describe("the mirror page's sprint (decision 1434)", () => {
  it.each([
    ['no sprint', { sprint: null, sprint_state: null }, null],
    ['an open sprint', { sprint: 'Спринт 2', sprint_state: 'active' as const }, 'Спринт 2'],
    ['a future sprint', { sprint: 'Спринт 3', sprint_state: 'future' as const }, 'Спринт 3'],
    ['a state an older agent did not report', { sprint: 'Спринт 2', sprint_state: null }, 'Спринт 2'],
    ['a closed sprint only: the issue is in the backlog', { sprint: 'Спринт 0', sprint_state: 'closed' as const }, 'Спринт 0 (закрыт)'],
  ])('%s', (_, issue, expected) => {
    expect(sprintOf(issue)).toBe(expected);
  });
});
