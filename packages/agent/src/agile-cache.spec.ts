import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { executeCommand } from './executors.js';
import { resultOf, startHarness, type SimHarness } from './test-support.js';

describe('agile-cache', () => {
  /** ensure_sprint over the agent's cache of boards and open sprints (decision record 0304). */
  let h: SimHarness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.sim.stop();
  });

  const issue = (summary: string) => h.sim.store.createIssue('AURORA', { summary, issueType: 'Task' }, 'x').key;
  const agileReads = () => h.sim.requests.filter((r) => r.path.startsWith('/rest/agile/1.0/board')).length;

  describe('ensure_sprint with cached boards and sprints', () => {
    it('reads boards and sprints once for many commands; a sprint created later is found by one fresh read', async () => {
      const ctx = h.ctx('cloud');
      h.sim.clearRequests();
      for (const name of ['Спринт 1', 'Спринт 2', 'Спринт 1']) resultOf(await executeCommand({ id: 1, type: 'ensure_sprint', params: { key: issue(name), sprint: name } }, ctx));
      expect(agileReads()).toBe(2); // the board list and its open sprints, once
      h.sim.store.seed.sprints.push({ id: 7, name: 'Спринт 7', state: 'future', boardId: 1 });
      try {
        expect(resultOf(await executeCommand({ id: 2, type: 'ensure_sprint', params: { key: issue('новый'), sprint: 'Спринт 7' } }, ctx))).toEqual({ sprint_id: 7 });
        expect(agileReads()).toBe(4);
        const missing = await executeCommand({ id: 3, type: 'ensure_sprint', params: { key: issue('нет'), sprint: 'Спринт 99' } }, ctx);
        expect(missing).toEqual({ status: 'failed', error: 'спринт «Спринт 99» не найден среди активных и будущих спринтов досок проекта AURORA' });
      } finally {
        h.sim.store.seed.sprints.pop();
      }
    });

    it('a cached sprint closed since: Jira\'s refusal fails that command, the next one reads again and explains', async () => {
      const ctx = h.ctx('dc');
      resultOf(await executeCommand({ id: 4, type: 'ensure_sprint', params: { key: issue('до'), sprint: 'Спринт 2' } }, ctx));
      const sprint = h.sim.store.seed.sprints.find((s) => s.name === 'Спринт 2')!;
      sprint.state = 'closed';
      try {
        const refused = await executeCommand({ id: 5, type: 'ensure_sprint', params: { key: issue('после'), sprint: 'Спринт 2' } }, ctx);
        expect(refused).toEqual({ status: 'failed', error: expect.stringContaining('Cannot move issues to a closed sprint.') });
        const explained = await executeCommand({ id: 6, type: 'ensure_sprint', params: { key: issue('снова'), sprint: 'Спринт 2' } }, ctx);
        expect(explained).toEqual({ status: 'failed', error: expect.stringMatching(/^спринт «Спринт 2» закрыт/) });
      } finally {
        sprint.state = 'future';
      }
    });
  });
});
