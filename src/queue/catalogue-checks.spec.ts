/**
 * The checks of a plan (SPEC 16.2) as tables: a body, the catalogue and the mirror in; findings, stored params and verdicts out.
 * Catalogue's checks (catalogue/checks.ts) with Queue's command rules, so the table lives in Queue, above both.
 */
import { describe, expect, it } from '@jest/globals';
import type { Catalogue } from '@jira-hub/contracts';
import { CATALOGUE } from '../../test/support/catalogue.js';
import type { MirrorIssue, MirrorLookup } from '../mirror/index.js';
import { COMMAND_RULES } from './commands/rules.js';
import { checkCommands, type CheckContext, type PlannedInput } from '../catalogue/index.js';

const ISSUES: Record<string, Partial<MirrorIssue>> = {
  'AURORA-1': { issue_type: 'Task', status: 'To Do', priority: 'Medium', labels: [] },
  'AURORA-2': { issue_type: 'Task', status: 'In Progress', sprint: 'Спринт 2', labels: [] },
  'AURORA-3': { issue_type: 'Sub-task', status: 'To Do', labels: [], fields: { parent: 'AURORA-1' } },
};
const mirror: MirrorLookup = {
  issue: (key) => (ISSUES[key] ? ({ summary: 's', sprint: null, duedate: null, assignee: null, priority: null, fields: {}, labels: [], status: null, ...ISSUES[key] } as MirrorIssue) : undefined),
  hasLink: (s, t, type) => s === 'AURORA-1' && t === 'AURORA-2' && type === 'Blocks',
};

