/**
 * What a person approves is what happens in Jira (SPEC 16): a plan the hub's checks accept with a fresh
 * catalogue runs through the reference agent against the Jira simulator with no command failed, and a plan
 * the agent would carry out is not refused at submit. A real hub, the simulator (Cloud) and the agent.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSeed, JiraSimulator, type SimSeed } from '@jira-hub/jira-sim';
import { hubCalls, quietServe, startAgent } from './support/served.js';
import { waitFor } from './support/wait.js';

describe('catalogue-agreement', () => {
  type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

  let dir: string | undefined;
  let hub: { url: string; close: () => Promise<void> } | undefined;
  let sim: JiraSimulator | undefined;
  let stopAgent: (() => Promise<void>) | undefined;

  const { send, call } = hubCalls(() => hub!.url);
  const batchDone = (id: number) => waitFor(`batch ${id} done`, async () => ((await call('GET', `/batches/${id}`)).status === 'done' ? call('GET', `/batches/${id}`) : undefined), 60_000);

  /** A hub, the simulator with `seed` over the default one, the agent on both; the catalogue read and the seed's issues in the mirror. */
  async function start(seed: Partial<SimSeed>): Promise<void> {
    dir = mkdtempSync(join(tmpdir(), 'jira-hub-agreement-e2e-'));
    hub = await quietServe(dir);
    sim = new JiraSimulator({ seed });
    await sim.start();
    await call('PATCH', '/settings', { pacing: { ensure_issue: 0, ensure_fields: 0, ensure_status: 0, ensure_link: 0, ensure_sprint: 0, ensure_comment: 0, refresh: 0 } });
    stopAgent = startAgent(hub.url, sim.url, join(dir, 'journal.jsonl'), { waitSeconds: 1 }).stop;
    await waitFor('the catalogue read at the first claim', async () => ((await call('GET', '/catalogue')).catalogue ? true : undefined), 30_000);
    const keys = (seed.issues ?? []).map((_, i) => `AURORA-${i + 1}`);
    if (keys.length) await batchDone((await call('POST', '/batches', { title: 'зеркало', commands: [{ type: 'refresh', params: { keys } }] })).id);
  }

  /** The plan accepted by the dry run and at submit, then run: every command done, none failed. */
  async function runsClean(commands: unknown[]): Promise<{ plan: Json; done: Json }> {
    const plan = await call('POST', '/batches/plan', { title: 'План', commands });
    expect(plan.findings).toEqual([]);
    const batch = await call('POST', '/batches', { title: 'План', commands });
    const done = await batchDone(batch.id);
    expect(done.commands.filter((c: Json) => c.status !== 'done' && c.status !== 'confirmed_by_state').map((c: Json) => [c.seq, c.type, c.status, c.error])).toEqual([]);
    return { plan, done };
  }

  afterEach(async () => {
    await stopAgent?.();
    await sim?.stop();
    await hub?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    stopAgent = sim = hub = dir = undefined;
  });

  it('ensure_status: a path whose last step the issue is in already is no refusal — the agent walks from the issue\'s place on the path', async () => {
    // The default workflow has no way back from Done to In Progress; the agent skips the steps up to the status the issue is in.
    await start({ issues: [{ summary: 'Готовая задача', issueType: 'Task', status: 'Done' }, { summary: 'Задача в работе', issueType: 'Bug', status: 'In Review' }] });
    const { plan, done } = await runsClean([
      { type: 'ensure_status', params: { key: 'AURORA-1', path: ['In Progress', 'Done'] } },
      { type: 'ensure_status', params: { key: 'AURORA-2', path: ['To Do', 'In Progress', 'In Review'] } },
    ]);
    expect(plan.commands.slice(0, 2).map((c: Json) => [c.verdict, c.notes])).toEqual([
      ['holds', ['задача уже в статусе «Done»: шаг «In Progress» до него агент пропустит']],
      ['holds', ['задача уже в статусе «In Review»: шаги «To Do» → «In Progress» до него агент пропустит']],
    ]);
    expect(done.commands.slice(0, 2).map((c: Json) => c.result)).toEqual([{ from: 'Done', to: 'Done' }, { from: 'In Review', to: 'In Review' }]);
    expect((await call('GET', '/issues/AURORA-1')).status).toBe('Done');
    expect((await call('GET', '/issues/AURORA-2')).status).toBe('In Review');
  }, 60_000);

  it('a list given to a field of one value (a select list, a user picker, a single-line text) is refused at submit, one value of it runs', async () => {
    await start({ issues: [{ summary: 'Задача', issueType: 'Task' }] });
    await call('PATCH', '/settings', { fields: ['Severity', 'Reviewer', 'Team'] });
    const ivan = '557058:f0000000-0000-0000-0000-000000000002';
    const anna = '557058:f0000000-0000-0000-0000-000000000003';
    const commands = [{ type: 'ensure_fields', params: { key: 'AURORA-1', Severity: ['High', 'Low'], Reviewer: [ivan, anna], Team: ['Альфа'] } }];
    const plan = await call('POST', '/batches/plan', { title: 'План', commands });
    expect(plan.findings.map((f: Json) => [f.seq, f.param, f.code])).toEqual([
      [1, 'Severity', 'value_type'],
      [1, 'Reviewer', 'value_type'],
      [1, 'Team', 'value_type'],
    ]);
    expect((await send('POST', '/batches', { title: 'План', commands })).status).toBe(422);
    await runsClean([{ type: 'ensure_fields', params: { key: 'AURORA-1', Severity: 'High', Reviewer: ivan, Team: 'Альфа' } }]);
  }, 60_000);

  it('a field named as two fields of Jira are (letter case aside) is refused at submit: the agent would not choose between them', async () => {
    const seed = defaultSeed();
    // Two apps' «Team» fields; a team-managed project's own «Story Points» elsewhere on the site (Cloud's `scope`).
    await start({
      issues: [{ summary: 'Задача', issueType: 'Task' }],
      customFields: [
        ...seed.customFields,
        { id: 'customfield_10051', name: 'team', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:textfield', type: 'string' },
        { id: 'customfield_10090', name: 'Story Points', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:float', type: 'number', scope: { type: 'PROJECT', project: { id: '10099' } } },
      ],
    });
    // The settings refuse it as the agent's start-up check would (it would not start).
    const settings = await send('PATCH', '/settings', { fields: ['Team', 'Story Points'] });
    expect(settings.status).toBe(422);
    expect(await settings.json()).toMatchObject({ errors: [{ field: 'fields.0', detail: expect.stringContaining('customfield_10050 или customfield_10051') }] });
    await call('PATCH', '/settings', { fields: ['Story Points'] });
    const commands = [
      { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Новая задача', fields: { Team: 'Альфа' } } },
      { type: 'ensure_fields', params: { key: 'AURORA-1', Team: 'Бета' } },
    ];
    const plan = await call('POST', '/batches/plan', { title: 'План', commands });
    expect(plan.findings.map((f: Json) => [f.seq, f.param, f.code])).toEqual([
      [1, 'fields.Team', 'ambiguous_field'],
      // not in settings `fields` (which refuse it as ambiguous, above): refused before the catalogue is asked
      [2, 'Team', 'custom_field_not_allowed'],
    ]);
    expect(plan.findings[0].detail).toContain('customfield_10050, customfield_10051');
    expect((await send('POST', '/batches', { title: 'План', commands })).status).toBe(422);

    // By its id the field is one; «Story Points» of another project is not ours (the agent looks names up in its project).
    await call('PATCH', '/settings', { fields: ['customfield_10050', 'Story Points'] });
    const { done } = await runsClean([
      { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Новая задача', fields: { customfield_10050: 'Альфа', 'Story Points': 3 } } },
      { type: 'ensure_fields', params: { key: 'AURORA-1', customfield_10050: 'Бета', 'Story Points': 5 } },
    ]);
    const created = done.commands[0].result.key;
    expect((await call('GET', `/issues/${created}`)).summary).toBe('Новая задача');
  }, 60_000);
});
