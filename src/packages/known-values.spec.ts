import { describe, expect, it } from '@jest/globals';
import type { Catalogue } from '@jira-hub/contracts';
import { knownValues } from './known-values.js';

const catalogue = (over: Partial<Catalogue> = {}): Catalogue => ({
  project_key: 'A',
  flavor: 'cloud',
  issue_types: [{ id: '1', name: 'Task', subtask: false, hierarchy_level: 0 }],
  fields: [],
  per_type: {
    '1': { create: [], edit: null, statuses: [{ id: '1', name: 'To Do', category: 'new' }, { id: '3', name: 'Done', category: 'done' }], transitions: [] },
    '2': { create: [], edit: null, statuses: [{ id: '1', name: 'To Do', category: 'new' }], transitions: [] },
  },
  transitions_source: 'workflow',
  link_types: [],
  boards: [],
  sprints: [{ id: 1, name: 'Спринт 1', state: 'active', board_id: 1 }, { id: 2, name: 'Старый', state: 'closed', board_id: 1 }],
  priorities: [],
  components: [],
  versions: [],
  permissions: {},
  assignable: [],
  assignable_truncated: false,
  ...over,
});

describe('knownValues', () => {
  it.each<[string, Catalogue | null, unknown]>([
    ['no catalogue: nothing is checked', null, undefined],
    ['names of types, statuses over every type once, open sprints; an empty list is not checked', catalogue(), { issue_types: ['Task'], statuses: ['To Do', 'Done'], priorities: undefined, sprints: ['Спринт 1'] }],
  ])('%s', (_name, c, known) => {
    expect(knownValues(c)).toEqual(known);
  });
});
