import { describe, expect, it } from '@jest/globals';
import type { Catalogue } from '@jira-hub/contracts';
import { PackageError, readLinks } from '../import/index.js';
import type { PackageMirrorIssue } from '../mirror/index.js';
import { readIssues } from './issues-reader.js';
import { keysToRead, planPackage, type PlanInput } from './plan.js';

const NOW = new Date('2026-12-02T10:00:00.000Z');
const LINK_TYPES = { блокирует: 'Blocks', связанные: 'Relates' };

const issue = (key: string, over: Partial<PackageMirrorIssue> = {}): PackageMirrorIssue => ({
  key,
  summary: `Задача ${key}`,
  issue_type: 'Task',
  status: 'To Do',
  sprint: null,
  assignee: null,
  priority: 'Medium',
  duedate: null,
  labels: [],
  parent: null,
  synced_at: '2026-12-02T09:00:00.000Z',
  ...over,
});

function input(issuesCsv: string, linksCsv = '', mirror: PackageMirrorIssue[] = [], links: [string, string, string][] = [], tempKeys: Record<string, string> = {}): PlanInput {
  const byKey = new Map(mirror.map((i) => [i.key, i]));
  const linkSet = new Set(links.map((l) => l.join('|')));
  return {
    issues: issuesCsv ? readIssues(Buffer.from(issuesCsv)) : [],
    links: linksCsv ? readLinks(Buffer.from(linksCsv)) : [],
    tempKeys: new Map(Object.entries(tempKeys)),
    linkTypes: LINK_TYPES,
    mirror: { issue: (k) => byKey.get(k), has: (k) => byKey.has(k), hasLink: (s, t, type) => linkSet.has([s, t, type].join('|')) },
    now: NOW,
  };
}

const HEADER = 'Ключ;Тип;Тема;Родитель;Срок;Метки;Исполнитель;Приоритет;Статус;Спринт;Доска';
const MIRROR = [
  issue('A-1', { issue_type: 'Epic', summary: 'Эпик' }),
  issue('A-2', { duedate: '2026-12-01', labels: ['x', 'y'], status: 'In Progress', sprint: 'Спринт 1', parent: 'A-1' }),
  issue('A-3', { synced_at: '2026-12-02T08:00:00.000Z' }),
];
const LINKS: [string, string, string][] = [['A-2', 'A-3', 'Blocks']];

const commands = (i: PlanInput) => planPackage(i).commands.map((c) => [c.type, c.params]);

