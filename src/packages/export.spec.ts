import { describe, expect, it } from '@jest/globals';
import { readLinks, readNotes } from '../import/index.js';
import type { PackageMirrorIssue } from '../mirror/index.js';
import { boardOfSprint, parseExportJql, unwritableLabels, unwritableSummaries, writePackage } from './export.js';
import { readIssues } from './issues-reader.js';

describe('parseExportJql: the JQL an export understands over the mirror', () => {
  it.each([
    ['project = AURORA', { project: 'AURORA' }],
    ['project = aurora ORDER BY key', { project: 'AURORA' }],
    ['project = AURORA AND sprint = "Спринт 2"', { project: 'AURORA', sprint: 'Спринт 2' }],
    ['key in (A-1, "A-2",a-3)', { keys: ['A-1', 'A-2', 'A-3'] }],
    ['key = A-7 and status = \'In Progress\'', { keys: ['A-7'], status: 'In Progress' }],
    ['issuetype = Epic AND assignee = ivanov AND labels = q4', { issue_type: 'Epic', assignee: 'ivanov', label: 'q4' }],
  ])('%s', (jql, filter) => {
    expect(parseExportJql(jql)).toEqual(filter);
  });

  it.each([
    ['', 'пустой JQL'],
    ['project = A OR project = B', 'только AND'],
    ['summary ~ "отчёт"', 'не понимает'],
    ['status in (Done, "To Do")', 'не понимает'],
    // A JQL function is named as what the export does not understand, not as «only AND between conditions».
    ['assignee = currentUser()', 'функций JQL (currentUser() и других) выгрузка из зеркала не понимает'],
    ['project = A AND sprint in openSprints()', 'функций JQL (openSprints() и других)'],
    ['project = A AND assignee != currentUser()', 'функций JQL (currentUser() и других)'],
  ])('%j → a 422 in Russian', (jql, words) => {
    expect(() => parseExportJql(jql)).toThrow(words);
  });
});

