/** The checks of statuses, links and sprints as tables: a catalogue and a command in, its findings or its notes out. */
import { describe, expect, it } from '@jest/globals';
import type { Catalogue, CatalogueSprint } from '@jira-hub/contracts';
import { CATALOGUE } from '../../test/support/catalogue.js';
import type { MirrorIssue, MirrorLookup } from '../mirror/index.js';
import { TypeContext } from './catalogue-checks.js';
import type { CommandCheck } from './content-checks.js';
import { checkLink, checkSprint, checkStatus } from './workflow-checks.js';

const mirror: MirrorLookup = {
  issue: (key) =>
    key === 'AURORA-1' || key === 'AURORA-4'
      ? ({ summary: 's', issue_type: 'Task', status: key === 'AURORA-1' ? 'To Do' : null, sprint: null, labels: [], fields: {} } as unknown as MirrorIssue)
      : undefined,
  hasLink: () => false,
};

function findings(sprints: CatalogueSprint[], params: Record<string, unknown>): string[] {
  const c: CommandCheck = { seq: 1, type: 'ensure_sprint', params: { key: 'AURORA-1', ...params }, findings: [], notes: [], unknown: [] };
  checkSprint(c, new TypeContext({ ...CATALOGUE, sprints }, mirror, new Map()));
  return c.findings.map((f) => f.code);
}

const open = (id: number, board_id: number, name = 'Спринт 5'): CatalogueSprint => ({ id, name, state: 'active', board_id });
const future = (id: number, board_id: number, name = 'Спринт 5'): CatalogueSprint => ({ id, name, state: 'future', board_id });
const closed = (id: number, board_id: number, name = 'Спринт 5'): CatalogueSprint => ({ id, name, state: 'closed', board_id });

describe('checkSprint: a closed sprint is never the sprint asked for (decision 1434)', () => {
  it.each<[string, CatalogueSprint[], Record<string, unknown>, string[]]>([
    ['a closed and an open sprint of one name on one board', [closed(1, 1), open(2, 1)], { sprint: 'Спринт 5' }, []],
    ['the same, the open one listed first', [future(2, 1), closed(1, 1)], { sprint: 'Спринт 5' }, []],
    ['the same, with the board named', [closed(1, 1), open(2, 1)], { sprint: 'Спринт 5', board: 1 }, []],
    ['a closed one on one board, an open one on another', [closed(1, 1), open(2, 2)], { sprint: 'Спринт 5' }, []],
    ['two closed ones and an open one', [closed(1, 1), closed(3, 2), open(2, 1)], { sprint: 'Спринт 5' }, []],
    ['open ones on two boards, a closed one beside them', [closed(1, 1), open(2, 1), future(3, 2)], { sprint: 'Спринт 5' }, ['sprint_ambiguous']],
    ['open ones on two boards', [open(2, 1), future(3, 2)], { sprint: 'Спринт 5' }, ['sprint_ambiguous']],
    ['only a closed one', [closed(1, 1), open(2, 1, 'Спринт 6')], { sprint: 'Спринт 5' }, ['sprint_closed']],
    ['closed ones only, on two boards', [closed(1, 1), closed(3, 2), open(2, 1, 'Спринт 6')], { sprint: 'Спринт 5' }, ['sprint_closed']],
  ])('%s', (_name, sprints, params, codes) => {
    expect(findings(sprints, params)).toEqual(codes);
  });
});

/** The catalogue's Task whose transitions were observed only from To Do (transitions_source `observed`). */
function observedOnly(): Catalogue {
  const task = CATALOGUE.per_type['10001']!;
  return { ...CATALOGUE, transitions_source: 'observed', per_type: { ...CATALOGUE.per_type, '10001': { ...task, transitions: task.transitions.filter((t) => t.from === 'To Do') } } };
}

type Check = (c: CommandCheck, catalogue: Catalogue | null) => void;
const status: Check = (c, catalogue) => checkStatus(c, new TypeContext(catalogue, mirror, new Map()));
const link: Check = (c, catalogue) => checkLink(c, catalogue, { блокирует: 'Blocks' });
const sprint: Check = (c, catalogue) => checkSprint(c, new TypeContext(catalogue, mirror, new Map()));