describe('planPackage: only the differences', () => {
  it.each<[string, string, string, unknown[]]>([
    ['a package Jira already matches → no commands', `${HEADER}\nA-2;Task;Задача A-2;A-1;2026-12-01;y x;;Medium;In Progress;Спринт 1;\nA-3;;;;;;;;;;`, 'Откуда;Тип;Куда\nA-2;блокирует;A-3', []],
    ['empty cells are no wish', `${HEADER}\nA-2;;;;;;;;;;\nA-3;;;;;;;;;;`, '', []],
    ['letter case of status and sprint is no difference', `${HEADER}\nA-2;;;;;;;;in progress;спринт 1;`, '', []],
    // (spaces inside quotes: csv-parse trims only unquoted cells)
    ['a priority in another case or with spaces is no difference', `${HEADER}\nA-2;;;;;;;medium;;;\nA-3;;;;;;;" MEDIUM ";;;`, '', []],
    ['another priority is one', `${HEADER}\nA-2;;;;;;;High;;;`, '', [['ensure_fields', { key: 'A-2', priority: 'High' }]]],
    ['a due date', `${HEADER}\nA-2;;;;2026-12-20;;;;;;`, '', [['ensure_fields', { key: 'A-2', duedate: '2026-12-20' }]]],
    ['labels compared as sets', `${HEADER}\nA-2;;;;;x z;;;;;`, '', [['ensure_fields', { key: 'A-2', labels: ['x', 'z'] }]]],
    [
      'several fields of one issue in one ensure_fields',
      `${HEADER}\nA-3;;Новая тема;;2026-12-31;;ivanov;High;;;`,
      '',
      [['ensure_fields', { key: 'A-3', summary: 'Новая тема', duedate: '2026-12-31', assignee: 'ivanov', priority: 'High' }]],
    ],
    ['a status', `${HEADER}\nA-3;;;;;;;;In Progress;;`, '', [['ensure_status', { key: 'A-3', to: 'In Progress' }]]],
    ['a sprint with its board', `${HEADER}\nA-3;;;;;;;;;Спринт 2;AURORA board`, '', [['ensure_sprint', { key: 'A-3', sprint: 'Спринт 2', board: 'AURORA board' }]]],
    ['a board id', `${HEADER}\nA-3;;;;;;;;;Спринт 2;7`, '', [['ensure_sprint', { key: 'A-3', sprint: 'Спринт 2', board: 7 }]]],
    ['a missing link, the type translated', '', 'Откуда;Тип;Куда\nA-3;связанные;A-1', [['ensure_link', { source: 'A-3', target: 'A-1', link_type: 'Relates' }]]],
    ['a link written twice is one command', '', 'Откуда;Тип;Куда\nA-3;связанные;A-1\nA-3;Relates;A-1', [['ensure_link', { source: 'A-3', target: 'A-1', link_type: 'Relates' }]]],
    ['a reversed link is a finding, not a command', '', 'Откуда;Тип;Куда\nA-3;блокирует;A-2', []],
    ['a row with an empty end is skipped', '', 'Откуда;Тип;Куда\nA-3;блокирует;', []],
  ])('%s', (_name, issuesCsv, linksCsv, expected) => {
    expect(commands(input(issuesCsv, linksCsv, MIRROR, LINKS))).toEqual(expected);
  });

  it('a changed value is sent as Jira writes it: the catalogue\'s name of a priority, status or sprint, an assignee trimmed', () => {
    const known = { priorities: ['High', 'Medium'], statuses: ['To Do', 'In Progress', 'Done'], sprints: ['Спринт 2'] };
    const plan = planPackage({ ...input(`${HEADER}\nA-3;;;;;;" petrov ";" high ";done;спринт 2 ;`, '', MIRROR, LINKS), known });
    expect(plan.commands.map((c) => [c.type, c.params])).toEqual([
      ['ensure_fields', { key: 'A-3', assignee: 'petrov', priority: 'High' }],
      ['ensure_status', { key: 'A-3', to: 'Done' }],
      ['ensure_sprint', { key: 'A-3', sprint: 'Спринт 2' }],
    ]);
    expect(plan.findings).toEqual([]);
  });

  it('an assignee with spaces around (inside quotes) is the same assignee', () => {
    const mirror = [...MIRROR.slice(0, 2), issue('A-3', { assignee: 'ivanov' })];
    expect(commands(input(`${HEADER}\nA-3;;;;;;" ivanov ";;;;`, '', mirror, LINKS))).toEqual([]);
    expect(commands(input(`${HEADER}\nA-3;;;;;;petrov;;;;`, '', mirror, LINKS))).toEqual([['ensure_fields', { key: 'A-3', assignee: 'petrov' }]]);
  });

  // With the project's catalogue a link type reads as the submit reads it (checkLink): Jira's name in any
  // letter case, its outward words, or its inward words with the ends swapped.
  const withCatalogue = (linksCsv: string, mirrorLinks: [string, string, string][]): PlanInput => ({
    ...input('', linksCsv, MIRROR, mirrorLinks),
    catalogue: {
      link_types: [
        { id: '1', name: 'Blocks', outward: 'blocks', inward: 'is blocked by' },
        { id: '2', name: 'Relates', outward: 'relates to', inward: 'relates to' },
      ],
    } as unknown as PlanInput['catalogue'],
  });
  it.each<[string, string, [string, string, string][], unknown[]]>([
    ['inward words: the ends swapped, the link exists', 'Откуда;Тип;Куда\nA-3;is blocked by;A-2', [['A-2', 'A-3', 'Blocks']], []],
    ["Jira's name in lower case, the link exists", 'Откуда;Тип;Куда\nA-2;blocks;A-3', [['A-2', 'A-3', 'Blocks']], []],
    ['symmetric words, the link exists', 'Откуда;Тип;Куда\nA-2;relates to;A-1', [['A-2', 'A-1', 'Relates']], []],
    ['inward words for a missing link: the command as the submit stores it', 'Откуда;Тип;Куда\nA-1;is blocked by;A-3', [], [['ensure_link', { source: 'A-3', target: 'A-1', link_type: 'Blocks' }]]],
    ['a type the catalogue does not know stays as written (the dry run names it)', 'Откуда;Тип;Куда\nA-1;duplicates;A-3', [], [['ensure_link', { source: 'A-1', target: 'A-3', link_type: 'duplicates' }]]],
    ['one missing link written by outward and by inward words: one command', 'Откуда;Тип;Куда\nA-1;blocks;A-3\nA-3;is blocked by;A-1', [], [['ensure_link', { source: 'A-1', target: 'A-3', link_type: 'Blocks' }]]],
    ['one missing symmetric link written either way: one command', 'Откуда;Тип;Куда\nA-1;relates to;A-3\nA-3;Relates;A-1', [], [['ensure_link', { source: 'A-1', target: 'A-3', link_type: 'Relates' }]]],
  ])('links with the catalogue: %s', (_name, linksCsv, mirrorLinks, expected) => {
    const plan = planPackage(withCatalogue(linksCsv, mirrorLinks));
    expect(plan.commands.map((c) => [c.type, c.params])).toEqual(expected);
    expect(plan.links.filter((l) => l.state === 'missing')).toHaveLength(expected.length);
  });

  it('a resolved temp key is compared as its Jira key (the queue\'s mapping)', () => {
    const i = input(`${HEADER}\nnew:4;Task;Задача A-3;;2026-12-31;;;;;;`, 'Откуда;Тип;Куда\nnew:4;блокирует;A-1', MIRROR, LINKS, { 'new:4': 'A-3' });
    expect(commands(i)).toEqual([
      ['ensure_fields', { key: 'A-3', duedate: '2026-12-31' }],
      ['ensure_link', { source: 'A-3', target: 'A-1', link_type: 'Blocks' }],
    ]);
  });
});

