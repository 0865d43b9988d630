import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { requiredTransitionFields, TRANSITION_RECHECK_DELAYS_MS } from './commands/ensure-status.js';
import { executeCommand, isOutage } from './executors.js';
import type { JiraTransition } from './jira-api.js';
import { JiraClient, JiraHttpError, JiraNetworkError } from './jira-client.js';
import { MemoryJournal } from './journal.js';
import { API_PREFIX, FLAVORS, resultOf, startHarness, withoutChanges, type SimHarness } from './test-support.js';
import type { JiraFlavor } from './jira-client.js';

describe('executors', () => {
  let h: SimHarness;
  let nextId = 1;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.sim.stop();
  });

  beforeEach(() => {
    h.sim.clearRequests();
    h.sim.setSearchLagMs(0);
    h.sim.setRateLimit({ count: 0 });
  });

  const issue = (summary: string, extra: Record<string, unknown> = {}): string =>
    h.sim.store.createIssue('AURORA', { summary, issueType: 'Task', ...extra }, h.sim.store.seed.users[0]!.accountId).key;

  const run = async (flavor: JiraFlavor, type: string, params: Record<string, unknown>, journal = new MemoryJournal(), id = nextId++) =>
    withoutChanges(await executeCommand({ id, type, params }, { ...h.ctx(flavor, journal), customFields: [] }));

  const writes = () => h.sim.requests.filter((r) => r.method !== 'GET' && !r.path.includes('/search'));

  describe.each(FLAVORS)('executors on %s', (flavor) => {
    const api = API_PREFIX[flavor];

    /**
     * A client whose first POST to a path ending in `pathEnd` is answered `status` with `message` — after
     * Jira carried the request out (`carried`: the answer, not the request, was lost) or without it.
     */
    const failingFirstPost = (pathEnd: string, status: number, message: string, carried: boolean) => {
      let failed = false;
      const fetchFn = (async (...args: Parameters<typeof fetch>) => {
        if (!failed && args[1]?.method === 'POST' && new URL(String(args[0])).pathname.endsWith(pathEnd)) {
          failed = true;
          if (carried) await (await fetch(...args)).text();
          return new Response(JSON.stringify({ errorMessages: [message] }), { status });
        }
        return fetch(...args);
      }) as typeof fetch;
      const auth = flavor === 'cloud' ? ({ kind: 'basic', email: 'b@example.com', apiToken: 't' } as const) : ({ kind: 'bearer', token: 'pat' } as const);
      return new JiraClient({ baseUrl: h.url, flavor, auth, sleep: async () => undefined, fetch: fetchFn });
    };
    const body = (text: string) =>
      flavor === 'cloud' ? { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] } : text;

    describe('ensure_issue', () => {
      it('searches for an exact-summary duplicate, then creates', async () => {
        const summary = `Отчёт ${flavor} (квартал: 3)`;
        issue(`${summary} — черновик`); // a fuzzy match with another summary is not a duplicate
        const out = await run(flavor, 'ensure_issue', { temp_key: 'new:1', issue_type: 'Story', summary: ` ${summary} `, description: 'Текст' });
        expect(out).toEqual({ status: 'done', result: { key: expect.stringMatching(/^AURORA-\d+$/), created: true } });
        const search = h.sim.requests.find((r) => r.path.includes('/search'))!;
        expect(search.path).toBe(flavor === 'cloud' ? '/rest/api/3/search/jql' : '/rest/api/2/search');
        const phrase = (text: string) => `summary ~ "\\"${text} ${flavor} \\\\(квартал\\\\: 3\\\\)\\""`;
        expect((search.body as { jql: string }).jql).toBe(`project = "AURORA" AND (${phrase('Отчёт')} OR ${phrase('Отчёт'.normalize('NFD'))}) ORDER BY created ASC`);
        const create = writes()[0]!;
        expect(create.path).toBe(`${api}/issue`);
        expect(create.body).toEqual({ fields: { project: { key: 'AURORA' }, issuetype: { name: 'Story' }, summary, description: body('Текст') } });
        const key = resultOf<{ key: string }>(out).key;
        expect(h.sim.getIssue(key)).toMatchObject({ summary, issueType: 'Story', description: 'Текст' });

        const again = await run(flavor, 'ensure_issue', { temp_key: 'new:1', issue_type: 'Story', summary });
        expect(again).toEqual({ status: 'done', result: { key, created: false } });
        // The same summary in another Unicode spelling («ё» as «е» + U+0308) is the same issue, not a second one.
        const decomposed = summary.normalize('NFD');
        expect(decomposed).not.toBe(summary);
        expect(await run(flavor, 'ensure_issue', { temp_key: 'new:2', issue_type: 'Story', summary: decomposed })).toEqual({ status: 'done', result: { key, created: false } });
      });

      it('finds a duplicate Jira stores in the decomposed spelling (its search does not normalize), creates nothing', async () => {
        const summary = `Ёлка ${flavor} и отчёт`;
        const stored = issue(summary.normalize('NFD')); // made by an older agent or another client
        const out = await run(flavor, 'ensure_issue', { temp_key: 'new:3', issue_type: 'Task', summary });
        expect(out).toEqual({ status: 'done', result: { key: stored, created: false } });
        expect(writes()).toEqual([]);
        // A summary with one spelling only is searched as before: one phrase, no OR.
        h.sim.clearRequests();
        await run(flavor, 'ensure_issue', { temp_key: 'new:4', issue_type: 'Task', summary: `Plain ${flavor}` });
        const jql = (h.sim.requests.find((r) => r.path.includes('/search'))!.body as { jql: string }).jql;
        expect(jql).toBe(`project = "AURORA" AND summary ~ "\\"Plain ${flavor}\\"" ORDER BY created ASC`);
      });

      it('uses the journal when search has not indexed the issue yet (a re-delivery creates no duplicate)', async () => {
        h.sim.setSearchLagMs(60_000);
        const journal = new MemoryJournal();
        const params = { temp_key: 'new:5', issue_type: 'Task', summary: `Отчёт ${flavor} журнал` };
        const first = await run(flavor, 'ensure_issue', params, journal, 500);
        const before = h.sim.listIssues().length;
        const second = await run(flavor, 'ensure_issue', params, journal, 500);
        expect(second).toEqual(first);
        expect(h.sim.listIssues().length).toBe(before);
        expect(h.sim.listIssues().filter((i) => i.summary === params.summary)).toHaveLength(1);
        // Without the journal, the lagging search cannot see it: exactly what the journal is for.
        const blind = await run(flavor, 'ensure_issue', params, new MemoryJournal(), 501);
        expect(resultOf<{ key: string }>(blind).key).not.toBe(resultOf<{ key: string }>(first).key);
      });

      it('journals a create attempt before POST /issue and clears it with the key; without an attempt nothing waits', async () => {
        h.sim.setSearchLagMs(60_000);
        const summary = `Без попытки ${flavor}`;
        const existing = issue(summary); // someone else's, not indexed yet: invisible to the duplicate search
        const journal = new MemoryJournal();
        const sleeps: number[] = [];
        const lines: string[] = [];
        const ctx = { ...h.ctx(flavor, journal), log: (l: string) => lines.push(l), sleep: async (ms: number) => void sleeps.push(ms), createRecheckDelaysMs: [11, 13] };
        const out = await executeCommand({ id: 700, type: 'ensure_issue', params: { temp_key: 'new:7', issue_type: 'Task', summary } }, ctx);
        const key = resultOf<{ key: string; created: boolean }>(out);
        expect(key).toEqual({ key: expect.any(String), created: true });
        expect(key.key).not.toBe(existing); // unchanged behaviour: the lagging search cannot see it, created at once
        expect([sleeps, lines]).toEqual([[], []]);
        expect(journal.entries.map((e) => Object.keys(e).filter((k) => k !== 'command_id' && k !== 'at'))).toEqual([['create_attempt'], ['created_key', 'summary', 'project']]);
        expect([journal.createAttemptFor(700), journal.createdKeyFor(700)]).toEqual([undefined, key.key]);
      });

      it('with a create attempt and no key: searches again after each wait, creates only if still not found', async () => {
        h.sim.setSearchLagMs(60_000);
        const summary = `Попытка без ответа ${flavor}`;
        const journal = new MemoryJournal();
        journal.recordCreateAttempt(701, summary); // the POST never reached Jira
        const sleeps: number[] = [];
        const lines: string[] = [];
        const ctx = { ...h.ctx(flavor, journal), log: (l: string) => lines.push(l), sleep: async (ms: number) => void sleeps.push(ms), createRecheckDelaysMs: [11, 13] };
        h.sim.clearRequests();
        const out = await executeCommand({ id: 701, type: 'ensure_issue', params: { temp_key: 'new:8', issue_type: 'Task', summary } }, ctx);
        const key = resultOf<{ key: string }>(out).key;
        expect(resultOf(out)).toEqual({ key, created: true });
        expect(sleeps).toEqual([11, 13]);
        // bounded by the attempt, then the whole project, then bounded again after each wait
        const jqls = h.sim.requests.filter((r) => r.path.includes('/search')).map((r) => (r.body as { jql: string }).jql);
        expect(jqls.map((j) => /created >= "-[56]m" ORDER BY created DESC$/.test(j))).toEqual([true, false, true, true]);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^ensure_issue: the answer to POST \/issue sent at .* was lost .* up to 0 s before creating$/);
        expect(h.sim.listIssues().filter((i) => i.summary === summary)).toHaveLength(1);
        expect([journal.createAttemptFor(701), journal.createdKeyFor(701)]).toEqual([undefined, key]);
      });

      it('with a create attempt, searches newest first since the attempt (minus a margin): an older namesake is not taken as ours', async () => {
        const summary = `Свежая после попытки ${flavor}`;
        const old = h.sim.store.createIssue('AURORA', { summary, issueType: 'Task' }, 'x');
        old.createdAtMs -= 3 * 3_600_000; // someone else's, three hours old
        const journal = new MemoryJournal();
        journal.recordCreateAttempt(703, summary);
        const first = issue(summary);
        const second = issue(summary); // the newest exact match after the attempt
        h.sim.getIssue(first)!.createdAtMs -= 1000;
        h.sim.clearRequests();
        const out = await executeCommand({ id: 703, type: 'ensure_issue', params: { temp_key: 'new:9', issue_type: 'Task', summary } }, { ...h.ctx(flavor, journal), createRecheckDelaysMs: [] });
        expect(resultOf(out)).toEqual({ key: second, created: true });
        expect(first).not.toBe(second);
        const jql = (h.sim.requests.find((r) => r.path.includes('/search'))!.body as { jql: string }).jql;
        expect(jql).toMatch(/ AND created >= "-[56]m" ORDER BY created DESC$/);
        expect(writes()).toEqual([]);

        // without the attempt the oldest exact match is someone else's: created false
        expect(await run(flavor, 'ensure_issue', { temp_key: 'new:9', issue_type: 'Task', summary })).toEqual({ status: 'done', result: { key: old.key, created: false } });
      });

      it('a summary made only of JQL special characters still searches (escaped, the clause kept)', async () => {
        const summary = flavor === 'cloud' ? '+++ ???' : '[*] (!)';
        const existing = issue(summary);
        h.sim.clearRequests();
        expect(await run(flavor, 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary })).toEqual({ status: 'done', result: { key: existing, created: false } });
        const jql = (h.sim.requests.find((r) => r.path.includes('/search'))!.body as { jql: string }).jql;
        const escaped = [...summary].map((c) => (c === ' ' ? ' ' : `\\\\${c}`)).join('');
        expect(jql).toBe(`project = "AURORA" AND summary ~ "\\"${escaped}\\"" ORDER BY created ASC`);
        expect(writes()).toEqual([]);
      });

      it('with a create attempt, an issue the search finds is taken as the one created (created: true, key journaled)', async () => {
        const summary = `Найдена после потери ответа ${flavor}`;
        const existing = issue(summary);
        const journal = new MemoryJournal();
        journal.recordCreateAttempt(702, summary);
        const sleeps: number[] = [];
        const ctx = { ...h.ctx(flavor, journal), sleep: async (ms: number) => void sleeps.push(ms), createRecheckDelaysMs: [11] };
        const out = await executeCommand({ id: 702, type: 'ensure_issue', params: { temp_key: 'new:9', issue_type: 'Task', summary } }, ctx);
        expect(resultOf(out)).toEqual({ key: existing, created: true });
        expect(sleeps).toEqual([]);
        expect([journal.createAttemptFor(702), journal.createdKeyFor(702)]).toEqual([undefined, existing]);
      });

      /** A client whose first POST /issue is answered 502 — after Jira created the issue (`created`) or without it. */
      const failingCreate = (created: boolean) => failingFirstPost('/issue', 502, 'Bad Gateway', created);

      it('a 502 to POST /issue after Jira created it: searches again and reports the issue found, no duplicate', async () => {
        const summary = `502 после создания ${flavor}`;
        const journal = new MemoryJournal();
        const sleeps: number[] = [];
        const ctx = { ...h.ctx(flavor, journal), client: failingCreate(true), sleep: async (ms: number) => void sleeps.push(ms), createRecheckDelaysMs: [11, 13] };
        const out = await executeCommand({ id: 704, type: 'ensure_issue', params: { temp_key: 'new:11', issue_type: 'Task', summary } }, ctx);
        const created = h.sim.listIssues().filter((i) => i.summary === summary);
        expect(created).toHaveLength(1);
        expect(resultOf(out)).toEqual({ key: created[0]!.key, created: true });
        expect(sleeps).toEqual([11]);
        expect([journal.createAttemptFor(704), journal.createdKeyFor(704)]).toEqual([undefined, created[0]!.key]);
      });

      it('a 502 to POST /issue and the issue never shows: an outage to retry (not failed), the attempt kept', async () => {
        const summary = `502 без создания ${flavor}`;
        const journal = new MemoryJournal();
        const ctx = { ...h.ctx(flavor, journal), client: failingCreate(false), sleep: async () => undefined, createRecheckDelaysMs: [11] };
        const out = await executeCommand({ id: 705, type: 'ensure_issue', params: { temp_key: 'new:12', issue_type: 'Task', summary } }, ctx);
        expect(out).toEqual({ status: 'failed', error: `Jira: внутренняя ошибка Jira — повторите команду позже; если ошибка повторяется, её причину знает администратор Jira (HTTP 502: Bad Gateway)`, outage: true });
        expect(journal.createAttemptFor(705)).toMatchObject({ summary });
        // The retry the loop makes creates it (once).
        const again = await executeCommand({ id: 705, type: 'ensure_issue', params: { temp_key: 'new:12', issue_type: 'Task', summary } }, ctx);
        expect(resultOf(again)).toEqual({ key: expect.any(String), created: true });
        expect(h.sim.listIssues().filter((i) => i.summary === summary)).toHaveLength(1);
      });

      it('a stop signal during the re-search wait: nothing created, the outcome is marked stopped', async () => {
        h.sim.setSearchLagMs(60_000);
        const summary = `Остановка ${flavor}`;
        const journal = new MemoryJournal();
        journal.recordCreateAttempt(703, summary);
        const stop = new AbortController();
        const ctx = { ...h.ctx(flavor, journal), stopSignal: stop.signal, sleep: async () => stop.abort(), createRecheckDelaysMs: [11, 13] };
        const out = await executeCommand({ id: 703, type: 'ensure_issue', params: { temp_key: 'new:10', issue_type: 'Task', summary } }, ctx);
        expect(out).toEqual({ status: 'failed', error: expect.any(String), stopped: true });
        expect(h.sim.listIssues().filter((i) => i.summary === summary)).toHaveLength(0);
        expect(journal.createAttemptFor(703)).toBeDefined();
      });

      it('passes parent (DC: an epic through the Epic Link field) and extra fields', async () => {
        const parent = issue('Эпик', { issueType: 'Epic' });
        const out = await run(flavor, 'ensure_issue', { temp_key: 'new:2', issue_type: 'Task', summary: `Дочерняя ${flavor}`, parent, fields: { duedate: '2026-10-13', labels: ['a', 'b'], 'Story Points': 3 } });
        const key = resultOf<{ key: string }>(out).key;
        expect(h.sim.getIssue(key)).toMatchObject({ parent, duedate: '2026-10-13', labels: ['a', 'b'], custom: { customfield_10016: 3 } });
        const create = writes().find((r) => r.method === 'POST' && r.path === `${api}/issue`)!;
        const sentFields = (create.body as { fields: Record<string, unknown> }).fields;
        if (flavor === 'cloud') expect(sentFields.parent).toEqual({ key: parent });
        else expect([sentFields.parent, sentFields.customfield_10014]).toEqual([undefined, parent]);
        // a sub-task goes through `parent` on both flavors
        const sub = resultOf<{ key: string }>(await run(flavor, 'ensure_issue', { temp_key: 'new:3', issue_type: 'Sub-task', summary: `Подзадача ${flavor}`, parent: key }));
        expect(h.sim.getIssue(sub.key)).toMatchObject({ parent: key, issueType: 'Sub-task' });
        // refresh reads both into `parent`
        const read = resultOf<{ issues: Array<{ key: string; fields: { parent: string | null } }> }>(await run(flavor, 'refresh', { keys: [key, sub.key] }));
        expect(read.issues.map((i) => [i.key, i.fields.parent])).toEqual([[key, parent], [sub.key, key]]);
      });

      it('the simulator refuses `parent` for a non-sub-task on DC, as Data Center does', async () => {
        const epic = issue('Эпик DC', { issueType: 'Epic' });
        const refused = await h.client('dc').api('POST', '/issue', { body: { fields: { project: { key: 'AURORA' }, issuetype: { name: 'Story' }, summary: 'x', parent: { key: epic } } } }).catch((e: unknown) => e);
        expect((refused as JiraHttpError).status).toBe(400);
        expect((refused as JiraHttpError).jiraMessage).toContain("Field 'parent' cannot be set");
      });
    });

    describe('ensure_fields', () => {
      it('sends only the fields that differ', async () => {
        const key = issue('Поля', { labels: ['x', 'y'], duedate: '2026-01-01', priority: 'Medium' });
        const assignee = flavor === 'cloud' ? h.sim.store.seed.users[1]!.accountId : h.sim.store.seed.users[1]!.name;
        const params = { key, summary: 'Поля', labels: ['y', 'x'], duedate: '2026-02-01', priority: 'High', assignee, description: 'Новое', 'Story Points': 5 };
        const out = await run(flavor, 'ensure_fields', params);
        expect(out).toEqual({ status: 'done', result: { changed: ['duedate', 'priority', 'assignee', 'description', 'Story Points'] } });
        expect(writes().map((r) => [r.method, r.path])).toEqual([['PUT', `${api}/issue/${key}`]]);
        expect(writes()[0]!.body).toEqual({
          fields: {
            duedate: '2026-02-01',
            priority: { name: 'High' },
            assignee: flavor === 'cloud' ? { accountId: assignee } : { name: assignee },
            description: body('Новое'),
            customfield_10016: 5,
          },
        });
        expect(h.sim.getIssue(key)).toMatchObject({ duedate: '2026-02-01', priority: 'High', assignee: h.sim.store.seed.users[1]!.accountId, description: 'Новое' });

        h.sim.clearRequests();
        expect(await run(flavor, 'ensure_fields', params)).toEqual({ status: 'done', result: { changed: [] } });
        expect(writes()).toEqual([]);
      });

      it('clears with null and reports Jira\'s refusal', async () => {
        const key = issue('Очистка', { duedate: '2026-01-01', labels: ['a'] });
        expect(await run(flavor, 'ensure_fields', { key, duedate: null, labels: null })).toEqual({ status: 'done', result: { changed: ['duedate', 'labels'] } });
        expect(h.sim.getIssue(key)).toMatchObject({ duedate: null, labels: [] });
        expect(await run(flavor, 'ensure_fields', { key, labels: ['с пробелом'] })).toEqual({ status: 'failed', error: `Jira: не приняла значения (метки) для задачи ${key} — исправьте их в команде или в пакете и повторите (HTTP 400: labels: The label must not contain spaces.)` });
        expect(await run(flavor, 'ensure_fields', { key: 'AURORA-9999', summary: 'x' })).toEqual({
          status: 'failed',
          error:
            'Jira: задачи AURORA-9999 нет или у агента нет прав её видеть — возможно, её удалили или перенесли в другой проект; обновите её в зеркале ' +
            '(HTTP 404: Issue does not exist or you do not have permission to see it.)',
          missing_keys: ['AURORA-9999'],
        });
      });
    });

    describe('an issue deleted in Jira after it was mirrored', () => {
      it.each([
        ['ensure_fields', (key: string) => ({ key, summary: 'x' })],
        ['ensure_status', (key: string) => ({ key, path: ['Done'] })],
        ['ensure_comment', (key: string) => ({ key, body: 'x' })],
        ['ensure_link', (key: string) => ({ source: key, target: issue('L-другая'), link_type: 'Blocks' })],
      ] as const)('%s says in Russian the issue is gone and to refresh it, then Jira\'s words; the report names it in missing_keys', async (type, params) => {
        const key = issue(`Удалённая ${type}`);
        h.sim.store.deleteIssue(key, false); // someone deleted it in Jira
        expect(await run(flavor, type, params(key))).toEqual({
          status: 'failed',
          error: `Jira: задачи ${key} нет или у агента нет прав её видеть — возможно, её удалили или перенесли в другой проект; обновите её в зеркале (HTTP 404: Issue does not exist or you do not have permission to see it.)`,
          missing_keys: [key],
        });
      });

      it('a link to a deleted target: Jira\'s 404 to the link does not say which end is gone, so no missing_keys', async () => {
        const source = issue('Источник связи');
        const target = issue('Удалённая цель');
        h.sim.store.deleteIssue(target, false);
        const out = await run(flavor, 'ensure_link', { source, target, link_type: 'Blocks' });
        expect(out).toMatchObject({ status: 'failed', error: expect.stringContaining('HTTP 404') });
        expect(out).not.toHaveProperty('missing_keys');
      });
    });

    describe('ensure_status', () => {
      it('walks the path, re-reading transitions at each step', async () => {
        const key = issue('Статус');
        const out = await run(flavor, 'ensure_status', { key, path: ['In Progress', 'Done'] });
        expect(out).toEqual({ status: 'done', result: { from: 'To Do', to: 'Done' } });
        expect(h.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `GET ${api}/issue/${key}`,
          `GET ${api}/issue/${key}/transitions`,
          `POST ${api}/issue/${key}/transitions`,
          `GET ${api}/issue/${key}/transitions`,
          `POST ${api}/issue/${key}/transitions`,
        ]);
        expect(h.sim.requests[2]!.body).toEqual({ transition: { id: '11' } });
        // Done's screen requires Resolution (as real workflows do): the agent fills it from the values offered
        expect(h.sim.requests[3]!.query).toEqual({ expand: 'transitions.fields' });
        expect(h.sim.requests[4]!.body).toEqual({ transition: { id: '21' }, fields: { resolution: { name: 'Done' } } });
        expect(h.sim.getIssue(key)!.custom.resolution).toBe('Done');
        h.sim.clearRequests();
        expect(await run(flavor, 'ensure_status', { key, path: ['In Progress', 'Done'] })).toEqual({ status: 'done', result: { from: 'Done', to: 'Done' } });
        expect(writes()).toEqual([]);
      });

      it('matches a transition by its name too, and continues from a status inside the path', async () => {
        const key = issue('Имя перехода', {});
        h.sim.store.transition(key, '11');
        expect(await run(flavor, 'ensure_status', { key, path: ['In Progress', 'Finish'] })).toEqual({ status: 'done', result: { from: 'In Progress', to: 'Done' } });
      });

      /** A client whose first POST of a transition is answered 500 — after Jira carried it out (`taken`) or without it. */
      const failingTransition = (taken: boolean) => failingFirstPost('/transitions', 500, 'Internal server error', taken);

      it('a 500 to a transition Jira carried out: the status shows it taken, the walk goes on and its record keeps it', async () => {
        const key = issue('500 после перехода');
        const lines: string[] = [];
        const ctx = { ...h.ctx(flavor, new MemoryJournal()), client: failingTransition(true), log: (l: string) => lines.push(l) };
        const out = await executeCommand({ id: 720, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } }, ctx);
        expect(out).toEqual({ status: 'done', result: { from: 'To Do', to: 'Done' }, changes: [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }] });
        expect(h.sim.getIssue(key)!.status).toBe('Done');
        expect(lines).toEqual([`transition «Start» of ${key} answered HTTP 500, but the issue is in «In Progress»: taken`]);
      });

      it('a 500 to a transition Jira did not carry out: the status is looked at again after each wait, then Jira\'s error stands', async () => {
        const key = issue('500 без перехода');
        h.sim.store.transition(key, '11');
        const sleeps: number[] = [];
        const ctx = { ...h.ctx(flavor, new MemoryJournal()), client: failingTransition(false), sleep: async (ms: number) => void sleeps.push(ms) };
        const out = await executeCommand({ id: 721, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } }, ctx);
        expect(out).toEqual({ status: 'failed', error: `Jira: внутренняя ошибка Jira для задачи ${key} — повторите команду позже; если ошибка повторяется, её причину знает администратор Jira (HTTP 500: Internal server error)` });
        expect(sleeps).toEqual(TRANSITION_RECHECK_DELAYS_MS);
        expect(h.sim.getIssue(key)!.status).toBe('In Progress');
      });

      it('a 500 to a transition Jira finishes a moment later (a gateway gave up first): taken at the next look', async () => {
        const key = issue('504 и поздний переход');
        const sleeps: number[] = [];
        const sleep = async (ms: number) => {
          sleeps.push(ms);
          if (h.sim.getIssue(key)!.status === 'To Do') h.sim.store.transition(key, '11'); // Jira completes the move meanwhile
        };
        const ctx = { ...h.ctx(flavor, new MemoryJournal()), client: failingTransition(false), sleep };
        const out = await executeCommand({ id: 722, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } }, ctx);
        expect(out).toEqual({ status: 'done', result: { from: 'To Do', to: 'Done' }, changes: [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }] });
        expect(sleeps).toEqual([TRANSITION_RECHECK_DELAYS_MS[0]]);
      });

      it('fails with a clear error when a step is unavailable, telling the hub what Jira offered there (decision 1485)', async () => {
        const key = issue('Недоступно');
        const out = await run(flavor, 'ensure_status', { key, path: ['Done'] });
        expect(out).toEqual({
          status: 'failed',
          error: 'переход в статус «Done» недоступен из «To Do» (доступные переходы: «Start» → «In Progress»)',
          transitions_seen: { key, issue_type: 'Task', status: 'To Do', transitions: [{ id: '11', name: 'Start', to: 'In Progress', required_fields: [] }] },
        });
        expect(h.sim.getIssue(key)?.status).toBe('To Do');
      });

      it('a walk stopped partway tells the transitions of the status it stopped in, with the walk so far', async () => {
        const key = issue('Недоступно после шага');
        const out = await run(flavor, 'ensure_status', { key, path: ['In Progress', 'Rejected'] });
        expect(out).toMatchObject({
          status: 'failed',
          changes: [{ key, what: 'status', before: 'To Do', after: 'In Progress', transitions: ['Start'] }],
          transitions_seen: {
            key,
            issue_type: 'Task',
            status: 'In Progress',
            transitions: [
              { id: '21', name: 'Finish', to: 'Done', required_fields: ['resolution'] },
              { id: '41', name: 'Stop', to: 'To Do', required_fields: [] },
            ],
          },
        });
      });
    });

    describe('ensure_link', () => {
      it('creates "source blocks target" with inwardIssue = source, once', async () => {
        const a = issue('Блокирующая');
        const b = issue('Заблокированная');
        expect(await run(flavor, 'ensure_link', { source: a, target: b, link_type: 'Blocks' })).toEqual({ status: 'done', result: { created: true } });
        expect(writes().map((r) => [r.path, r.body])).toEqual([[`${api}/issueLink`, { type: { name: 'Blocks' }, inwardIssue: { key: a }, outwardIssue: { key: b } }]]);
        expect(h.sim.links()).toContainEqual({ source: a, target: b, type: 'Blocks' });
        h.sim.clearRequests();
        expect(await run(flavor, 'ensure_link', { source: a, target: b, link_type: 'Blocks' })).toEqual({ status: 'done', result: { created: false } });
        expect(writes()).toEqual([]);
        // The reverse of a directional link contradicts it: failed, nothing written.
        expect(await run(flavor, 'ensure_link', { source: b, target: a, link_type: 'Blocks' })).toEqual({
          status: 'failed',
          error: `в Jira уже есть обратная связь: ${a} blocks ${b} (тип «Blocks»); связь ${b} blocks ${a} ей противоречит`,
        });
        expect(writes()).toEqual([]);
        expect(h.sim.links().filter((l) => l.source === b && l.target === a)).toEqual([]);
      });

      it('for a symmetric type (inward = outward) a link either way counts as existing', async () => {
        const a = issue('Связанная 1');
        const b = issue('Связанная 2');
        expect(await run(flavor, 'ensure_link', { source: a, target: b, link_type: 'relates' })).toEqual({ status: 'done', result: { created: true } });
        h.sim.clearRequests();
        expect(await run(flavor, 'ensure_link', { source: b, target: a, link_type: 'Relates' })).toEqual({ status: 'done', result: { created: false } });
        expect(writes()).toEqual([]);
        expect(h.sim.links().filter((l) => l.type === 'Relates' && [a, b].includes(l.source))).toEqual([{ source: a, target: b, type: 'Relates' }]);
      });

      it('reports an unknown link type as Jira says it', async () => {
        const a = issue('L1');
        const b = issue('L2');
        expect(await run(flavor, 'ensure_link', { source: a, target: b, link_type: 'Depends' })).toEqual({
          status: 'failed',
          error: `Jira: не нашла то, о чём запрос (${a} → ${b}), или у агента нет прав это видеть — проверьте, что оно есть в Jira (HTTP 404: No issue link type with name 'Depends' found.)`,
        });
      });
    });

    describe('ensure_sprint', () => {
      it('moves the issue to the sprint found by name with the Agile API', async () => {
        const key = issue('В спринт');
        expect(await run(flavor, 'ensure_sprint', { key, sprint: 'Спринт 2' })).toEqual({ status: 'done', result: { sprint_id: 2 } });
        expect(writes().map((r) => [r.path, r.body])).toEqual([['/rest/agile/1.0/sprint/2/issue', { issues: [key] }]]);
        expect(h.sim.sprintsOf(key)).toEqual(['Спринт 2']);
      });

      it('fails a sub-task clearly before any write (Jira moves it only with its parent)', async () => {
        const parent = issue('Родитель');
        const sub = h.sim.store.createIssue('AURORA', { summary: 'Подзадача', issueType: 'Sub-task', parent }, 'x').key;
        expect(await run(flavor, 'ensure_sprint', { key: sub, sprint: 'Спринт 2' })).toEqual({
          status: 'failed',
          error: `${sub} — подзадача («Sub-task»): Jira не переносит подзадачи в спринт отдельно, они идут в спринт вместе с родительской задачей ${parent}`,
        });
        expect(writes()).toEqual([]);
        // the simulator refuses it too, as Jira does
        const refused = await h.client(flavor).agile('POST', '/sprint/2/issue', { body: { issues: [sub] } }).catch((e: unknown) => e);
        expect((refused as JiraHttpError).status).toBe(400);
      });

      it('fails when the sprint is missing', async () => {
        const key = issue('Без спринта');
        expect(await run(flavor, 'ensure_sprint', { key, sprint: 'Спринт 9' })).toEqual({
          status: 'failed',
          error: 'спринт «Спринт 9» не найден среди активных и будущих спринтов досок проекта AURORA',
        });
      });
    });

    describe('a 500 to a comment or a link Jira made before the answer failed', () => {
      it('ensure_comment reads the comments again: its comment is there, so it is done and recorded', async () => {
        const key = issue('500 после комментария');
        const ctx = { ...h.ctx(flavor, new MemoryJournal()), client: failingFirstPost('/comment', 500, 'Internal server error', true), customFields: [] };
        const out = await executeCommand({ id: 730, type: 'ensure_comment', params: { key, body: 'Принято', marker: '[hub:500]' } }, ctx);
        expect(out).toMatchObject({ status: 'done', result: { created: true }, changes: [{ key, what: 'comment', after: { id: expect.any(String) } }] });
        expect(h.sim.comments(key)).toHaveLength(1);
      });

      it('ensure_comment whose comment is not there: Jira\'s error stands, nothing added twice', async () => {
        const key = issue('500 без комментария');
        const ctx = { ...h.ctx(flavor, new MemoryJournal()), client: failingFirstPost('/comment', 500, 'Internal server error', false), customFields: [] };
        const out = await executeCommand({ id: 731, type: 'ensure_comment', params: { key, body: 'Принято', marker: '[hub:501]' } }, ctx);
        expect(out).toEqual({ status: 'failed', error: `Jira: внутренняя ошибка Jira для задачи ${key} — повторите команду позже; если ошибка повторяется, её причину знает администратор Jira (HTTP 500: Internal server error)` });
        expect(h.sim.comments(key)).toHaveLength(0);
      });

      it('ensure_link reads the issue\'s links again: its link is there, so it is done and recorded', async () => {
        const [a, b] = [issue('500 связь A'), issue('500 связь B')];
        const ctx = { ...h.ctx(flavor, new MemoryJournal()), client: failingFirstPost('/issueLink', 502, 'Bad gateway', true), customFields: [] };
        const out = await executeCommand({ id: 732, type: 'ensure_link', params: { source: a, target: b, link_type: 'Blocks' } }, ctx);
        expect(out).toMatchObject({ status: 'done', result: { created: true }, changes: [{ key: a, what: 'link', after: { source: a, target: b, link_type: 'Blocks' } }] });
      });
    });

    describe('ensure_comment after an earlier delivery sent it and heard nothing back (a Jira slower than the timeout)', () => {
      const sent = (key: string, id: number) => {
        const cmd = { id, type: 'ensure_comment', params: { key, body: 'Медленно', marker: `[hub:slow${id}]` } };
        const journal = new MemoryJournal();
        journal.recordIntent(cmd.id, cmd, [{ key, what: 'comment', after: { body: `Медленно\n[hub:slow${id}]` } }]);
        return { cmd, journal };
      };

      it('looks again before adding a second one: the comment arriving late is that delivery\'s, recorded once', async () => {
        const key = issue('Медленный комментарий');
        const { cmd, journal } = sent(key, 741);
        const sleeps: number[] = [];
        // Jira finishes the first delivery's comment during the second wait.
        const sleep = async (ms: number) => {
          sleeps.push(ms);
          if (sleeps.length === 2) h.sim.store.addComment(key, `Медленно\n[hub:slow741]`, 'agent');
        };
        const out = await executeCommand(cmd, { ...h.ctx(flavor, journal), customFields: [], sleep, createRecheckDelaysMs: [5, 10, 20] });
        expect(out).toMatchObject({ status: 'done', result: { created: true }, changes: [{ key, what: 'comment' }] });
        expect(sleeps).toEqual([5, 10]);
        expect(h.sim.comments(key)).toHaveLength(1);
      });

      it('adds it once the waits are over and it is still not there', async () => {
        const key = issue('Потерянный комментарий');
        const { cmd, journal } = sent(key, 742);
        const sleeps: number[] = [];
        const out = await executeCommand(cmd, { ...h.ctx(flavor, journal), customFields: [], sleep: async (ms: number) => void sleeps.push(ms), createRecheckDelaysMs: [5, 10] });
        expect(out).toMatchObject({ status: 'done', result: { created: true } });
        expect(sleeps).toEqual([5, 10]);
        expect(h.sim.comments(key)).toHaveLength(1);
      });
    });

    describe('ensure_comment', () => {
      it('adds the comment unless one contains the marker', async () => {
        const key = issue('Комментарии');
        expect(await run(flavor, 'ensure_comment', { key, body: 'Готово к проверке', marker: '[hub:c1]' })).toEqual({ status: 'done', result: { created: true } });
        expect(writes()[0]!.body).toEqual({ body: flavor === 'cloud' ? {
          type: 'doc', version: 1,
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Готово к проверке' }] }, { type: 'paragraph', content: [{ type: 'text', text: '[hub:c1]' }] }],
        } : 'Готово к проверке\n\\[hub:c1\\]' }); // DC: escaped, so the wiki markup does not render the marker as a link
        expect(await run(flavor, 'ensure_comment', { key, body: 'Другой текст', marker: '[hub:c1]' })).toEqual({ status: 'done', result: { created: false } });
        expect(h.sim.comments(key).map((c) => c.body)).toEqual([flavor === 'cloud' ? 'Готово к проверке\n[hub:c1]' : 'Готово к проверке\n\\[hub:c1\\]']);
      });

      it('compares markers and bodies after normalising line ends and spaces', async () => {
        const key = issue('Нормализация');
        h.sim.store.addComment(key, 'Отчёт  готов\r\n  [hub:c 2]  ', 'x'); // edited by hand in Jira: CR LF, doubled spaces
        expect(await run(flavor, 'ensure_comment', { key, body: 'Другое', marker: '[hub:c  2]' })).toEqual({ status: 'done', result: { created: false } });
        expect(await run(flavor, 'ensure_comment', { key, body: 'Отчёт готов\n[hub:c 2]' })).toEqual({ status: 'done', result: { created: false } });
        expect(h.sim.comments(key)).toHaveLength(1);
      });

      it('without a marker, an identical comment counts as present', async () => {
        const key = issue('Без маркера');
        await run(flavor, 'ensure_comment', { key, body: 'Привет' });
        expect(await run(flavor, 'ensure_comment', { key, body: 'Привет' })).toEqual({ status: 'done', result: { created: false } });
        expect(h.sim.comments(key)).toHaveLength(1);
      });
    });

    it('reports a 429 storm that outlasts the 30 min budget as HTTP 429 with the key and the counts', async () => {
      const key = issue('Шторм');
      const ctx = h.ctx(flavor);
      h.sim.setRateLimit({ count: 100, retryAfterSeconds: 300 });
      const out = await executeCommand({ id: nextId++, type: 'ensure_comment', params: { key, body: 'x' } }, ctx);
      expect(out).toEqual({ status: 'failed', error: 'Jira: ограничивает частоту запросов; агент ждал 30 мин, сколько ему позволено — повторите команду позже (HTTP 429: Rate limit exceeded.)' });
      expect(ctx.client.stats()).toEqual({ jiraCalls: 7, rateLimited: 7 }); // six waits of 5 min, then the budget is spent
      h.sim.setRateLimit({ count: 2, retryAfterSeconds: 0 });
      expect(await run(flavor, 'ensure_comment', { key, body: 'x' })).toEqual({ status: 'done', result: { created: true } });
    });
  });

  describe('ensure_issue page cap', () => {
    it.each(FLAVORS)('on %s fails clearly instead of creating when the duplicate search reaches its page cap undecided', async (flavor) => {
      const small = await startHarness({ maxPageSize: 1 });
      try {
        for (let i = 1; i <= 21; i++) small.sim.store.createIssue('AURORA', { summary: `Похожая задача ${i}`, issueType: 'Task' }, 'x');
        const out = await executeCommand({ id: 1, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Похожая задача' } }, small.ctx(flavor));
        expect(out).toEqual({
          status: 'failed',
          error:
            'поиск дубликата не завершён: просмотрено 20 задач проекта AURORA с похожим названием, точного совпадения среди них нет, а Jira нашла больше; ' +
            'задача не создана, чтобы не завести дубликат — уточните название или создайте задачу вручную',
        });
        expect(small.sim.requests.filter((r) => r.path.includes('/search'))).toHaveLength(20);
        expect(small.sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/issue'))).toEqual([]);
      } finally {
        await small.sim.stop();
      }
    });
  });

  describe('ensure_sprint ambiguity', () => {
    it('fails when two boards of the project have sprints of that name; kanban boards are skipped, simple ones searched', async () => {
      const other = await startHarness({
        seed: {
          boards: [
            { id: 1, name: 'A', type: 'scrum', projectKey: 'AURORA' },
            { id: 2, name: 'B', type: 'scrum', projectKey: 'AURORA' },
            { id: 3, name: 'K', type: 'kanban', projectKey: 'AURORA' },
            { id: 4, name: 'Team-managed', type: 'simple', projectKey: 'AURORA' },
          ],
          sprints: [
            { id: 1, name: 'Спринт 1', state: 'active', boardId: 1 },
            { id: 2, name: 'Спринт 2', state: 'future', boardId: 1 },
            { id: 7, name: 'Спринт 2', state: 'future', boardId: 2 },
            { id: 8, name: 'Спринт 3', state: 'closed', boardId: 2 },
            { id: 9, name: 'Спринт команды', state: 'active', boardId: 4 },
          ],
        },
      });
      try {
        const key = other.sim.store.createIssue('AURORA', { summary: 'x', issueType: 'Task' }, 'x').key;
        for (const flavor of FLAVORS) {
          expect(await executeCommand({ id: 1, type: 'ensure_sprint', params: { key, sprint: 'Спринт 2' } }, other.ctx(flavor))).toEqual({
            status: 'failed',
            error: 'спринт «Спринт 2» неоднозначен: в проекте AURORA несколько таких спринтов — «A»: «Спринт 2» (id 2), «B»: «Спринт 2» (id 7); укажите доску в параметре board',
          });
          expect(await executeCommand({ id: 2, type: 'ensure_sprint', params: { key, sprint: 'Спринт 3' } }, other.ctx(flavor))).toEqual({
            status: 'failed',
            error: 'спринт «Спринт 3» закрыт («B»: «Спринт 3» (id 8)): Jira не переносит задачи в закрытый спринт',
          });
          // `board` by name or id picks among sprints that share a name
          expect(withoutChanges(await executeCommand({ id: 5, type: 'ensure_sprint', params: { key, sprint: 'Спринт 2', board: 'b' } }, other.ctx(flavor)))).toEqual({
            status: 'done',
            result: { sprint_id: 7 },
          });
          // From «Спринт 2» of board B to «Спринт 2» of board A: another sprint of the same name is a change, recorded by ids and boards (decision 1430)
          expect(await executeCommand({ id: 6, type: 'ensure_sprint', params: { key, sprint: 'Спринт 2', board: 1 } }, other.ctx(flavor))).toEqual({
            status: 'done',
            result: { sprint_id: 2 },
            changes: [{ key, what: 'sprint', before: { id: 7, name: 'Спринт 2', board_id: 2 }, after: { id: 2, name: 'Спринт 2', board_id: 1 } }],
          });
          expect(other.sim.sprintsOf(key)).toEqual(['Спринт 2']);
          // The sprint it is in already: nothing changes
          expect(await executeCommand({ id: 9, type: 'ensure_sprint', params: { key, sprint: 'Спринт 2', board: 'A' } }, other.ctx(flavor))).toEqual({ status: 'done', result: { sprint_id: 2 } });
          expect(await executeCommand({ id: 7, type: 'ensure_sprint', params: { key, sprint: 'Спринт 2', board: 'Нет такой' } }, other.ctx(flavor))).toEqual({
            status: 'failed',
            error: 'доска «Нет такой» не найдена среди досок проекта AURORA со спринтами: «A» (id 1), «B» (id 2), «Team-managed» (id 4)',
          });
          expect(await executeCommand({ id: 8, type: 'ensure_sprint', params: { key, sprint: 'Спринт 1', board: 'B' } }, other.ctx(flavor))).toEqual({
            status: 'failed',
            error: 'спринт «Спринт 1» не найден среди активных и будущих спринтов доски «B»',
          });
          expect(withoutChanges(await executeCommand({ id: 3, type: 'ensure_sprint', params: { key, sprint: 'Спринт 1' } }, other.ctx(flavor)))).toEqual({ status: 'done', result: { sprint_id: 1 } });
          expect(withoutChanges(await executeCommand({ id: 4, type: 'ensure_sprint', params: { key, sprint: 'Спринт команды' } }, other.ctx(flavor)))).toEqual({ status: 'done', result: { sprint_id: 9 } });
          expect(other.sim.sprintsOf(key)).toEqual(['Спринт команды']);
        }
        // The kanban board is not asked for sprints at all (it would answer 400); scrum and simple ones are.
        const sprintReads = other.sim.requests.filter((r) => /^\/rest\/agile\/1\.0\/board\/\d+\/sprint$/.test(r.path)).map((r) => r.path);
        expect(sprintReads.length).toBeGreaterThan(0);
        expect(sprintReads.filter((p) => p.includes('/board/3/'))).toEqual([]);
        expect(new Set(sprintReads)).toEqual(new Set([1, 2, 4].map((id) => `/rest/agile/1.0/board/${id}/sprint`)));
      } finally {
        await other.sim.stop();
      }
    });
  });

  describe('requiredTransitionFields', () => {
    const transition = (fields: JiraTransition['fields']): JiraTransition => ({ id: '5', name: 'Закрыть', to: { name: 'Done' }, fields });

    it('fills a required resolution (Done, Fixed, else the first offered) and skips optional or defaulted fields', () => {
      expect(requiredTransitionFields(transition(undefined))).toEqual({});
      expect(requiredTransitionFields(transition({ resolution: { required: true, allowedValues: [{ id: '3', name: "Won't Fix" }, { id: '1', name: 'Fixed' }] } }))).toEqual({ resolution: { name: 'Fixed' } });
      expect(requiredTransitionFields(transition({ resolution: { required: true, allowedValues: [{ id: '7' }] } }))).toEqual({ resolution: { id: '7' } });
      expect(requiredTransitionFields(transition({ comment: { required: false }, assignee: { required: true, hasDefaultValue: true } }))).toEqual({});
    });

    it('fails clearly, naming the field, when the screen requires anything else', () => {
      expect(() => requiredTransitionFields(transition({ customfield_10100: { required: true, name: 'Причина' } }))).toThrow(
        'переход «Закрыть» требует заполнить поле «Причина» (customfield_10100); агент заполняет только резолюцию — уберите поле с экрана перехода или сделайте переход вручную',
      );
    });
  });

  describe('executeCommand', () => {
    it('fails unknown types and bad params with Russian reasons', async () => {
      expect(await run('cloud', 'ensure_magic', {})).toEqual({ status: 'failed', error: 'неизвестный тип команды «ensure_magic»' });
      expect(await run('cloud', 'ensure_status', { key: 'AURORA-1', path: [] })).toEqual({ status: 'failed', error: 'неверный параметр «path»: ожидается непустой список строк' });
    });
  });

  describe('outage classification', () => {
    it('a network failure or 401 is Jira\'s outage (not the command\'s failure: retried or released); other refusals are the command\'s', () => {
      expect(isOutage(new JiraNetworkError('Jira недоступна'))).toBe(true);
      expect(isOutage(new JiraHttpError(401, 'Unauthorized'))).toBe(true);
      for (const status of [400, 403, 404, 429, 500, 502]) expect(isOutage(new JiraHttpError(status, 'x'))).toBe(false);
      expect(isOutage(new Error('boom'))).toBe(false);
    });
  });
});
