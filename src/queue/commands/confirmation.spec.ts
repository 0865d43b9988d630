import { describe, expect, it } from '@jest/globals';
import type { MirrorIssue, MirrorLookup } from '../../mirror/index.js';
import type { CommandType, Params } from '@jira-hub/contracts/catalogue';
import { changesAgainstMirror, isConfirmedByState, mirrorShowsSprint, NEVER_CONFIRMED, type WantedSprint } from './confirmation.js';

const baseIssue = (over: Partial<MirrorIssue> = {}): MirrorIssue => ({
  status: 'В работе',
  sprint: 'Спринт 2',
  summary: 'Отчёт',
  description: 'Описание',
  duedate: '2026-10-13',
  labels: ['a', 'b'],
  assignee: 'ivan',
  priority: 'High',
  fields: { 'Story Points': 5, Team: 'Core', Platforms: ['ios', 'web'] },
  ...over,
});

/** A mirror of issues and links `source|target|type`. */
function mirrorOf(issues: Record<string, MirrorIssue>, links: string[] = []): MirrorLookup {
  const set = new Set(links);
  return {
    issue: (key) => issues[key],
    hasLink: (s, t, type) => set.has(`${s}|${t}|${type}`),
  };
}

const mirror = mirrorOf(
  {
    'A-1': baseIssue(),
    'A-2': baseIssue({ labels: [], duedate: null, assignee: null, description: null }),
    'A-3': baseIssue({ labels: undefined as unknown as string[] }),
  },
  ['A-1|A-2|Blocks', 'A-1|A-3|Relates', 'A-3|A-1|Relates', 'A-2|A-3|Blocks'],
);

describe('isConfirmedByState: ensure_fields (SPEC 4, 6.6)', () => {
  it.each([
    ['same summary', { key: 'A-1', summary: 'Отчёт' }, true],
    ['different summary', { key: 'A-1', summary: 'План' }, false],
    ['labels in another order', { key: 'A-1', labels: ['b', 'a'] }, true],
    ['labels with a repeat', { key: 'A-1', labels: ['a', 'b', 'a'] }, true],
    ['labels subset', { key: 'A-1', labels: ['a'] }, false],
    ['labels superset', { key: 'A-1', labels: ['a', 'b', 'c'] }, false],
    ['labels [] vs mirror []', { key: 'A-2', labels: [] }, true],
    ['labels null vs mirror []', { key: 'A-2', labels: null }, true],
    ['labels [] vs mirror missing', { key: 'A-3', labels: [] }, true],
    ['labels null vs mirror missing', { key: 'A-3', labels: null }, true],
    ['labels [] vs mirror non-empty', { key: 'A-1', labels: [] }, false],
    ['duedate equal', { key: 'A-1', duedate: '2026-10-13' }, true],
    ['duedate different', { key: 'A-1', duedate: '2026-10-14' }, false],
    ['duedate null vs null', { key: 'A-2', duedate: null }, true],
    ['duedate null vs a date', { key: 'A-1', duedate: null }, false],
    ['assignee null vs null', { key: 'A-2', assignee: null }, true],
    ['assignee null vs someone', { key: 'A-1', assignee: null }, false],
    ['description equal', { key: 'A-1', description: 'Описание' }, true],
    ['description null vs null', { key: 'A-2', description: null }, true],
    ['priority equal', { key: 'A-1', priority: 'High' }, true],
    ['custom field in fields equal', { key: 'A-1', 'Story Points': 5 }, true],
    ['custom field in fields different', { key: 'A-1', 'Story Points': 8 }, false],
    ['custom string field', { key: 'A-1', Team: 'Core' }, true],
    ['custom field absent from the mirror, desired null', { key: 'A-1', Epic: null }, true],
    ['custom field absent from the mirror, desired a value', { key: 'A-1', Epic: 'E' }, false],
    ['multi-select in another order', { key: 'A-1', Platforms: ['web', 'ios'] }, true],
    ['multi-select with a value missing', { key: 'A-1', Platforms: ['ios'] }, false],
    ['multi-select with an extra value', { key: 'A-1', Platforms: ['ios', 'web', 'android'] }, false],
    ['every field equal', { key: 'A-1', summary: 'Отчёт', labels: ['b', 'a'], duedate: '2026-10-13', priority: 'High', Team: 'Core' }, true],
    ['one field of several differs', { key: 'A-1', summary: 'Отчёт', labels: ['b', 'a'], priority: 'Low' }, false],
  ] as [string, Params, boolean][])('%s → %p', (_name, params, confirmed) => {
    expect(isConfirmedByState('ensure_fields', params, mirror)).toBe(confirmed);
  });
});

