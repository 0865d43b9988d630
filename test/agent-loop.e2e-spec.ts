/**
 * Issue 5 acceptance, end to end over real HTTP: a real hub (`serve`, temp-file SQLite or a PostgreSQL schema), the Jira simulator
 * in-process on port 0, and the reference agent (`runAgent` + HubClient + JiraClient + FileJournal).
 */
import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../src/cli.js';
import { runAgent, type AgentRunSummary, duplicateSearchJql, HubClient, JiraClient, type JiraFlavor, FileJournal, type ReportBody } from '@jira-hub/agent';
import { JiraSimulator } from '@jira-hub/jira-sim';
import { testDatabaseEnv } from './support/pg.js';
import { waitFor } from './support/wait.js';

const PROJECT = 'AURORA';
const IVANOV = '557058:f0000000-0000-0000-0000-000000000002';
/** How the hub names a user: accountId on Cloud, user name on Data Center. */
const IVANOV_ID: Record<JiraFlavor, string> = { cloud: IVANOV, dc: 'ivanov' };
const ZERO_PACING = { ensure_issue: 0, ensure_fields: 0, ensure_status: 0, ensure_link: 0, ensure_sprint: 0, ensure_comment: 0, refresh: 0 };

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface World {
  hubUrl: string;
  sim: JiraSimulator;
  simUrl: string;
  dir: string;
  journalPath: string;
  /** Kill switches of the agents still running. */
  running: Set<() => void>;
  call(method: string, path: string, body?: unknown): Promise<Json>;
  close(): Promise<void>;
}

