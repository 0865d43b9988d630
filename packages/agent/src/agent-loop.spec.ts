import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent, smallerReport } from './agent-loop.js';
import { FakeHub } from './fake-hub.js';
import { HubClient } from './hub-client.js';
import { JiraClient } from './jira-client.js';
import { FileJournal, MemoryJournal } from './journal.js';
import { startHarness, type SimHarness } from './test-support.js';
import type { ReportBody } from './types.js';


/** The agent's words for the workflow validator's refusal of a transition of `key` (@jira-hub/contracts/jira-failure). */
const refused = (key: string): string =>
  `Jira: не приняла запрос для задачи ${key} — исправьте значения в команде или в пакете и повторите (HTTP 400: Assignee is required.)`;
describe('agent-loop', () => {
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
    h.clock.now = Date.now(); // the loop paces on real time here; the client's clock must agree
    const jira = h.client(flavor);
    const options = { hub: hubClient, jira, project: 'AURORA', log: (l: string) => lines.push(l), stopSignal: stop.signal, waitSeconds: 0, sleep };
    return { hub, stop, sleeps, lines, jira, options };
  }

  /** A Jira client whose first `failures` requests fail: 'network' throws like fetch does, a number is that HTTP answer. */
  function flakyJira(failures: number, how: 'network' | 401) {
    let left = failures;
    const flaky = (async (...args: Parameters<typeof fetch>) => {
      if (left > 0) {
        left--;
        if (how === 'network') throw new TypeError('fetch failed');
        return new Response(JSON.stringify({ errorMessages: ['Client must be authenticated to access this resource.'], errors: {} }), { status: how });
      }
      return fetch(...args);
    }) as typeof fetch;
    return new JiraClient({ baseUrl: h.url, flavor: 'dc', auth: { kind: 'bearer', token: 'pat' }, maxTries: 1, sleep: async () => undefined, fetch: flaky });
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
      const key = (created.result as { key: string }).key;
      expect(created).toEqual({
        status: 'done',
        result: { key: expect.any(String), created: true },
        changes: [{ key, what: 'issue', after: { key, summary: 'Создана агентом' } }],
        jira_calls: 3,
        rate_limited: 1,
      });
      // issue, link types, create
      expect(hub.reports[1]!.body).toEqual({
        status: 'done',
        result: { created: true },
        changes: [{ key: a, what: 'link', after: { source: a, target: b, link_type: 'Blocks' } }],
        jira_calls: 3,
        rate_limited: 0,
      });
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

    it('the merged call: each report claims the next command, so no separate claim runs between commands', async () => {
      const { hub, stop, options } = await setup();
      const key = issue('Слияние');
      hub.enqueue({ id: 80, type: 'ensure_comment', params: { key, body: 'a' } });
      hub.enqueue({ id: 81, type: 'ensure_comment', params: { key, body: 'b' } });
      hub.onIdle = () => stop.abort();
      const summary = await runAgent({ ...options, journal: new MemoryJournal() });
      expect(summary).toEqual({ executed: 2, reported: 2, stoppedBy: 'signal' });
      const requests = hub.events.filter((e) => e.kind !== 'settings').map((e) => (e.kind === 'report' ? `report${e.id}` : e.kind));
      // claim → #80; its report claims #81; #81's report claims nothing; a plain claim finds nothing.
      expect(requests).toEqual(['claim', 'report80', 'claim', 'report81', 'claim', 'claim']);
      expect(hub.events.filter((e) => e.kind === 'report').map((e) => (e.body as { claim?: unknown }).claim)).toEqual([
        { agent_version: '0.1.0', settings_version: 1, last_jira_call_at: expect.any(String), jira_auth: 'ok' },
        { agent_version: '0.1.0', settings_version: 1, last_jira_call_at: expect.any(String), jira_auth: 'ok' },
      ]);
      expect(hub.reports.map((r) => r.body)).toEqual([expect.not.objectContaining({ claim: expect.anything() }), expect.not.objectContaining({ claim: expect.anything() })]);
    });

    it('a hub that refuses `claim` in a report (an older hub): the report again without it, and plain claims from then on', async () => {
      const { hub, stop, lines, options } = await setup();
      const key = issue('Старый хаб');
      hub.enqueue({ id: 82, type: 'ensure_comment', params: { key, body: 'a' } });
      hub.enqueue({ id: 83, type: 'ensure_comment', params: { key, body: 'b' } });
      hub.refuseNextReport = 422;
      hub.refuseNextReportBody = { error: 'validation_failed', detail: 'claim: неизвестное поле', errors: [{ field: 'claim', detail: 'неизвестное поле' }] };
      hub.onIdle = () => stop.abort();
      const summary = await runAgent({ ...options, journal: new MemoryJournal() });
      expect(summary).toEqual({ executed: 2, reported: 2, stoppedBy: 'signal' });
      expect(hub.reports.map((r) => [r.id, r.body.status])).toEqual([[82, 'done'], [83, 'done']]);
      expect(hub.events.filter((e) => e.kind === 'report' && e.status === 200).every((e) => !(e.body as { claim?: unknown }).claim)).toBe(true);
      expect(lines.some((l) => l.startsWith('#82 the hub does not take a claim with the report'))).toBe(true);
    });

    it('once mode never claims with the report (the command would wait for a re-delivery)', async () => {
      const { hub, options } = await setup();
      hub.enqueue({ id: 84, type: 'ensure_comment', params: { key: issue('Один раз'), body: 'a' } });
      hub.enqueue({ id: 85, type: 'ensure_comment', params: { key: issue('Второй'), body: 'b' } });
      await runAgent({ ...options, journal: new MemoryJournal(), once: true });
      expect(hub.events.find((e) => e.kind === 'report')!.body).not.toHaveProperty('claim');
      expect(hub.claimedCommand).toBeNull();
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

    it.each([
      [413, { error: 'payload_too_large', detail: 'тело запроса больше 10 МБ' }, 'хаб не принял результат: HTTP 413: тело запроса больше 10 МБ'],
      [422, { error: 'validation_failed', detail: 'плохо', errors: [{ field: 'result.issues', detail: 'ожидается список' }] }, 'хаб не принял результат: HTTP 422: плохо (result.issues: ожидается список)'],
    ])('a done the hub refuses with %i is reported as failed with the hub\'s reason', async (status, body, reason) => {
      const { hub, lines, options } = await setup();
      hub.enqueue({ id: 70, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: `Отказ хаба ${status}` } });
      hub.refuseReports = (report) => (report.status === 'done' ? { status, body } : undefined);
      const journal = new MemoryJournal();
      await runAgent({ ...options, journal, once: true });
      const reports = hub.events.filter((e) => e.kind === 'report');
      // First without its change record (the issue's creation), then as failed.
      expect(reports.map((e) => [e.status, (e.body as ReportBody).status, Boolean((e.body as ReportBody).changes)])).toEqual([
        [status, 'done', true],
        [status, 'done', false],
        [200, 'failed', false],
      ]);
      expect(hub.reports).toEqual([{ id: 70, body: { status: 'failed', error: reason, jira_calls: 2, rate_limited: 0 } }]);
      expect(lines.some((l) => l.startsWith(`#70 the hub refused the result (хаб ответил HTTP ${status}`) && l.endsWith('reporting the command as failed'))).toBe(true);
      expect(journal.pendingResults()).toEqual([]);
      expect(journal.createdKeyFor(70)).toBeUndefined(); // the hub holds a terminal status now
    });

    it('a done whose change record the hub refuses is sent again without it: the command stays done, not run again (decision 1416)', async () => {
      const { hub, lines, options } = await setup();
      const key = issue('Отказ записи изменений');
      hub.enqueue({ id: 73, type: 'ensure_fields', params: { key, duedate: '2026-12-24' } });
      const refusal = { error: 'validation_failed', detail: 'changes.0.after: недопустимый символ' };
      hub.refuseReports = (report) => (report.changes?.length ? { status: 422, body: refusal } : undefined);
      const journal = new MemoryJournal();
      await runAgent({ ...options, journal, once: true });
      const reports = hub.events.filter((e) => e.kind === 'report');
      expect(reports.map((e) => [e.status, (e.body as ReportBody).status, Boolean((e.body as ReportBody).changes)])).toEqual([
        [422, 'done', true],
        [200, 'done', false],
      ]);
      expect(hub.reports).toEqual([{ id: 73, body: { status: 'done', result: expect.any(Object), jira_calls: expect.any(Number), rate_limited: 0 } }]);
      expect(lines.some((l) => l.startsWith('#73 the hub refused the result (') && l.endsWith('reporting it without its change record'))).toBe(true);
      expect(journal.pendingResults()).toEqual([]);
    });

    it('a failed report the hub refuses is sent again smaller, down to a failure with the hub\'s reason; refused that too, it is dropped', async () => {
      const { hub, lines, options } = await setup('dc');
      const key = h.sim.store.createIssue('AURORA', { summary: 'Отказ отчёта об ошибке', issueType: 'Bug' }, 'x').key;
      hub.enqueue({ id: 74, type: 'ensure_status', params: { key, path: ['In Progress', 'In Review', 'Done'] } });
      hub.refuseReports = () => ({ status: 413, body: { error: 'payload_too_large', detail: 'слишком большой' } });
      const journal = new MemoryJournal();
      await runAgent({ ...options, journal, once: true });
      const sent = hub.events.filter((e) => e.kind === 'report').map((e) => e.body as ReportBody);
      expect(sent).toEqual([
        expect.objectContaining({ status: 'failed', error: refused(key), changes: [expect.objectContaining({ what: 'status' })] }),
        { status: 'failed', error: refused(key), jira_calls: expect.any(Number), rate_limited: 0 },
        { status: 'failed', error: 'хаб не принял результат: HTTP 413: слишком большой', jira_calls: expect.any(Number), rate_limited: 0 },
      ]);
      expect(lines.filter((l) => l.startsWith('#74 the hub refused the result')).map((l) => l.slice(l.lastIndexOf(';') + 2))).toEqual([
        'reporting it without its change record',
        'reporting the command as failed',
        'dropping it',
      ]);
      expect(journal.pendingResults()).toEqual([]);
    });

    it.each<[string, ReportBody, ReportBody | undefined]>([
      ['a done with changes: the same done without them', { status: 'done', result: { key: 'A-1' }, changes: [{ key: 'A-1', what: 'labels', before: [], after: ['x'] }], jira_calls: 2 }, { status: 'done', result: { key: 'A-1' }, jira_calls: 2 }],
      ['a failure with missing keys: the same failure without them', { status: 'failed', error: 'Jira: задачи A-1 нет', missing_keys: ['A-1'], jira_calls: 1 }, { status: 'failed', error: 'Jira: задачи A-1 нет', jira_calls: 1 }],
      [
        'a failure with a change record and missing keys: the missing keys go first, the record a hub before decision 1448 takes stays',
        { status: 'failed', error: 'Jira: задачи A-1 нет', changes: [{ key: 'A-1', what: 'status', before: 'To Do', after: 'In Progress' }], missing_keys: ['A-1'], jira_calls: 3 },
        { status: 'failed', error: 'Jira: задачи A-1 нет', changes: [{ key: 'A-1', what: 'status', before: 'To Do', after: 'In Progress' }], jira_calls: 3 },
      ],
      [
        'a failed walk with the transitions it saw: they go first with missing keys, the walk\'s record stays (decision 1485)',
        {
          status: 'failed',
          error: 'переход в статус «Done» недоступен из «In Progress»',
          changes: [{ key: 'A-1', what: 'status', before: 'To Do', after: 'In Progress', transitions: ['Start'] }],
          transitions_seen: { key: 'A-1', issue_type: 'Bug', status: 'In Progress', transitions: [{ id: '51', name: 'Review', to: 'In Review', required_fields: [] }] },
          jira_calls: 4,
        },
        { status: 'failed', error: 'переход в статус «Done» недоступен из «In Progress»', changes: [{ key: 'A-1', what: 'status', before: 'To Do', after: 'In Progress', transitions: ['Start'] }], jira_calls: 4 },
      ],
      ['a done without changes: a failure with the reason', { status: 'done', result: {}, jira_calls: 1, rate_limited: 1 }, { status: 'failed', error: 'хаб не принял результат: HTTP 422: плохо', jira_calls: 1, rate_limited: 1 }],
      ['a failure of its own text: a failure with the reason', { status: 'failed', error: 'Jira: \udc00', jira_calls: 1 }, { status: 'failed', error: 'хаб не принял результат: HTTP 422: плохо', jira_calls: 1, rate_limited: undefined }],
      ['a failure with a result: a failure with the reason', { status: 'failed', error: 'хаб не принял результат: HTTP 413', result: { big: 1 } }, { status: 'failed', error: 'хаб не принял результат: HTTP 422: плохо', jira_calls: undefined, rate_limited: undefined }],
      ['a failure with the reason: nothing smaller', { status: 'failed', error: 'хаб не принял результат: HTTP 413: слишком большой', jira_calls: 1 }, undefined],
      ['a partial report: not replaced', { status: 'partial', part: 1, result: {} }, undefined],
      ['a release: not replaced', { status: 'released', error: '401' }, undefined],
    ])('smallerReport: %s', (_name, report, smaller) => {
      expect(smallerReport(report, 'хаб не принял результат: HTTP 422: плохо')).toEqual(smaller);
    });

    it('a result dropped after a 409 clears the key ensure_issue created: a new hub reusing the id gets a new issue', async () => {
      const { hub, options } = await setup();
      hub.enqueue({ id: 71, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Отказ 409' } });
      hub.refuseNextReport = 409;
      const journal = new MemoryJournal();
      await runAgent({ ...options, journal, once: true });
      expect(hub.reports).toEqual([]);
      expect(journal.pendingResults()).toEqual([]);
      expect(journal.createdKeyFor(71)).toBeUndefined();
      // A new hub database hands id 71 out again, for another command.
      const fresh = await setup();
      fresh.hub.enqueue({ id: 71, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Другая команда 71' } });
      await runAgent({ ...fresh.options, journal, once: true });
      const other = h.sim.listIssues().find((i) => i.summary === 'Другая команда 71')!;
      expect(fresh.hub.reports).toEqual([{ id: 71, body: expect.objectContaining({ status: 'done', result: { key: other.key, created: true } }) }]);
    });

    it('ensure_issue ignores a journaled key made for another summary under the same id', async () => {
      const { hub, options } = await setup();
      const stale = issue('Старая команда 72');
      const journal = new MemoryJournal();
      journal.recordCreated(72, stale, { summary: 'Старая команда 72', project: 'AURORA' });
      hub.enqueue({ id: 72, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Новая команда 72' } });
      await runAgent({ ...options, journal, once: true });
      const fresh = h.sim.listIssues().find((i) => i.summary === 'Новая команда 72')!;
      expect(fresh.key).not.toBe(stale);
      expect(hub.reports).toEqual([{ id: 72, body: expect.objectContaining({ status: 'done', result: { key: fresh.key, created: true } }) }]);
    });

    it('a new settings_version reloads the settings and makes the next refresh read the field list again', async () => {
      const { hub, stop, options } = await setup();
      const key = issue('Настройки');
      hub.enqueue({ id: 80, type: 'refresh', params: { keys: [key] } });
      hub.enqueue({ id: 81, type: 'refresh', params: { keys: [key] } });
      hub.enqueue({ id: 82, type: 'refresh', params: { keys: [key] } });
      hub.onReport = (id) => {
        if (id === 81) hub.settingsVersion = 2;
      };
      hub.onIdle = () => stop.abort();
      h.sim.clearRequests();
      await runAgent({ ...options, journal: new MemoryJournal() });
      expect(hub.reports.map((r) => [r.id, r.body.status])).toEqual([[80, 'done'], [81, 'done'], [82, 'done']]);
      expect(hub.events.filter((e) => e.kind === 'settings')).toHaveLength(2);
      // read for #80, kept for #81, read again for #82 after the settings changed
      expect(h.sim.requests.filter((r) => r.path.endsWith('/field'))).toHaveLength(2);
    });

    it('asks the hub for a long poll of at most 60 whole seconds', async () => {
      const { hub, options } = await setup();
      await runAgent({ ...options, journal: new MemoryJournal(), once: true, waitSeconds: 90.5 });
      expect(hub.events.find((e) => e.kind === 'claim')!.body).toMatchObject({ wait_seconds: 60 });
    });

    it('a Jira outage (network) is not reported: one log line, back-off up to 60 s, the same command again', async () => {
      const { hub, stop, sleeps, lines, options } = await setup('dc');
      const key = issue('Jira лежит');
      hub.enqueue({ id: 60, type: 'ensure_comment', params: { key, body: 'после сбоя', marker: '[c60]' } });
      hub.onIdle = () => stop.abort();
      const journal = new MemoryJournal();
      const summary = await runAgent({ ...options, jira: flakyJira(6, 'network'), journal });
      expect(summary).toEqual({ executed: 1, reported: 1, stoppedBy: 'signal' });
      expect(sleeps).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000]);
      const outageLines = lines.filter((l) => l.startsWith('#60 ensure_comment: Jira unavailable (Jira недоступна'));
      expect(outageLines).toHaveLength(6);
      expect(outageLines[0]).toContain('not reported, the same command again in 5 s');
      // It kept the command: no claim between the first one and the report (which claims the next itself).
      expect(hub.events.map((e) => e.kind).filter((k) => k !== 'settings').slice(0, 3)).toEqual(['claim', 'report', 'claim']);
      expect(hub.reports).toEqual([{ id: 60, body: expect.objectContaining({ status: 'done', result: { created: true }, jira_calls: 8 }) }]);
      expect(h.sim.comments(key)).toHaveLength(1);
    });

    it('a 401 releases the command (SPEC 16.3), claims nothing while /myself is refused (30 s doubling), then goes on by itself', async () => {
      const { hub, stop, sleeps, lines, options } = await setup('dc');
      const key = issue('Отозванный токен');
      hub.enqueue({ id: 65, type: 'ensure_comment', params: { key, body: 'x', marker: '[hub:65]' } });
      hub.onIdle = () => stop.abort();
      const summary = await runAgent({ ...options, jira: flakyJira(3, 401), journal: new MemoryJournal() });
      expect(summary).toEqual({ executed: 1, reported: 2, stoppedBy: 'signal' });
      // /myself refused twice, accepted at the third check; the 120 s wait is told to the hub every minute
      expect(sleeps).toEqual([30_000, 60_000, 60_000, 60_000]);
      expect(hub.reports.map((r) => r.body.status)).toEqual(['released', 'done']);
      expect(hub.reports[0]!.body).toEqual(expect.objectContaining({ error: 'Jira: не принимает учётные данные агента — проверьте токен агента (JIRA_API_TOKEN или JIRA_PAT) и адрес Jira (HTTP 401: Client must be authenticated to access this resource.)' }));
      expect(hub.reports[0]!.body).not.toHaveProperty('claim'); // a release claims nothing
      const claims = hub.events.filter((e) => e.kind === 'claim').map((e) => e.body as { jira_auth?: string; jira_auth_failed_since?: string });
      const failedClaims = claims.filter((c) => c.jira_auth === 'failed');
      expect(failedClaims).toHaveLength(4);
      expect(new Set(failedClaims.map((c) => c.jira_auth_failed_since)).size).toBe(1);
      expect(claims.at(-1)!.jira_auth).toBe('ok');
      expect(h.sim.comments(key)).toHaveLength(1);
      expect(lines.some((l) => l.includes('released back to the queue'))).toBe(true);
      expect(lines).toContain('Jira accepts the credentials again; going on');
    });

    it('a 401 partway through a status walk: released, and the re-delivery reports the whole walk from where it started', async () => {
      const { hub, stop, options } = await setup('dc');
      const key = issue('Отзыв посреди пути');
      hub.enqueue({ id: 67, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } });
      hub.onIdle = () => stop.abort();
      // Jira refuses the credentials at the walk's second transition, once.
      let posts = 0;
      const refusing = (async (...args: Parameters<typeof fetch>) => {
        const [url, init] = args;
        if (init?.method === 'POST' && String(url).endsWith('/transitions') && ++posts === 2) {
          return new Response(JSON.stringify({ errorMessages: ['Client must be authenticated to access this resource.'], errors: {} }), { status: 401 });
        }
        return fetch(...args);
      }) as typeof fetch;
      const jira = new JiraClient({ baseUrl: h.url, flavor: 'dc', auth: { kind: 'bearer', token: 'pat' }, maxTries: 1, sleep: async () => undefined, fetch: refusing });
      const journal = new MemoryJournal();
      await runAgent({ ...options, jira, journal });
      expect(hub.reports.map((r) => r.body.status)).toEqual(['released', 'done']);
      expect(h.sim.getIssue(key)!.status).toBe('Done');
      const [change] = (hub.reports[1]!.body as { changes: { what: string; before: unknown; after: unknown; transitions: string[] }[] }).changes;
      expect(change).toEqual(expect.objectContaining({ what: 'status', before: 'To Do', after: 'Done' }));
      expect(change.transitions).toEqual(['Start', 'Finish']);
      expect(journal.intentFor(67, { type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } })).toBeUndefined();
    });

    it('runs refresh_catalogue and reports {catalogue}; its log line counts, it does not print the catalogue', async () => {
      const { hub, stop, lines, options } = await setup('cloud');
      hub.enqueue({ id: 70, type: 'refresh_catalogue', params: {} });
      hub.onIdle = () => stop.abort();
      await runAgent({ ...options, journal: new MemoryJournal(), agentVersion: '2.0.0' });
      const body = hub.reports[0]!.body as { status: string; result: { catalogue: { project_key: string; agent_version: string; issue_types: unknown[] } } };
      expect(body.status).toBe('done');
      expect(body.result.catalogue).toEqual(expect.objectContaining({ project_key: 'AURORA', agent_version: '2.0.0' }));
      const line = lines.find((l) => l.startsWith('#70 refresh_catalogue done'))!;
      expect(line).toMatch(/issue_types=5 fields=\d+ transitions=observed assignable=3$/);
    });

    it('the back-off of the credential checks is configurable and stops at its maximum', async () => {
      const { hub, stop, sleeps, options } = await setup('dc');
      const key = issue('Долгий отзыв');
      hub.enqueue({ id: 66, type: 'ensure_comment', params: { key, body: 'y', marker: '[hub:66]' } });
      hub.onIdle = () => stop.abort();
      await runAgent({ ...options, jira: flakyJira(6, 401), journal: new MemoryJournal(), authRetryBaseMs: 10, authRetryMaxMs: 40 });
      expect(sleeps).toEqual([10, 20, 40, 40, 40, 40]);
      expect(hub.reports.map((r) => r.body.status)).toEqual(['released', 'done']);
    });

    it('a 403 fails that one command with Jira\'s text; nothing is released', async () => {
      const { hub, stop, options } = await setup('dc');
      const key = issue('Нет права');
      h.sim.store.seed.deniedPermissions = ['ADD_COMMENTS'];
      try {
        hub.enqueue({ id: 67, type: 'ensure_comment', params: { key, body: 'z', marker: '[hub:67]' } });
        hub.onIdle = () => stop.abort();
        await runAgent({ ...options, journal: new MemoryJournal() });
      } finally {
        h.sim.store.seed.deniedPermissions = [];
      }
      expect(hub.reports).toEqual([{ id: 67, body: expect.objectContaining({ status: 'failed', error: expect.stringMatching(/^Jira: у агента нет прав на это действие с задачей AURORA-\d+ — .+ \(HTTP 403: You do not have the permission to comment on this issue\.\)$/) }) }]);
    });

    it('gives up an outage after outageGiveUpMs of failed retries and reports the network error', async () => {
      const { hub, stop, options } = await setup('dc');
      const key = issue('Долгий сбой');
      hub.enqueue({ id: 66, type: 'ensure_comment', params: { key, body: 'x' } });
      hub.onIdle = () => stop.abort();
      let clock = 0;
      const sleeps: number[] = [];
      const sleep = async (ms: number) => {
        sleeps.push(ms);
        clock += ms;
      };
      const summary = await runAgent({ ...options, jira: flakyJira(1000, 'network'), journal: new MemoryJournal(), sleep, now: () => clock, outageGiveUpMs: 60_000 });
      expect(summary).toEqual({ executed: 1, reported: 1, stoppedBy: 'signal' });
      expect(sleeps).toEqual([5000, 10_000, 20_000, 40_000]); // the fifth failure comes 75 s after the first
      expect(hub.reports).toEqual([{ id: 66, body: expect.objectContaining({ status: 'failed', error: expect.stringMatching(/^Jira недоступна \(/) }) }]);
    });

    it('in once mode an outage is given up after the first failed retry', async () => {
      const { hub, sleeps, options } = await setup('dc');
      const key = issue('Сбой в once');
      hub.enqueue({ id: 67, type: 'ensure_comment', params: { key, body: 'x' } });
      const summary = await runAgent({ ...options, jira: flakyJira(1000, 'network'), journal: new MemoryJournal(), once: true });
      expect(summary).toEqual({ executed: 1, reported: 1, stoppedBy: 'once' });
      expect(sleeps).toEqual([5000]);
      expect(hub.reports).toEqual([{ id: 67, body: expect.objectContaining({ status: 'failed', error: expect.stringMatching(/^Jira недоступна \(/) }) }]);
    });

    it('an outage partway through a status walk, given up: the failed report carries the transitions Jira took (decision 1497)', async () => {
      const { hub, options } = await setup('dc');
      const key = issue('Сбой посреди пути');
      const params = { key, path: ['In Progress', 'Done'] };
      hub.enqueue({ id: 68, type: 'ensure_status', params });
      // Jira takes the first transition, then cannot be reached at all.
      let down = false;
      const failing = (async (...args: Parameters<typeof fetch>) => {
        if (down) throw new TypeError('fetch failed');
        const response = await fetch(...args);
        if (args[1]?.method === 'POST' && String(args[0]).endsWith('/transitions')) down = true;
        return response;
      }) as typeof fetch;
      const jira = new JiraClient({ baseUrl: h.url, flavor: 'dc', auth: { kind: 'bearer', token: 'pat' }, maxTries: 1, sleep: async () => undefined, fetch: failing });
      const journal = new MemoryJournal();
      await runAgent({ ...options, jira, journal, once: true });
      expect(h.sim.getIssue(key)!.status).toBe('In Progress');
      expect(hub.reports).toEqual([
        {
          id: 68,
          body: expect.objectContaining({
            status: 'failed',
            error: expect.stringMatching(/^Jira недоступна \(/),
            changes: [{ key, what: 'status', before: 'To Do', after: 'In Progress', transitions: ['Start'] }],
          }),
        },
      ]);
      expect(journal.intentFor(68, { type: 'ensure_status', params })).toBeUndefined();
    });

    it('with wait_seconds 0 an empty claim is followed by a pause of about 1 s', async () => {
      const { hub, stop, sleeps, options } = await setup();
      let idle = 0;
      hub.onIdle = () => {
        if (++idle === 3) stop.abort();
      };
      await runAgent({ ...options, journal: new MemoryJournal() });
      expect(hub.events.filter((e) => e.kind === 'claim')).toHaveLength(3);
      expect(sleeps).toEqual([1000, 1000]);
    });

    it('a network outage during ensure_issue: no report, no second create, and a stop signal ends the back-off', async () => {
      const { hub, stop, sleeps, options } = await setup('dc');
      hub.enqueue({ id: 61, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Во время сбоя' } });
      const journal = new MemoryJournal();
      const sleep = async (ms: number) => {
        sleeps.push(ms);
        if (sleeps.length === 3) stop.abort();
      };
      const summary = await runAgent({ ...options, jira: flakyJira(100, 'network'), journal, sleep });
      expect(summary).toEqual({ executed: 0, reported: 0, stoppedBy: 'signal' });
      expect(hub.reports).toEqual([]);
      expect(hub.claimedCommand?.id).toBe(61); // still claimed: the hub hands it out again
      expect(journal.pendingResults()).toEqual([]);
    });

    it('the answer to a create is lost (network): the command runs again and finds the issue instead of creating it twice', async () => {
      const { hub, options } = await setup('dc');
      const summaryText = 'Создана, ответ потерян';
      hub.enqueue({ id: 62, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: summaryText } });
      let lost = false;
      const losing = (async (...args: Parameters<typeof fetch>) => {
        const response = await fetch(...args);
        if (!lost && args[1]?.method === 'POST' && new URL(String(args[0])).pathname.endsWith('/issue')) {
          lost = true;
          throw new TypeError('socket hang up'); // Jira created it, the agent never hears back
        }
        return response;
      }) as typeof fetch;
      const jira = new JiraClient({ baseUrl: h.url, flavor: 'dc', auth: { kind: 'bearer', token: 'pat' }, sleep: async () => undefined, fetch: losing });
      await runAgent({ ...options, jira, journal: new MemoryJournal(), once: true });
      const created = h.sim.listIssues().filter((i) => i.summary === summaryText);
      expect(created).toHaveLength(1);
      // The journal's create attempt marks the found issue as the one this command's lost POST created.
      expect(hub.reports).toEqual([{ id: 62, body: expect.objectContaining({ status: 'done', result: { key: created[0]!.key, created: true } }) }]);
    });

    it('the answer to a create is lost while search lags: the retry searches again with back-off, no duplicate', async () => {
      const { hub, stop, lines, options } = await setup('dc');
      h.sim.setSearchLagMs(60_000);
      const summaryText = 'Создана, ответ потерян, поиск отстаёт';
      hub.enqueue({ id: 63, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: summaryText } });
      hub.onIdle = () => stop.abort();
      let lost = false;
      const losing = (async (...args: Parameters<typeof fetch>) => {
        const response = await fetch(...args);
        if (!lost && args[1]?.method === 'POST' && new URL(String(args[0])).pathname.endsWith('/issue')) {
          lost = true;
          await response.text();
          throw new TypeError('socket hang up'); // Jira created it, the agent never hears back
        }
        return response;
      }) as typeof fetch;
      const jira = new JiraClient({ baseUrl: h.url, flavor: 'dc', auth: { kind: 'bearer', token: 'pat' }, maxTries: 1, sleep: async () => undefined, fetch: losing });
      const sleeps: number[] = [];
      const sleep = async (ms: number) => {
        sleeps.push(ms);
        if (ms === 13) h.sim.setSearchLagMs(0); // the index catches up during the second wait
      };
      const journal = new MemoryJournal();

      const summary = await runAgent({ ...options, jira, journal, sleep, outageRetryBaseMs: 7, createRecheckDelaysMs: [11, 13, 17, 19] });

      expect(summary).toEqual({ executed: 1, reported: 1, stoppedBy: 'signal' });
      expect(sleeps).toEqual([7, 11, 13]); // outage back-off, then two re-searches: found before the third
      const created = h.sim.listIssues().filter((i) => i.summary === summaryText);
      expect(created).toHaveLength(1);
      expect(hub.reports).toEqual([{ id: 63, body: expect.objectContaining({ status: 'done', result: { key: created[0]!.key, created: true } }) }]);
      expect(lines.filter((l) => l.startsWith('#63 ensure_issue: the answer to POST /issue sent at '))).toHaveLength(1);
      expect(journal.entries.filter((e) => 'create_attempt' in e)).toHaveLength(1);
      expect([journal.createAttemptFor(63), journal.createdKeyFor(63)]).toEqual([undefined, undefined]); // acknowledged
    });

    it('a stop signal during the re-search wait ends it: nothing created, nothing reported, the attempt kept', async () => {
      const { hub, stop, options } = await setup('dc');
      h.sim.setSearchLagMs(60_000);
      const summaryText = 'Остановка во время повторного поиска';
      hub.enqueue({ id: 64, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: summaryText } });
      const journal = new MemoryJournal();
      journal.recordCreateAttempt(64, summaryText); // an earlier run's POST /issue got no answer (and Jira did not create it)
      const sleep = async (ms: number) => {
        if (ms === 11) stop.abort();
      };
      const summary = await runAgent({ ...options, journal, sleep, createRecheckDelaysMs: [11, 13] });
      expect(summary).toEqual({ executed: 0, reported: 0, stoppedBy: 'signal' });
      expect(hub.reports).toEqual([]);
      expect(hub.claimedCommand?.id).toBe(64);
      expect(h.sim.listIssues().filter((i) => i.summary === summaryText)).toHaveLength(0);
      expect(journal.createAttemptFor(64)).toEqual({ summary: summaryText, at: expect.any(String) });
    });

    it('a status walk Jira refuses partway is reported failed with the transitions it took (decision 1413)', async () => {
      const { hub, stop, options } = await setup('dc');
      const key = h.sim.store.createIssue('AURORA', { summary: 'Ревью без исполнителя', issueType: 'Bug' }, 'x').key;
      hub.enqueue({ id: 66, type: 'ensure_status', params: { key, path: ['In Progress', 'In Review', 'Done'] } });
      hub.onIdle = () => stop.abort();
      const journal = new MemoryJournal();
      expect(await runAgent({ ...options, journal })).toEqual({ executed: 1, reported: 1, stoppedBy: 'signal' });
      expect(hub.reports).toEqual([
        {
          id: 66,
          body: {
            status: 'failed',
            error: refused(key),
            changes: [{ key, what: 'status', before: 'To Do', after: 'In Review', transitions: ['Start', 'Review'] }],
            jira_calls: expect.any(Number),
            rate_limited: 0,
          },
        },
      ]);
      expect(journal.pendingResults()).toEqual([]);
    });

    it('a stop during a Jira request in flight: the command is neither reported nor retried, it stays claimed', async () => {
      const { hub, stop, sleeps, options } = await setup('dc');
      const key = issue('Остановка во время запроса');
      hub.enqueue({ id: 65, type: 'ensure_status', params: { key, path: ['Done'] } });
      const hanging = ((_url: unknown, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          const signal = init!.signal!;
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          setTimeout(() => stop.abort(), 5); // SIGTERM while Jira has not answered yet
        })) as typeof fetch;
      const jira = new JiraClient({ baseUrl: h.url, flavor: 'dc', auth: { kind: 'bearer', token: 'pat' }, stopSignal: stop.signal, sleep: async () => undefined, fetch: hanging });
      const journal = new MemoryJournal();
      const summary = await runAgent({ ...options, jira, journal });
      expect(summary).toEqual({ executed: 0, reported: 0, stoppedBy: 'signal' });
      expect(hub.reports).toEqual([]);
      expect(hub.claimedCommand?.id).toBe(65);
      expect(journal.pendingResults()).toEqual([]);
      expect(sleeps).toEqual([]); // no outage back-off either
    });
  });
});