describe('isConfirmedByState: ensure_status, ensure_sprint', () => {
  it.each([
    ['status equals the last path element', 'ensure_status', { key: 'A-1', path: ['Новая', 'В работе'] }, true],
    ['status equals the one path element', 'ensure_status', { key: 'A-1', path: ['В работе'] }, true],
    ['status equals an earlier path element only', 'ensure_status', { key: 'A-1', path: ['В работе', 'Готово'] }, false],
    // a bare `to` (stored so by a hub before the checks always made it a path): the one step it names, no crash
    ['status equals a bare to', 'ensure_status', { key: 'A-1', to: 'В работе' }, true],
    ['status differs from a bare to', 'ensure_status', { key: 'A-1', to: 'Готово' }, false],
    ['sprint equal', 'ensure_sprint', { key: 'A-1', sprint: 'Спринт 2' }, true],
    ['sprint different', 'ensure_sprint', { key: 'A-1', sprint: 'Спринт 3' }, false],
    // with a board (the name on several boards, decision 1423) the same name tells nothing: never confirmed by it
    ['sprint equal by name, a board named', 'ensure_sprint', { key: 'A-1', sprint: 'Спринт 2', board: 'Поддержка' }, false],
  ] as [string, CommandType, Params, boolean][])('%s → %p', (_name, type, params, confirmed) => {
    expect(isConfirmedByState(type, params, mirror)).toBe(confirmed);
  });
});

