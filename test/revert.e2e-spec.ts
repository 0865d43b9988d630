/**
 * Issue 25 acceptance, end to end over real HTTP: a real hub (`serve`), the Jira simulator (Cloud and Data
 * Center) and the reference agent. A batch's change record, its revert (approved), a revert with a conflict,
 * the revert of a revert, a second revert refused; the audit view of an issue.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../src/cli.js';
import { FileJournal, HubClient, JiraClient, runAgent, type JiraFlavor } from '@jira-hub/agent';
import { JiraSimulator, type SimSeed } from '@jira-hub/jira-sim';
import { agentOf, clientOf, fields, refreshResult, rowCounts, startHub, type TestHub } from './support/app.js';
import { CATALOGUE, reportCatalogue } from './support/catalogue.js';
import { testDatabaseEnv } from './support/pg.js';
import { waitFor } from './support/wait.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PROJECT = 'AURORA';
const IVANOV = '557058:f0000000-0000-0000-0000-000000000002';
const IVANOV_ID: Record<JiraFlavor, string> = { cloud: IVANOV, dc: 'ivanov' };
const ZERO_PACING = Object.fromEntries(
  ['ensure_issue', 'ensure_fields', 'ensure_status', 'ensure_link', 'ensure_sprint', 'ensure_comment', 'refresh', 'remove_link', 'remove_comment', 'delete_issue'].map((t) => [t, 0]),
);

interface World {
  sim: JiraSimulator;
  flavor: JiraFlavor;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Json }>;
  ok(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Json>;
  /** Runs the agent until the batch is done (or until `stopWhen` holds), then stops it. */
  run(batchId: number, stopWhen?: () => boolean): Promise<Json>;
  close(): Promise<void>;
}

async function startWorld(flavor: JiraFlavor, seed: Partial<SimSeed> = {}): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'jira-hub-revert-e2e-'));
  const log = console.log;
  console.log = () => undefined;
  let hub: { url: string; close: () => Promise<void> };
  try {
    hub = await serve(await testDatabaseEnv({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_LOG_LEVEL: 'error' }));
  } finally {
    console.log = log;
  }
  const sim = new JiraSimulator({
    projectKey: PROJECT,
    seed: {
      issues: [
        { summary: 'Первая задача', issueType: 'Task', priority: 'Medium', labels: ['old'], sprintIds: [1] }, // AURORA-1
        { summary: 'Вторая задача', issueType: 'Task' }, // AURORA-2
        { summary: 'Третья задача', issueType: 'Story' }, // AURORA-3
      ],
      links: [{ type: 'Relates', source: 'AURORA-2', target: 'AURORA-1' }],
      // The catalogue reads the workflows: a created issue's way to revert.created_issue_status («Done») is the
      // shortest known route (To Do → In Progress → Done), stored by the hub at submit.
      workflowsReadable: true,
      ...seed,
    },
  });
  const simUrl = await sim.start();
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(hub.url + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const ok = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const answer = await call(method, path, body, headers);
    if (answer.status >= 300) throw new Error(`${method} ${path} → HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  await ok('PATCH', '/settings', { pacing: ZERO_PACING });
  const journalPath = join(dir, 'agent', 'journal.jsonl');
  const run = async (batchId: number, stopWhen?: () => boolean): Promise<Json> => {
    const controller = new AbortController();
    const lines: string[] = [];
    const journal = new FileJournal(journalPath);
    const jira = new JiraClient({
      baseUrl: simUrl,
      flavor,
      auth: flavor === 'dc' ? { kind: 'bearer', token: 'pat' } : { kind: 'basic', email: 'bot@example.com', apiToken: 'token' },
      minRetryAfterMs: 5,
      maxRetryAfterMs: 50,
      stopSignal: controller.signal, // as the agent's main wires it: a stop aborts a request in flight
    });
    const hubClient = new HubClient({ baseUrl: hub.url, retryBaseMs: 20, retryMaxMs: 200, log: (l) => lines.push(l) });
    const finished = runAgent({ hub: hubClient, jira, journal, project: PROJECT, log: (l) => lines.push(l), stopSignal: controller.signal, waitSeconds: 30 }).finally(() =>
      journal.close(),
    );
    try {
      return await waitFor(`batch ${batchId} done`, async () => {
        if (stopWhen) return stopWhen() || undefined;
        const view = await ok('GET', `/batches/${batchId}`);
        return view.status === 'done' ? view : undefined;
      });
    } catch (error) {
      throw new Error(`${(error as Error).message}\nagent log:\n${lines.join('\n')}`);
    } finally {
      controller.abort();
      await finished;
    }
  };
  // The catalogue first (SPEC 16.1): the checks of every batch, and the routes the hub stores for ensure_status {to}.
  await run((await ok('POST', '/catalogue/refresh')).id);
  return {
    sim,
    flavor,
    call,
    ok,
    run,
    close: async () => {
      await sim.stop();
      await hub.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The simulator's project, field by field; link and comment ids left out (a revert of a revert makes new ones). */
function project(sim: JiraSimulator) {
  const issues = Object.fromEntries(
    sim.listIssues().map((i) => {
      const { resolution, ...custom } = i.custom as Record<string, unknown>;
      return [
        i.key,
        {
          summary: i.summary,
          description: i.description,
          issueType: i.issueType,
          status: i.status,
          assignee: i.assignee,
          priority: i.priority,
          duedate: i.duedate,
          labels: [...i.labels].sort(),
          parent: i.parent,
          sprints: sim.sprintsOf(i.key),
          custom,
          resolution: resolution ?? null,
        },
      ];
    }),
  );
  const links = sim.store.links.map((l) => `${l.sourceKey} ${l.typeName} ${l.targetKey}`).sort();
  const comments = sim.store.comments.map((c) => `${c.issueKey}: ${c.body}`).sort();
  return { issues, links, comments };
}

type Snapshot = ReturnType<typeof project>;

/** The snapshot without the given issues (and their links and comments). */
function without(s: Snapshot, keys: string[]): Snapshot {
  const touches = (line: string) => keys.some((k) => new RegExp(`\\b${k}\\b`).test(line));
  return {
    issues: Object.fromEntries(Object.entries(s.issues).filter(([k]) => !keys.includes(k))),
    links: s.links.filter((l) => !touches(l)),
    comments: s.comments.filter((c) => !touches(c)),
  };
}

function theBatch(flavor: JiraFlavor) {
  return {
    title: 'Планирование для отката',
    commands: [
      { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Откат: новая 1' } },
      { type: 'ensure_issue', params: { temp_key: 'new:2', issue_type: 'Story', summary: 'Откат: новая 2' } },
      { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20', labels: ['old', 'e2e'], priority: 'High' } },
      { type: 'ensure_fields', params: { key: 'AURORA-2', summary: 'Вторая задача (изменена)', assignee: IVANOV_ID[flavor] } },
      { type: 'ensure_status', params: { key: 'AURORA-1', path: ['In Progress', 'Done'] } },
      { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 2' } },
      { type: 'ensure_link', params: { source: 'AURORA-1', target: 'new:1', link_type: 'Blocks' } },
      { type: 'ensure_link', params: { source: 'AURORA-3', target: 'AURORA-2', link_type: 'Blocks' } },
      { type: 'ensure_comment', params: { key: 'AURORA-2', body: 'Комментарий пакета' } },
    ],
  };
}

const ASSISTANT = { 'X-Hub-Source': 'assistant' };

describe.each<JiraFlavor>(['cloud', 'dc'])('revert on the simulator (%s)', (flavor) => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld(flavor);
  });
  afterEach(() => world.close());

  it('records what the batch changed; its approved revert leaves the project as before but for the created issues; a second revert → 409; a revert of the revert restores', async () => {
    const before = project(world.sim);
    const batch = await world.ok('POST', '/batches', theBatch(flavor));
    const done = await world.run(batch.id);
    const after = project(world.sim);
    const created = done.commands.filter((c: Json) => c.type === 'ensure_issue').map((c: Json) => c.result.key as string);
    expect(created).toHaveLength(2);

    // The change record: per command, and by issue in the batch view.
    expect(done.changes['AURORA-1']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ what: 'field:duedate', before: null, after: '2026-12-20', delivery_n: 1 }),
        expect.objectContaining({ what: 'field:labels', before: ['old'], after: ['old', 'e2e'] }),
        expect.objectContaining({ what: 'field:priority', before: 'Medium', after: 'High' }),
        expect.objectContaining({ what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }),
        // sprints by their ids and boards (decision 1430)
        expect.objectContaining({ what: 'sprint', before: { id: 1, name: 'Спринт 1', board_id: 1 }, after: { id: 2, name: 'Спринт 2', board_id: 1 } }),
        expect.objectContaining({ what: 'link', after: { source: 'AURORA-1', target: created[0], link_type: 'Blocks' } }),
      ]),
    );
    expect(done.changes['AURORA-2']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ what: 'field:summary', before: 'Вторая задача', after: 'Вторая задача (изменена)' }),
        expect.objectContaining({ what: 'field:assignee', before: null, after: IVANOV_ID[flavor] }),
        expect.objectContaining({ what: 'comment', after: expect.objectContaining({ id: expect.any(String), body: 'Комментарий пакета' }) }),
      ]),
    );
    expect(done.changes[created[1]!]).toEqual([expect.objectContaining({ what: 'issue', after: { key: created[1], summary: 'Откат: новая 2' } })]);
    const statusCommand = done.commands.find((c: Json) => c.type === 'ensure_status');
    expect((await world.ok('GET', `/commands/${statusCommand.id}`)).changes).toEqual([expect.objectContaining({ key: 'AURORA-1', what: 'status' })]);

    // The dry run writes nothing.
    const batchesBefore = (await world.ok('GET', '/batches')).length;
    const dry = await world.call('POST', `/batches/${batch.id}/revert?dry_run=true`, undefined, ASSISTANT);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, revert_of: batch.id, title: `Откат пакета #${batch.id}`, conflicts: [], batch: null });
    expect(dry.body.commands.map((c: Json) => c.type)).toEqual(expect.arrayContaining(['remove_comment', 'remove_link', 'ensure_sprint', 'ensure_status', 'ensure_fields']));
    expect((await world.ok('GET', '/batches')).length).toBe(batchesBefore);

    // The assistant's revert waits for a person.
    const revert = await world.call('POST', `/batches/${batch.id}/revert`, undefined, ASSISTANT);
    expect(revert.status).toBe(201);
    expect(revert.body.batch).toMatchObject({ title: `Откат пакета #${batch.id}`, source: 'assistant', status: 'awaiting_approval', revert_of: batch.id });
    await world.ok('POST', `/batches/${revert.body.batch.id}/approve`, { by: 'ivanov' });
    const revertDone = await world.run(revert.body.batch.id);
    expect(revertDone.commands.filter((c: Json) => !['done', 'confirmed_by_state'].includes(c.status))).toEqual([]);
    expect(revertDone.commands.find((c: Json) => c.type === 'ensure_status' && c.params.key === created[0])?.params.path).toEqual(['In Progress', 'Done']);

    const reverted = project(world.sim);
    expect(without(reverted, created)).toEqual(without(before, created));
    for (const key of created) {
      expect(reverted.issues[key]).toMatchObject({ status: 'Done', labels: expect.arrayContaining(['hub-reverted']) });
    }

    // Reverted once: a second revert is refused, nothing written.
    const again = await world.call('POST', `/batches/${batch.id}/revert`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'conflict', detail: expect.stringContaining(`#${revert.body.batch.id}`) });

    // The revert of the revert restores the batch's effect.
    const back = await world.ok('POST', `/batches/${revert.body.batch.id}/revert`);
    expect(back.conflicts).toEqual([]);
    await world.run(back.batch.id);
    expect(project(world.sim)).toEqual(after);

    // The audit view: every change the hub made to AURORA-1, with batch, author and approver.
    const history = await world.ok('GET', '/issues/AURORA-1/changes');
    const duedates = history.filter((c: Json) => c.what === 'field:duedate');
    expect(duedates.map((c: Json) => [c.batch_id, c.before, c.after])).toEqual([
      [batch.id, null, '2026-12-20'],
      [revert.body.batch.id, '2026-12-20', null],
      [back.batch.id, null, '2026-12-20'],
    ]);
    expect(duedates[1]).toMatchObject({ approved_by: 'ivanov', source: 'assistant', batch_title: `Откат пакета #${batch.id}`, command_type: 'ensure_fields' });
    // A link is in the history of both its ends (it is recorded under its source, AURORA-1).
    const links = (await world.ok('GET', `/issues/${created[0]}/changes`)).filter((c: Json) => c.what === 'link' || c.what === 'link_removed');
    expect(links.map((c: Json) => [c.batch_id, c.what, c.key])).toEqual([
      [batch.id, 'link', 'AURORA-1'],
      [revert.body.batch.id, 'link_removed', 'AURORA-1'],
      [back.batch.id, 'link', 'AURORA-1'],
    ]);
  });

  it('a field changed in Jira after the batch is a conflict, listed and left; delete_created deletes the created issues', async () => {
    const before = project(world.sim);
    const batch = await world.ok('POST', '/batches', theBatch(flavor));
    const done = await world.run(batch.id);
    const created = done.commands.filter((c: Json) => c.type === 'ensure_issue').map((c: Json) => c.result.key as string);

    world.sim.store.updateIssue('AURORA-1', { priority: 'Lowest' }); // someone in Jira
    const refresh = await world.ok('POST', '/batches', { title: 'обновить', commands: [{ type: 'refresh', params: { keys: ['AURORA-1'] } }] });
    await world.run(refresh.id);
    await world.ok('PATCH', '/settings', { revert: { delete_created: true } });

    const revert = await world.ok('POST', `/batches/${batch.id}/revert`);
    expect(revert.conflicts).toEqual([
      expect.objectContaining({ key: 'AURORA-1', what: 'field:priority', expected: 'High', actual: 'Lowest', detail: 'AURORA-1: приоритет с тех пор изменили — сейчас «Lowest», пакет оставил «High»; не откатываем' }),
    ]);
    expect(revert.commands.filter((c: Json) => c.type === 'delete_issue')).toHaveLength(2);
    await world.run(revert.batch.id);

    const now = project(world.sim);
    for (const key of created) expect(now.issues[key]).toBeUndefined();
    const expected = structuredClone(before);
    expected.issues['AURORA-1']!.priority = 'Lowest';
    expect(now).toEqual(expected);
  });
});

