/**
 * A planning package's status wish for a brand-new issue whose route the catalogue does not know, end to end:
 * a real hub (`serve`), the Jira simulator (its Bug workflow goes To Do → In Progress → In Review → Done, and
 * its catalogue can only observe transitions: the workflow API is closed) and the reference agent.
 *
 * The first plan can only guess the way (no Bug was ever seen); the agent's failure tells the hub the
 * transitions it saw, so each next plan goes further instead of proposing the command that just failed, and
 * the package settles. With Bugs already seen along the way, the first plan gives the whole path at once.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JiraSimulator } from '@jira-hub/jira-sim';
import { agentUntilDone, hubCalls, quietServe } from './support/served.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PROJECT = 'AURORA';
const BOT = '557058:f0000000-0000-0000-0000-000000000001';
const ZERO_PACING = { ensure_issue: 0, ensure_fields: 0, ensure_status: 0, ensure_link: 0, ensure_sprint: 0, ensure_comment: 0, refresh: 0 };

/** A package of one new Bug, assigned (the simulator's Approve wants an assignee), wished in Done. */
const bugPackage = () => {
  const f = new FormData();
  const csv = 'Ключ;Тип;Тема;Исполнитель;Статус\r\n' + `new:1;Bug;Ошибка в отчёте;${BOT};Done\r\n`;
  f.set('issues', new Blob([csv]), 'issues.csv');
  return f;
};

describe('a new issue planned straight to a status its route is not known to (packages, SPEC 16.2, 18)', () => {
  let dir: string;
  let hub: { url: string; close: () => Promise<void> };
  let sim: JiraSimulator;

  const { call } = hubCalls(() => hub.url);

  /** Runs the reference agent until the batch is done, then stops it. */
  const runUntilDone = (batchId: number): Promise<Json> => agentUntilDone(hub.url, sim.url, PROJECT, join(dir, 'journal.jsonl'), batchId);

  const start = async (seedIssues: { summary: string; issueType: string }[]) => {
    dir = mkdtempSync(join(tmpdir(), 'jira-hub-status-route-e2e-'));
    hub = await quietServe(dir);
    sim = new JiraSimulator({ projectKey: PROJECT, seed: { issues: seedIssues } });
    await sim.start();
    await call('PATCH', '/settings', { pacing: ZERO_PACING });
    await runUntilDone((await call('POST', '/catalogue/refresh')).id);
  };

  afterEach(async () => {
    await sim?.stop();
    await hub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The plan's ensure_status as the dry run would store it, with its verdict. */
  const statusOf = (plan: Json) => {
    const seq = plan.commands.findIndex((c: Json) => c.type === 'ensure_status');
    expect(seq).toBeGreaterThanOrEqual(0);
    return { planned: plan.commands[seq], checked: plan.dry_run.commands[seq] };
  };

  it('no Bug seen yet: each failure tells the hub what Jira offered, the next plan goes further, and the package settles', async () => {
    await start([{ summary: 'Задача', issueType: 'Task' }]);
    // Jira's search index lags behind: a read of the catalogue right after the failure finds no Bug to observe.
    sim.setSearchLagMs(600_000);
    const paths: string[][] = [];
    let bug: string | undefined;
    for (let round = 1; round <= 4; round++) {
      const plan = await call('POST', '/packages/plan', bugPackage());
      if (plan.empty) break;
      const { planned, checked } = statusOf(plan);
      expect(planned.params.to).toBe('Done');
      // Never the path that already failed: what the hub learned since leads further.
      expect(paths).not.toContainEqual(checked.params.path);
      paths.push(checked.params.path);
      const applied = await call('POST', '/packages/apply', bugPackage());
      const done = await runUntilDone(applied.batch.id);
      bug ??= done.commands.find((c: Json) => c.type === 'ensure_issue')?.result?.key;
      const status = done.commands.find((c: Json) => c.type === 'ensure_status');
      if (status.status === 'failed') {
        expect(status.error).toMatch(/недоступен из/);
        // The failure itself taught the catalogue what Jira offered there: it is not stale for it.
        expect((await call('GET', '/catalogue')).stale).toBe(false);
      }
    }
    expect(paths).toEqual([['Done'], ['In Progress', 'Done'], ['In Review', 'Done']]);
    expect(sim.store.findIssue(bug!)?.status).toBe('Done');
    const settled = await call('POST', '/packages/plan', bugPackage());
    expect(settled).toMatchObject({ empty: true, commands: [] });
  }, 120_000);

  it('Bugs already seen in each status on the way: the first plan gives the whole path and the apply runs to Done', async () => {
    await start([{ summary: 'Задача', issueType: 'Task' }]);
    // Bugs met in To Do, In Progress and In Review: the catalogue observes the way out of each.
    const moved = (summary: string, ids: string[]) => {
      const issue = sim.store.createIssue(PROJECT, { issueType: 'Bug', summary }, 'bot');
      for (const id of ids) sim.store.transition(issue.key, id);
    };
    moved('Ошибка новая', []);
    moved('Ошибка в работе', ['11']);
    moved('Ошибка на проверке', ['11', '51']);
    await runUntilDone((await call('POST', '/catalogue/refresh')).id);
    const plan = await call('POST', '/packages/plan', bugPackage());
    const { checked } = statusOf(plan);
    expect(checked.params.path).toEqual(['In Progress', 'In Review', 'Done']);
    // The issue is not there yet, so the verdict cannot say what changes; the route itself is checked.
    expect(checked).toMatchObject({ check: 'will_change', findings: [] });
    const done = await runUntilDone((await call('POST', '/packages/apply', bugPackage())).batch.id);
    expect(done.counts.failed ?? 0).toBe(0);
    expect((await call('POST', '/packages/plan', bugPackage())).empty).toBe(true);
  }, 120_000);
});