describe('the notes of the checks are sentences for people that say what the hub stored (SPEC 16.2)', () => {
  it.each<[string, Check, Record<string, unknown>, Catalogue | null, Record<string, unknown>, string[]]>([
    ['{to}: the shortest known route', status, { key: 'AURORA-1', to: 'Done' }, CATALOGUE, { key: 'AURORA-1', path: ['In Progress', 'Review', 'Done'] }, ['целевой статус «Done»: путь по статусам «In Progress» → «Review» → «Done» (из «To Do»)']],
    ['{to}: one direct step', status, { key: 'AURORA-1', to: 'In Progress' }, CATALOGUE, { key: 'AURORA-1', path: ['In Progress'] }, ['целевой статус «In Progress»: путь по статусам «In Progress» (из «To Do»)']],
    ['{to} without a catalogue', status, { key: 'AURORA-1', to: 'In Progress' }, null, { key: 'AURORA-1', path: ['In Progress'] }, ['целевой статус «In Progress»: путь по статусам «In Progress» (маршрут неизвестен: агент попробует прямой переход)']],
    ['{to} a finding left without a route', status, { key: 'AURORA-1', to: 'done' }, CATALOGUE, { key: 'AURORA-1', path: ['done'] }, ['целевой статус «done»: путь по статусам «done» (маршрут не проверен: агент попробует прямой переход)']],
    ['{to} of an issue whose status the mirror lacks', status, { key: 'AURORA-4', to: 'Done' }, CATALOGUE, { key: 'AURORA-4', path: ['Done'] }, ['целевой статус «Done»: путь по статусам «Done» (текущий статус неизвестен)']],
    [
      '{to} through a status whose transitions were never observed',
      status,
      { key: 'AURORA-1', to: 'Done' },
      observedOnly(),
      { key: 'AURORA-1', path: ['In Progress', 'Done'] },
      [
        'целевой статус «Done»: путь по статусам «In Progress» → «Done» (из «To Do»; переходы из «In Progress» ещё не наблюдались: агент попробует прямой переход в «Done», а если его нет, команда завершится ошибкой со списком доступных переходов, хаб их запомнит и следующий план пойдёт по ним дальше (или укажите путь по шагам, path))',
      ],
    ],
    ['{to} with spaces around', status, { key: 'AURORA-1', to: ' Review ' }, CATALOGUE, { key: 'AURORA-1', path: ['In Progress', 'Review'] }, ['целевой статус записан без пробелов по краям названия: «Review»', 'целевой статус «Review»: путь по статусам «In Progress» → «Review» (из «To Do»)']],
    ['a path with spaces around', status, { key: 'AURORA-1', path: [' In Progress', 'Review  '] }, CATALOGUE, { key: 'AURORA-1', path: ['In Progress', 'Review'] }, ['путь по статусам записан без пробелов по краям названий: «In Progress» → «Review»']],
    ['a path as written', status, { key: 'AURORA-1', path: ['In Progress'] }, CATALOGUE, { key: 'AURORA-1', path: ['In Progress'] }, []],
    ['a link type by a word of settings', link, { source: 'A-1', target: 'A-2', link_type: 'блокирует' }, CATALOGUE, { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, ['тип связи «блокирует» записан как «Blocks»']],
    ['the same without a catalogue', link, { source: 'A-1', target: 'A-2', link_type: 'блокирует' }, null, { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, ['тип связи «блокирует» записан как «Blocks»']],
    ['a link type in another letter case', link, { source: 'A-1', target: 'A-2', link_type: 'blocks' }, CATALOGUE, { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, ['тип связи «blocks» записан как «Blocks»']],
    ['a link type by its outward description', link, { source: 'A-1', target: 'A-2', link_type: 'Duplicates' }, CATALOGUE, { source: 'A-1', target: 'A-2', link_type: 'Duplicate' }, ['тип связи «Duplicates» записан как «Duplicate»']],
    [
      'a link type by its inward description: the ends swapped',
      link,
      { source: 'A-1', target: 'A-2', link_type: 'is blocked by' },
      CATALOGUE,
      { source: 'A-2', target: 'A-1', link_type: 'Blocks' },
      ['тип связи «is blocked by» записан как «Blocks»: «A-1 is blocked by A-2» — то же, что «A-2 blocks A-1», поэтому концы связи переставлены (откуда — A-2, куда — A-1)'],
    ],
    ['a symmetric type by its description: the ends stay', link, { source: 'A-1', target: 'A-2', link_type: 'relates to' }, CATALOGUE, { source: 'A-1', target: 'A-2', link_type: 'Relates' }, ['тип связи «relates to» записан как «Relates»']],
    ['a link type by its Jira name', link, { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, CATALOGUE, { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, []],
    ['the backlog', sprint, { key: 'AURORA-1', sprint: null }, CATALOGUE, { key: 'AURORA-1', sprint: null }, ['спринт не указан — задача уйдёт в бэклог']],
    ['a sprint with spaces around', sprint, { key: 'AURORA-1', sprint: ' Спринт 2 ' }, CATALOGUE, { key: 'AURORA-1', sprint: 'Спринт 2' }, ['спринт записан без пробелов по краям названия: «Спринт 2»']],
  ])('%s', (_name, check, params, catalogue, stored, notes) => {
    const c: CommandCheck = { seq: 1, type: 'ensure_status', params, findings: [], notes: [], unknown: [] };
    check(c, catalogue);
    expect(c.params).toEqual(stored);
    expect(c.notes).toEqual(notes);
  });
});