/** Two scrum boards of the project: each team has its own sprints, and their names repeat. */
const TWO_BOARDS: SimSeed['boards'] = [
  { id: 1, name: 'AURORA board', type: 'scrum', projectKey: PROJECT },
  { id: 2, name: 'Поддержка', type: 'scrum', projectKey: PROJECT },
];

describe.each<JiraFlavor>(['cloud', 'dc'])('sprints of the same name on two boards (decision 1430, %s)', (flavor) => {
  // «Спринт 2» is sprint 2 of «AURORA board» and sprint 7 of «Поддержка»; AURORA-1 and AURORA-2 are in Поддержка's.
  const SEED: Partial<SimSeed> = {
    boards: TWO_BOARDS,
    sprints: [
      { id: 1, name: 'Спринт 1', state: 'active', boardId: 1 },
      { id: 2, name: 'Спринт 2', state: 'future', boardId: 1 },
      { id: 7, name: 'Спринт 2', state: 'future', boardId: 2 },
    ],
    issues: [
      { summary: 'В спринте поддержки', issueType: 'Task', sprintIds: [7] }, // AURORA-1
      { summary: 'Тоже в спринте поддержки', issueType: 'Task', sprintIds: [7] }, // AURORA-2
    ],
    links: [],
  };
  let world: World;
  beforeEach(async () => {
    world = await startWorld(flavor, SEED);
    await world.run((await world.ok('POST', '/batches', { title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }] })).id);
  });
  afterEach(() => world.close());

  const sprint = (key: string, name: string | null, board?: string | number) => ({ type: 'ensure_sprint', params: { key, sprint: name, ...(board === undefined ? {} : { board }) } });
  const [support2, aurora2] = [{ id: 7, name: 'Спринт 2', board_id: 2 }, { id: 2, name: 'Спринт 2', board_id: 1 }];

  it('the mirror keeps the sprint by id and board; the dry run judges a board exactly', async () => {
    expect(await world.ok('GET', '/issues/AURORA-1')).toMatchObject({ sprint: 'Спринт 2', sprint_id: 7, sprint_board_id: 2 });
    const plan = await world.ok('POST', '/batches/plan', { title: 'Сверка', commands: [sprint('AURORA-1', 'Спринт 2', 'Поддержка'), sprint('AURORA-1', 'Спринт 2', 'AURORA board')] });
    expect(plan).toMatchObject({ ok: true, findings: [] });
    expect(plan.commands.slice(0, 2).map((c: Json) => [c.check, c.verdict])).toEqual([
      ['no_change', 'holds'],
      ['will_change', 'would_change'],
    ]);
  });

  it("a move between the boards' «Спринт 2» is recorded and reverted; a move out of Поддержка's goes back to Поддержка's, not to the other board's", async () => {
    const batch = await world.ok('POST', '/batches', { title: 'Перенос между досками', commands: [sprint('AURORA-1', 'Спринт 2', 'AURORA board'), sprint('AURORA-2', 'Спринт 1')] });
    const done = await world.run(batch.id);
    expect(world.sim.store.sprintIdsOf(world.sim.getIssue('AURORA-1')!)).toEqual([2]);
    expect(done.changes).toEqual({
      'AURORA-1': [expect.objectContaining({ what: 'sprint', before: support2, after: aurora2 })],
      'AURORA-2': [expect.objectContaining({ what: 'sprint', before: support2, after: { id: 1, name: 'Спринт 1', board_id: 1 } })],
    });
    expect(await world.ok('GET', '/issues/AURORA-1')).toMatchObject({ sprint: 'Спринт 2', sprint_id: 2, sprint_board_id: 1 });

    const dry = await world.ok('POST', `/batches/${batch.id}/revert?dry_run=true`);
    expect(dry).toMatchObject({ conflicts: [], ok: true, findings: [], commands: [sprint('AURORA-2', 'Спринт 2', 2), sprint('AURORA-1', 'Спринт 2', 2)] });
    const revert = await world.ok('POST', `/batches/${batch.id}/revert`);
    const reverted = await world.run(revert.batch.id);
    expect(reverted.commands.filter((c: Json) => !['done', 'confirmed_by_state'].includes(c.status))).toEqual([]);
    for (const key of ['AURORA-1', 'AURORA-2']) expect(world.sim.store.sprintIdsOf(world.sim.getIssue(key)!)).toEqual([7]);
    expect(reverted.changes['AURORA-1']).toEqual([expect.objectContaining({ what: 'sprint', before: aurora2, after: support2 })]);
  });
});