describe('mirrorShowsSprint: the one rule of sprints (decision 1430)', () => {
  // «Спринт 2» is sprint 2 on board 1 («AURORA board») and sprint 7 on board 2 («Поддержка»), by the catalogue.
  const onBoard = (board: string | number, name: string): number[] | undefined => {
    const boards: Record<string, number> = { '1': 1, 'aurora board': 1, '2': 2, 'поддержка': 2 };
    const id = boards[String(board).trim().toLowerCase()];
    if (id === undefined) return undefined;
    return [
      { id: 2, name: 'Спринт 2', board: 1 },
      { id: 7, name: 'Спринт 2', board: 2 },
    ].filter((s) => s.board === id && s.name === name).map((s) => s.id);
  };
  const inSprint = (sprint_id: number | null, sprint_board_id: number | null = null) => ({ sprint: 'Спринт 2', sprint_id, sprint_board_id });
  it.each<[string, { sprint: string | null; sprint_id?: number | null; sprint_board_id?: number | null; sprint_state?: 'active' | 'future' | 'closed' | null }, WantedSprint, boolean, boolean | undefined]>([
    ['another name', inSprint(2, 1), { name: 'Спринт 3' }, true, false],
    ['the backlog, asked for the backlog', { sprint: null }, { name: null }, true, true],
    ['a sprint, asked for the backlog', inSprint(2, 1), { name: null }, true, false],
    // decision 1434: a sprint field listing closed sprints only is the backlog; the mirror names the last of them
    ['a closed sprint only, asked for the backlog', { ...inSprint(2, 1), sprint_state: 'closed' }, { name: null }, false, true],
    ['an active sprint, asked for the backlog', { ...inSprint(2, 1), sprint_state: 'active' }, { name: null }, false, false],
    ['a future sprint, asked for the backlog', { ...inSprint(2, 1), sprint_state: 'future' }, { name: null }, false, false],
    ["a sprint whose state an older agent did not say, asked for the backlog: it is the sprint's", { ...inSprint(2, 1), sprint_state: null }, { name: null }, false, false],
    // ... and in no sprint asked for: the closed sprint's name may be an open sprint's of another board
    ['a closed sprint, asked for by name', { ...inSprint(7, 2), sprint_state: 'closed' }, { name: 'Спринт 2' }, false, false],
    ['a closed sprint, asked for by name and its board', { ...inSprint(7, 2), sprint_state: 'closed' }, { name: 'Спринт 2', board: 2 }, false, false],
    ["a change record's sprint by id, closed since", { ...inSprint(7, 2), sprint_state: 'closed' }, { name: 'Спринт 2', id: 7 }, false, false],
    ['the name, no board asked: the name is enough', inSprint(7, 2), { name: 'Спринт 2' }, true, true],
    ["board 1's sprint, board 1 asked by name: exact", inSprint(2, 1), { name: 'Спринт 2', board: 'AURORA board' }, true, true],
    ["board 2's sprint, board 1 asked by name: exact", inSprint(7, 2), { name: 'Спринт 2', board: 'AURORA board' }, true, false],
    ["board 2's sprint, board 2 asked by id", inSprint(7, 2), { name: 'Спринт 2', board: 2 }, true, true],
    ['no catalogue: a board by its id is compared with the board the mirror says', inSprint(7, 2), { name: 'Спринт 2', board: '1' }, false, false],
    ['no catalogue: the same board id', inSprint(7, 2), { name: 'Спринт 2', board: 2 }, false, true],
    ['no catalogue: a board by its name cannot be told', inSprint(7, 2), { name: 'Спринт 2', board: 'Поддержка' }, false, undefined],
    ['a board the catalogue does not know, by name: cannot be told', inSprint(7, 2), { name: 'Спринт 2', board: 'Склад' }, true, undefined],
    ['no sprint id in the mirror (an older agent), a board asked: cannot be told (decision 1423)', inSprint(null), { name: 'Спринт 2', board: 'AURORA board' }, true, undefined],
    ["a change record's sprint by id: the same id", inSprint(7, 2), { name: 'Спринт 2', id: 7 }, true, true],
    ["a change record's sprint by id: another sprint of the name", inSprint(2, 1), { name: 'Спринт 2', id: 7 }, true, false],
    ["a change record's sprint by id, renamed since: the same sprint", { ...inSprint(7, 2), sprint: 'Спринт 2 — релиз' }, { name: 'Спринт 2', id: 7 }, true, true],
    ["a change record's sprint by id: another sprint that has its old name now", { ...inSprint(9, 2), sprint: 'Спринт 2' }, { name: 'Спринт 2', id: 7 }, true, false],
    ["a change record's sprint by id, the mirror without ids: the name, as before", inSprint(null), { name: 'Спринт 2', id: 7 }, true, true],
  ])('%s', (_, issue, wanted, withCatalogue, expected) => {
    expect(mirrorShowsSprint(issue, wanted, withCatalogue ? { sprintsOnBoard: onBoard } : undefined)).toBe(expected);
  });

  it('confirmation by state and the verdicts read it: a board is settled by the mirror sprint id', () => {
    const ids = mirrorOf({ 'A-1': baseIssue({ sprint_id: 7, sprint_board_id: 2 }), 'A-2': baseIssue() });
    const withBoards: MirrorLookup = { ...ids, sprintsOnBoard: (board, name) => (String(board) === 'Поддержка' && name === 'Спринт 2' ? [7] : String(board) === 'AURORA board' && name === 'Спринт 2' ? [2] : undefined) };
    expect(changesAgainstMirror('ensure_sprint', { key: 'A-1', sprint: 'Спринт 2', board: 'Поддержка' }, withBoards)).toEqual([]);
    expect(changesAgainstMirror('ensure_sprint', { key: 'A-1', sprint: 'Спринт 2', board: 'AURORA board' }, withBoards)).toEqual([
      { field: 'sprint', from: 'Спринт 2 (доска 2)', to: 'Спринт 2 (доска AURORA board)' },
    ]);
    expect(isConfirmedByState('ensure_sprint', { key: 'A-1', sprint: 'Спринт 2', board: 2 }, ids)).toBe(true);
    // an older agent's row: Jira settles it
    expect(changesAgainstMirror('ensure_sprint', { key: 'A-2', sprint: 'Спринт 2', board: 'Поддержка' }, withBoards)).toBeUndefined();
    // its own board's sprint, closed since the mirror read it (the catalogue lists it open no more): said so, not the same words twice
    const closedSince: MirrorLookup = { ...withBoards, boardIds: (board) => (String(board) === 'Поддержка' ? [2] : undefined), isOpenSprint: (id) => id !== 7 };
    expect(changesAgainstMirror('ensure_sprint', { key: 'A-1', sprint: 'Спринт 2', board: 'Поддержка' }, { ...closedSince, sprintsOnBoard: (board, name) => (name === 'Спринт 2' && String(board) === 'Поддержка' ? [8] : undefined) })).toEqual([
      { field: 'sprint', from: 'Спринт 2 (доска 2, закрыт)', to: 'Спринт 2 (доска Поддержка)' },
    ]);
  });

  it("a sprint shown on two boards, listed by the catalogue under the first one: its own board (the mirror's) is that board too", () => {
    // «Спринт 5» is sprint 25 of board 2 («Поддержка»), shown on board 1 as well: the catalogue lists it under board 1.
    const onBoard = (board: string | number, name: string) => (name !== 'Спринт 5' ? [] : ['1', 'aurora board'].includes(String(board).trim().toLowerCase()) ? [25] : ['2', 'поддержка'].includes(String(board).trim().toLowerCase()) ? [] : undefined);
    const boardIds = (board: string | number) => (['1', 'aurora board'].includes(String(board).trim().toLowerCase()) ? [1] : ['2', 'поддержка'].includes(String(board).trim().toLowerCase()) ? [2] : undefined);
    const issue = { sprint: 'Спринт 5', sprint_id: 25, sprint_board_id: 2 };
    const catalogue = { sprintsOnBoard: onBoard, boardIds, isOpenSprint: (id: number) => id === 25 };
    expect(mirrorShowsSprint(issue, { name: 'Спринт 5', board: 'Поддержка' }, catalogue)).toBe(true);
    expect(mirrorShowsSprint(issue, { name: 'Спринт 5', board: ' ПОДДЕРЖКА ' }, catalogue)).toBe(true);
    expect(mirrorShowsSprint(issue, { name: 'Спринт 5', board: 2 }, catalogue)).toBe(true);
    expect(mirrorShowsSprint(issue, { name: 'Спринт 5', board: 'AURORA board' }, catalogue)).toBe(true);
    // its own board by id, a board the catalogue does not list (another project's)
    expect(mirrorShowsSprint({ ...issue, sprint_board_id: 9 }, { name: 'Спринт 5', board: 9 }, catalogue)).toBe(true);
    // a closed sprint of the name on that board (Jira's sprint field lists it for an issue in the backlog) is not the open one asked for
    expect(mirrorShowsSprint({ ...issue, sprint_id: 30 }, { name: 'Спринт 5', board: 'Поддержка' }, catalogue)).toBe(false);
    const lookup: MirrorLookup = { ...mirrorOf({ 'A-1': baseIssue({ sprint: 'Спринт 5', sprint_id: 25, sprint_board_id: 2 }) }), ...catalogue };
    expect(changesAgainstMirror('ensure_sprint', { key: 'A-1', sprint: 'Спринт 5', board: 'Поддержка' }, lookup)).toEqual([]);
  });
});