describe('planPackage: an order that works', () => {
  it('issues before their fields, parents before children, links after both ends exist', () => {
    const csv = `${HEADER}
new:3;Sub-task;Подзадача;new:2;2026-12-10;;;;In Progress;;
new:2;Story;История;new:1;;;;;;Спринт 2;
new:1;Epic;Эпик 2;;;q4;;;;;`;
    const i = input(csv, 'Откуда;Тип;Куда\nnew:3;блокирует;A-2\nA-3;связанные;new:1', MIRROR, LINKS);
    expect(commands(i)).toEqual([
      ['ensure_issue', { temp_key: 'new:1', issue_type: 'Epic', summary: 'Эпик 2' }],
      ['ensure_issue', { temp_key: 'new:2', issue_type: 'Story', summary: 'История', parent: 'new:1' }],
      ['ensure_issue', { temp_key: 'new:3', issue_type: 'Sub-task', summary: 'Подзадача', parent: 'new:2' }],
      ['ensure_fields', { key: 'new:3', duedate: '2026-12-10' }],
      ['ensure_status', { key: 'new:3', to: 'In Progress' }],
      ['ensure_sprint', { key: 'new:2', sprint: 'Спринт 2' }],
      ['ensure_fields', { key: 'new:1', labels: ['q4'] }],
      ['ensure_link', { source: 'new:3', target: 'A-2', link_type: 'Blocks' }],
      ['ensure_link', { source: 'A-3', target: 'new:1', link_type: 'Relates' }],
    ]);
  });
});

describe('planPackage: findings', () => {
  it('a reversed link, a type and a parent Jira has otherwise, a key the mirror lacks', () => {
    const csv = `${HEADER}\nA-2;Bug;;A-3;;;;;;;\nA-9;;;;2026-12-01;;;;;;`;
    const plan = planPackage(input(csv, 'Откуда;Тип;Куда\nA-3;блокирует;A-2\nA-3;блокирует;A-8', MIRROR, LINKS));
    expect(plan.commands).toEqual([]);
    expect(plan.findings.map((f) => [f.file, f.row, f.column, f.code])).toEqual([
      ['issues.csv', 2, 'Тип', 'issue_type_differs'],
      ['issues.csv', 2, 'Родитель', 'parent_differs'],
      ['issues.csv', 3, 'Ключ', 'unknown_key'],
      ['links.csv', 2, undefined, 'reversed_link'],
      ['links.csv', 3, undefined, 'unknown_key'],
    ]);
    expect(plan.findings[3].detail).toContain('A-2 → A-3');
    expect(plan.links).toEqual([{ row: 2, source: 'A-3', target: 'A-2', link_type: 'Blocks', state: 'reversed' }]);
  });
});

