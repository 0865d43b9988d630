/**
 * Issue 20 acceptance end to end: a real hub, the Jira simulator and the reference agent, Cloud and Data
 * Center. The hub queues refresh_catalogue at the agent's first claim; a plan with a mistake in each
 * command gets every finding in one dry run and is refused at submit; the plan corrected by following the
 * suggestions runs to the end with no command failed.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JiraSimulator } from '@jira-hub/jira-sim';
import { hubCalls, quietServe, startAgent } from './support/served.js';
import { waitFor } from './support/wait.js';

describe('catalogue-sim', () => {
  type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

  let dir: string;
  let hub: { url: string; close: () => Promise<void> };
  let sim: JiraSimulator;

  const { send, call } = hubCalls(() => hub.url);
  const batchDone = (id: number) => waitFor(`batch ${id} done`, async () => ((await call('GET', `/batches/${id}`)).status === 'done' ? call('GET', `/batches/${id}`) : undefined), 60_000);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jira-hub-catalogue-e2e-'));
    hub = await quietServe(dir);
    sim = new JiraSimulator({
      seed: {
        issues: [
          { summary: 'Сервер отчётов', issueType: 'Task' },
          { summary: 'Выгрузка', issueType: 'Task' },
        ],
      },
    });
    await sim.start();
  });

  afterEach(async () => {
    await sim.stop();
    await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe.each(['cloud', 'dc'] as const)('plans checked against the catalogue the agent read (%s)', (flavor) => {
    it('every finding in one dry run, 422 plan_failed at submit, the corrected plan runs with no command failed', async () => {
      await call('PATCH', '/settings', { pacing: { ensure_issue: 0, ensure_fields: 0, ensure_status: 0, ensure_link: 0, ensure_sprint: 0, ensure_comment: 0, refresh: 0 } });
      const agent = startAgent(hub.url, sim.url, join(dir, 'journal.jsonl'), { flavor, waitSeconds: 1 });
      try {
        const state = await waitFor('the catalogue read at the first claim', async () => ((await call('GET', '/catalogue')).catalogue ? call('GET', '/catalogue') : undefined), 30_000);
        expect(state).toMatchObject({ project_key: 'AURORA', flavor, stale: false });
        const mirror = await call('POST', '/batches', { title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }] });
        await batchDone(mirror.id);
        const ivan = (await call('GET', '/catalogue/users?q=иван')).users[0];
        expect(ivan).toEqual(expect.objectContaining({ display_name: 'Иван Иванов' }));

        const bad = [
          { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'task', summary: 'Отчёт по продажам' } },
          { type: 'ensure_issue', params: { temp_key: 'new:2', issue_type: 'Sub-task', summary: 'Подзадача отчёта' } },
          { type: 'ensure_issue', params: { temp_key: 'new:3', issue_type: 'Task', summary: 'Тема '.repeat(60) } },
          { type: 'ensure_fields', params: { key: 'AURORA-1', priority: 'Очень высокий' } },
          { type: 'ensure_fields', params: { key: 'AURORA-1', labels: ['в работе'] } },
          { type: 'ensure_fields', params: { key: 'AURORA-2', assignee: 'sidorov' } },
          { type: 'ensure_link', params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blokcs' } },
          { type: 'ensure_status', params: { key: 'AURORA-1', path: ['Готово'] } },
          { type: 'ensure_status', params: { key: 'AURORA-2', path: ['Done'] } },
          { type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 3' } },
          { type: 'ensure_comment', params: { key: 'AURORA-1', body: 'к'.repeat(32_768) } },
        ];
        const planned = await call('POST', '/batches/plan', { title: 'План с ошибками', commands: bad });
        expect(planned.ok).toBe(false);
        expect([...new Set(planned.findings.map((f: Json) => f.seq))]).toEqual(bad.map((_, i) => i + 1));
        for (const f of planned.findings) expect(f.suggestion).toEqual(expect.any(String));
        const refused = await send('POST', '/batches', { title: 'План с ошибками', commands: bad });
        expect(refused.status).toBe(422);
        const body = await refused.json();
        expect(body.error).toBe('plan_failed');
        expect(body.findings).toEqual(planned.findings);

        const good = [
          { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт по продажам' } },
          { type: 'ensure_issue', params: { temp_key: 'new:2', issue_type: 'Sub-task', summary: 'Подзадача отчёта', parent: 'AURORA-1' } },
          { type: 'ensure_issue', params: { temp_key: 'new:3', issue_type: 'Task', summary: 'Тема '.repeat(50).trim() } },
          { type: 'ensure_fields', params: { key: 'AURORA-1', priority: 'Highest' } },
          { type: 'ensure_fields', params: { key: 'AURORA-1', labels: ['в_работе'] } },
          { type: 'ensure_fields', params: { key: 'AURORA-2', assignee: ivan.id } },
          { type: 'ensure_link', params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'блокирует' } },
          { type: 'ensure_status', params: { key: 'AURORA-1', to: 'Done' } },
          { type: 'ensure_status', params: { key: 'AURORA-2', path: ['In Progress', 'Done'] } },
          { type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 2' } },
          { type: 'ensure_comment', params: { key: 'AURORA-1', body: 'Согласовано' } },
          { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 1' } },
          { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: null } },
        ];
        const fixed = await call('POST', '/batches/plan', { title: 'План исправлен', commands: good });
        expect(fixed.findings).toEqual([]);
        const batch = await call('POST', '/batches', { title: 'План исправлен', commands: good });
        expect(batch.commands[6].params.link_type).toBe('Blocks');
        expect(batch.commands[7].params).toEqual({ key: 'AURORA-1', path: ['In Progress', 'Done'] });
        const done = await batchDone(batch.id);
        expect(done.commands.filter((c: Json) => c.status !== 'done' && c.status !== 'confirmed_by_state').map((c: Json) => [c.seq, c.type, c.status, c.error])).toEqual([]);
        expect((await call('GET', '/issues/AURORA-1'))).toMatchObject({ status: 'Done', sprint: null }); // moved to Спринт 1, then to the backlog
        expect((await call('GET', '/issues/AURORA-2')).sprint).toBe('Спринт 2');
      } finally {
        await agent.stop();
      }
    }, 120_000);
  });
});
