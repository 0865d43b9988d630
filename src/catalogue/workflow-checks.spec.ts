/** checkSprint as a table: a catalogue's sprints and an ensure_sprint in, its findings out. */
import { describe, expect, it } from '@jest/globals';
import type { CatalogueSprint } from '@jira-hub/contracts';
import { CATALOGUE } from '../../test/support/catalogue.js';
import type { MirrorIssue, MirrorLookup } from '../mirror/index.js';
import { TypeContext } from './catalogue-checks.js';
import type { CommandCheck } from './content-checks.js';
import { checkSprint } from './workflow-checks.js';

const mirror: MirrorLookup = {
  issue: (key) => (key === 'AURORA-1' ? ({ summary: 's', issue_type: 'Task', status: 'To Do', sprint: null, labels: [], fields: {} } as unknown as MirrorIssue) : undefined),
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