describe('planPackage: a link of a symmetric type (Relates) either way is the link', () => {
  const catalogue = {
    link_types: [
      { id: '1', name: 'Blocks', outward: 'blocks', inward: 'is blocked by' },
      { id: '2', name: 'Relates', outward: 'relates to', inward: 'relates to' },
    ],
  } as unknown as Catalogue;
  const links: [string, string, string][] = [...LINKS, ['A-2', 'A-3', 'Relates']];
  it('Jira holds A-2 Relates A-3, the package A-3 Relates A-2: no command, no finding, no drift; a directional type still reversed', () => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;;;;;;;`, 'Откуда;Тип;Куда\nA-3;Relates;A-2\nA-3;Blocks;A-2', MIRROR, links), catalogue });
    expect(plan.commands).toEqual([]);
    expect(plan.findings.map((f) => [f.row, f.code])).toEqual([[3, 'reversed_link']]);
    expect(plan.links).toEqual([{ row: 3, source: 'A-3', target: 'A-2', link_type: 'Blocks', state: 'reversed' }]);
  });
});

describe('planPackage: a new row the agent would not create', () => {
  const base = input(`${HEADER}\nnew:1;Story;Наша история;;;;;;;;\nnew:2;Sub-task;Тесты;new:1;;;;;In Progress;;`);
  it('a summary an issue of the mirror has: the agent would take that issue and change it — a finding naming it', () => {
    const plan = planPackage({ ...base, mirror: { ...base.mirror, sameSummary: (s) => (s === 'Тесты' ? ['A-2'] : []) } });
    expect(plan.findings).toEqual([
      {
        file: 'issues.csv',
        row: 3,
        column: 'Тема',
        code: 'summary_exists',
        detail: 'в зеркале уже есть задача с темой «Тесты»: A-2 — new:2 не создастся, агент возьмёт A-2 и изменит её по этой строке; для новой задачи дайте строке другую тему, а чтобы менять эту, напишите в строке её ключ',
      },
    ]);
  });
  it('several such issues: the oldest is the one taken; issues of another project do not count', () => {
    const sameSummary = (s: string) => (s === 'Тесты' ? ['A-12', 'B-1', 'A-2'] : []);
    const plan = planPackage({ ...base, project: 'A', mirror: { ...base.mirror, sameSummary } });
    expect(plan.findings.map((f) => f.detail)).toEqual([expect.stringMatching(/^в зеркале уже есть задачи с темой «Тесты»: A-2, A-12 — new:2 не создастся, агент возьмёт A-2 /)]);
    const elsewhere = planPackage({ ...base, project: 'C', mirror: { ...base.mirror, sameSummary } });
    expect(elsewhere.findings).toEqual([]);
  });
  it('a temp key an unfinished batch defines with another summary: a second issue — a finding naming that batch', () => {
    const plan = planPackage({ ...base, pendingTempKeys: new Map([['new:1', { batchId: 7, summary: 'Чужая история' }]]) });
    expect(plan.findings.map((f) => [f.row, f.column, f.code, f.detail])).toEqual([
      [2, 'Ключ', 'temp_key_pending', 'временный ключ new:1 уже создаёт пакет команд #7 (тема «Чужая история»), он ещё не выполнен: этот план создал бы вторую задачу — дождитесь пакета #7 (или отмените его) и постройте план снова'],
    ]);
  });
  it('… with the same summary: the agent would take that issue by its summary, no second one — no finding', () => {
    expect(planPackage({ ...base, pendingTempKeys: new Map([['new:1', { batchId: 7, summary: 'Наша история ' }]]) }).findings).toEqual([]);
  });
});

describe('planPackage: a summary in another Unicode spelling', () => {
  it('a decomposed «й» in the file is the composed one the mirror keeps: no change', () => {
    const plan = planPackage(input(`${HEADER}\nA-3;;Новыи\u0306 отчёт;;;;;;;;`, '', [issue('A-3', { summary: 'Новый отчёт' })]));
    expect(plan.commands).toEqual([]);
  });
});

describe('planPackage: a new epic\'s required Epic Name is its summary (decision 1424)', () => {
  const catalogue = (name: string, custom: string | undefined, required = true) =>
    ({
      issue_types: [{ id: '10003', name: 'Epic', subtask: false, hierarchy_level: 1 }],
      fields: [{ id: 'customfield_10011', name, schema: custom ? { type: 'string', custom } : { type: 'string' } }],
      per_type: { '10003': { create: [{ field_id: 'customfield_10011', name, required, has_default: false }], edit: null, statuses: [], transitions: [] } },
    }) as unknown as Catalogue;
  const epic = (cat: Catalogue) => planPackage({ ...input(`${HEADER}\nnew:1;Epic;Годовой отчёт;;;;;;;;`), catalogue: cat }).commands[0]!.params;
  it.each<[string, Catalogue, object | undefined]>([
    ['the field by its type, whatever the site calls it', catalogue('Название эпика', 'com.pyxis.greenhopper.jira:gh-epic-label'), { customfield_10011: 'Годовой отчёт' }],
    ['by its English name when the catalogue has no type for it', catalogue('Epic Name', undefined), { customfield_10011: 'Годовой отчёт' }],
    ['not required (Cloud): left out', catalogue('Epic Name', 'com.pyxis.greenhopper.jira:gh-epic-label', false), undefined],
    ['another required field: left to the checks', catalogue('Команда', 'com.example:team'), undefined],
  ])('%s', (_, cat, fields) => {
    expect(epic(cat).fields).toEqual(fields);
  });
});

describe('planPackage: a sprint name on several boards (decisions 1423, 1430)', () => {
  const catalogue = {
    boards: [
      { id: 1, name: 'AURORA board' },
      { id: 2, name: 'Поддержка' },
    ],
    sprints: [
      { id: 1, name: 'Спринт 1', state: 'active', board_id: 1 },
      { id: 4, name: 'Спринт 1', state: 'future', board_id: 2 },
      { id: 2, name: 'Спринт 2', state: 'future', board_id: 1 },
    ],
  } as unknown as Catalogue;

  it.each<[string, string, Catalogue | undefined, [string, object][], string[]]>([
    // A-2 is in «Спринт 1» by the mirror, whose row has no sprint id (an older agent refreshed it): whose, only Jira can tell
    ['the same name, a board named, the name on two boards: ensure_sprint for Jira to settle, with a finding', 'Спринт 1;AURORA board', catalogue, [['ensure_sprint', { key: 'A-2', sprint: 'Спринт 1', board: 'AURORA board' }]], ['sprint_board_unknown']],
    ['the same name on one board only: nothing to do', 'Спринт 1;AURORA board', { ...catalogue, sprints: catalogue.sprints.slice(0, 1) } as Catalogue, [], []],
    ['the same name without a board: nothing to do (the package does not ask for a board)', 'Спринт 1;', catalogue, [], []],
    ['without a catalogue: nothing to do', 'Спринт 1;AURORA board', undefined, [], []],
  ])('%s', (_, cells, cat, expected, findings) => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;;;;;;${cells}`, '', MIRROR), catalogue: cat });
    expect(plan.commands.map((c) => [c.type, c.params])).toEqual(expected);
    expect(plan.findings.map((f) => f.code)).toEqual(findings);
    // Drift compares only what the mirror can tell: no difference either way.
    expect(plan.differences).toEqual([]);
  });

  it('the finding names the boards and says Jira settles it', () => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;;;;;;Спринт 1;AURORA board`, '', MIRROR), catalogue });
    expect(plan.findings).toEqual([
      {
        file: 'issues.csv',
        row: 2,
        column: 'Спринт',
        code: 'sprint_board_unknown',
        detail: 'A-2: спринт «Спринт 1» есть на нескольких досках («AURORA board», «Поддержка»), а зеркало знает у задачи только имя спринта, не его id (её обновлял агент старой версии) — в каком из них она, видно лишь в Jira: ensure_sprint сверит и перенесёт её в спринт доски «AURORA board», если она не там',
      },
    ]);
    expect(plan.commands[0]!.changes).toEqual([{ field: 'sprint', from: 'Спринт 1', to: 'Спринт 1' }]);
  });

  // The mirror knows the sprint's id (decision 1430): the plan and drift compare exactly, by the catalogue's sprints of the board.
  const inSprint = (id: number, board: number) => [MIRROR[0]!, { ...MIRROR[1]!, sprint_id: id, sprint_board_id: board }, MIRROR[2]!];
  it.each<[string, number, number, string, Catalogue | undefined, [string, object][], { wanted: string; actual: string } | null]>([
    ["in board 1's «Спринт 1», the row asks for board 1's (by name): nothing to do, no finding", 1, 1, 'Спринт 1;AURORA board', catalogue, [], null],
    ["in board 1's «Спринт 1», the row asks for board 1's (by id)", 1, 1, 'Спринт 1;1', catalogue, [], null],
    [
      "in board 2's «Спринт 1», the row asks for board 1's: ensure_sprint, and a difference drift shows",
      4,
      2,
      'Спринт 1;AURORA board',
      catalogue,
      [['ensure_sprint', { key: 'A-2', sprint: 'Спринт 1', board: 'AURORA board' }]],
      { wanted: 'Спринт 1 (доска «AURORA board»)', actual: 'Спринт 1 (доска «Поддержка»)' },
    ],
    [
      'with a catalogue, a board given by its id is named as the catalogue names it',
      4,
      2,
      'Спринт 1;1',
      catalogue,
      [['ensure_sprint', { key: 'A-2', sprint: 'Спринт 1', board: 1 }]],
      { wanted: 'Спринт 1 (доска «AURORA board»)', actual: 'Спринт 1 (доска «Поддержка»)' },
    ],
    ["without a catalogue, a board by its id is the mirror's board: board 2's is not board 1's", 4, 2, 'Спринт 1;1', undefined, [['ensure_sprint', { key: 'A-2', sprint: 'Спринт 1', board: 1 }]], { wanted: 'Спринт 1 (доска 1)', actual: 'Спринт 1 (доска 2)' }],
    ['without a catalogue, a board by its name cannot be told: nothing to do (as before)', 4, 2, 'Спринт 1;AURORA board', undefined, [], null],
  ])('%s', (_, id, board, cells, cat, expected, difference) => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;;;;;;${cells}`, '', inSprint(id, board)), catalogue: cat });
    expect(plan.commands.map((c) => [c.type, c.params])).toEqual(expected);
    expect(plan.findings).toEqual([]);
    expect(plan.differences).toEqual(difference ? [{ key: 'A-2', jira_key: 'A-2', row: 2, field: 'sprint', ...difference }] : []);
  });

  // A sprint shown on two boards: Jira names its own board (boardId / rapidViewId, in the mirror), the catalogue lists
  // it once, under the first board that shows it. «Спринт 5» (sprint 25) is Поддержка's, listed under AURORA board.
  const shared = { ...catalogue, sprints: [...catalogue.sprints, { id: 25, name: 'Спринт 5', state: 'active', board_id: 1 }] } as unknown as Catalogue;
  const inShared = [MIRROR[0]!, { ...MIRROR[1]!, sprint: 'Спринт 5', sprint_id: 25, sprint_board_id: 2 }, MIRROR[2]!];
  it.each<[string, string, [string, object][]]>([
    ['its own board by name: nothing to do', 'Спринт 5;Поддержка', []],
    ['its own board by name, another letter case and spaces', 'Спринт 5; поддержка ', []],
    ['its own board by id', 'Спринт 5;2', []],
    ['the board the catalogue lists it under', 'Спринт 5;AURORA board', []],
  ])('a shared sprint, the mirror in it, the row asks for %s', (_, cells, expected) => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;;;;;;${cells}`, '', inShared), catalogue: shared });
    expect(plan.commands.map((c) => [c.type, c.params])).toEqual(expected);
    expect(plan.findings).toEqual([]);
    expect(plan.differences).toEqual([]);
  });
});

describe('planPackage: the age of the mirror and the refresh offered first', () => {
  it('names exactly the keys compared (and those the mirror lacks), with the oldest sync of the issues whose fields it compares', () => {
    const plan = planPackage(input(`${HEADER}\nA-2;;;;;;;;;;\nA-9;;;;;;;;;;`, 'Откуда;Тип;Куда\nA-3;связанные;A-1', MIRROR, LINKS));
    expect(plan.mirror).toEqual({ keys: ['A-1', 'A-2', 'A-3'], missing_keys: ['A-9'], gone_keys: [], oldest_synced_at: '2026-12-02T09:00:00.000Z', age_seconds: 3600 });
    expect(plan.refresh).toEqual({ type: 'refresh', params: { keys: ['A-1', 'A-2', 'A-3', 'A-9'] } });
  });

  it('a key a refresh found gone from Jira is neither compared nor missing, and no refresh is offered for it', () => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;2027-01-01;;;;;;\nA-9;;;;;;;;;;`, '', MIRROR, LINKS), mirror: { ...input('', '', MIRROR, LINKS).mirror, issue: (k) => (k === 'A-2' ? undefined : MIRROR.find((i) => i.key === k)), gone: (k) => (k === 'A-2' ? 17 : undefined) } });
    expect(plan.commands).toEqual([]);
    expect(plan.mirror).toMatchObject({ keys: [], missing_keys: ['A-9'], gone_keys: ['A-2'] });
    expect(plan.refresh).toEqual({ type: 'refresh', params: { keys: ['A-9'] } });
    expect(plan.findings.map((f) => [f.code, f.row])).toEqual([
      ['gone_from_jira', 2],
      ['unknown_key', 3],
    ]);
    expect(plan.findings[0]!.detail).toBe('задачи A-2 в Jira больше нет: Jira её не нашла (чтение #17 в /sync-runs; удалена, перенесена в другой проект или скрыта от агента); строку не сравниваем — уберите её из пакета или создайте задачу заново');
  });

  it('an empty package offers no refresh', () => {
    expect(planPackage(input('', '', MIRROR)).refresh).toBeNull();
  });
});