describe.each<JiraFlavor>(['cloud', 'dc'])('an issue whose sprint field lists only a closed sprint is in the backlog (%s)', (flavor) => {
  // AURORA-1 was in «Спринт 0», closed since: Jira still lists it in the sprint field (decision 0606).
  let world: World;
  beforeEach(async () => {
    world = await startWorld(flavor, {
      sprints: [
        { id: 1, name: 'Спринт 1', state: 'active', boardId: 1 },
        { id: 2, name: 'Спринт 2', state: 'future', boardId: 1 },
        { id: 3, name: 'Спринт 0', state: 'closed', boardId: 1 },
      ],
      issues: [
        { summary: 'Из закрытого спринта', issueType: 'Task', sprintIds: [3] }, // AURORA-1
        { summary: 'Перенесена из закрытого спринта в активный', issueType: 'Task', sprintIds: [3, 1] }, // AURORA-2
      ],
      links: [],
    });
  });
  afterEach(() => world.close());

  it('a move into a sprint is recorded from the backlog, and reverted to the backlog', async () => {
    const batch = await world.ok('POST', '/batches', { title: 'В спринт', commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 2' } }] });
    const done = await world.run(batch.id);
    expect(done.changes['AURORA-1']).toEqual([expect.objectContaining({ what: 'sprint', before: null, after: { id: 2, name: 'Спринт 2', board_id: 1 } })]);
    const dry = await world.ok('POST', `/batches/${batch.id}/revert?dry_run=true`);
    expect(dry).toMatchObject({ conflicts: [], findings: [], ok: true, commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: null } }] });
    const revert = await world.ok('POST', `/batches/${batch.id}/revert`);
    await world.run(revert.batch.id);
    expect(world.sim.store.sprintIdsOf(world.sim.getIssue('AURORA-1')!)).toEqual([3]);
  });

  it('a move into the backlog of an issue that also lists the closed sprint is no change once done, and reverts without a conflict (decision 1434)', async () => {
    const batch = await world.ok('POST', '/batches', { title: 'В бэклог', commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: null } }] });
    const done = await world.run(batch.id);
    expect(done.changes['AURORA-2']).toEqual([expect.objectContaining({ what: 'sprint', before: { id: 1, name: 'Спринт 1', board_id: 1 }, after: null })]);
    // The mirror names the closed sprint the field still lists, and knows it is closed.
    expect(await world.ok('GET', '/issues/AURORA-2')).toMatchObject({ sprint: 'Спринт 0', sprint_id: 3, sprint_state: 'closed' });
    const again = await world.ok('POST', '/batches/plan', { title: 'Ещё раз', commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: null } }] });
    expect(again.commands[0]).toMatchObject({ check: 'no_change', verdict: 'holds' });

    const dry = await world.ok('POST', `/batches/${batch.id}/revert?dry_run=true`);
    expect(dry).toMatchObject({ conflicts: [], findings: [], ok: true, commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 1' } }] });
    const revert = await world.ok('POST', `/batches/${batch.id}/revert`);
    await world.run(revert.batch.id);
    expect(world.sim.store.sprintIdsOf(world.sim.getIssue('AURORA-2')!)).toEqual(expect.arrayContaining([1, 3]));
  });
});

describe.each<JiraFlavor>(['cloud', 'dc'])('a sprint renamed since is the same sprint: known by its id (decision 1430, %s)', (flavor) => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld(flavor);
  });
  afterEach(() => world.close());

  it('a move whose sprints were renamed since is no conflict, and goes back to the first sprint by its name now', async () => {
    const batch = await world.ok('POST', '/batches', { title: 'В спринт 2', commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 2' } }] });
    await world.run(batch.id);
    // the team gives its sprints their goals
    world.sim.store.findSprint(1)!.name = 'Спринт 1 — отчёты';
    world.sim.store.findSprint(2)!.name = 'Спринт 2 — релиз';
    await world.run((await world.ok('POST', '/batches', { title: 'обновить', commands: [{ type: 'refresh', params: { keys: ['AURORA-1'] } }] })).id);
    await world.run((await world.ok('POST', '/catalogue/refresh')).id);
    expect(await world.ok('GET', '/issues/AURORA-1')).toMatchObject({ sprint: 'Спринт 2 — релиз', sprint_id: 2 });

    const dry = await world.ok('POST', `/batches/${batch.id}/revert?dry_run=true`);
    expect(dry).toMatchObject({ conflicts: [], ok: true, findings: [], commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 1 — отчёты', board: 1 } }] });
    const revert = await world.ok('POST', `/batches/${batch.id}/revert`);
    await world.run(revert.batch.id);
    expect(world.sim.store.sprintIdsOf(world.sim.getIssue('AURORA-1')!)).toEqual([1]);
  });
});

describe.each<JiraFlavor>(['cloud', 'dc'])('a closed sprint is the backlog for a sprint asked for by name or by id (decision 1434, %s)', (flavor) => {
  // «Спринт 2» is open on «AURORA board» (id 2) and closed on «Поддержка» (id 7); AURORA-1 was left in Поддержка's.
  let world: World;
  beforeEach(async () => {
    world = await startWorld(flavor, {
      boards: TWO_BOARDS,
      sprints: [
        { id: 1, name: 'Спринт 1', state: 'active', boardId: 1 },
        { id: 2, name: 'Спринт 2', state: 'future', boardId: 1 },
        { id: 7, name: 'Спринт 2', state: 'closed', boardId: 2 },
        { id: 8, name: 'Спринт 3', state: 'active', boardId: 2 },
      ],
      issues: [
        { summary: 'В закрытом спринте поддержки', issueType: 'Task', sprintIds: [7] }, // AURORA-1
        { summary: 'В спринте поддержки', issueType: 'Task', sprintIds: [8] }, // AURORA-2
      ],
      links: [],
    });
    await world.run((await world.ok('POST', '/batches', { title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }] })).id);
  });
  afterEach(() => world.close());

  it("a move into the open sprint of a closed one's name is a change, not «уже выполнено»", async () => {
    const commands = [{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 2' } }];
    const plan = await world.ok('POST', '/batches/plan', { title: 'В спринт 2', commands });
    expect(plan).toMatchObject({ ok: true, findings: [] });
    expect(plan.commands[0]).toMatchObject({ check: 'will_change', verdict: 'would_change', changes: [{ field: 'sprint', from: null, to: 'Спринт 2' }] });
    const done = await world.run((await world.ok('POST', '/batches', { title: 'В спринт 2', commands })).id);
    expect(done.changes['AURORA-1']).toEqual([expect.objectContaining({ what: 'sprint', before: null, after: { id: 2, name: 'Спринт 2', board_id: 1 } })]);
    expect(world.sim.store.sprintIdsOf(world.sim.getIssue('AURORA-1')!)).toEqual([7, 2]);
  });

  it('a move into a sprint closed since the catalogue was read fails in Russian and marks the catalogue stale; read again, the checks refuse it at submit', async () => {
    world.sim.store.findSprint(2)!.state = 'closed';
    const commands = [{ type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 2' } }];
    const hubReads = async () => (await world.ok('GET', '/batches')).filter((b: Json) => b.title === 'Каталог Jira' && b.author === 'hub').length;
    const readsBefore = await hubReads();
    const done = await world.run((await world.ok('POST', '/batches', { title: 'В спринт 2', commands })).id);
    expect(done.commands[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/^спринт «Спринт 2» закрыт \(.*\): Jira не переносит задачи в закрытый спринт$/) });
    // The failure marked the catalogue stale, so the report that finished the batch (its tail refresh) claimed the
    // hub's own catalogue read in the same transaction (SPEC 16.1), which the agent may run before the batch is seen
    // done: the catalogue is stale with the reason, or that read is already there.
    expect(await hubReads()).toBe(readsBefore + 1);
    const catalogue = await world.ok('GET', '/catalogue');
    if (catalogue.stale) expect(catalogue.stale_reason).toContain('спринт «Спринт 2» закрыт');
    await world.run((await world.ok('POST', '/catalogue/refresh')).id);
    const refused = await world.call('POST', '/batches', { title: 'В спринт 2', commands });
    expect(refused).toMatchObject({ status: 422, body: { error: 'plan_failed', findings: [{ seq: 1, param: 'sprint', code: 'unknown_sprint', detail: 'спринта «Спринт 2» нет среди активных и будущих' }] } });
  });

  it('a move into a sprint completed since is not reverted: the issue is in the backlog, and the revert does not pull it into the sprint it left', async () => {
    const batch = await world.ok('POST', '/batches', { title: 'В спринт 2', commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 2', board: 'AURORA board' } }] });
    await world.run(batch.id);
    world.sim.store.findSprint(2)!.state = 'closed'; // the team started «Спринт 2» and completed it
    await world.run((await world.ok('POST', '/batches', { title: 'обновить', commands: [{ type: 'refresh', params: { keys: ['AURORA-2'] } }] })).id);
    expect(await world.ok('GET', '/issues/AURORA-2')).toMatchObject({ sprint: 'Спринт 2', sprint_id: 2, sprint_state: 'closed' });

    const dry = await world.ok('POST', `/batches/${batch.id}/revert?dry_run=true`);
    expect(dry).toMatchObject({ commands: [], conflicts: [{ key: 'AURORA-2', what: 'sprint', actual: null }] });
    expect(dry.conflicts[0].detail).toBe('AURORA-2: спринт с тех пор изменили — сейчас бэклог, пакет оставил «Спринт 2» (доска «AURORA board»); не откатываем');
    expect((await world.call('POST', `/batches/${batch.id}/revert`)).status).toBe(409);
    expect(world.sim.store.sprintIdsOf(world.sim.getIssue('AURORA-2')!)).toEqual([2]);
  });

  it('a sprint the batch took the issue out of, closed since, is a conflict: the rest of the batch goes back, not nothing at all', async () => {
    const batch = await world.ok('POST', '/batches', {
      title: 'Из спринта поддержки и срок',
      commands: [
        { type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 1' } },
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20' } },
      ],
    });
    await world.run(batch.id);
    world.sim.store.findSprint(8)!.state = 'closed'; // «Спринт 3» of Поддержка, which AURORA-2 left, is completed
    await world.run((await world.ok('POST', '/catalogue/refresh')).id);

    const dry = await world.ok('POST', `/batches/${batch.id}/revert?dry_run=true`);
    expect(dry).toMatchObject({ ok: true, findings: [], commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } }], conflicts: [{ key: 'AURORA-2', what: 'sprint' }] });
    expect(dry.conflicts[0].detail).toBe(
      'AURORA-2: спринта «Спринт 3» (доска «Поддержка»), из которого пакет перенёс задачу, нет среди активных и будущих спринтов каталога Jira (закрыт или удалён) — вернуть в него нельзя; не откатываем (если он открыт, обновите каталог и повторите откат)',
    );
    const revert = await world.ok('POST', `/batches/${batch.id}/revert`);
    await world.run(revert.batch.id);
    expect(world.sim.getIssue('AURORA-1')!.duedate ?? null).toBeNull();
    expect(world.sim.store.sprintIdsOf(world.sim.getIssue('AURORA-2')!)).toEqual([1]);
  });
});

describe('revert: a batch that changed the same thing more than once (decision 1410)', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld('cloud');
  });
  afterEach(() => world.close());

  it('reverts each subject’s net change: first before, compared with the last after; a link created and removed needs nothing', async () => {
    const before = project(world.sim);
    const link = { source: 'AURORA-3', target: 'AURORA-2', link_type: 'Relates' };
    const batch = await world.ok('POST', '/batches', {
      title: 'Одно и то же несколько раз',
      commands: [
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-01', priority: 'High' } },
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-05' } },
        { type: 'ensure_status', params: { key: 'AURORA-1', path: ['In Progress'] } },
        { type: 'ensure_status', params: { key: 'AURORA-1', path: ['Done'] } },
        { type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 1' } },
        { type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 2' } },
        { type: 'ensure_link', params: link },
        { type: 'remove_link', params: link },
      ],
    });
    const done = await world.run(batch.id);
    expect(done.changes['AURORA-1'].map((c: Json) => [c.what, c.before, c.after])).toEqual([
      ['field:duedate', null, '2026-12-01'],
      ['field:priority', 'Medium', 'High'],
      ['field:duedate', '2026-12-01', '2026-12-05'],
      ['status', 'To Do', 'In Progress'],
      ['status', 'In Progress', 'Done'],
    ]);
    expect(done.changes['AURORA-3'].map((c: Json) => c.what)).toEqual(['link', 'link_removed']);

    const revert = await world.ok('POST', `/batches/${batch.id}/revert`);
    expect({ commands: revert.commands, conflicts: revert.conflicts }).toEqual({
      commands: [
        { type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: null } },
        { type: 'ensure_status', params: { key: 'AURORA-1', to: 'To Do' } },
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } },
        { type: 'ensure_fields', params: { key: 'AURORA-1', priority: 'Medium' } },
      ],
      conflicts: [],
    });
    await world.run(revert.batch.id);
    expect(project(world.sim)).toEqual(before);
  });
});