async function startWorld(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'jira-hub-agent-e2e-'));
  const log = console.log;
  console.log = () => undefined; // serve() announces where it listens
  let hub: { url: string; close: () => Promise<void> };
  try {
    // No refresh_catalogue of the hub's own between the tests' batches: each test counts the Jira calls and
    // 429s of its batch alone (the catalogue's path has its own e2e: agent-catalogue, catalogue-sim).
    hub = await serve(await testDatabaseEnv({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_LOG_LEVEL: 'error', HUB_CATALOGUE_AUTO_REFRESH: 'off' }));
  } finally {
    console.log = log;
  }
  const sim = new JiraSimulator({
    projectKey: PROJECT,
    seed: { issues: [{ summary: 'Существующая задача', issueType: 'Task', priority: 'Medium' }] }, // AURORA-1
  });
  const simUrl = await sim.start();
  const call = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const response = await fetch(hub.url + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → HTTP ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  await call('PATCH', '/settings', { pacing: ZERO_PACING });
  const running = new Set<() => void>();
  return {
    hubUrl: hub.url,
    sim,
    simUrl,
    dir,
    journalPath: join(dir, 'agent', 'journal.jsonl'),
    running,
    call,
    close: async () => {
      for (const kill of running) kill(); // a test that failed half-way may leave an agent running
      await sim.stop();
      await hub.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface AgentOptions {
  journal?: FileJournal;
  crashAfterExecute?: boolean;
  /** Jira flavor the agent speaks (default cloud); the simulator serves both. */
  flavor?: JiraFlavor;
}

/** One agent "process": its own HubClient, JiraClient and (re-opened) journal file. */
function startAgent(world: World, options: AgentOptions = {}) {
  // stop(): the loop ends its idle long poll at once and finishes a report in flight;
  // kill(): also aborts any hub request in flight (failure paths only)
  const controller = new AbortController();
  const killer = new AbortController();
  const journal = options.journal ?? new FileJournal(world.journalPath);
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);
  const hub = new HubClient({ baseUrl: world.hubUrl, stopSignal: killer.signal, retryBaseMs: 20, retryMaxMs: 200, log });
  const jira = new JiraClient({
    baseUrl: world.simUrl,
    flavor: options.flavor ?? 'cloud',
    auth: options.flavor === 'dc' ? { kind: 'bearer', token: 'pat' } : { kind: 'basic', email: 'bot@example.com', apiToken: 'token' },
    minRetryAfterMs: 5,
    maxRetryAfterMs: 50,
  });
  const finished = runAgent({
    hub,
    jira,
    journal,
    project: PROJECT,
    log,
    stopSignal: controller.signal,
    // A long poll as in production: stop() ends it at once (else each test would run into jest's 30 s timeout).
    waitSeconds: 30,
    crashAfterExecute: options.crashAfterExecute,
  }).finally(() => {
    journal.close();
    world.running.delete(kill);
  });
  const kill = (): void => {
    controller.abort();
    killer.abort();
  };
  world.running.add(kill);
  return { finished, lines, stop: () => controller.abort(), kill };
}

/** Runs an agent until the batch is done (every command terminal), then stops it. */
async function runUntilDone(world: World, batchId: number, options: AgentOptions = {}): Promise<{ batch: Json; summary: AgentRunSummary; lines: string[] }> {
  const agent = startAgent(world, options);
  let batch: Json;
  try {
    batch = await waitFor(`batch ${batchId} done`, async () => {
      const view = await world.call('GET', `/batches/${batchId}`);
      return view.status === 'done' ? view : undefined;
    });
  } catch (error) {
    agent.kill();
    await agent.finished.catch(() => undefined);
    throw new Error(`${(error as Error).message}\nagent log:\n${agent.lines.join('\n')}`);
  }
  agent.stop();
  const summary = await agent.finished;
  return { batch, summary, lines: agent.lines };
}

const issue = (tempKey: string, summary: string, extra: Record<string, unknown> = {}) => ({
  type: 'ensure_issue',
  params: { temp_key: tempKey, issue_type: 'Task', summary, ...extra },
});

/** Every command type: two new issues, fields (new and existing), a status path, a link, a sprint, a comment, a refresh. */
function everyTypeBatch(tag: string, flavor: JiraFlavor = 'cloud') {
  return {
    title: `E2E ${tag}`,
    author: 'e2e',
    commands: [
      issue('new:1', `${tag}: отчёт по продажам`, { description: 'Квартальный отчёт', fields: { priority: 'High' } }),
      issue('new:2', `${tag}: выгрузка данных`, { issue_type: 'Story' }),
      { type: 'ensure_fields', params: { key: 'new:1', duedate: '2026-12-15', labels: ['e2e', 'отчёт'], assignee: IVANOV_ID[flavor] } },
      { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20', priority: 'Low' } },
      { type: 'ensure_status', params: { key: 'new:1', path: ['In Progress', 'Done'] } },
      { type: 'ensure_link', params: { source: 'new:1', target: 'new:2', link_type: 'Blocks' } },
      { type: 'ensure_sprint', params: { key: 'new:2', sprint: 'Спринт 2' } },
      { type: 'ensure_comment', params: { key: 'new:1', body: 'Отчёт готов, см. вложение', marker: `[hub:${tag}]` } },
      { type: 'refresh', params: { keys: ['new:1', 'new:2'] } },
    ],
  };
}

/** The simulator's issues in the mirror's shape (users as the flavor names them). */
function simIssues(sim: JiraSimulator, flavor: JiraFlavor = 'cloud') {
  const userId = (accountId: string | null): string | null =>
    flavor === 'cloud' || accountId === null ? accountId : (sim.store.seed.users.find((u) => u.accountId === accountId)?.name ?? null);
  return sim.listIssues().map((i) => ({
    key: i.key,
    summary: i.summary,
    issue_type: i.issueType,
    status: i.status,
    sprint: sim.sprintsOf(i.key).at(-1) ?? null,
    assignee: userId(i.assignee),
    priority: i.priority,
    duedate: i.duedate,
    labels: [...i.labels].sort(),
  }));
}

async function mirrorIssues(world: World) {
  const list: Json[] = await world.call('GET', '/issues?limit=1000');
  return list.map((i) => ({
    key: i.key,
    summary: i.summary,
    issue_type: i.issue_type,
    status: i.status,
    sprint: i.sprint,
    assignee: i.assignee,
    priority: i.priority,
    duedate: i.duedate,
    labels: [...i.labels].sort(),
  }));
}

async function mirrorLinks(world: World, keys: string[]) {
  const links: Array<{ source: string; target: string; type: string }> = [];
  for (const key of keys) {
    const detail = await world.call('GET', `/issues/${key}`);
    for (const l of detail.links_out) links.push({ source: key, target: l.target_key, type: l.link_type });
  }
  return links;
}

const byKey = <T extends { key: string }>(list: T[]): T[] => [...list].sort((a, b) => a.key.localeCompare(b.key));
const sortLinks = <T extends { source: string; target: string; type: string }>(list: T[]): T[] =>
  [...list].sort((a, b) => `${a.source} ${a.target} ${a.type}`.localeCompare(`${b.source} ${b.target} ${b.type}`));
const commandOf = (batch: Json, seq: number): Json => batch.commands.find((c: Json) => c.seq === seq);

async function submit(world: World, body: unknown): Promise<Json> {
  return world.call('POST', '/batches', body);
}

describe('agent loop end to end (hub + simulator + agent over HTTP)', () => {
  let world: World;

  beforeEach(async () => {
    world = await startWorld();
  });

  afterEach(async () => {
    await world?.close();
  });

  it.each(['cloud', 'dc'] as const)('%s: a batch with every command type ends done; Jira has the desired state; the mirror equals Jira', async (flavor) => {
    const submitted = await submit(world, everyTypeBatch('e2e', flavor));
    expect(submitted.commands).toHaveLength(10); // 9 + the tail refresh

    const { batch, summary } = await runUntilDone(world, submitted.id, { flavor });

    expect(summary.stoppedBy).toBe('signal');
    expect(batch.commands.map((c: Json) => [c.seq, c.type, c.status, c.error])).toEqual(
      batch.commands.map((c: Json) => [c.seq, c.type, 'done', null]),
    );
    expect(batch.counts).toMatchObject({ done: 10 });
    const key1: string = commandOf(batch, 1).result.key;
    const key2: string = commandOf(batch, 2).result.key;
    expect(commandOf(batch, 1).result).toEqual({ key: key1, created: true });
    expect(commandOf(batch, 2).result).toEqual({ key: key2, created: true });
    expect(new Set([key1, key2, 'AURORA-1']).size).toBe(3);
    // temp keys were substituted in the stored params
    expect(commandOf(batch, 6).params).toEqual({ source: key1, target: key2, link_type: 'Blocks' });
    expect(commandOf(batch, 10).params.keys).toEqual([key1, key2, 'AURORA-1']);
    expect(commandOf(batch, 5).result).toEqual({ from: 'To Do', to: 'Done' });
    expect(batch.commands.every((c: Json) => c.deliveries === 1 && c.jira_calls > 0)).toBe(true);

    // Jira (the simulator) has the desired state
    const sim = world.sim;
    const one = sim.getIssue(key1)!;
    const two = sim.getIssue(key2)!;
    expect(one).toMatchObject({ summary: 'e2e: отчёт по продажам', issueType: 'Task', status: 'Done', duedate: '2026-12-15', assignee: IVANOV, priority: 'High' });
    expect(one.description).toBe('Квартальный отчёт');
    expect([...one.labels].sort()).toEqual(['e2e', 'отчёт']);
    expect(two).toMatchObject({ summary: 'e2e: выгрузка данных', issueType: 'Story', status: 'To Do' });
    expect(sim.sprintsOf(key2)).toEqual(['Спринт 2']);
    expect(sim.getIssue('AURORA-1')).toMatchObject({ duedate: '2026-12-20', priority: 'Low' });
    expect(sim.links()).toEqual([{ source: key1, target: key2, type: 'Blocks' }]); // key1 blocks key2
    const comments = sim.comments(key1);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('Отчёт готов');
    // DC comment bodies are wiki markup: the marker is escaped there so it does not render as a link
    expect(comments[0]!.body).toContain(flavor === 'cloud' ? '[hub:e2e]' : '\\[hub:e2e\\]');
    expect(sim.listIssues()).toHaveLength(3);

    // the mirror equals the simulator
    expect(byKey(await mirrorIssues(world))).toEqual(byKey(simIssues(sim, flavor)));
    expect(sortLinks(await mirrorLinks(world, [key1, key2, 'AURORA-1']))).toEqual(sortLinks(sim.links()));
    // every Jira request went to the flavor's REST version
    const platform = sim.requests.filter((r) => r.path.startsWith('/rest/api/'));
    expect(platform.every((r) => r.path.startsWith(flavor === 'cloud' ? '/rest/api/3/' : '/rest/api/2/'))).toBe(true);
    const detail2 = await world.call('GET', `/issues/${key2}`);
    expect(detail2.links_in).toEqual([{ source_key: key1, link_type: 'Blocks' }]);

    // a second delivery of the same desired state changes nothing in Jira (idempotent commands)
    const again = await submit(world, everyTypeBatch('e2e', flavor));
    const rerun = await runUntilDone(world, again.id, { flavor });
    expect(rerun.batch.counts).toMatchObject({ done: 10 });
    expect(commandOf(rerun.batch, 1).result).toEqual({ key: key1, created: false });
    expect(commandOf(rerun.batch, 8).result).toEqual({ created: false });
    expect(commandOf(rerun.batch, 6).result).toEqual({ created: false });
    expect(sim.listIssues()).toHaveLength(3);
    expect(sim.comments(key1)).toHaveLength(1);
    expect(sim.links()).toHaveLength(1);
  });

  it('lost report: the agent stops after executing ensure_issue, a new agent process finishes the batch; one issue, done with its key', async () => {
    const submitted = await submit(world, everyTypeBatch('lost'));
    const ensureIssueId: number = commandOf(submitted, 1).id;

    // process 1: executes ensure_issue, journals the result, "dies" before reporting
    const first = startAgent(world, { crashAfterExecute: true });
    const summary1 = await first.finished;
    expect(summary1).toEqual({ executed: 1, reported: 0, stoppedBy: 'crash' });
    const afterCrash = await world.call('GET', `/commands/${ensureIssueId}`);
    expect(afterCrash).toMatchObject({ status: 'claimed', deliveries: 1, result: null });
    expect(world.sim.listIssues().filter((i) => i.summary === 'lost: отчёт по продажам')).toHaveLength(1);

    // process 2: a new HubClient/JiraClient, the same journal file re-opened
    const { batch, summary, lines } = await runUntilDone(world, submitted.id);
    expect(lines.some((l) => l.includes(`#${ensureIssueId} re-sending the result held in the journal`))).toBe(true);
    expect(summary.reported).toBeGreaterThanOrEqual(batch.commands.length);

    const created = world.sim.listIssues().filter((i) => i.summary === 'lost: отчёт по продажам');
    expect(created).toHaveLength(1);
    const cmd = commandOf(batch, 1);
    expect(cmd).toMatchObject({ status: 'done', result: { key: created[0]!.key, created: true }, deliveries: 1 });
    expect(batch.counts).toMatchObject({ done: 10 });
    expect(world.sim.listIssues()).toHaveLength(3); // AURORA-1 + the two new ones
    expect(byKey(await mirrorIssues(world))).toEqual(byKey(simIssues(world.sim)));
  });

  it('lost report and lost journal entry, search consistent: the hub re-delivers and the duplicate search finds the issue', async () => {
    const submitted = await submit(world, everyTypeBatch('redeliver'));
    const first = startAgent(world, { crashAfterExecute: true });
    await first.finished;
    rmSync(world.journalPath); // a new agent on another machine: no journal

    const { batch } = await runUntilDone(world, submitted.id);
    const created = world.sim.listIssues().filter((i) => i.summary === 'redeliver: отчёт по продажам');
    expect(created).toHaveLength(1);
    expect(commandOf(batch, 1)).toMatchObject({ status: 'done', deliveries: 2, result: { key: created[0]!.key, created: false } });
    expect(batch.counts).toMatchObject({ done: 10 });
  });

  it('eventually consistent search, with re-delivery: still no duplicate issue', async () => {
    world.sim.setSearchLagMs(120_000); // a new issue stays invisible to search for the whole test
    const summaryText = 'lag: отчёт по продажам';
    const submitted = await submit(world, everyTypeBatch('lag'));
    const ensureIssueId: number = commandOf(submitted, 1).id;

    // Process 1 creates the issue in Jira (the executor journals the created key at once) and dies before the
    // result itself reaches the journal, so nothing will re-send it: the hub has to re-deliver the command.
    class CrashBeforeResult extends FileJournal {
      override recordResult(_id: number, _report: ReportBody, _last: string | null): void {
        throw new Error('simulated crash before the result was journaled');
      }
    }
    const first = startAgent(world, { journal: new CrashBeforeResult(world.journalPath) });
    await expect(first.finished).rejects.toThrow('simulated crash');
    expect(world.sim.listIssues().filter((i) => i.summary === summaryText)).toHaveLength(1);
    expect(await world.call('GET', `/commands/${ensureIssueId}`)).toMatchObject({ status: 'claimed', deliveries: 1 });
    // the duplicate search cannot see it
    expect(world.sim.store.search(duplicateSearchJql(PROJECT, summaryText), 120_000)).toHaveLength(0);

    // process 2, same journal file: the hub re-delivers ensure_issue
    const { batch, lines } = await runUntilDone(world, submitted.id);
    expect(lines.some((l) => l.includes(`#${ensureIssueId} ensure_issue done`) && l.includes('delivery 2'))).toBe(true);
    const created = world.sim.listIssues().filter((i) => i.summary === summaryText);
    expect(created).toHaveLength(1);
    expect(commandOf(batch, 1)).toMatchObject({ status: 'done', deliveries: 2, result: { key: created[0]!.key } });
    expect(batch.counts).toMatchObject({ done: 10 });
    expect(world.sim.listIssues()).toHaveLength(3);
    // the refreshes by keys read Cloud's database (bulkfetch), not the lagging search: the mirror still equals Jira
    expect(byKey(await mirrorIssues(world))).toEqual(byKey(simIssues(world.sim)));
  });

  it('eventually consistent search, lost report held in the journal: the new process re-sends it, no duplicate', async () => {
    world.sim.setSearchLagMs(120_000);
    const submitted = await submit(world, everyTypeBatch('lag2'));
    const first = startAgent(world, { crashAfterExecute: true });
    expect(await first.finished).toMatchObject({ stoppedBy: 'crash', reported: 0 });
    const { batch } = await runUntilDone(world, submitted.id);
    const created = world.sim.listIssues().filter((i) => i.summary === 'lag2: отчёт по продажам');
    expect(created).toHaveLength(1);
    expect(commandOf(batch, 1)).toMatchObject({ status: 'done', deliveries: 1, result: { key: created[0]!.key, created: true } });
    expect(batch.counts).toMatchObject({ done: 10 });
    expect(world.sim.listIssues()).toHaveLength(3);
  });

  it('stale Cloud search: the tail refresh right after ensure_status/ensure_fields reports the new state (bulkfetch)', async () => {
    const sim = world.sim;
    sim.getIssue('AURORA-1')!.createdAtMs = Date.now() - 600_000; // indexed long ago: only its changes lag
    sim.setSearchLagMs(120_000, { stale: true });
    const submitted = await submit(world, {
      title: 'E2E stale',
      author: 'e2e',
      commands: [
        { type: 'ensure_status', params: { key: 'AURORA-1', path: ['In Progress'] } },
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-11-30', labels: ['stale'] } },
      ],
    });
    const { batch } = await runUntilDone(world, submitted.id);
    const tail = batch.commands.at(-1);
    expect(tail).toMatchObject({ type: 'refresh', status: 'done' });
    expect(tail.result.issues).toEqual([expect.objectContaining({ key: 'AURORA-1', status: 'In Progress', duedate: '2026-11-30', labels: ['stale'] })]);
    // the search still serves the old state, the mirror does not
    expect(sim.store.search('key = AURORA-1', 120_000, false, true)[0]).toMatchObject({ status: 'To Do', duedate: null });
    expect(await mirrorIssues(world)).toEqual(simIssues(sim));
  });

  it('an issue deleted in Jira after it was mirrored: the failed command\'s report names it (missing_keys), the hub records it gone (decision 1448)', async () => {
    const read = await submit(world, { title: 'E2E read', author: 'e2e', commands: [{ type: 'refresh', params: { keys: ['AURORA-1'] } }] });
    await runUntilDone(world, read.id);
    world.sim.store.deleteIssue('AURORA-1', false); // someone deleted it in Jira
    const submitted = await submit(world, { title: 'E2E gone', author: 'e2e', commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20' } }] });
    const agent = startAgent(world);
    const batch = await waitFor(`batch ${submitted.id} finished`, async () => {
      const view = await world.call('GET', `/batches/${submitted.id}`);
      return view.commands.every((c: Json) => !['queued', 'claimed'].includes(c.status)) ? view : undefined;
    });
    agent.stop();
    await agent.finished;
    const failed = commandOf(batch, 1);
    expect(failed).toMatchObject({ type: 'ensure_fields', status: 'failed', error: expect.stringContaining('Jira: задачи AURORA-1 нет') });
    // The failure's own sync run, apart from the tail refresh's (which finds it missing too).
    const runs: Json[] = await world.call('GET', '/sync-runs');
    expect(runs.find((r) => r.command_id === failed.id)).toMatchObject({ kind: 'keys', missing: ['AURORA-1'], error: null });
    expect(await world.call('GET', '/issues/AURORA-1')).toMatchObject({ key: 'AURORA-1' }); // the mirror keeps it (SPEC 7)
  });

  it('a 429 storm: commands still complete and rate_limited is counted', async () => {
    const sim = world.sim;
    // bursts of three 429s (Retry-After: 0), re-armed after every few requests for the whole batch
    let armedAt = 0;
    let storms = 0;
    const arm = (): void => {
      sim.setRateLimit({ count: 3, retryAfterSeconds: 0 });
      armedAt = sim.requests.length;
      storms++;
    };
    arm();
    const timer = setInterval(() => {
      if (sim.requests.length >= armedAt + 6) arm();
    }, 2);
    let batch: Json;
    try {
      const submitted = await submit(world, everyTypeBatch('storm'));
      ({ batch } = await runUntilDone(world, submitted.id));
    } finally {
      clearInterval(timer);
    }
    expect(storms).toBeGreaterThan(3);
    expect(sim.requests.filter((r) => r.status === 429).length).toBeGreaterThan(9);
    expect(batch.commands.every((c: Json) => c.status === 'done')).toBe(true);
    const rateLimited = batch.commands.reduce((sum: number, c: Json) => sum + c.rate_limited, 0);
    expect(rateLimited).toBeGreaterThan(0);
    expect(rateLimited).toBe(sim.requests.filter((r) => r.status === 429).length);
    expect(batch.commands.every((c: Json) => c.jira_calls >= c.rate_limited + 1)).toBe(true);
    const agent = await world.call('GET', '/agent');
    expect(agent.rate_limited_24h).toBe(rateLimited);
    expect(sim.listIssues()).toHaveLength(3);
    expect(byKey(await mirrorIssues(world))).toEqual(byKey(simIssues(sim)));
  });
});

describe('hub shutdown after an agent hung up', () => {
  // An agent's aborted long poll leaves an idle connection; closing must not wait for it. The poll asks
  // for 60 s: a close that waited for it would run into jest's 30 s timeout. No catalogue refresh is
  // queued at this first claim, so the claim waits.
  it('closes promptly after a long-poll claim was aborted by the agent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jira-hub-close-'));
    const log = console.log;
    console.log = () => undefined;
    const hub = await serve(await testDatabaseEnv({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_LOG_LEVEL: 'error', HUB_CATALOGUE_AUTO_REFRESH: 'off' })).finally(() => {
      console.log = log;
    });
    try {
      const abort = new AbortController();
      const claim = fetch(`${hub.url}/agent/claim`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ wait_seconds: 60 }),
        signal: abort.signal,
      }).catch(() => 'aborted');
      // The claim's transaction has run (the agent was seen) before it waits.
      await waitFor('the claim to be taken', async () => {
        const status = await (await fetch(`${hub.url}/agent`)).json();
        return status.last_seen_at ? true : undefined;
      });
      abort.abort();
      expect(await claim).toBe('aborted');
    } finally {
      await hub.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