describe('planPackage: errors name the file, the row and the column', () => {
  const error = (i: () => PlanInput): PackageError => {
    try {
      planPackage(i());
    } catch (err) {
      expect(err).toBeInstanceOf(PackageError);
      return err as PackageError;
    }
    throw new Error('expected a PackageError');
  };

  it.each<[string, () => PlanInput, string, number, string, string]>([
    ['a temp key used as a parent that no row defines', () => input(`${HEADER}\nnew:1;Task;Отчёт;new:7;;;;;;;`), 'issues.csv', 2, 'Родитель', 'временный ключ new:7 не определён'],
    ['a temp key used in links.csv that no row defines', () => input(`${HEADER}\nA-3;;;;;;;;;;`, 'Откуда;Тип;Куда\nA-3;блокирует;new:5', MIRROR), 'links.csv', 2, 'Куда', 'временный ключ new:5 не определён'],
    ['a temp key as a row key no earlier batch resolved… is a new issue, but as a link source without a row it is undefined', () => input('', 'Откуда;Тип;Куда\nnew:2;блокирует;A-3', MIRROR), 'links.csv', 2, 'Откуда', 'new:2'],
    [
      'a cycle of parents',
      () => input(`${HEADER}\nnew:1;Task;Один;new:3;;;;;;;\nnew:2;Task;Два;new:1;;;;;;;\nnew:3;Task;Три;new:2;;;;;;;`),
      'issues.csv',
      2,
      'Родитель',
      'цикл родителей: new:1 → new:3 → new:2 → new:1',
    ],
    [
      'an unknown column value (the catalogue\'s statuses)',
      () => ({ ...input(`${HEADER}\nA-3;;;;;;;;Закрыто;;`, '', MIRROR), known: { statuses: ['To Do', 'In Progress', 'Done'] } }),
      'issues.csv',
      2,
      'Статус',
      'статус «Закрыто» Jira не знает; известны: To Do, In Progress, Done',
    ],
    [
      'an unknown issue type',
      () => ({ ...input(`${HEADER}\nnew:1;Задачка;Отчёт;;;;;;;;`), known: { issue_types: ['Task', 'Epic'] } }),
      'issues.csv',
      2,
      'Тип',
      'тип задачи «Задачка» Jira не знает',
    ],
    [
      'an unknown sprint a command would set',
      () => ({ ...input(`${HEADER}\nA-3;;;;;;;;;Спринт 9;`, '', MIRROR), known: { sprints: ['Спринт 1', 'Спринт 2'] } }),
      'issues.csv',
      2,
      'Спринт',
      'спринт (активный или будущий) «Спринт 9» Jira не знает',
    ],
    [
      'a temp key the hub has created, and that issue\'s Jira key in a later row: one issue, two rows',
      () => input('Ключ;Тип;Тема;Приоритет\nnew:1;Epic;Годовой отчёт (эпик);High\nA-3;;;Low', '', MIRROR, [], { 'new:1': 'A-3' }),
      'issues.csv',
      3,
      'Ключ',
      'задача A-3 уже есть в строке 2 — под временным ключом new:1, который хаб уже создал как A-3: одна строка на задачу',
    ],
    [
      'a Jira key, and a temp key the hub created as that issue in a later row',
      () => input('key;issue_type;summary;priority\nA-3;;;Low\nnew:1;Epic;Годовой отчёт;High', '', MIRROR, [], { 'new:1': 'A-3' }),
      'issues.csv',
      3,
      'key',
      'временный ключ new:1 хаб уже создал как A-3, а задача A-3 уже есть в строке 2: одна строка на задачу',
    ],
    [
      'two temp keys the hub created as one issue',
      () => input(`${HEADER}\nnew:1;Task;Отчёт;;;;;High;;;\nnew:2;Task;Отчёт 2;;;;;Low;;;`, '', MIRROR, [], { 'new:1': 'A-3', 'new:2': 'A-3' }),
      'issues.csv',
      3,
      'Ключ',
      'временный ключ new:2 хаб уже создал как A-3, а задача A-3 уже есть в строке 2 — под временным ключом new:1: одна строка на задачу',
    ],
  ])('%s', (_name, make, file, row, column, words) => {
    const err = error(make);
    expect([err.file, err.row, err.column]).toEqual([file, row, column]);
    expect(err.message).toContain(`${file}, строка ${row}, столбец «${column}»`);
    expect(err.message).toContain(words);
  });
});