describe('revert: bad input and refusals', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld('cloud');
  });
  afterEach(() => world.close());

  it('a write whose report was lost (the agent stopped while Jira took it) stays in the change record: the revert undoes it', async () => {
    const body = 'Комментарий, отчёт о котором потерян';
    const b = await world.ok('POST', '/batches', {
      title: 'Потерянные отчёты',
      commands: [
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20' } },
        { type: 'ensure_status', params: { key: 'AURORA-2', path: ['In Progress', 'Done'] } },
        { type: 'ensure_comment', params: { key: 'AURORA-2', body } },
        { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: null } },
      ],
    });
    // Jira answers late: the agent is stopped once Jira has a write in hand, which Jira carries out; no report reaches the hub.
    world.sim.setLatencyMs(200);
    const sent = (method: string, path: RegExp) => () => world.sim.requests.some((r) => r.method === method && path.test(r.path));
    const lost = async (method: string, path: RegExp, done: () => boolean) => {
      world.sim.clearRequests();
      await world.run(b.id, sent(method, path));
      await waitFor('Jira carried the write out', () => done() || undefined);
    };
    await lost('PUT', /\/issue\/AURORA-1$/, () => world.sim.getIssue('AURORA-1')?.duedate === '2026-12-20');
    await lost('POST', /\/issue\/AURORA-2\/transitions$/, () => world.sim.getIssue('AURORA-2')?.status === 'In Progress');
    await lost('POST', /\/issue\/AURORA-2\/comment$/, () => world.sim.comments('AURORA-2').length === 1);
    await lost('POST', /^\/rest\/agile\/1\.0\/backlog\/issue$/, () => world.sim.sprintsOf('AURORA-1').length === 0);
    world.sim.setLatencyMs(0);
    const view = await world.run(b.id);
    expect(view.commands.slice(0, 4).map((c: Json) => [c.status, c.deliveries])).toEqual([
      ['done', 2],
      ['done', 2],
      ['done', 2],
      ['done', 2],
    ]);
    expect(world.sim.comments('AURORA-2')).toHaveLength(1);
    const commentId = world.sim.comments('AURORA-2')[0]!.id;
    expect(view.changes).toEqual({
      'AURORA-1': [
        expect.objectContaining({ what: 'field:duedate', before: null, after: '2026-12-20', delivery_n: 2 }),
        expect.objectContaining({ what: 'sprint', before: { id: 1, name: 'Спринт 1', board_id: 1 }, after: null, delivery_n: 2 }),
      ],
      'AURORA-2': [
        // The whole walk: «Start», whose answer was lost, with «Finish», made by the re-delivery.
        expect.objectContaining({ what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }),
        expect.objectContaining({ what: 'comment', after: { id: commentId, body } }),
      ],
    });
    const revert = await world.ok('POST', `/batches/${b.id}/revert?dry_run=true`);
    expect(revert).toMatchObject({
      conflicts: [],
      commands: [
        { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 1', board: 1 } },
        { type: 'remove_comment', params: { key: 'AURORA-2', comment_id: commentId } },
        { type: 'ensure_status', params: { key: 'AURORA-2', to: 'To Do' } },
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } },
      ],
    });
  });

  it('a status walk Jira refuses partway fails with the transitions it took: the batch view shows them, the revert undoes them (decision 1413)', async () => {
    const key = world.sim.store.createIssue(PROJECT, { summary: 'Ошибка без исполнителя', issueType: 'Bug' }, world.sim.store.seed.users[0]!.accountId).key;
    const b = await world.ok('POST', '/batches', { title: 'Ревью без исполнителя', commands: [{ type: 'ensure_status', params: { key, path: ['In Progress', 'In Review', 'Done'] } }] });
    const view = await world.run(b.id);
    expect(world.sim.getIssue(key)?.status).toBe('In Review');
    const walk = { key, what: 'status', before: 'To Do', after: 'In Review', transitions: ['Start', 'Review'] };
    expect(view.commands[0]).toMatchObject({ status: 'failed', error: `Jira: не приняла запрос для задачи ${key} — исправьте значения в команде или в пакете и повторите (HTTP 400: Assignee is required.)`, changes: [{ ...walk, delivery_n: 1 }] });
    expect(view.changes).toEqual({ [key]: [expect.objectContaining({ ...walk, delivery_n: 1 })] });
    const revert = await world.ok('POST', `/batches/${b.id}/revert?dry_run=true`);
    expect(revert).toMatchObject({ conflicts: [], commands: [{ type: 'ensure_status', params: { key, to: 'To Do' } }] });
  });

  it('an issue deleted in Jira since (a refresh missed it) is a conflict, not a command that fails there: the created issue, its comment and link once; the rest goes back', async () => {
    const b = await world.ok('POST', '/batches', {
      title: 'Задачи, удалённые потом',
      commands: [
        { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Удалят после пакета' } },
        { type: 'ensure_comment', params: { key: 'new:1', body: 'К новой задаче' } },
        { type: 'ensure_link', params: { source: 'AURORA-1', target: 'new:1', link_type: 'Blocks' } },
        { type: 'ensure_fields', params: { key: 'AURORA-3', duedate: '2026-12-01' } },
        { type: 'ensure_fields', params: { key: 'AURORA-2', duedate: '2026-12-02' } },
      ],
    });
    const created = (await world.run(b.id)).commands[0].result.key as string;
    world.sim.store.deleteIssue(created, true); // someone in Jira
    world.sim.store.deleteIssue('AURORA-3', true);
    const refresh = await world.ok('POST', '/batches', { title: 'обновить', commands: [{ type: 'refresh', params: { keys: [created, 'AURORA-1', 'AURORA-2', 'AURORA-3'] } }] });
    await world.run(refresh.id);
    const command = (await world.ok('GET', `/batches/${refresh.id}`)).commands[0].id as number;
    const read = ((await world.ok('GET', '/sync-runs')) as Json[]).find((r) => r.command_id === command)!.id as number;
    const expected = {
      commands: [{ type: 'ensure_fields', params: { key: 'AURORA-2', duedate: null } }],
      conflicts: [
        {
          key: 'AURORA-3',
          what: 'field:duedate',
          expected: '2026-12-01',
          detail: `AURORA-3: срок не откатываем: задачи AURORA-3 в Jira больше нет — Jira её не нашла (чтение #${read} в /sync-runs); если она вернулась, обновите её в зеркале и запросите откат заново`,
        },
        {
          key: created,
          what: 'issue',
          expected: { key: created, summary: 'Удалят после пакета' },
          detail: `${created}: созданную пакетом задачу не откатываем: задачи ${created} в Jira больше нет — Jira её не нашла (чтение #${read} в /sync-runs); если она вернулась, обновите её в зеркале и запросите откат заново`,
        },
      ],
    };
    expect(await world.ok('POST', `/batches/${b.id}/revert?dry_run=true`)).toMatchObject({ ...expected, unchecked: [] });
    await world.ok('PATCH', '/settings', { revert: { delete_created: true } });
    expect(await world.ok('POST', `/batches/${b.id}/revert?dry_run=true`)).toMatchObject(expected);

    const revert = await world.ok('POST', `/batches/${b.id}/revert`);
    const done = await world.run(revert.batch.id);
    expect(done.commands.map((c: Json) => [c.type, c.status])).toEqual([
      ['ensure_fields', 'done'],
      ['refresh', 'done'],
    ]);
    expect(world.sim.getIssue('AURORA-2')?.duedate).toBeNull();
  });

  it('a link the mirror has not seen (the tail refresh cancelled) is a conflict saying to refresh, not «уже нет»; refreshed, it is removed', async () => {
    await world.run((await world.ok('POST', '/batches', { title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-3'] } }] })).id);
    const b = await world.ok('POST', '/batches', {
      title: 'Связь без хвоста',
      commands: [
        { type: 'ensure_link', params: { source: 'AURORA-3', target: 'AURORA-1', link_type: 'Blocks' } },
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20' } },
      ],
    });
    const tail = b.commands.find((c: Json) => c.type === 'refresh');
    await world.ok('POST', `/commands/${tail.id}/cancel`, {}); // the tail refresh never runs
    await world.run(b.id);
    expect(world.sim.store.links.map((l) => `${l.sourceKey} ${l.typeName} ${l.targetKey}`)).toContain('AURORA-3 Blocks AURORA-1');

    const dry = await world.ok('POST', `/batches/${b.id}/revert?dry_run=true`);
    expect(dry).toMatchObject({
      commands: [],
      conflicts: [
        { key: 'AURORA-1', what: 'field:duedate', detail: 'AURORA-1: срок — зеркало ещё не видело изменения пакета (задачу читали до него); обновите её в зеркале и повторите откат' },
        {
          key: 'AURORA-3',
          what: 'link',
          detail: 'связь AURORA-3 → AURORA-1 (Blocks) — зеркало ещё не видело изменения пакета (обе задачи читали до него); обновите их в зеркале и повторите откат',
        },
      ],
    });

    expect(dry.retry_later).toBe(2);
    expect(dry.conflicts.map((c: Json) => c.retry_later)).toEqual([true, true]);
    // Made now, the revert would leave both for good (a batch is reverted once): refused until the mirror has seen them, nothing written.
    const batches = (await world.ok('GET', '/batches')).length;
    expect(await world.call('POST', `/batches/${b.id}/revert`)).toEqual({
      status: 409,
      body: {
        error: 'conflict',
        detail:
          `откат пакета #${b.id} не создан: 2 изменения пакета пока не откатить (${[...new Set(dry.conflicts.map((c: Json) => c.key))].join(', ')}) — какие и почему, показывает пробный откат (dry_run). ` +
          'Обновите эти задачи в зеркале или дождитесь названных там пакетов и запросите откат снова: откат, созданный сейчас, оставил бы их неоткаченными насовсем ' +
          '(пакет откатывают один раз). Чтобы откатить остальное сейчас и оставить их как есть, запросите откат с leave_pending, равным pending_token пробного отката',
      },
    });
    expect((await world.ok('GET', '/batches')).length).toBe(batches);

    await world.run((await world.ok('POST', '/batches', { title: 'обновить', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-3'] } }] })).id);
    const revert = await world.ok('POST', `/batches/${b.id}/revert`);
    expect(revert).toMatchObject({ conflicts: [], retry_later: 0 });
    await world.run(revert.batch.id);
    expect(world.sim.store.links.map((l) => `${l.sourceKey} ${l.typeName} ${l.targetKey}`)).not.toContain('AURORA-3 Blocks AURORA-1');
    expect(world.sim.getIssue('AURORA-1')?.duedate).toBeNull();
  });

  it('answers {error, detail} and writes nothing', async () => {
    const count = async () => (await world.ok('GET', '/batches')).length;
    const initial = await count(); // the catalogue's batch
    expect(await world.call('POST', '/batches/999/revert')).toMatchObject({ status: 404, body: { error: 'not_found', detail: expect.any(String) } });
    expect(await world.call('POST', '/batches/1/revert?dry_run=maybe')).toMatchObject({ status: 422, body: { error: 'validation_failed', detail: 'dry_run: нужно true или false' } });
    expect(await world.call('GET', '/issues/not-a-key/changes')).toMatchObject({ status: 422, body: { error: 'validation_failed', detail: expect.any(String) } });
    expect(
      await world.call('POST', '/batches', { title: 't', commands: [{ type: 'remove_comment', params: { key: 'AURORA-1', comment_id: 'x' } }] }),
    ).toMatchObject({ status: 422, body: { error: 'validation_failed', detail: expect.stringContaining('comment_id') } });
    expect(await count()).toBe(initial);

    // A batch still queued cannot be reverted.
    const queued = await world.ok('POST', '/batches', { title: 't', commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-01' } }] });
    expect(await world.call('POST', `/batches/${queued.id}/revert`)).toMatchObject({ status: 409, body: { error: 'conflict', detail: expect.stringContaining('не завершён') } });
    // One waiting for approval says so.
    const waiting = await world.ok('POST', '/batches', { title: 'ждёт', commands: [{ type: 'ensure_fields', params: { key: 'AURORA-2', duedate: '2026-12-01' } }] }, { 'X-Hub-Source': 'assistant' });
    expect(await world.call('POST', `/batches/${waiting.id}/revert?dry_run=true`)).toMatchObject({ status: 409, body: { error: 'conflict', detail: `пакет #${waiting.id} ждёт одобрения и ещё ничего не изменил: откатить можно пакет, все команды которого закончены (или отменены)` } });
    await world.ok('POST', `/batches/${waiting.id}/reject`, { reason: 'не нужен' });

    // The agent's report with a malformed change record → 422, the command stays claimed.
    const claim = await world.ok('POST', '/agent/claim', {});
    const bad = await world.call('POST', `/agent/commands/${claim.command.id}/result`, { status: 'done', result: {}, changes: [{ what: 'bogus', key: 'x' }] });
    expect(bad).toMatchObject({ status: 422, body: { error: 'validation_failed', detail: expect.stringContaining('changes.0.what: нужно «field:<поле>»') } });
    // A field's change without what it became could not be compared by a revert; a list that is no list says so once.
    const noAfter = await world.call('POST', `/agent/commands/${claim.command.id}/result`, { status: 'done', result: {}, changes: [{ key: 'AURORA-1', what: 'field:duedate', before: null }] });
    expect(noAfter).toMatchObject({ status: 422, body: { error: 'validation_failed', detail: 'changes: changes.0.after: нужно значение после изменения (null — поле очищено, спринт — бэклог)' } });
    const notList = await world.call('POST', `/agent/commands/${claim.command.id}/result`, { status: 'done', result: {}, changes: 'все' });
    expect(notList).toMatchObject({ status: 422, body: { error: 'validation_failed', detail: 'changes: нужен массив' } });
    expect((await world.ok('GET', `/commands/${claim.command.id}`)).status).toBe('claimed');
    await world.ok('POST', `/agent/commands/${claim.command.id}/result`, { status: 'done', result: { changed: [] } });
    const tail = await world.ok('POST', '/agent/claim', {});
    await world.ok('POST', `/agent/commands/${tail.command.id}/result`, { status: 'done', result: { issues: [], links: [] } });

    // A finished batch that changed nothing: nothing to revert.
    const before = await count();
    expect(await world.call('POST', `/batches/${queued.id}/revert`)).toMatchObject({ status: 409, body: { error: 'conflict', detail: expect.stringContaining('ничего не изменил') } });
    expect(await count()).toBe(before);
    expect((await world.ok('POST', `/batches/${queued.id}/revert?dry_run=true`)).commands).toEqual([]);
  });
});

describe('revert: a withdrawn revert, an incomplete change record (a hub and a fake agent)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  /** A finished batch that set AURORA-1's due date, reported with `changes`; the mirror shows the date. */
  async function finishedBatch(changes: object[]): Promise<{ id: number }> {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2026-12-20' })]);
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', duedate: '2026-12-20' }]));
    return b;
  }

  it('the dry run runs the checks of every submit: a revert the catalogue would refuse shows its findings and ok: false; the revert answers 422 plan_failed with them', async () => {
    // The batch moved AURORA-1 from Спринт 1 into Спринт 2; Спринт 1 has closed since (the catalogue says so).
    const agent = agentOf(hub);
    await reportCatalogue(hub);
    const b = await clientOf(hub).batch([{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 2' } }]);
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [{ key: 'AURORA-1', what: 'sprint', before: 'Спринт 1', after: 'Спринт 2' }] }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', sprint: 'Спринт 2' }]));
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry).toMatchObject({ commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 1' } }], conflicts: [], ok: false });
    expect(dry.findings).toEqual([expect.objectContaining({ seq: 1, param: 'sprint', detail: expect.stringContaining('Спринт 1') })]);
    const before = await rowCounts(hub, ['batch', 'command']);
    const refused = (await hub.http.post(`/batches/${b.id}/revert`).expect(422)).body;
    expect(refused).toMatchObject({ error: 'plan_failed', findings: dry.findings });
    expect(await rowCounts(hub, ['batch', 'command'])).toEqual(before);
    // A revert the checks let through says so too.
    const clean = await finishedBatch([{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }]);
    expect((await hub.http.post(`/batches/${clean.id}/revert?dry_run=true`).expect(200)).body).toMatchObject({ ok: true, findings: [], unchecked: [] });
  });

  it("a move out of a sprint shown on two boards goes back through the checks: named with the board the catalogue lists it under, not Jira's own board of it (decision 1430)", async () => {
    // «Спринт 5» is sprint 25 of «Поддержка» (board 2), shown on «AURORA board» too: the catalogue read board 1 first.
    const agent = agentOf(hub);
    await reportCatalogue(hub, { ...CATALOGUE, sprints: [...CATALOGUE.sprints, { id: 25, name: 'Спринт 5', state: 'active', board_id: 1 }] });
    const b = await clientOf(hub).batch([{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: null } }]);
    const changes = [{ key: 'AURORA-1', what: 'sprint', before: { id: 25, name: 'Спринт 5', board_id: 2 }, after: null }];
    await agent.report((await agent.claim()).command.id, { status: 'done', result: { sprint_id: null }, changes }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', sprint: null }]));
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry).toMatchObject({ commands: [{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 5', board: 1 } }], conflicts: [], findings: [], ok: true });
    expect((await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body.batch).toMatchObject({ revert_of: b.id });
  });

  it("a sprint conflict names the boards as the catalogue does, by its id a board the catalogue does not know", async () => {
    // The batch moved AURORA-1 from Спринт 1 of «AURORA board» into «Спринт 2» of board 5 (unknown to the
    // catalogue); someone moved it since into «Поддержка»'s «Спринт 2».
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([{ type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 2', board: 5 } }]);
    const changes = [{ key: 'AURORA-1', what: 'sprint', before: { id: 10, name: 'Спринт 1', board_id: 1 }, after: { id: 50, name: 'Спринт 2', board_id: 5 } }];
    await agent.report((await agent.claim()).command.id, { status: 'done', result: { sprint_id: 50 }, changes }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', sprint: 'Спринт 2', sprint_id: 7, sprint_board_id: 2 }]));
    const detail = async () => (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body.conflicts.map((c: Json) => c.detail);
    // No catalogue yet: the boards by their ids.
    expect(await detail()).toEqual(['AURORA-1: спринт с тех пор изменили — сейчас «Спринт 2» (доска 2), пакет оставил «Спринт 2» (доска 5); не откатываем']);
    await reportCatalogue(hub);
    expect(await detail()).toEqual(['AURORA-1: спринт с тех пор изменили — сейчас «Спринт 2» (доска «Поддержка»), пакет оставил «Спринт 2» (доска 5); не откатываем']);
  });

  it('a conflict names a field as Jira shows it in Russian, a custom field by the name the catalogue gives it', async () => {
    // The batch set AURORA-1's priority, due date and Story Points (by its id); someone changed all three since.
    await hub.http.patch('/settings').send({ fields: ['customfield_10020'] }).expect(200);
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('AURORA-1', { priority: 'High', duedate: '2026-12-20', customfield_10020: 5 })]);
    const changes = [
      { key: 'AURORA-1', what: 'field:priority', before: 'Medium', after: 'High' },
      { key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' },
      { key: 'AURORA-1', what: 'field:customfield_10020', before: 3, after: 5 },
    ];
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', priority: 'Lowest', duedate: '2027-01-15', fields: { customfield_10020: 8 } }]));
    const detail = async () => (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body.conflicts.map((c: Json) => c.detail);
    const standard = [
      'AURORA-1: срок с тех пор изменили — сейчас «2027-01-15», пакет оставил «2026-12-20»; не откатываем',
      'AURORA-1: приоритет с тех пор изменили — сейчас «Lowest», пакет оставил «High»; не откатываем',
    ];
    // No catalogue yet: the custom field by the name the batch gave it.
    expect(await detail()).toEqual(['AURORA-1: поле «customfield_10020» с тех пор изменили — сейчас 8, пакет оставил 5; не откатываем', ...standard]);
    await reportCatalogue(hub);
    expect(await detail()).toEqual(['AURORA-1: поле «Story Points» с тех пор изменили — сейчас 8, пакет оставил 5; не откатываем', ...standard]);
  });

  it('the dry run names the inverse commands the checks could not judge, and why: accepted all the same', async () => {
    // No catalogue yet: nothing can be judged; the revert is accepted, and the agent finds out in Jira.
    const b = await finishedBatch([{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }]);
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry).toMatchObject({ ok: true, findings: [], unchecked: [{ seq: 1, notes: ['каталога Jira в хабе ещё нет (агент прочитает его командой refresh_catalogue)'] }] });
    expect((await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body).toMatchObject({ dry_run: false, unchecked: dry.unchecked, batch: { revert_of: b.id } });
  });

  it('a failed report may carry what the command changed before it failed: kept once like a done\'s, shown, and reverted (decision 1413)', async () => {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([{ type: 'ensure_status', params: { key: 'AURORA-1', path: ['In Progress', 'In Review', 'Done'] } }]);
    const id = (await agent.claim()).command.id;
    const walk = { key: 'AURORA-1', what: 'status', before: 'To Do', after: 'In Review', transitions: ['Start', 'Review'] };
    const failed = { status: 'failed', error: 'HTTP 400 (AURORA-1): Assignee is required.', changes: [walk] };
    const answer = (await agent.report(id, failed).expect(200)).body;
    expect(answer).toMatchObject({ status: 'failed', error: failed.error, changes: [{ ...walk, delivery_n: 1 }] });
    // A repeated report (its answer lost, sent again) records nothing more; nor does a late one of other changes.
    expect((await agent.report(id, failed).expect(200)).body).toEqual(answer);
    await agent.report(id, { ...failed, changes: [{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }] }).expect(200);
    expect(await clientOf(hub).command(id)).toMatchObject({ status: 'failed', changes: [{ ...walk, delivery_n: 1 }] });
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', status: 'In Review' }]));
    const view = (await hub.http.get(`/batches/${b.id}`).expect(200)).body;
    expect(view.changes).toEqual({ 'AURORA-1': [expect.objectContaining(walk)] });
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry).toMatchObject({ conflicts: [], commands: [{ type: 'ensure_status', params: { key: 'AURORA-1', to: 'To Do' } }] });
    // A failed report without changes records none, as before.
    const c = await clientOf(hub).batch([fields('AURORA-2', { duedate: '2026-12-20' })]);
    const other = (await agent.claim()).command.id;
    expect((await agent.report(other, { status: 'failed', error: 'HTTP 400' }).expect(200)).body.changes).toEqual([]);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-2' }]));
    expect((await hub.http.get(`/batches/${c.id}`).expect(200)).body.changes).toEqual({});
  });

  it('a revert cancelled before it ran does not count: the batch can be reverted again', async () => {
    const b = await finishedBatch([{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }]);
    const withdrawn = (await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body.batch;
    await hub.http.post(`/batches/${withdrawn.id}/cancel`).expect(200);
    const again = (await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body;
    expect(again.batch.id).not.toBe(withdrawn.id);
    expect(again.commands).toEqual([{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } }]);
    // The revert that stands counts: a third → 409 naming it.
    expect((await hub.http.post(`/batches/${b.id}/revert`).expect(409)).body.detail).toContain(`#${again.batch.id}`);
  });

  it('a revert whose command was force-cancelled at the agent counts, every command cancelled or not: it may have run (decisions 0607, 1410)', async () => {
    const agent = agentOf(hub);
    const b = await finishedBatch([{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }]);
    const revert = (await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body.batch;
    const claimed = (await agent.claim()).command.id;
    expect(claimed).toBe(revert.commands[0].id);
    await hub.http.post(`/batches/${revert.id}/cancel`).send({}).expect(200);
    await hub.http.post(`/commands/${claimed}/cancel`).send({ force: true }).expect(200);
    expect((await hub.http.get(`/batches/${revert.id}`).expect(200)).body.commands.map((c: Json) => c.status)).toEqual(['cancelled', 'cancelled']);
    const refused = async () => {
      const before = await rowCounts(hub, ['batch', 'command']);
      expect((await hub.http.post(`/batches/${b.id}/revert`).expect(409)).body).toEqual({ error: 'conflict', detail: expect.stringContaining(`#${revert.id}`) });
      expect((await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(409)).body.detail).toContain(`#${revert.id}`);
      expect(await rowCounts(hub, ['batch', 'command'])).toEqual(before);
    };
    // Handed out, its report not (yet) in: the agent may have carried it out.
    await refused();
    // The late report: Jira took the write, the change record keeps it.
    await agent.report(claimed, { status: 'done', result: { changed: ['duedate'] }, changes: [{ key: 'AURORA-1', what: 'field:duedate', before: '2026-12-20', after: null }] }).expect(200);
    expect(await clientOf(hub).command(claimed)).toMatchObject({ status: 'cancelled', changes: [expect.objectContaining({ what: 'field:duedate', after: null })] });
    await refused();
  });

  it('a revert whose command the agent released (Jira refused its credentials, nothing done) and which was then cancelled does not count', async () => {
    const agent = agentOf(hub);
    const b = await finishedBatch([{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }]);
    const withdrawn = (await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body.batch;
    const claimed = (await agent.claim()).command.id;
    expect(claimed).toBe(withdrawn.commands[0].id);
    await agent.report(claimed, { status: 'released', error: 'HTTP 401' }).expect(200);
    await hub.http.post(`/batches/${withdrawn.id}/cancel`).send({}).expect(200);
    expect(await clientOf(hub).command(claimed)).toMatchObject({ status: 'cancelled', deliveries: 0 });
    const again = (await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body;
    expect(again.batch.id).not.toBe(withdrawn.id);
  });

  it('a change that a batch not yet finished will make again is a conflict: the revert, running after it, must not overwrite it', async () => {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2026-12-20', labels: ['q4'] }), { type: 'ensure_status', params: { key: 'AURORA-1', path: ['In Progress'] } }]);
    await agent.report((await agent.claim()).command.id, {
      status: 'done',
      result: {},
      changes: [
        { key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' },
        { key: 'AURORA-1', what: 'field:labels', before: [], after: ['q4'] },
      ],
    }).expect(200);
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [{ key: 'AURORA-1', what: 'status', before: 'To Do', after: 'In Progress' }] }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', duedate: '2026-12-20', labels: ['q4'], status: 'In Progress' }]));

    // Someone queues another batch that moves the due date and the status again; the revert is asked for before it ran.
    const next = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2027-01-15' }), { type: 'ensure_status', params: { key: 'AURORA-1', path: ['Done'] } }]);
    const pending = (what: string) =>
      expect.objectContaining({ key: 'AURORA-1', what, detail: expect.stringContaining(`меняет и пакет #${next.id}, он ещё не выполнен; не откатываем, чтобы не затереть его изменение`) });
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry.commands).toEqual([{ type: 'ensure_fields', params: { key: 'AURORA-1', labels: [] } }]);
    expect(dry.conflicts).toEqual([pending('status'), pending('field:duedate')]);
    expect(dry.conflicts[1]).toMatchObject({ expected: '2026-12-20', actual: '2026-12-20' });

    // With the agent (claimed) it is still to come, even once its batch is cancelled; when it has failed, nothing else will change it.
    const claimed = (await agent.claim()).command.id;
    expect(claimed).toBe(next.commands[0].id);
    await hub.http.post(`/batches/${next.id}/cancel`).send({}).expect(200);
    expect((await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body.conflicts).toEqual([pending('field:duedate')]);
    await agent.report(claimed, { status: 'failed', error: 'HTTP 400' }).expect(200);
    const after = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(after).toMatchObject({ conflicts: [], commands: [{ type: 'ensure_status', params: { key: 'AURORA-1', to: 'To Do' } }, { type: 'ensure_fields', params: { key: 'AURORA-1', labels: [], duedate: null } }] });
  });

  it('a change another batch still changes (retry_later) stops the revert until that batch ends: 409 naming it, nothing written; final conflicts never stop it (decision 1467)', async () => {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2026-12-20' }), fields('AURORA-2', { priority: 'High' }), fields('AURORA-3', { duedate: '2026-12-21' })]);
    const report = async (changes: object[]) => agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes }).expect(200);
    await report([{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }]);
    await report([{ key: 'AURORA-2', what: 'field:priority', before: 'Medium', after: 'High' }]);
    await report([{ key: 'AURORA-3', what: 'field:duedate', before: null, after: '2026-12-21' }]);
    // Someone set AURORA-2's priority since (final); a person's batch, still queued, sets AURORA-1's due date again.
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', duedate: '2026-12-20' }, { key: 'AURORA-2', priority: 'Lowest' }, { key: 'AURORA-3', duedate: '2026-12-21' }]));
    const next = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2027-01-15' })]);

    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry).toMatchObject({ retry_later: 1, commands: [{ type: 'ensure_fields', params: { key: 'AURORA-3', duedate: null } }] });
    expect(dry.conflicts).toEqual([
      expect.objectContaining({ key: 'AURORA-2', what: 'field:priority', retry_later: false }),
      expect.objectContaining({ key: 'AURORA-1', what: 'field:duedate', retry_later: true, detail: expect.stringContaining(`дождитесь пакета #${next.id}`) }),
    ]);
    const before = await rowCounts(hub, ['batch', 'command']);
    const refused = (await hub.http.post(`/batches/${b.id}/revert`).expect(409)).body;
    expect(refused).toEqual({ error: 'conflict', detail: expect.stringContaining(`откат пакета #${b.id} не создан: 1 изменение пакета пока не откатить (AURORA-1) — какие и почему, показывает пробный откат (dry_run). `) });
    expect(refused.detail).not.toContain('AURORA-2'); // a final conflict is no reason to wait
    expect(await rowCounts(hub, ['batch', 'command'])).toEqual(before);

    // The person follows the advice: that batch ends (here: cancelled before it ran); the revert now puts the due date back too.
    await hub.http.post(`/batches/${next.id}/cancel`).send({}).expect(200);
    const made = (await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body;
    expect(made).toMatchObject({
      retry_later: 0,
      conflicts: [{ key: 'AURORA-2', what: 'field:priority', retry_later: false }],
      commands: [{ type: 'ensure_fields', params: { key: 'AURORA-3', duedate: null } }, { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } }],
      batch: { revert_of: b.id },
    });
  });

  it('leave_pending=true makes the revert with a change the mirror has not seen yet, left for good; without it 409; not true/false/a token → 422 (decision 1467)', async () => {
    const agent = agentOf(hub);
    await clientOf(hub).batch([{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }]);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1' }, { key: 'AURORA-2' }]));
    hub.clock.advance(60_000);
    const b = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2027-05-05' }), fields('AURORA-2', { duedate: '2027-05-06' })]);
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2027-05-05' }] }).expect(200);
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [{ key: 'AURORA-2', what: 'field:duedate', before: null, after: '2027-05-06' }] }).expect(200);
    await hub.http.post(`/batches/${b.id}/cancel`).send({}).expect(200); // the tail refresh never runs
    hub.clock.advance(60_000);
    await clientOf(hub).batch([{ type: 'refresh', params: { keys: ['AURORA-2'] } }]); // only AURORA-2 is read again
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-2', duedate: '2027-05-06' }]));

    const unseen = 'AURORA-1: срок — зеркало ещё не видело изменения пакета (задачу читали до него); обновите её в зеркале и повторите откат';
    const before = await rowCounts(hub, ['batch', 'command']);
    expect((await hub.http.post(`/batches/${b.id}/revert?leave_pending=maybe`).expect(422)).body).toMatchObject({ error: 'validation_failed', detail: 'leave_pending: нужно true, false или pending_token пробного отката' });
    expect((await hub.http.post(`/batches/${b.id}/revert?leave_pending=false`).expect(409)).body.detail).toContain('1 изменение пакета пока не откатить (AURORA-1) — какие и почему, показывает пробный откат (dry_run). ');
    expect((await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body.conflicts).toContainEqual(expect.objectContaining({ detail: unseen, retry_later: true }));
    expect(await rowCounts(hub, ['batch', 'command'])).toEqual(before);

    const made = (await hub.http.post(`/batches/${b.id}/revert?leave_pending=true`).expect(201)).body;
    expect(made).toMatchObject({
      retry_later: 1,
      commands: [{ type: 'ensure_fields', params: { key: 'AURORA-2', duedate: null } }],
      conflicts: [{ key: 'AURORA-1', what: 'field:duedate', retry_later: true, detail: unseen }],
      batch: { revert_of: b.id },
    });
    // As the person accepted: the batch is reverted once.
    expect((await hub.http.post(`/batches/${b.id}/revert`).expect(409)).body.detail).toContain(`уже откатывается или откачен: пакет #${made.batch.id}`);
  });

  it("leave_pending=<the dry run's pending_token> leaves only the conflicts that dry run listed: a list changed since (another batch submitted meanwhile) → 409, nothing written; the same list → made (decision 1491)", async () => {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2026-12-20' }), fields('AURORA-2', { duedate: '2026-12-21' }), fields('AURORA-3', { duedate: '2026-12-22' })]);
    for (const key of ['AURORA-1', 'AURORA-2', 'AURORA-3']) {
      const after = `2026-12-${20 + Number(key.slice(-1)) - 1}`;
      await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [{ key, what: 'field:duedate', before: null, after }] }).expect(200);
    }
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', duedate: '2026-12-20' }, { key: 'AURORA-2', duedate: '2026-12-21' }, { key: 'AURORA-3', duedate: '2026-12-22' }]));
    // A person's batch, still queued, sets AURORA-1's due date again: the dry run the person sees lists it as not final.
    const first = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2027-01-15' })]);
    const seen = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(seen).toMatchObject({ retry_later: 1, pending_token: expect.stringMatching(/^[0-9a-f]{16}$/), conflicts: [{ key: 'AURORA-1', retry_later: true }] });
    // The same plan asked for again has the same token.
    expect((await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body.pending_token).toBe(seen.pending_token);

    // While the dialog is open, another batch touching AURORA-2 is submitted: leaving «what is pending now» would leave it too.
    const second = await clientOf(hub).batch([fields('AURORA-2', { duedate: '2027-02-01' })]);
    const before = await rowCounts(hub, ['batch', 'command']);
    expect((await hub.http.post(`/batches/${b.id}/revert?leave_pending=${seen.pending_token}`).expect(409)).body).toEqual({
      error: 'conflict',
      detail:
        `откат пакета #${b.id} не создан: список изменений, которые пока не откатить, изменился после пробного отката — теперь их 2 (AURORA-2, AURORA-1). ` +
        'Оставить насовсем можно только те, что вы видели: посмотрите пробный откат (dry_run) снова и решите заново',
    });
    expect(await rowCounts(hub, ['batch', 'command'])).toEqual(before);

    // The person looks again: a new token for the new list. Then that batch is cancelled: the list is back to the one first seen.
    const again = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(again).toMatchObject({ retry_later: 2 });
    expect(again.pending_token).not.toBe(seen.pending_token);
    await hub.http.post(`/batches/${second.id}/cancel`).send({}).expect(200);
    expect((await hub.http.post(`/batches/${b.id}/revert?leave_pending=${again.pending_token}`).expect(409)).body.detail).toContain('теперь их 1 (AURORA-1)');
    expect(await rowCounts(hub, ['batch', 'command'])).toEqual(before);

    // With the token of the list it now shows, the revert is made, leaving exactly that list.
    const made = (await hub.http.post(`/batches/${b.id}/revert?leave_pending=${seen.pending_token}`).expect(201)).body;
    expect(made).toMatchObject({
      retry_later: 1,
      pending_token: seen.pending_token,
      conflicts: [{ key: 'AURORA-1', what: 'field:duedate', retry_later: true }],
      commands: [{ type: 'ensure_fields', params: { key: 'AURORA-3', duedate: null } }, { type: 'ensure_fields', params: { key: 'AURORA-2', duedate: null } }],
      batch: { revert_of: b.id },
    });
    await hub.http.post(`/batches/${made.batch.id}/cancel`).send({}).expect(200);
    await hub.http.post(`/batches/${first.id}/cancel`).send({}).expect(200);
  });

  it('leave_pending=<a token> when nothing is pending any more is refused too: the revert would put back what the person agreed to leave (decision 1491)', async () => {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2026-12-20' }), fields('AURORA-2', { duedate: '2026-12-21' })]);
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }] }).expect(200);
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [{ key: 'AURORA-2', what: 'field:duedate', before: null, after: '2026-12-21' }] }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', duedate: '2026-12-20' }, { key: 'AURORA-2', duedate: '2026-12-21' }]));
    const next = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2027-01-15' })]);
    const seen = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(seen.retry_later).toBe(1);
    await hub.http.post(`/batches/${next.id}/cancel`).send({}).expect(200);
    expect((await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body).toMatchObject({ retry_later: 0, pending_token: null });

    const before = await rowCounts(hub, ['batch', 'command']);
    expect((await hub.http.post(`/batches/${b.id}/revert?leave_pending=${seen.pending_token}`).expect(409)).body.detail).toBe(
      `откат пакета #${b.id} не создан: список изменений, которые пока не откатить, изменился после пробного отката — теперь таких нет. ` +
        'Оставить насовсем можно только те, что вы видели: посмотрите пробный откат (dry_run) снова и решите заново',
    );
    expect(await rowCounts(hub, ['batch', 'command'])).toEqual(before);
  });

  it('a revert waiting for approval is not approved over a change made since it was asked for; rejected, it can be asked for again', async () => {
    const agent = agentOf(hub);
    const b = await finishedBatch([{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' }]);
    const revert = (await hub.http.post(`/batches/${b.id}/revert`).set('X-Hub-Source', 'assistant').expect(201)).body.batch;
    expect(revert.status).toBe('awaiting_approval');

    // A person's batch sets the due date again while the assistant's revert waits: still to run, then run.
    const next = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2027-01-15' })]);
    const refused = (await hub.http.post(`/batches/${revert.id}/approve`).send({}).expect(409)).body;
    expect(refused).toEqual({ error: 'conflict', detail: expect.stringContaining(`AURORA-1: срок меняет и пакет #${next.id}, он ещё не выполнен`) });
    await agent.done((await agent.claim()).command.id, { changed: ['duedate'] });
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', duedate: '2027-01-15' }]));
    const stale = (await hub.http.post(`/batches/${revert.id}/approve`).send({}).expect(409)).body.detail;
    expect(stale).toBe(
      `откат пакета #${b.id} устарел: после того как его составили, изменилось то, что он вернул бы назад — AURORA-1: срок с тех пор изменили — сейчас «2027-01-15», пакет оставил «2026-12-20»; не откатываем. ` +
        `Одобрить его значит затереть эти изменения: отклоните этот пакет и запросите откат пакета #${b.id} заново`,
    );
    expect((await hub.http.get(`/batches/${revert.id}`).expect(200)).body.status).toBe('awaiting_approval');

    await hub.http.post(`/batches/${revert.id}/reject`).send({ reason: 'устарел' }).expect(200);
    const again = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(again).toMatchObject({ commands: [], conflicts: [{ key: 'AURORA-1', what: 'field:duedate', actual: '2027-01-15' }] });
  });

  it('the labels of an issue the batch created: a batch changing them still to run is a conflict; changed while the revert waits, approval is refused', async () => {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Новая', fields: { labels: ['x'] } } }]);
    const created = { key: 'AURORA-9', what: 'issue', after: { key: 'AURORA-9', summary: 'Новая' } };
    await agent.report((await agent.claim()).command.id, { status: 'done', result: { key: 'AURORA-9', created: true }, changes: [created] }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-9', summary: 'Новая', labels: ['x'] }]));
    // A person's batch will add a label: while it is still to run, the revert leaves the labels alone and says why.
    const person = await clientOf(hub).batch([fields('AURORA-9', { labels: ['x', 'y'] })]);
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry.conflicts).toEqual([expect.objectContaining({ key: 'AURORA-9', what: 'field:labels', detail: expect.stringContaining(`метки меняет и пакет #${person.id}, он ещё не выполнен`) })]);
    expect(dry.commands).toEqual([{ type: 'ensure_status', params: { key: 'AURORA-9', to: 'Done' } }]);
    await hub.http.post(`/batches/${person.id}/cancel`).send({}).expect(200);
    // Asked for now, the revert waits for approval with the labels as they are; then they change in Jira.
    const revert = (await hub.http.post(`/batches/${b.id}/revert`).set('X-Hub-Source', 'assistant').expect(201)).body.batch;
    expect(revert.commands[0]).toMatchObject({ type: 'ensure_fields', params: { key: 'AURORA-9', labels: ['x', 'hub-reverted'] } });
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['AURORA-9'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-9', summary: 'Новая', labels: ['x', 'y'] }]));
    const refused = (await hub.http.post(`/batches/${revert.id}/approve`).send({}).expect(409)).body;
    expect(refused.detail).toContain('AURORA-9: метки с тех пор изменили — сейчас «x», «y», а откат поставил бы «x», «hub-reverted»');
    expect((await hub.http.get(`/batches/${revert.id}`).expect(200)).body.status).toBe('awaiting_approval');
  });

  it('a field named with spaces as settings `fields` names it («Story Points») is recorded and reverted', async () => {
    await hub.http.patch('/settings').send({ fields: ['Story Points'] }).expect(200);
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('AURORA-1', { 'Story Points': 5 })]);
    const change = { key: 'AURORA-1', what: 'field:Story Points', before: 3, after: 5 };
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [change] }).expect(200);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', fields: { 'Story Points': 5 } }]));
    expect((await hub.http.get(`/batches/${b.id}`).expect(200)).body.changes).toEqual({ 'AURORA-1': [expect.objectContaining(change)] });
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect({ commands: dry.commands, conflicts: dry.conflicts }).toEqual({ commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', 'Story Points': 3 } }], conflicts: [] });
  });

  it('a change without its issue key, of the kind its command makes, is about the command’s issue: shown under it and reverted', async () => {
    const b = await finishedBatch([{ what: 'field:duedate', before: null, after: '2026-12-20' }]);
    const view = (await hub.http.get(`/batches/${b.id}`).expect(200)).body;
    expect(Object.keys(view.changes)).toEqual(['AURORA-1']);
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect({ commands: dry.commands, conflicts: dry.conflicts }).toEqual({ commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } }], conflicts: [] });
  });

  it('a change recorded without its issue key is a conflict in the dry run and the revert alike', async () => {
    const b = await finishedBatch([
      { key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20' },
      { what: 'issue', after: { summary: 'Новая' } },
    ]);
    await hub.http.patch('/settings').send({ revert: { delete_created: true } }).expect(200);
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry.commands).toEqual([{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } }]);
    expect(dry.conflicts).toEqual([expect.objectContaining({ key: null, what: 'issue', detail: expect.stringContaining('нет ключа задачи') })]);
    const real = (await hub.http.post(`/batches/${b.id}/revert`).expect(201)).body;
    expect({ commands: real.commands, conflicts: real.conflicts }).toEqual({ commands: dry.commands, conflicts: dry.conflicts });
  });

  it('a change the mirror has not seen (the batch cancelled before its tail refresh) is a conflict saying to refresh, not someone\'s edit; refreshed, it is reverted', async () => {
    const agent = agentOf(hub);
    await clientOf(hub).batch([{ type: 'refresh', params: { keys: ['AURORA-1'] } }]);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1' }]));
    hub.clock.advance(60_000);
    const b = await clientOf(hub).batch([fields('AURORA-1', { duedate: '2027-05-05' })]);
    await agent.report((await agent.claim()).command.id, { status: 'done', result: {}, changes: [{ key: 'AURORA-1', what: 'field:duedate', before: null, after: '2027-05-05' }] }).expect(200);
    await hub.http.post(`/batches/${b.id}/cancel`).send({}).expect(200); // the tail refresh never runs
    const dry = (await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body;
    expect(dry).toMatchObject({ commands: [], conflicts: [{ key: 'AURORA-1', detail: 'AURORA-1: срок — зеркало ещё не видело изменения пакета (задачу читали до него); обновите её в зеркале и повторите откат' }] });
    hub.clock.advance(60_000);
    await clientOf(hub).batch([{ type: 'refresh', params: { keys: ['AURORA-1'] } }]);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1', duedate: '2027-05-05' }]));
    expect((await hub.http.post(`/batches/${b.id}/revert?dry_run=true`).expect(200)).body).toMatchObject({ commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } }], conflicts: [] });
  });
});