describe('isConfirmedByState: ensure_link', () => {
  it.each([
    ['source→target present, no reverse', { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, true],
    ['only the reverse is present (reversed = conflict)', { source: 'A-2', target: 'A-1', link_type: 'Blocks' }, false],
    ['both directions present', { source: 'A-1', target: 'A-3', link_type: 'Relates' }, false],
    ['present with another type only', { source: 'A-1', target: 'A-2', link_type: 'Relates' }, false],
    ['absent both ways', { source: 'A-3', target: 'A-2', link_type: 'Duplicate' }, false],
    ['source→target present, reverse of another type does not matter', { source: 'A-2', target: 'A-3', link_type: 'Blocks' }, true],
  ] as [string, Params, boolean][])('%s → %p', (_name, params, confirmed) => {
    expect(isConfirmedByState('ensure_link', params, mirror)).toBe(confirmed);
  });
});

describe('isConfirmedByState: remove_link and the backlog (SPEC 17.2, 16.2)', () => {
  it.each([
    ['the mirror lacks the link', { source: 'A-2', target: 'A-1', link_type: 'Blocks' }, true],
    ['the mirror has it', { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, false],
  ])('remove_link: %s → %s', (_, params, expected) => {
    expect(isConfirmedByState('remove_link', params, mirror)).toBe(expected);
  });
  it('ensure_sprint null: confirmed when the mirror has no sprint', () => {
    expect(isConfirmedByState('ensure_sprint', { key: 'A-1', sprint: null }, mirrorOf({ 'A-1': baseIssue({ sprint: null }) }))).toBe(true);
    expect(isConfirmedByState('ensure_sprint', { key: 'A-1', sprint: null }, mirror)).toBe(false);
  });
  it('ensure_sprint null: confirmed when the mirror shows a closed sprint only; a move from it into a sprint is from the backlog (decision 1434)', () => {
    const closed = mirrorOf({ 'A-1': baseIssue({ sprint: 'Спринт 0', sprint_id: 3, sprint_board_id: 1, sprint_state: 'closed' }) });
    expect(isConfirmedByState('ensure_sprint', { key: 'A-1', sprint: null }, closed)).toBe(true);
    expect(changesAgainstMirror('ensure_sprint', { key: 'A-1', sprint: 'Спринт 2' }, closed)).toEqual([{ field: 'sprint', from: null, to: 'Спринт 2' }]);
    // the closed sprint's own name: from the backlog too (the checks refuse it: no open sprint of the name)
    expect(changesAgainstMirror('ensure_sprint', { key: 'A-1', sprint: 'Спринт 0' }, closed)).toEqual([{ field: 'sprint', from: null, to: 'Спринт 0' }]);
  });
});

describe('isConfirmedByState: never confirmed types', () => {
  it('lists exactly ensure_issue, ensure_comment, refresh, refresh_catalogue, remove_comment and delete_issue', () => {
    expect([...NEVER_CONFIRMED].sort()).toEqual(['delete_issue', 'ensure_comment', 'ensure_issue', 'refresh', 'refresh_catalogue', 'remove_comment']);
  });

  it.each([
    ['ensure_issue whose issue is in the mirror with that summary', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт', key: 'A-1' }],
    ['ensure_comment on a mirrored issue', 'ensure_comment', { key: 'A-1', body: 'b' }],
    ['refresh of mirrored keys', 'refresh', { keys: ['A-1', 'A-2'] }],
  ] as [string, CommandType, Params][])('%s → false', (_name, type, params) => {
    expect(isConfirmedByState(type, params, mirror)).toBe(false);
  });
});

describe('isConfirmedByState: issue missing from the mirror', () => {
  it.each([
    ['ensure_fields', { key: 'A-99', labels: [] }],
    ['ensure_fields, desired null', { key: 'A-99', duedate: null }],
    ['ensure_status', { key: 'A-99', path: ['В работе'] }],
    ['ensure_sprint', { key: 'A-99', sprint: 'Спринт 2' }],
  ] as [CommandType, Params][])('%s → false', (type, params) => {
    expect(isConfirmedByState(type, params, mirror)).toBe(false);
  });
});