describe('planPackage: every error of the rows at once (decision 0132)', () => {
  it('the first thrown carries each one, in the order planned: unknown values, undefined temp keys, a cycle once', () => {
    const i = {
      ...input(
        `${HEADER}\nnew:1;Task;Один;new:2;;;;;;;\nnew:2;Task;Два;new:1;;;;;;;\nA-3;;;new:8;;;;Срочно;Закрыто;;`,
        'Откуда;Тип;Куда\nnew:5;блокирует;new:6',
        MIRROR,
      ),
      known: { statuses: ['To Do', 'Done'], priorities: ['High'] },
    };
    let thrown: unknown;
    try {
      planPackage(i);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PackageError);
    const all = (thrown as PackageError).all.map((e) => `${e.file}:${e.row}:${e.column} ${e.problem.replace(/: .*/, '')}`);
    expect(all).toEqual([
      'issues.csv:2:Родитель цикл родителей',
      'issues.csv:4:Родитель временный ключ new:8 не определён',
      'issues.csv:4:Приоритет приоритет «Срочно» Jira не знает; известны',
      'issues.csv:4:Статус статус «Закрыто» Jira не знает; известны',
      'links.csv:2:Откуда временный ключ new:5 не определён',
      'links.csv:2:Куда временный ключ new:6 не определён',
    ]);
    expect((thrown as PackageError).all[0]).toBe(thrown);
  });
});