describe('writePackage: the files read back as what the mirror holds', () => {
  const issue: PackageMirrorIssue = {
    key: 'A-2',
    summary: 'Отчёт; "квартальный"',
    issue_type: 'Task',
    status: 'In Progress',
    sprint: 'Спринт 1',
    assignee: '557058:f0000000-0000-0000-0000-000000000002',
    priority: 'High',
    duedate: '2026-12-15',
    labels: ['finance', 'q4'],
    parent: 'A-1',
    synced_at: null,
  };
  it('issues.csv, links.csv and notes.csv', () => {
    const files = writePackage([issue, { ...issue, key: 'A-3', summary: ' с пробелом ', labels: [], parent: null, duedate: null }], [{ source_key: 'A-2', target_key: 'A-3', link_type: 'Blocks' }], [
      { key: 'A-2', fact_status: 'в работе', comment: 'строка 1\nстрока 2' },
    ]);
    expect(files['issues.csv'].split('\r\n')[0]).toBe('Ключ;Тип;Тема;Родитель;Срок;Метки;Исполнитель;Приоритет;Статус;Спринт;Доска');
    const [a2, a3] = readIssues(Buffer.from(files['issues.csv']));
    const { row: _r, columns: _c, ...wish } = a2;
    expect(wish).toEqual({ key: 'A-2', issue_type: 'Task', summary: 'Отчёт; "квартальный"', parent: 'A-1', duedate: '2026-12-15', labels: ['finance', 'q4'], assignee: issue.assignee, priority: 'High', status: 'In Progress', sprint: 'Спринт 1' });
    expect(a3.summary).toBe(' с пробелом '); // quoted: kept as Jira has it
    expect(a3.labels).toBeUndefined();
    expect(readLinks(Buffer.from(files['links.csv']))).toEqual([{ row: 2, from: 'A-2', type: 'Blocks', to: 'A-3', note: null }]);
    expect(readNotes(Buffer.from(files['notes.csv']))).toEqual([{ row: 2, key: 'A-2', fact_status: 'в работе', comment: 'строка 1\nстрока 2' }]);
  });

  it('an issue whose sprint the mirror knows is closed is in the backlog (decision 1434): «Спринт» and «Доска» are left empty, as for one with no sprint', () => {
    const closed = { ...issue, key: 'A-8', sprint: 'Спринт 0', sprint_id: 10, sprint_board_id: 1, sprint_state: 'closed' as const };
    const rows = readIssues(Buffer.from(writePackage([{ ...issue, sprint_state: 'active' }, closed], [], [], new Set(), () => 'AURORA board')['issues.csv']));
    expect(rows.map((r) => [r.key, r.sprint, r.board])).toEqual([
      ['A-2', 'Спринт 1', 'AURORA board'],
      ['A-8', undefined, undefined],
    ]);
  });

  it('a sub-task\'s sprint (its type among the catalogue\'s sub-task types, any letter case) is left empty: no wish, Jira moves it with its parent', () => {
    const rows = readIssues(Buffer.from(writePackage([issue, { ...issue, key: 'A-7', issue_type: 'Sub-task', parent: 'A-2' }], [], [], new Set(['sub-task']))['issues.csv']));
    expect(rows.map((r) => [r.key, r.sprint])).toEqual([
      ['A-2', 'Спринт 1'],
      ['A-7', undefined],
    ]);
  });

  it('«Доска» where the sprint\'s name is on several boards and the mirror knows the issue\'s (decision 1430): the board\'s name, its id when boards share a name, never beside no sprint', () => {
    const catalogue = {
      boards: [{ id: 1, name: 'AURORA board', type: 'scrum' }, { id: 2, name: 'Поддержка', type: 'scrum' }, { id: 3, name: 'поддержка', type: 'scrum' }],
      sprints: [
        { id: 11, name: 'Спринт 2', state: 'active' as const, board_id: 1 },
        { id: 12, name: 'Спринт 3', state: 'future' as const, board_id: 1 },
        { id: 21, name: 'Спринт 3', state: 'future' as const, board_id: 2 },
        { id: 31, name: 'Спринт 4', state: 'future' as const, board_id: 1 },
        { id: 32, name: 'Спринт 4', state: 'future' as const, board_id: 3 },
      ],
    };
    const rows: [Partial<PackageMirrorIssue>, string | undefined][] = [
      [{ sprint: 'Спринт 3', sprint_id: 12, sprint_board_id: 1 }, 'AURORA board'],
      [{ sprint: 'Спринт 3', sprint_id: '12' as unknown as number, sprint_board_id: 1 }, 'AURORA board'], // PostgreSQL's bigint reads as text
      // «Поддержка» and «поддержка» are one name to the checks (any letter case): the id
      [{ sprint: 'Спринт 3', sprint_id: 21, sprint_board_id: 2 }, '2'],
      [{ sprint: 'Спринт 4', sprint_id: 32, sprint_board_id: 3 }, '3'],
      [{ sprint: 'Спринт 2', sprint_id: 11, sprint_board_id: 1 }, undefined], // one board's only
      [{ sprint: 'Спринт 3', sprint_id: null, sprint_board_id: null }, undefined], // an older agent's refresh
      [{ sprint: 'Спринт 3', sprint_id: 99, sprint_board_id: 9 }, undefined], // a sprint the catalogue does not list (closed)
      [{ sprint: 'Спринт 3', sprint_id: 21, sprint_board_id: 2, issue_type: 'Sub-task' }, undefined], // no sprint written
    ];
    const issues = rows.map(([fields], n) => ({ ...issue, key: `A-${n + 10}`, ...fields }));
    const read = readIssues(Buffer.from(writePackage(issues, [], [], new Set(['sub-task']), boardOfSprint(catalogue))['issues.csv']));
    expect(read.map((r) => r.board)).toEqual(rows.map(([, board]) => board));
    expect(issues.map(boardOfSprint(null))).toEqual(issues.map(() => null));
  });

  it('a summary with a line break (the plan would refuse it) leaves «Тема» empty: read back, no wish', () => {
    const issues = [issue, { ...issue, key: 'A-8', summary: 'первая\nвторая' }];
    expect(unwritableSummaries(issues)).toEqual(['A-8']);
    const rows = readIssues(Buffer.from(writePackage(issues, [], [])['issues.csv']));
    expect(rows.map((r) => [r.key, r.summary])).toEqual([
      ['A-2', 'Отчёт; "квартальный"'],
      ['A-8', undefined],
    ]);
  });

  it('labels a package cannot hold (a comma or a space inside one) leave the cell empty: read back, the package wishes nothing of them', () => {
    const issues = [issue, { ...issue, key: 'A-4', labels: ['q4', 'a,b'] }, { ...issue, key: 'A-5', labels: ['два слова'] }, { ...issue, key: 'A-6', labels: ['ok-label'] }];
    expect(unwritableLabels(issues)).toEqual(['A-4', 'A-5']);
    const read = readIssues(Buffer.from(writePackage(issues, [], [])['issues.csv']));
    expect(read.map((r) => [r.key, r.labels])).toEqual([
      ['A-2', ['finance', 'q4']],
      ['A-4', undefined],
      ['A-5', undefined],
      ['A-6', ['ok-label']],
    ]);
  });
});
