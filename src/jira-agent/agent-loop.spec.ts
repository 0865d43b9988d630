import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent } from './agent-loop.js';
import { FakeHub } from './fake-hub.js';
import { HubClient } from './hub-client.js';
import { FileJournal, MemoryJournal } from './journal.js';
import { startHarness, type SimHarness } from './test-support.js';

let h: SimHarness;
const dir = mkdtempSync(join(tmpdir(), 'agent-loop-'));
const hubs: FakeHub[] = [];

beforeAll(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.stop()));
  h.sim.setSearchLagMs(0);
});

afterAll(async () => {
  await h.sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function setup(flavor: 'cloud' | 'dc' = 'cloud') {
  const hub = new FakeHub();
  hubs.push(hub);
  const url = await hub.start();
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
  };
  const stop = new AbortController();
  const hubClient = new HubClient({ baseUrl: url, token: hub.token, stopSignal: stop.signal, sleep, retryBaseMs: 1000 });
  const lines: string[] = [];
  const jira = h.client(flavor);
  const options = { hub: hubClient, jira, project: 'AURORA', log: (l: string) => lines.push(l), stopSignal: stop.signal, waitSeconds: 0, sleep };
  return { hub, stop, sleeps, lines, jira, options };
}

const issue = (summary: string) => h.sim.store.createIssue('AURORA', { summary, issueType: 'Task' }, 'x').key;

describe('runAgent', () => {
  it('claims, executes, journals and reports each command with its Jira counts, one log line each', async () => {
    const { hub, stop, lines, options } = await setup('dc');
    const a = issue('Агент A');
    const b = issue('Агент B');
    hub.enqueue({ id: 1, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Создана агентом' } });
    hub.enqueue({ id: 2, type: 'ensure_link', params: { source: a, target: b, link_type: 'Blocks' } });
    hub.enqueue({ id: 3, type: 'ensure_status', params: { key: a, path: ['Done'] } });
    hub.enqueue({ id: 4, type: 'refresh', params: { keys: [a, b] } });
    hub.onIdle = () => stop.abort();
    const journal = new MemoryJournal();
    h.sim.setRateLimit({ count: 1, retryAfterSeconds: 0 });

    const summary = await runAgent({ ...options, journal });

    expect(summary).toEqual({ executed: 4, reported: 4, stoppedBy: 'signal' });
    expect(hub.reports.map((r) => [r.id, r.body.status])).toEqual([[1, 'done'], [2, 'done'], [3, 'failed'], [4, 'done']]);
    const created = hub.reports[0]!.body;
    expect(created).toEqual({ status: 'done', result: { key: expect.any(String), created: true }, jira_calls: 3, rate_limited: 1 });
    expect(hub.reports[1]!.body).toEqual({ status: 'done', result: { created: true }, jira_calls: 2, rate_limited: 0 });
    expect(hub.reports[2]!.body.error).toBe('переход в статус «Done» недоступен из «To Do» (доступные переходы: «Start» → «In Progress»)');
    expect(hub.reports[3]!.body.result).toMatchObject({ links: [{ source_key: a, target_key: b, link_type: 'Blocks' }], missing_keys: [] });
    expect(journal.pendingResults()).toEqual([]);
    expect(lines.filter((l) => /^#\d+ \S+ (done|failed) in /.test(l))).toHaveLength(4);
    expect(hub.events.filter((e) => e.kind === 'settings')).toHaveLength(1);
  });

  it('waits the command\'s pause since the last Jira call', async () => {
    const { hub, sleeps, options, jira } = await setup();
    const key = issue('Пауза');
    hub.enqueue({ id: 10, type: 'ensure_comment', params: { key, body: 'x' } }, 120);
    await jira.api('GET', '/myself');
    await runAgent({ ...options, journal: new MemoryJournal(), once: true });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(115_000);
    expect(sleeps[0]).toBeLessThanOrEqual(120_000);
    expect(hub.reports.map((r) => r.id)).toEqual([10]);
  });

  it('after a crash between execute and report, re-sends the journaled result before claiming again', async () => {
    const { hub, options } = await setup();
    const path = join(dir, 'crash.jsonl');
    const key = issue('Крах');
    hub.enqueue({ id: 20, type: 'ensure_comment', params: { key, body: 'Один раз', marker: '[c20]' } });
    hub.enqueue({ id: 21, type: 'ensure_comment', params: { key, body: 'Второй', marker: '[c21]' } });

    const crashed = await runAgent({ ...options, journal: new FileJournal(path), once: true, crashAfterExecute: true });
    expect(crashed.stoppedBy).toBe('crash');
    expect(hub.reports).toEqual([]);
    expect(hub.claimedCommand?.id).toBe(20);

    const journal = new FileJournal(path);
    expect(journal.pendingResults().map((p) => p.command_id)).toEqual([20]);
    await runAgent({ ...options, journal, once: true });
    const order = hub.events.filter((e) => e.kind !== 'settings').map((e) => `${e.kind}${e.id ?? ''}`);
    expect(order).toEqual(['claim', 'report20', 'claim', 'report21']);
    expect(hub.reports[0]!.body).toMatchObject({ status: 'done', result: { created: true } });
    expect(h.sim.comments(key)).toHaveLength(2);
    expect(journal.pendingResults()).toEqual([]);
    journal.close();
  });

  it('a re-delivered ensure_issue reports the key the journal holds while search still lags', async () => {
    const { hub, options } = await setup('cloud');
    h.sim.setSearchLagMs(60_000);
    const journal = new MemoryJournal();
    const params = { temp_key: 'new:5', issue_type: 'Task', summary: 'Отчёт (потерянный отчёт)' };
    hub.enqueue({ id: 30, type: 'ensure_issue', params });
    await runAgent({ ...options, journal, once: true, crashAfterExecute: true });
    const key = journal.createdKeyFor(30);
    // The result itself is lost too (say, the journal line for it): only the created key survives.
    journal.markAcknowledged(30);
    journal.recordCreated(30, key!);
    await runAgent({ ...options, journal, once: true });
    expect(hub.reports).toEqual([{ id: 30, body: expect.objectContaining({ status: 'done', result: { key, created: true }, jira_calls: 0 }) }]);
    expect(h.sim.listIssues().filter((i) => i.summary === params.summary)).toHaveLength(1);
  });

  it('keeps retrying the report while the hub is unavailable, then acknowledges', async () => {
    const { hub, sleeps, options } = await setup();
    const key = issue('Хаб лежит');
    hub.enqueue({ id: 40, type: 'ensure_comment', params: { key, body: 'x' } });
    const journal = new MemoryJournal();
    hub.failReports = 3;
    await runAgent({ ...options, journal, once: true });
    expect(hub.events.filter((e) => e.kind === 'report').map((e) => e.status)).toEqual([503, 503, 503, 200]);
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(journal.pendingResults()).toEqual([]);
  });

  it('drops a result the hub refuses outright (409) and says so in the log', async () => {
    const { hub, lines, options } = await setup();
    const key = issue('Отказ');
    hub.enqueue({ id: 50, type: 'ensure_comment', params: { key, body: 'x' } });
    hub.refuseNextReport = 409;
    const journal = new MemoryJournal();
    await runAgent({ ...options, journal, once: true });
    expect(journal.pendingResults()).toEqual([]);
    expect(lines.some((l) => l.includes('#50 the hub refused the result (хаб ответил HTTP 409: команда не выдана)'))).toBe(true);
  });
});