describe('planPackage: one row per issue, temp keys through the queue\'s mapping', () => {
  it('a temp key not yet created and a Jira key are two issues; a created one beside its Jira key is refused once, nothing planned', () => {
    expect(commands(input(`${HEADER}\nnew:1;Task;Новая;;;;;High;;;\nA-3;;;;;;;Low;;;`, '', MIRROR))).toEqual([
      ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'Новая' }],
      ['ensure_fields', { key: 'new:1', priority: 'High' }],
      ['ensure_fields', { key: 'A-3', priority: 'Low' }],
    ]);
    let thrown: unknown;
    try {
      planPackage(input(`${HEADER}\nnew:1;Task;Новая;;;;;High;;;\nA-3;;;;;;;Low;;;\nA-2;;;;;;;Low;;;`, '', MIRROR, [], { 'new:1': 'A-3' }));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PackageError);
    expect((thrown as PackageError).all.map((e) => [e.file, e.row, e.column])).toEqual([['issues.csv', 3, 'Ключ']]);
  });
});

describe('planPackage: known values are checked only where a command sets them', () => {
  it('a closed sprint or an old status the mirror already shows is no error (an export plans as it is)', () => {
    const i = { ...input(`${HEADER}\nA-2;;;;;;;;In Progress;Спринт 1;`, '', MIRROR), known: { sprints: ['Спринт 2'], statuses: ['To Do', 'Done'] } };
    expect(planPackage(i).commands).toEqual([]);
  });
});

