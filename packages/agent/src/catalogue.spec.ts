import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Catalogue } from '@jira-hub/contracts';
import { executeCommand } from './executors.js';
import { JiraApi } from './jira-api.js';
import { API_PREFIX, FLAVORS, resultOf, startHarness, type SimHarness } from './test-support.js';

describe('catalogue', () => {
  let h: SimHarness;

  beforeAll(async () => {
    h = await startHarness({ seed: { assignable: ['557058:f0000000-0000-0000-0000-000000000001', '557058:f0000000-0000-0000-0000-000000000002'] } });
    const store = h.sim.store;
    const make = (summary: string, issueType: string) => store.createIssue('AURORA', { summary, issueType }, 'x');
    make('Задача в работе', 'Task').status = 'In Progress';
    make('Задача новая', 'Task');
    make('Ошибка на ревью', 'Bug').status = 'In Review';
    make('Эпик', 'Epic');
  });

  afterAll(async () => {
    await h.sim.stop();
  });

  const read = async (flavor: 'cloud' | 'dc'): Promise<{ catalogue: Catalogue; calls: number; client: ReturnType<SimHarness['client']> }> => {
    const ctx = h.ctx(flavor);
    const out = await executeCommand({ id: 1, type: 'refresh_catalogue', params: {} }, { ...ctx, agentVersion: '9.9.9' });
    return { catalogue: resultOf<{ catalogue: Catalogue }>(out).catalogue, calls: ctx.client.jiraCalls, client: ctx.client };
  };

  describe.each(FLAVORS)('refresh_catalogue on %s (SPEC 16.1)', (flavor) => {
    it('reports issue types, fields, screens, statuses, observed transitions, link types, boards, sprints, values, permissions, users', async () => {
      h.sim.clearRequests();
      const { catalogue } = await read(flavor);
      expect(catalogue).toEqual(
        expect.objectContaining({ project_key: 'AURORA', flavor, agent_version: '9.9.9', transitions_source: 'observed', priorities: ['Highest', 'High', 'Medium', 'Low', 'Lowest'] }),
      );
      expect(catalogue.issue_types.map((t) => [t.name, t.subtask, t.hierarchy_level])).toEqual([
        ['Task', false, 0], ['Story', false, 0], ['Bug', false, 0], ['Epic', false, 1], ['Sub-task', true, -1],
      ]);
      const byName = (name: string) => catalogue.per_type[catalogue.issue_types.find((t) => t.name === name)!.id]!;
      const epic = byName('Epic');
      const epicName = epic.create.find((f) => f.field_id === 'customfield_10011');
      if (flavor === 'dc') expect(epicName).toEqual({ field_id: 'customfield_10011', name: 'Epic Name', required: true, has_default: false });
      else expect(epicName).toBeUndefined();
      expect(epic.create.find((f) => f.field_id === 'customfield_10070')?.allowed_values).toEqual(['High', 'Medium', 'Low']);
      expect(byName('Task').create.find((f) => f.field_id === 'priority')).toEqual(expect.objectContaining({ has_default: true, required: false }));
      expect(byName('Task').edit?.map((f) => f.field_id)).toContain('summary');
      expect(byName('Story').edit).toBeNull(); // no Story to read editmeta from
      expect(byName('Bug').statuses.map((s) => [s.name, s.category])).toEqual([['To Do', 'new'], ['In Progress', 'indeterminate'], ['In Review', 'indeterminate'], ['Done', 'done']]);
      expect(byName('Bug').initial_status).toBe('To Do');
      const bugEdges = byName('Bug').transitions.map((t) => [t.from, t.to, t.name, t.required_fields]);
      expect(bugEdges).toEqual([['In Review', 'Done', 'Approve', ['resolution']], ['In Review', 'In Progress', 'Rework', []]]);
      expect(byName('Task').transitions.map((t) => `${t.from}→${t.to}`)).toEqual(['To Do→In Progress', 'In Progress→Done', 'In Progress→To Do']);
      expect(byName('Task').transitions.every((t) => typeof t.observed_at === 'string')).toBe(true);
      expect(catalogue.link_types.map((t) => t.name)).toEqual(['Blocks', 'Relates', 'Duplicate']);
      expect(catalogue.boards).toEqual([{ id: 1, name: 'AURORA board', type: 'scrum' }]);
      expect(catalogue.sprints).toEqual([{ id: 1, name: 'Спринт 1', state: 'active', board_id: 1 }, { id: 2, name: 'Спринт 2', state: 'future', board_id: 1 }]);
      expect(catalogue.components).toEqual(['Backend', 'Frontend']);
      expect(catalogue.versions).toEqual(['1.0', '2.0']);
      expect(Object.keys(catalogue.permissions)).toHaveLength(12);
      expect(Object.values(catalogue.permissions).every(Boolean)).toBe(true);
      expect(catalogue.assignable.map((u) => u.display_name)).toEqual(['Jira Bot', 'Иван Иванов']);
      expect(catalogue.assignable[1]!.id).toBe(flavor === 'cloud' ? '557058:f0000000-0000-0000-0000-000000000002' : 'ivanov');
      expect(catalogue.assignable_truncated).toBe(false);
      expect(catalogue.fields.find((f) => f.id === 'customfield_10016')).toEqual({ id: 'customfield_10016', name: 'Story Points', schema: expect.objectContaining({ type: 'number' }) });
      // the paged createmeta routes of the flavor, never the deprecated expand form
      expect(h.sim.requests.some((r) => r.path === `${API_PREFIX[flavor]}/issue/createmeta/AURORA/issuetypes/1`)).toBe(true);
      expect(h.sim.requests.some((r) => r.path === `${API_PREFIX[flavor]}/issue/createmeta`)).toBe(false);
    });

    it('keeps what the commands need: fields, link types, boards and sprints are not read again', async () => {
      const { client } = await read(flavor);
      const api = JiraApi.for(client);
      h.sim.clearRequests();
      await api.fieldIdFor('Story Points');
      await api.linkTypes();
      await api.boards('AURORA');
      await api.sprints(1, 'active,future');
      expect(h.sim.requests).toEqual([]);
    });

    it('marks the assignable list cut at 1,000 users', async () => {
      const users = h.sim.store.seed.users;
      const saved = [...users];
      const assignable = h.sim.store.seed.assignable;
      h.sim.store.seed.assignable = undefined;
      for (let i = 0; i < 1005; i++) users.push({ accountId: `acc-${i}`, name: `user${i}`, displayName: `Пользователь ${i}`, emailAddress: `u${i}@example.com` });
      try {
        const { catalogue } = await read(flavor);
        expect(catalogue.assignable).toHaveLength(1000);
        expect(catalogue.assignable_truncated).toBe(true);
      } finally {
        users.splice(0, users.length, ...saved);
        h.sim.store.seed.assignable = assignable;
      }
    });
  });

  describe('refresh_catalogue with the workflow API (Cloud, an account that may read workflows)', () => {
    it('takes the transitions from the workflow scheme: every edge, global ones from null, the initial status', async () => {
      h.sim.store.seed.workflowsReadable = true;
      try {
        const { catalogue } = await read('cloud');
        expect(catalogue.transitions_source).toBe('workflow');
        const story = catalogue.per_type['2']!;
        expect(story.transitions.map((t) => `${t.from}→${t.to}`)).toEqual(['To Do→In Progress', 'In Progress→Done', 'Done→To Do', 'In Progress→To Do']);
        expect(story.initial_status).toBe('To Do');
        const bug = catalogue.per_type['3']!;
        expect(bug.transitions.find((t) => t.name === 'Approve')).toEqual({ from: 'In Review', to: 'Done', id: '61', name: 'Approve', required_fields: ['resolution'] });
      } finally {
        h.sim.store.seed.workflowsReadable = false;
      }
    });
  });

  describe('refresh_catalogue on Data Center before 8.4 (no paged createmeta)', () => {
    it('reads the create screens from the old createmeta route, once', async () => {
      h.sim.store.seed.legacyCreateMeta = true;
      try {
        h.sim.clearRequests();
        const { catalogue } = await read('dc');
        expect(catalogue.issue_types.map((t) => t.name)).toEqual(['Task', 'Story', 'Bug', 'Epic', 'Sub-task']);
        const epic = catalogue.per_type[catalogue.issue_types.find((t) => t.name === 'Epic')!.id]!;
        expect(epic.create.find((f) => f.field_id === 'customfield_10011')).toEqual({ field_id: 'customfield_10011', name: 'Epic Name', required: true, has_default: false });
        expect(h.sim.requests.filter((r) => r.path === '/rest/api/2/issue/createmeta')).toHaveLength(1);
        expect(h.sim.requests.filter((r) => r.status === 404).map((r) => r.path)).toEqual(['/rest/api/2/issue/createmeta/AURORA/issuetypes']);
      } finally {
        h.sim.store.seed.legacyCreateMeta = false;
      }
    });
  });
});