function run(commands: PlannedInput[], extra: Partial<CheckContext> = {}) {
  return checkCommands(commands, {
    rules: COMMAND_RULES,
    catalogue: CATALOGUE,
    stale: false,
    customFields: ['Story Points', 'customfield_10030'],
    linkWords: { блокирует: 'Blocks', связанные: 'Relates' },
    mirror,
    resolved: new Map([['new:9', 'AURORA-2']]),
    ...extra,
  });
}
const issue = (params: Record<string, unknown>): PlannedInput => ({ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт', ...params } });
const fields = (params: Record<string, unknown>): PlannedInput => ({ type: 'ensure_fields', params: { key: 'AURORA-1', ...params } });
const status = (params: Record<string, unknown>): PlannedInput => ({ type: 'ensure_status', params: { key: 'AURORA-1', ...params } });
const link = (link_type: string, source = 'AURORA-1', target = 'AURORA-2'): PlannedInput => ({ type: 'ensure_link', params: { source, target, link_type } });
const sprint = (params: Record<string, unknown>): PlannedInput => ({ type: 'ensure_sprint', params: { key: 'AURORA-1', ...params } });

/** [name, command, code of its one finding, param, suggestion contains] */
const ONE_FINDING: [string, PlannedInput, string, string, string | undefined][] = [
  ['issue type in another letter case', issue({ issue_type: 'task' }), 'issue_type_case', 'issue_type', 'Task'],
  ['unknown issue type, a close one suggested', issue({ issue_type: 'Tsak' }), 'unknown_issue_type', 'issue_type', 'может быть, Task?'],
  ['a sub-task without parent', issue({ issue_type: 'Sub-task' }), 'parent_required', 'parent', 'parent'],
  ['a sub-task under a sub-task', issue({ issue_type: 'Sub-task', parent: 'AURORA-3' }), 'parent_type', 'parent', 'другого родителя'],
  ['a task whose parent is no epic', issue({ parent: 'AURORA-1' }), 'parent_type', 'parent', undefined],
  ['an epic without its required Epic Name', issue({ issue_type: 'Epic' }), 'required_field_missing', 'fields.customfield_10011', 'добавьте fields.customfield_10011'],
  // Jira answers «Epic Name is required» for an empty value as for none
  ['an epic with an empty Epic Name', issue({ issue_type: 'Epic', fields: { customfield_10011: '' } }), 'required_field_missing', 'fields.customfield_10011', 'заполните fields.customfield_10011'],
  ['an epic with a blank Epic Name', issue({ issue_type: 'Epic', fields: { customfield_10011: '  ' } }), 'required_field_missing', 'fields.customfield_10011', 'заполните'],
  ['an epic with a null Epic Name', issue({ issue_type: 'Epic', fields: { customfield_10011: null } }), 'required_field_missing', 'fields.customfield_10011', 'заполните'],
  ['an epic with an empty list for Epic Name', issue({ issue_type: 'Epic', fields: { customfield_10011: [] } }), 'required_field_missing', 'fields.customfield_10011', 'заполните'],
  ['a field not on the create screen', issue({ fields: { customfield_10020: 3 } }), 'field_not_on_screen', 'fields.customfield_10020', undefined],
  ['an unknown field', issue({ fields: { 'Story Pionts': 3 } }), 'unknown_field', 'fields.Story Pionts', 'Story Points'],
  ['an option not allowed', issue({ fields: { customfield_10030: { value: 'Gamma' } } }), 'value_not_allowed', 'fields.customfield_10030', undefined],
  ['a priority not in the scheme', fields({ priority: 'Очень высокий' }), 'value_not_allowed', 'priority', undefined],
  ['a priority in another letter case', fields({ priority: 'high' }), 'value_not_allowed', 'priority', 'может быть, High?'],
  ['a component not in the project', issue({ fields: { components: [{ name: 'Mobile' }] } }), 'value_not_allowed', 'fields.components', undefined],
  ['an assignee nobody can be', fields({ assignee: 'sidorov' }), 'unknown_assignee', 'assignee', undefined],
  // Jira refuses a display name (accountId 'Иван Иванов' does not exist): the id is suggested
  ['an assignee by display name', fields({ assignee: 'Иван Иванов' }), 'unknown_assignee', 'assignee', 'может быть, ivanov (Иван Иванов)?'],
  ['an assignee by display name in another letter case', fields({ assignee: 'иван иванов' }), 'unknown_assignee', 'assignee', 'ivanov'],
  ['a summary of 300 characters', issue({ summary: 'я'.repeat(300) }), 'too_long', 'summary', '255'],
  ['a description over 32,767', issue({ description: 'x'.repeat(32_768) }), 'too_long', 'description', undefined],
  ['a comment over 32,767', { type: 'ensure_comment', params: { key: 'AURORA-1', body: 'x'.repeat(40_000) } }, 'too_long', 'body', undefined],
  ['a label with a space', fields({ labels: ['в работе'] }), 'bad_label', 'labels', 'в_работе'],
  ['an empty label', fields({ labels: ['q4', ''] }), 'bad_label', 'labels', 'уберите пустую метку'],
  ['a label of spaces only', fields({ labels: ['  '] }), 'bad_label', 'labels', 'уберите её'],
  ['an unknown link type', link('Blokcs'), 'unknown_link_type', 'link_type', 'может быть, Blocks?'],
  ['a status not in the workflow', status({ path: ['Готово'] }), 'unknown_status', 'path.0', undefined],
  ['a status in another letter case', status({ path: ['in progress'] }), 'status_case', 'path.0', 'In Progress'],
  ['a step no known transition reaches', status({ path: ['Done'] }), 'status_unreachable', 'path.0', 'In Progress → Review → Done'],
  ['a transition screen asking for a field', { type: 'ensure_status', params: { key: 'AURORA-2', path: ['Review', 'Rejected'] } }, 'transition_screen', 'path.1', undefined],
  ['a sprint that does not exist', sprint({ sprint: 'Спринт 9' }), 'unknown_sprint', 'sprint', 'AURORA board: Спринт 2'],
  ['a sprint on two boards', sprint({ sprint: 'Спринт 3' }), 'sprint_ambiguous', 'sprint', 'board'],
  // it is active, only not on the board named: said as such, not as «нет среди активных и будущих»
  ['a sprint on another board than the one named', sprint({ sprint: 'Спринт 2', board: 'Поддержка' }), 'unknown_sprint', 'board', 'укажите доску «AURORA board» или уберите board'],
  ['a closed sprint', sprint({ sprint: 'Спринт 1' }), 'sprint_closed', 'sprint', undefined],
  ['a sprint in another letter case', sprint({ sprint: 'спринт 2' }), 'sprint_case', 'sprint', 'Спринт 2'],
  // Jira moves a sub-task only with its parent: the agent would refuse it at run time
  ['an existing sub-task (the mirror\'s type) into a sprint', sprint({ key: 'AURORA-3', sprint: 'Спринт 2' }), 'subtask_sprint', 'key', 'перенесите в спринт родительскую задачу AURORA-1'],
  ['a field not on the edit screen', { type: 'ensure_fields', params: { key: 'AURORA-1', customfield_10011: 'x' } }, 'field_not_on_screen', 'customfield_10011', undefined],
];

describe('checkCommands: each kind of mistake is one finding with its seq, a Russian detail and a suggestion', () => {
  it.each(ONE_FINDING)('%s', async (_, command, code, param, suggestion) => {
    const out = await run([command], { customFields: ['Story Points', 'customfield_10030', 'customfield_10011'] });
    expect(out.findings.map((f) => [f.seq, f.code, f.param])).toEqual([[1, code, param]]);
    expect(out.findings[0]!.detail).toMatch(/[А-Яа-яЁё]/);
    if (suggestion) expect(out.findings[0]!.suggestion).toContain(suggestion);
    expect(out.commands[0]!.verdict).toBe('will_fail');
  });
});

describe('checkCommands: a sprint named with another board', () => {
  it('says where the sprint is, in the letter case Jira writes it, and with several boards names them all', async () => {
    const three = { ...CATALOGUE, boards: [...CATALOGUE.boards, { id: 3, name: 'Склад' }], sprints: [...CATALOGUE.sprints, { id: 31, name: 'Спринт 2', state: 'future' as const, board_id: 2 }] };
    const one = await run([sprint({ sprint: 'спринт 2', board: 'Поддержка' })]);
    expect(one.findings.map((f) => [f.code, f.detail])).toEqual([['unknown_sprint', 'на доске «Поддержка» спринта «Спринт 2» нет: он есть на доске «AURORA board»']]);
    const two = await run([sprint({ sprint: 'Спринт 2', board: 'Склад' })], { catalogue: three });
    expect(two.findings.map((f) => [f.detail, f.suggestion])).toEqual([['на доске «Склад» спринта «Спринт 2» нет: он есть на досках «AURORA board» и «Поддержка»', 'укажите доску «AURORA board» или «Поддержка»']]);
  });
});

describe('checkCommands: every finding of every command in one answer', () => {
  it('syntax, duplicates, temp keys and the catalogue together, seq 1-based', async () => {
    const out = await run([
      issue({ issue_type: 'task' }),
      issue({ temp_key: 'new:2', summary: 'Отчёт ' }),
      { type: 'ensure_status', params: { key: 'AURORA-1' } },
      fields({ key: 'new:7', duedate: '2026-02-30' }),
      link('Blokcs'),
    ]);
    expect(out.findings.map((f) => [f.seq, f.code])).toEqual([
      [1, 'issue_type_case'],
      [2, 'duplicate_summary'],
      [3, 'invalid_param'],
      [4, 'invalid_param'],
      [4, 'temp_key'],
      [5, 'unknown_link_type'],
    ]);
    expect(out.commands.map((c) => c.verdict)).toEqual(['will_fail', 'will_fail', 'will_fail', 'will_fail', 'will_fail']);
  });

  it('a temp-key finding names the param that holds the key, not always key', async () => {
    const out = await run([{ type: 'ensure_link', params: { source: 'AURORA-1', target: 'new:1', link_type: 'Blocks' } }, issue({}), issue({ summary: 'Другой' })]);
    expect(out.findings.filter((f) => f.code === 'temp_key').map((f) => [f.seq, f.param])).toEqual([
      [1, 'target'],
      [3, 'temp_key'],
    ]);
  });
});

describe('checkCommands: an unknown param hides no other finding of its command (SPEC 16.2: every finding at once)', () => {
  it.each([
    ['ensure_sprint with a param it does not take and an unknown sprint', sprint({ sprint: 'Спринт 9', team: 1 }), [['team', 'invalid_param'], ['sprint', 'unknown_sprint']]],
    ['ensure_link with a param it does not take and a misspelled type', { type: 'ensure_link', params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blokcs', colour: 'red' } } as PlannedInput, [['colour', 'invalid_param'], ['link_type', 'unknown_link_type']]],
    ['ensure_issue with a param it does not take and a misspelled type', issue({ issue_type: 'Tsak', colour: 'red' }), [['colour', 'invalid_param'], ['issue_type', 'unknown_issue_type']]],
    ['ensure_fields with a field settings do not allow and a priority Jira lacks', fields({ foo: 'x', priority: 'Ultra' }), [['foo', 'custom_field_not_allowed'], ['priority', 'value_not_allowed']]],
  ])('%s', async (_, command, found) => {
    const out = await run([command]);
    expect(out.findings.map((f) => [f.param, f.code])).toEqual(found);
    expect(out.commands[0]!.params).toEqual(command.params); // the params as sent: the unknown one is kept
  });

  it('a param with a wrong value still stops the other checks (their rules could not read it)', async () => {
    const out = await run([sprint({ sprint: 'Спринт 9', board: 0 })]);
    expect(out.findings.map((f) => f.code)).toEqual(['invalid_param']);
  });
});

describe('checkCommands: a reverse link the mirror holds', () => {
  it.each([
    ['the reverse of a directional link', link('Blocks', 'AURORA-2', 'AURORA-1'), ['reversed_link']],
    ['given by its inward description, which swaps it into the reverse', link('is blocked by'), ['reversed_link']],
    ['the link itself', link('Blocks'), []],
    ['a symmetric type either way', link('Relates', 'AURORA-2', 'AURORA-1'), []],
  ])('%s', async (_, command, codes) => {
    const out = await run([command]);
    expect(out.findings.map((f) => f.code)).toEqual(codes);
  });
});

describe('checkCommands: what is stored', () => {
  it.each([
    ['a settings word', link('блокирует'), { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }, 'тип связи «блокирует» записан как «Blocks»'],
    ['the outward description', link('Blocks'), { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }, undefined],
    ['the name in another letter case', link('relates'), { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Relates' }, 'тип связи «relates» записан как «Relates»'],
    // (AURORA-3, not AURORA-2: the mirror holds AURORA-1 blocks AURORA-2, whose reverse is a finding of its own)
    ['the inward description: source and target swap', link('is blocked by', 'AURORA-1', 'AURORA-3'), { source: 'AURORA-3', target: 'AURORA-1', link_type: 'Blocks' }, 'концы связи переставлены (откуда — AURORA-3, куда — AURORA-1)'],
    ['a symmetric inward description: no swap', link('relates to'), { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Relates' }, 'тип связи «relates to» записан как «Relates»'],
  ])('a link type given by %s is stored by its Jira name', async (_, command, stored, note) => {
    const out = await run([command]);
    expect(out.findings).toEqual([]);
    expect(out.commands[0]!.params).toEqual(stored);
    if (note) expect(out.commands[0]!.notes.join(' ')).toContain(note);
  });

  it.each([
    ['AURORA-1 (To Do) to Done: the shortest route', status({ to: 'Done' }), ['In Progress', 'Review', 'Done']],
    ['AURORA-2 (In Progress) to Review', { type: 'ensure_status', params: { key: 'AURORA-2', to: 'Review' } } as PlannedInput, ['Review']],
    ['back to To Do by the global transition', { type: 'ensure_status', params: { key: 'AURORA-2', to: 'To Do' } } as PlannedInput, ['To Do']],
  ])('ensure_status {to}: %s is stored as path', async (_, command, path) => {
    const out = await run([command]);
    expect(out.findings).toEqual([]);
    expect(out.commands[0]!.params).toEqual({ key: command.params.key, path });
  });

  it.each([
    ['to', status({ to: 'Done ' }), { key: 'AURORA-1', path: ['In Progress', 'Review', 'Done'] }, 'целевой статус записан без пробелов по краям названия: «Done»'],
    ['path', status({ path: [' In Progress', 'Review  '] }), { key: 'AURORA-1', path: ['In Progress', 'Review'] }, 'путь по статусам записан без пробелов по краям названий: «In Progress» → «Review»'],
    ['sprint', sprint({ sprint: ' Спринт 2 ' }), { key: 'AURORA-1', sprint: 'Спринт 2' }, 'спринт записан без пробелов по краям названия: «Спринт 2»'],
  ])('spaces around a %s name are no mistake: stored as Jira writes it (the agent trims them too), said in a note', async (_, command, stored, note) => {
    const out = await run([command]);
    expect(out.findings).toEqual([]);
    expect(out.commands[0]!.params).toEqual(stored);
    expect(out.commands[0]!.notes).toContain(note);
  });

  it('a path the issue is on already is walked from its place there, as the agent walks it: the steps before it are skipped, said in a note', async () => {
    // AURORA-2 is In Progress; Review leads nowhere back to it, and the agent would not go there
    const out = await run([{ type: 'ensure_status', params: { key: 'AURORA-2', path: ['Review', 'In Progress'] } }, { type: 'ensure_status', params: { key: 'AURORA-2', path: ['To Do', 'In Progress', 'Review', 'Done'] } }]);
    expect(out.findings).toEqual([]);
    expect(out.commands.map((c) => [c.verdict, c.notes])).toEqual([
      ['no_change', ['задача уже в статусе «In Progress»: шаг «Review» до него агент пропустит']],
      ['will_change', ['задача уже в статусе «In Progress»: шаг «To Do» до него агент пропустит']],
    ]);
  });

  it('a field name two fields share, letter case aside, is ambiguous as the agent finds it; the id is one field', async () => {
    const catalogue: Catalogue = { ...CATALOGUE, fields: [...CATALOGUE.fields, { id: 'customfield_10031', name: 'team ' }] };
    const out = await run([issue({ fields: { Team: 'Alpha' } }), fields({ Team: 'Alpha' }), issue({ temp_key: 'new:2', summary: 'Другая', fields: { customfield_10030: 'Alpha' } })], { catalogue, customFields: ['Team'] });
    expect(out.findings.map((f) => [f.seq, f.param, f.code, f.suggestion])).toEqual([
      [1, 'fields.Team', 'ambiguous_field', 'укажите вместо названия id нужного поля: customfield_10030 или customfield_10031'],
      [2, 'Team', 'ambiguous_field', 'укажите вместо названия id нужного поля и его же — в настройку fields: customfield_10030 или customfield_10031'],
    ]);
  });

  it('a new issue starts in its initial status; a later command starts where an earlier one left it', async () => {
    const out = await run([issue({}), { type: 'ensure_status', params: { key: 'new:1', to: 'In Progress' } }, { type: 'ensure_status', params: { key: 'new:1', path: ['Review', 'Done'] } }]);
    expect(out.findings).toEqual([]);
    expect(out.commands[1]!.params).toEqual({ key: 'new:1', path: ['In Progress'] });
  });

  it('transitions only observed: a step from a status never observed is unknown, and {to} goes through it', async () => {
    const task = CATALOGUE.per_type['10001']!;
    const observed: Catalogue = {
      ...CATALOGUE,
      transitions_source: 'observed',
      per_type: { ...CATALOGUE.per_type, '10001': { ...task, transitions: task.transitions.filter((t) => t.from === 'To Do') } },
    };
    const out = await run([status({ to: 'Done' }), { type: 'ensure_status', params: { key: 'AURORA-2', path: ['Review'] } }, status({ path: ['Review'] })], { catalogue: observed });
    expect(out.commands[0]).toMatchObject({ params: { key: 'AURORA-1', path: ['In Progress', 'Done'] }, verdict: 'unknown' });
    // The note promises no more than the agent does: one direct transition per step, an error listing the others.
    expect(out.commands[0]!.notes).toContain(
      'целевой статус «Done»: путь по статусам «In Progress» → «Done» (из «To Do»; переходы из «In Progress» ещё не наблюдались: агент попробует прямой переход в «Done», а если его нет, команда завершится ошибкой со списком доступных переходов, хаб их запомнит и следующий план пойдёт по ним дальше (или укажите путь по шагам, path))',
    );
    expect(out.commands[1]!.verdict).toBe('unknown');
    // To Do was observed: what it does not lead to is a finding
    expect(out.findings.map((f) => [f.seq, f.code])).toEqual([[3, 'status_unreachable']]);
  });

  it('a task under an epic created earlier in the batch, a sub-task under a task: no finding', async () => {
    const out = await run([issue({ temp_key: 'new:5', issue_type: 'Epic', summary: 'Эпик', fields: { customfield_10011: 'Эпик' } }), issue({ parent: 'new:5' }), issue({ temp_key: 'new:2', issue_type: 'Sub-task', summary: 'Под', parent: 'AURORA-1' })]);
    expect(out.findings).toEqual([]);
  });

  describe('an epic under a type above it (Jira Cloud Premium: «Initiative», level 2)', () => {
    const premium = (flavor: 'cloud' | 'dc') => ({ ...CATALOGUE, flavor, issue_types: [...CATALOGUE.issue_types, { id: '10009', name: 'Initiative', subtask: false, hierarchy_level: 2 }] });
    const epic = (parent: string) => issue({ temp_key: 'new:5', issue_type: 'Epic', summary: 'Эпик', parent, fields: { customfield_10011: 'Эпик' } });
    const initiative = issue({ temp_key: 'new:4', issue_type: 'Initiative', summary: 'Инициатива' });

    it('Cloud with a level-2 type: an epic under one is no finding; under a task, the finding names the type it needs', async () => {
      const out = await run([initiative, epic('new:4'), { ...epic('AURORA-1'), params: { ...epic('AURORA-1').params, temp_key: 'new:6', summary: 'Другой эпик' } }], { catalogue: premium('cloud') });
      expect(out.findings.map((f) => [f.seq, f.code, f.detail])).toEqual([[3, 'parent_type', 'AURORA-1 — Task, а родителем задачи типа Epic может быть только задача типа Initiative']]);
    });

    it.each([
      ['without a type above epics', CATALOGUE, 'AURORA-1'],
      ['on Data Center (Advanced Roadmaps link by a field the agent does not set)', premium('dc'), 'new:4'],
    ])('%s: an epic has no parent', async (_, catalogue, parent) => {
      const out = await run([initiative, epic(parent)], { catalogue });
      expect(out.findings.map((f) => [f.seq, f.code, f.detail]).filter(([seq]) => seq === 2)).toEqual([[2, 'parent_type', 'у задачи типа Epic не бывает родителя parent в этом проекте']]);
    });
  });

  it('ensure_sprint with sprint null goes to the backlog', async () => {
    const out = await run([sprint({ sprint: null })]);
    expect(out.findings).toEqual([]);
    expect(out.commands[0]!.notes.join(' ')).toContain('бэклог');
  });

  it('a sub-task into a sprint is a finding whatever tells its type: this batch\'s ensure_issue, a temp key an earlier batch resolved; with a wrong sprint, both findings', async () => {
    const out = await run([
      issue({ temp_key: 'new:2', issue_type: 'Sub-task', summary: 'Под', parent: 'AURORA-1' }),
      sprint({ key: 'new:2', sprint: 'Спринт 2' }),
      sprint({ key: 'new:9', sprint: 'Спринт 2' }),
      sprint({ key: 'AURORA-3', sprint: 'Спринт 9' }),
    ], { resolved: new Map([['new:9', 'AURORA-3']]) });
    expect(out.findings.map((f) => [f.seq, f.code, f.param])).toEqual([
      [2, 'subtask_sprint', 'key'],
      [3, 'subtask_sprint', 'key'],
      [4, 'subtask_sprint', 'key'],
      [4, 'unknown_sprint', 'sprint'],
    ]);
    expect(out.findings[0]!.detail).toBe('new:2 — подзадача («Sub-task»): Jira не переносит подзадачи в спринт отдельно, они идут в спринт вместе с родительской задачей AURORA-1');
    expect(out.findings[0]!.suggestion).toBe('перенесите в спринт родительскую задачу AURORA-1 — подзадача перейдёт вместе с ней');
    expect(out.commands.map((c) => c.verdict)).toEqual(['will_change', 'will_fail', 'will_fail', 'will_fail']);
  });

  it('a sub-task to the backlog (sprint null), a task or a key of unknown type into a sprint: no sub-task finding', async () => {
    const out = await run([sprint({ key: 'AURORA-3', sprint: null }), sprint({ sprint: 'Спринт 2' }), sprint({ key: 'AURORA-99', sprint: 'Спринт 2' })]);
    expect(out.findings).toEqual([]);
  });

  it('a sprint named on two boards passes with its board', async () => {
    expect((await run([sprint({ sprint: 'Спринт 3', board: 'Поддержка' })])).findings).toEqual([]);
    expect((await run([sprint({ sprint: 'Спринт 3', board: 2 })])).findings).toEqual([]);
  });
});

describe('checkCommands: verdicts', () => {
  it('will_change, no_change (the mirror already shows it), will_fail', async () => {
    const out = await run([fields({ priority: 'High' }), fields({ priority: 'Medium' }), link('Blocks'), fields({ priority: 'Nope' }), { type: 'refresh', params: { keys: ['AURORA-1'] } }]);
    expect(out.commands.map((c) => c.verdict)).toEqual(['will_change', 'no_change', 'no_change', 'will_fail', 'no_change']);
  });

  it('without a catalogue everything that needs one is unknown, and nothing of it is a finding', async () => {
    const out = await run([issue({ issue_type: 'task' }), link('Blokcs'), sprint({ sprint: 'Спринт 9' }), link('блокирует')], { catalogue: null });
    expect(out.findings).toEqual([]);
    expect(out.commands.map((c) => c.verdict)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    expect(out.commands[3]!.params.link_type).toBe('Blocks');
  });

  it('a stale catalogue: unknown, and Jira limits still refuse', async () => {
    const out = await run([status({ path: ['Готово'] }), issue({ summary: 'я'.repeat(256) })], { stale: true });
    expect(out.findings.map((f) => f.code)).toEqual(['too_long']);
    expect(out.commands.map((c) => c.verdict)).toEqual(['unknown', 'will_fail']);
  });

  it('a field given by Jira\'s name («Due date», «Labels») has its value checked as by its id, with the catalogue or without it', async () => {
    const body = [issue({ fields: { 'Due date': '31.12.2026', Labels: ['в работе'] } })];
    for (const extra of [{}, { catalogue: null }, { stale: true }]) {
      const out = await run(body, extra);
      expect(out.findings.map((f) => [f.code, f.param])).toEqual([
        ['bad_date', 'fields.Due date'],
        ['bad_label', 'fields.Labels'],
      ]);
    }
  });

  it('a custom field\'s value against its type: a number, a date, 255 characters of a single-line text, a person\'s id rather than their name', async () => {
    const typed = [
      { id: 'customfield_10020', name: 'Story Points', schema: { type: 'number', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:float' } },
      { id: 'customfield_10050', name: 'Release date', schema: { type: 'date', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:datepicker' } },
      { id: 'customfield_10060', name: 'Code', schema: { type: 'string', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:textfield' } },
      { id: 'customfield_10061', name: 'Notes', schema: { type: 'string', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:textarea' } },
      { id: 'customfield_10070', name: 'Reviewer', schema: { type: 'user', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:userpicker' } },
      { id: 'customfield_10071', name: 'Approvers', schema: { type: 'array', items: 'user', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:multiuserpicker' } },
    ];
    const onScreen = typed.map((f) => ({ field_id: f.id, name: f.name, required: false, has_default: false }));
    const task = CATALOGUE.per_type['10001']!;
    const catalogue: Catalogue = { ...CATALOGUE, fields: [...CATALOGUE.fields.filter((f) => !typed.some((t) => t.id === f.id)), ...typed], per_type: { ...CATALOGUE.per_type, '10001': { ...task, edit: [...(task.edit ?? []), ...onScreen] } } };
    const customFields = typed.map((f) => f.id);
    const edit = (value: Record<string, unknown>) => fields(value);
    const wrong = await run(
      [edit({ customfield_10020: 'abc' }), edit({ customfield_10050: '13.12.2026' }), edit({ customfield_10060: 'я'.repeat(256) }), edit({ customfield_10070: 'Иван Иванов' }), edit({ customfield_10071: ['ivanov', 'иван иванов'] }), edit({ customfield_10020: 'Infinity' }), edit({ customfield_10060: 'я'.repeat(40_000) })],
      { catalogue, customFields },
    );
    expect(wrong.findings.map((f) => [f.seq, f.code, f.param])).toEqual([
      [1, 'value_type', 'customfield_10020'],
      [2, 'value_type', 'customfield_10050'],
      [3, 'too_long', 'customfield_10060'],
      [4, 'unknown_user', 'customfield_10070'],
      [5, 'unknown_user', 'customfield_10071'],
      [6, 'value_type', 'customfield_10020'],
      // past every text field's bound: said once
      [7, 'too_long', 'customfield_10060'],
    ]);
    expect(wrong.findings[0]!.detail).toBe('поле «Story Points» числовое, а значение «abc» не число');
    expect(wrong.findings[3]!.suggestion).toBe('может быть, ivanov (Иван Иванов)?');
    const right = await run(
      [edit({ customfield_10020: '2.5' }), edit({ customfield_10020: 3 }), edit({ customfield_10050: '2026-12-13' }), edit({ customfield_10060: 'я'.repeat(255) }), edit({ customfield_10061: 'я'.repeat(1000) }), edit({ customfield_10070: 'ivanov' }), edit({ customfield_10071: ['ivanov'] }), edit({ customfield_10070: null })],
      { catalogue, customFields },
    );
    expect(right.findings).toEqual([]);
  });

  it('Data Center: an issue put into an epic needs the Epic Link field on its create screen (the agent sets it)', async () => {
    const epicLink = { id: 'customfield_10014', name: 'Epic Link', schema: { type: 'any', custom: 'com.pyxis.greenhopper.jira:gh-epic-link' } };
    const dc: Catalogue = { ...CATALOGUE, flavor: 'dc', fields: [...CATALOGUE.fields, epicLink] };
    const epic = { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Epic', summary: 'Эпик', fields: { customfield_10011: 'Эпик' } } } as PlannedInput;
    const under = { type: 'ensure_issue', params: { temp_key: 'new:2', issue_type: 'Task', summary: 'Задача', parent: 'new:1' } } as PlannedInput;
    const without = await run([epic, under], { catalogue: dc });
    expect(without.findings.map((f) => [f.seq, f.code, f.param])).toEqual([[2, 'field_not_on_screen', 'parent']]);
    expect(without.findings[0]!.detail).toContain('поле Epic Link (customfield_10014)');
    const task = dc.per_type['10001']!;
    const onScreen: Catalogue = { ...dc, per_type: { ...dc.per_type, '10001': { ...task, create: [...task.create, { field_id: 'customfield_10014', name: 'Epic Link', required: false, has_default: false }] } } };
    expect((await run([epic, under], { catalogue: onScreen })).findings).toEqual([]);
    // Cloud sets `parent` itself: no Epic Link to look for.
    expect((await run([epic, under], { catalogue: { ...CATALOGUE, fields: dc.fields } })).findings).toEqual([]);
  });

  it('a key the mirror lacks: the type is unknown, so the screen cannot be judged', async () => {
    const out = await run([{ type: 'ensure_fields', params: { key: 'AURORA-99', priority: 'High' } }]);
    expect(out.findings).toEqual([]);
    expect(out.commands[0]!.verdict).toBe('unknown');
  });

  it('a permission the account lacks is a finding naming it (Assign Issues beside Edit Issues for an assignee)', async () => {
    const catalogue: Catalogue = { ...CATALOGUE, permissions: { ...CATALOGUE.permissions, ADD_COMMENTS: false, ASSIGN_ISSUES: false } };
    const out = await run([{ type: 'ensure_comment', params: { key: 'AURORA-1', body: 'b' } }, fields({ assignee: 'ivanov' })], { catalogue });
    expect(out.findings.map((f) => [f.seq, f.code, f.suggestion])).toEqual([
      [1, 'permission', expect.stringContaining('Add Comments')],
      [2, 'permission', expect.stringContaining('Assign Issues')],
    ]);
  });

  it('a permission the catalogue does not list is unknown, not a finding', async () => {
    const catalogue: Catalogue = { ...CATALOGUE, permissions: {} };
    const out = await run([link('Blocks')], { catalogue });
    expect(out.findings).toEqual([]);
    expect(out.commands[0]!.verdict).toBe('unknown');
  });
});

describe('checkCommands: an issue Jira no longer has (mirror.gone, decision 1449)', () => {
  // AURORA-2 was found gone by run #7 after the mirror last read it; the mirror's copy still shows it
  const goneMirror: MirrorLookup = { ...mirror, gone: (key) => (key === 'AURORA-2' ? 7 : undefined) };
  const gone = (type: string) =>
    `задачи AURORA-2 в Jira больше нет: Jira её не нашла (чтение #7 в /sync-runs) — ${type}; уберите её из пакета или обновите задачу в зеркале, если она вернулась`;
  const FAILS = gone('команда завершится ошибкой');
  const DONE = gone('агент сочтёт команду выполненной, ничего не удалив');

  it.each<[string, PlannedInput, string | undefined]>([
    // each of these the mirror's last copy would judge (will_change or no_change)
    ['ensure_fields on it', fields({ key: 'AURORA-2', priority: 'High' }), FAILS],
    ['ensure_sprint to the sprint its copy shows', sprint({ key: 'AURORA-2', sprint: 'Спринт 2' }), FAILS],
    ['a link to it', link('Blocks'), FAILS],
    ['a link through a temp key an earlier batch resolved to it', link('Blocks', 'AURORA-1', 'new:9'), FAILS],
    ['a new issue under it', issue({ issue_type: 'Sub-task', parent: 'AURORA-2' }), FAILS],
    ['removing a link of it (the agent finds nothing to remove)', { type: 'remove_link', params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' } }, DONE],
    ['a comment on it', { type: 'ensure_comment', params: { key: 'AURORA-2', body: 'x', marker: 'm1' } }, FAILS],
    // a refresh is how the hub learns whether it came back
    ['a refresh of it', { type: 'refresh', params: { keys: ['AURORA-2'] } }, undefined],
    ['another issue', fields({ key: 'AURORA-1', priority: 'High' }), undefined],
  ])('%s', async (_name, command, note) => {
    const out = await run([command], { mirror: goneMirror });
    // never a finding: the issue may have come back, Jira settles it
    expect(out.findings).toEqual([]);
    const [c] = out.commands;
    if (note === undefined) {
      expect(c!.verdict).not.toBe('unknown');
      expect(c!.notes.join(' ')).not.toContain('больше нет');
    } else {
      expect(c!.verdict).toBe('unknown');
      expect(c!.notes).toContain(note);
    }
  });

  it('without the runs read (an older caller) the last copy is judged as before', async () => {
    const out = await run([fields({ key: 'AURORA-2', priority: 'High' })]);
    expect(out.commands[0]!.verdict).toBe('will_change');
  });
});