describe('planPackage: a closed sprint only is the backlog (decision 1434)', () => {
  // A-2's sprint field lists «Спринт 2» of another board, closed: it is in the backlog.
  const mirror = [MIRROR[0]!, { ...MIRROR[1]!, sprint: 'Спринт 2', sprint_id: 7, sprint_board_id: 2, sprint_state: 'closed' as const }, MIRROR[2]!];
  it('a row naming an open sprint of that name is a move into it, not «Jira already matches»', () => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;;;;;;Спринт 2;`, '', mirror), known: { sprints: ['Спринт 1', 'Спринт 2'] } });
    expect(plan.commands.map((c) => [c.type, c.params, c.changes])).toEqual([['ensure_sprint', { key: 'A-2', sprint: 'Спринт 2' }, [{ field: 'sprint', from: null, to: 'Спринт 2' }]]]);
  });
  it('a name no open sprint has, or no catalogue to tell: as it is (an older export plans as it is)', () => {
    expect(commands({ ...input(`${HEADER}\nA-2;;;;;;;;;Спринт 2;`, '', mirror), known: { sprints: ['Спринт 1'] } })).toEqual([]);
    expect(commands(input(`${HEADER}\nA-2;;;;;;;;;Спринт 2;`, '', mirror))).toEqual([]);
  });
});

describe('planPackage: a board with no open sprint of the name (decision 1435)', () => {
  // «Спринт 3» is open on AURORA board (8) and closed on Поддержка (9); «Спринт 2» is AURORA board's only.
  const catalogue = {
    boards: [
      { id: 1, name: 'AURORA board' },
      { id: 2, name: 'Поддержка' },
    ],
    sprints: [
      { id: 2, name: 'Спринт 2', state: 'future', board_id: 1 },
      { id: 8, name: 'Спринт 3', state: 'active', board_id: 1 },
      { id: 9, name: 'Спринт 3', state: 'closed', board_id: 2 },
    ],
    issue_types: [],
  } as unknown as Catalogue;
  const known = { sprints: ['Спринт 2', 'Спринт 3'], issue_types: ['Task'] };
  const a2 = (over: Partial<PackageMirrorIssue>) => [MIRROR[0]!, { ...MIRROR[1]!, ...over }, MIRROR[2]!];
  const tail = ' — перенести задачу туда нельзя, поэтому переноса в плане нет: укажите открытый спринт этой доски или другую доску';
  const inOpen3 = a2({ sprint: 'Спринт 3', sprint_id: 8, sprint_board_id: 1, sprint_state: 'active' });
  const inClosed3 = a2({ sprint: 'Спринт 3', sprint_id: 9, sprint_board_id: 2, sprint_state: 'closed' });

  it.each<[string, string, PackageMirrorIssue[], [string, object][], string | null]>([
    [
      "only a closed «Спринт 3» on the row's board, the issue in the other board's open one: no move, a finding",
      'A-2;;;;;;;;;Спринт 3;Поддержка',
      inOpen3,
      [],
      `A-2: на доске «Поддержка» нет активного или будущего спринта «Спринт 3»: спринт «Спринт 3» этой доски закрыт; такой спринт есть на доске «AURORA board»${tail}`,
    ],
    [
      "the issue in that closed sprint itself (the backlog): no move, a finding that says so",
      'A-2;;;;;;;;;Спринт 3;Поддержка',
      inClosed3,
      [],
      `A-2: на доске «Поддержка» нет активного или будущего спринта «Спринт 3»: спринт «Спринт 3» этой доски закрыт, задача в бэклоге; такой спринт есть на доске «AURORA board»${tail}`,
    ],
    [
      'no sprint of the name on the board at all',
      'A-3;;;;;;;;;Спринт 2;Поддержка',
      MIRROR,
      [],
      `A-3: на доске «Поддержка» нет активного или будущего спринта «Спринт 2»; такой спринт есть на доске «AURORA board»${tail}`,
    ],
    [
      'a new issue: created, with no move into the sprint',
      'new:1;Task;Новая;;;;;;;Спринт 2;2',
      MIRROR,
      [['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'Новая' }]],
      `new:1: на доске «Поддержка» нет активного или будущего спринта «Спринт 2»; такой спринт есть на доске «AURORA board»${tail}`,
    ],
    ["the issue already in the open sprint of the name on the row's board: nothing to do", 'A-2;;;;;;;;;Спринт 3;AURORA board', inOpen3, [], null],
    [
      'in the backlog (a closed sprint of the name), the row names the board with the open one: a move',
      'A-2;;;;;;;;;Спринт 3;AURORA board',
      inClosed3,
      [['ensure_sprint', { key: 'A-2', sprint: 'Спринт 3', board: 'AURORA board' }]],
      null,
    ],
  ])('%s', (_, row, mirror, expected, finding) => {
    const plan = planPackage({ ...input(`${HEADER}\n${row}`, '', mirror), catalogue, known });
    expect(plan.commands.map((c) => [c.type, c.params])).toEqual(expected);
    expect(plan.findings).toEqual(finding === null ? [] : [{ file: 'issues.csv', row: 2, column: 'Доска', code: 'sprint_not_on_board', detail: finding }]);
  });

  it('a catalogue the plan does not trust for values (stale, or none): the move as before, the checks judge it', () => {
    expect(commands({ ...input(`${HEADER}\nA-2;;;;;;;;;Спринт 3;Поддержка`, '', inOpen3), catalogue })).toEqual([['ensure_sprint', { key: 'A-2', sprint: 'Спринт 3', board: 'Поддержка' }]]);
  });

  it('a name Jira knows on no board, nor the mirror shows: still the package\'s error', () => {
    expect(() => planPackage({ ...input(`${HEADER}\nA-3;;;;;;;;;Спринт 9;Поддержка`, '', MIRROR), catalogue, known })).toThrow(PackageError);
  });

  it("the issue's sprint of the row's board, closed since (the catalogue no longer lists it): the move's words say so, not the same words twice", () => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;;;;;;Спринт 2;AURORA board`, '', a2({ sprint: 'Спринт 2', sprint_id: 13, sprint_board_id: 1, sprint_state: 'active' })), catalogue, known });
    expect(plan.commands.map((c) => [c.type, c.params, c.changes])).toEqual([
      ['ensure_sprint', { key: 'A-2', sprint: 'Спринт 2', board: 'AURORA board' }, [{ field: 'sprint', from: 'Спринт 2 (доска «AURORA board», закрыт)', to: 'Спринт 2 (доска «AURORA board»)' }]],
    ]);
  });

  it('drift (no values checked): an issue its sprint left in the backlog differs from the backlog, not from the same words', () => {
    const plan = planPackage({ ...input(`${HEADER}\nA-2;;;;;;;;;Спринт 3;Поддержка`, '', inClosed3), catalogue });
    expect(plan.differences).toEqual([{ key: 'A-2', jira_key: 'A-2', row: 2, field: 'sprint', wanted: 'Спринт 3', actual: null }]);
    expect(plan.findings).toEqual([]);
  });
});

describe('keysToRead', () => {
  it('the Jira keys a package names, temp keys through the mapping, each once', () => {
    const issues = readIssues(Buffer.from(`${HEADER}\nA-2;;;A-1;;;;;;;\nnew:1;Task;x;;;;;;;;\nnew:2;Task;y;;;;;;;;`));
    const links = readLinks(Buffer.from('Откуда;Тип;Куда\nA-3;блокирует;new:2\nA-2;блокирует;A-3'));
    expect(keysToRead(issues, links, new Map([['new:2', 'A-7']]))).toEqual({ issues: ['A-2', 'A-7'], ends: ['A-2', 'A-1', 'A-7', 'A-3'] });
  });
});
