/** The change record (SPEC 17.1): what each executor reports it changed, as the mirror holds the values; and the commands of a revert. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { settledWalk } from './commands/ensure-status.js';
import { executeCommand } from './executors.js';
import { MemoryJournal } from './journal.js';
import type { JiraFlavor } from './jira-client.js';
import { FLAVORS, startHarness, until, type SimHarness } from './test-support.js';
import type { CommandOutcome } from './types.js';

describe('changes', () => {
  let h: SimHarness;
  let nextId = 1;

  beforeAll(async () => {
    h = await startHarness({ seed: { deniedPermissions: [] } });
  });
  afterAll(async () => {
    await h.sim.stop();
  });
  beforeEach(() => h.sim.clearRequests());

  const IVANOV = '557058:f0000000-0000-0000-0000-000000000002';
  const issue = (summary: string, extra: Record<string, unknown> = {}): string =>
    h.sim.store.createIssue('AURORA', { summary, issueType: 'Task', ...extra }, h.sim.store.seed.users[0]!.accountId).key;
  const run = (flavor: JiraFlavor, type: string, params: Record<string, unknown>) => executeCommand({ id: nextId++, type, params }, { ...h.ctx(flavor), customFields: ['Team'] });
  const changesOf = (out: CommandOutcome) => (out.status === 'done' ? (out.changes ?? []) : `failed: ${out.error}`);
  const writes = () => h.sim.requests.filter((r) => r.method !== 'GET' && !r.path.includes('/search'));

  describe.each(FLAVORS)('change records on %s', (flavor) => {
    const user = flavor === 'cloud' ? IVANOV : 'ivanov';

    it('ensure_fields: each field set, before and after as the mirror holds them; nothing when nothing differs', async () => {
      const key = issue(`Поля ${flavor}`, { labels: ['a'], duedate: '2026-01-01' });
      const params = { key, duedate: '2026-02-01', labels: ['a', 'b'], assignee: user, Team: 'Core', priority: 'Medium' };
      expect(changesOf(await run(flavor, 'ensure_fields', params))).toEqual([
        { key, what: 'field:duedate', before: '2026-01-01', after: '2026-02-01' },
        { key, what: 'field:labels', before: ['a'], after: ['a', 'b'] },
        { key, what: 'field:assignee', before: null, after: user },
        { key, what: 'field:Team', before: null, after: 'Core' },
      ]);
      expect(changesOf(await run(flavor, 'ensure_fields', params))).toEqual([]);
    });

    it('ensure_status: from, to and the transitions taken', async () => {
      const key = issue(`Статус ${flavor}`);
      expect(changesOf(await run(flavor, 'ensure_status', { key, path: ['In Progress', 'Done'] }))).toEqual([
        { key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] },
      ]);
      expect(changesOf(await run(flavor, 'ensure_status', { key, path: ['Done'] }))).toEqual([]);
    });

    it('ensure_sprint: the sprint before and after, each by its id, name and board (decision 1430); null moves to the backlog (the agile API), once', async () => {
      const key = issue(`Спринт ${flavor}`, { sprintIds: [1] });
      const [one, two] = [{ id: 1, name: 'Спринт 1', board_id: 1 }, { id: 2, name: 'Спринт 2', board_id: 1 }];
      expect(changesOf(await run(flavor, 'ensure_sprint', { key, sprint: 'Спринт 2' }))).toEqual([{ key, what: 'sprint', before: one, after: two }]);
      expect(changesOf(await run(flavor, 'ensure_sprint', { key, sprint: null }))).toEqual([{ key, what: 'sprint', before: two, after: null }]);
      expect(h.sim.sprintsOf(key)).toEqual([]);
      expect(writes().filter((r) => r.path === '/rest/agile/1.0/backlog/issue').map((r) => r.body)).toEqual([{ issues: [key] }]);
      const again = await run(flavor, 'ensure_sprint', { key, sprint: null });
      expect(again).toEqual({ status: 'done', result: { sprint_id: null } });
    });

    it('ensure_link and remove_link: the link by its ends and type, then removed by its Jira id; a second remove finds nothing', async () => {
      const a = issue(`Связь A ${flavor}`);
      const b = issue(`Связь B ${flavor}`);
      expect(changesOf(await run(flavor, 'ensure_link', { source: a, target: b, link_type: 'blocks' }))).toEqual([
        { key: a, what: 'link', after: { source: a, target: b, link_type: 'Blocks' } },
      ]);
      const id = h.sim.store.linksOf(a)[0]!.id;
      const removed = await run(flavor, 'remove_link', { source: a, target: b, link_type: 'Blocks' });
      expect(removed).toEqual({ status: 'done', result: { removed: true }, changes: [{ key: a, what: 'link_removed', before: { source: a, target: b, link_type: 'Blocks', id } }] });
      expect(h.sim.store.linksOf(a)).toEqual([]);
      expect(await run(flavor, 'remove_link', { source: a, target: b, link_type: 'Blocks' })).toEqual({ status: 'done', result: { removed: false } });
    });

    it('ensure_comment and remove_comment: the comment with its id and text, then removed', async () => {
      const key = issue(`Комментарий ${flavor}`);
      const made = changesOf(await run(flavor, 'ensure_comment', { key, body: 'Текст' })) as Array<{ after: { id: string } }>;
      expect(made).toEqual([{ key, what: 'comment', after: { id: expect.stringMatching(/^\d+$/), body: 'Текст' } }]);
      const id = made[0]!.after.id;
      expect(await run(flavor, 'remove_comment', { key, comment_id: id })).toEqual({
        status: 'done',
        result: { removed: true },
        changes: [{ key, what: 'comment_removed', before: { id, body: 'Текст' } }],
      });
      expect(h.sim.store.comments.filter((c) => c.issueKey === key)).toEqual([]);
      expect(await run(flavor, 'remove_comment', { key, comment_id: id })).toEqual({ status: 'done', result: { removed: false } });
    });

    it('ensure_issue: the issue created; one found by its summary is no change', async () => {
      const out = await run(flavor, 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: `Новая ${flavor}` });
      const key = out.status === 'done' ? String(out.result.key) : '';
      expect(changesOf(out)).toEqual([{ key, what: 'issue', after: { key, summary: `Новая ${flavor}` } }]);
      expect(changesOf(await run(flavor, 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: `Новая ${flavor}` }))).toEqual([]);
    });

    it('delete_issue: only while the summary is the one given; gone → deleted false', async () => {
      const key = issue(`Удалить ${flavor}`);
      expect(await run(flavor, 'delete_issue', { key, summary: 'Другая тема' })).toEqual({
        status: 'failed',
        error: `тема задачи ${key} в Jira изменилась: «Удалить ${flavor}», а не «Другая тема»; задача не удалена`,
      });
      expect(h.sim.getIssue(key)).toBeDefined();
      expect(await run(flavor, 'delete_issue', { key, summary: ` Удалить ${flavor} ` })).toEqual({
        status: 'done',
        result: { deleted: true },
        changes: [{ key, what: 'issue_deleted', before: { key, summary: `Удалить ${flavor}` } }],
      });
      expect(h.sim.store.findIssue(key)).toBeUndefined();
      expect(await run(flavor, 'delete_issue', { key, summary: `Удалить ${flavor}` })).toEqual({ status: 'done', result: { deleted: false } });
      // another Unicode spelling of the same summary («ё» as «е» + U+0308) is the same summary
      const report = issue(`Отчёт ${flavor}`);
      expect(await run(flavor, 'delete_issue', { key: report, summary: `Отчёт ${flavor}`.normalize('NFD') })).toMatchObject({ status: 'done', result: { deleted: true } });
    });

    it('delete_issue of an issue with sub-tasks: fails before any write, naming them and what to do (Jira deletes it only with them)', async () => {
      const key = issue(`С подзадачами ${flavor}`);
      const subs = [issue(`Подзадача 1 ${flavor}`, { issueType: 'Sub-task', parent: key }), issue(`Подзадача 2 ${flavor}`, { issueType: 'Sub-task', parent: key })];
      expect(await run(flavor, 'delete_issue', { key, summary: `С подзадачами ${flavor}` })).toEqual({
        status: 'failed',
        error: `у задачи ${key} есть подзадачи (${subs.join(', ')}): Jira удаляет задачу только вместе с ними, а агент подзадачи не удаляет — удалите или перенесите их и повторите команду; задача ${key} не удалена`,
      });
      expect(writes()).toEqual([]);
      expect([key, ...subs].map((k) => h.sim.store.findIssue(k)?.key)).toEqual([key, ...subs]);
    });
  });

  describe.each(FLAVORS)('a re-delivery after a lost report on %s (decision 0121): the result agrees with the changes it reports', (flavor) => {
    /** The command run, its report lost (its journal entries stay: nothing acknowledged it), then run again; the second outcome. */
    const redelivered = async (type: string, params: Record<string, unknown>): Promise<CommandOutcome> => {
      const cmd = { id: nextId++, type, params };
      const ctx = { ...h.ctx(flavor, new MemoryJournal()), customFields: ['Team'] };
      expect((await executeCommand(cmd, ctx)).status).toBe('done');
      h.sim.clearRequests();
      const again = await executeCommand(cmd, ctx);
      expect(writes()).toEqual([]); // Jira is already as the command wants it
      return again;
    };

    it.each([
      ['ensure_link', () => {
        const [source, target] = [issue('Связь 1'), issue('Связь 2')];
        return { params: { source, target, link_type: 'Blocks' }, result: { created: true }, changes: [{ key: source, what: 'link', after: { source, target, link_type: 'Blocks' } }] };
      }],
      ['ensure_fields', () => {
        const key = issue('Поля', { duedate: '2026-01-01' });
        return { params: { key, duedate: '2026-02-01' }, result: { changed: ['duedate'] }, changes: [{ key, what: 'field:duedate', before: '2026-01-01', after: '2026-02-01' }] };
      }],
      ['ensure_status', () => {
        const key = issue('Статус');
        // the intent, with each transition journaled as it was taken
        return { params: { key, path: ['In Progress', 'Done'] }, result: { from: 'To Do', to: 'Done' }, changes: [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }] };
      }],
      ['remove_link', () => {
        const [source, target] = [issue('Удалить связь 1'), issue('Удалить связь 2')];
        h.sim.store.createLink('Blocks', source, target);
        return { params: { source, target, link_type: 'Blocks' }, result: { removed: true }, changes: [{ key: source, what: 'link_removed', before: expect.objectContaining({ source, target, link_type: 'Blocks' }) }] };
      }],
      ['remove_comment', () => {
        const key = issue('Удалить комментарий');
        const id = h.sim.store.addComment(key, 'Лишний', 'x').id;
        return { params: { key, comment_id: id }, result: { removed: true }, changes: [{ key, what: 'comment_removed', before: { id, body: 'Лишний' } }] };
      }],
      ['delete_issue', () => {
        const key = issue('Удалить задачу');
        return { params: { key, summary: 'Удалить задачу' }, result: { deleted: true }, changes: [{ key, what: 'issue_deleted', before: { key, summary: 'Удалить задачу' } }] };
      }],
      ['ensure_comment', () => {
        const key = issue('Комментарий');
        return { params: { key, body: 'Готово', marker: '[hub:r1]' }, result: { created: true }, changes: [{ key, what: 'comment', after: { id: expect.any(String), body: expect.stringContaining('Готово') } }] };
      }],
    ] as const)('%s', async (type, make) => {
      const { params, result, changes } = make();
      expect(await redelivered(type, params)).toEqual({ status: 'done', result, changes });
    });

    it('ensure_status cut short after its first transition: the re-delivery walks the rest and reports the whole walk from the first status', async () => {
      const key = issue('Статус по частям');
      const cmd = { id: nextId++, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } };
      const journal = new MemoryJournal();
      const ctx = { ...h.ctx(flavor, journal), customFields: [] };
      // The first execution: its intent, its first transition taken and journaled, then the agent stopped.
      journal.recordIntent(cmd.id, cmd, [{ key, what: 'status', before: 'To Do', after: 'Done' }]);
      h.sim.store.transition(key, h.sim.store.transitionsFor(key).find((t) => t.name === 'Start')!.id);
      journal.recordIntent(cmd.id, cmd, [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start'] }]);
      expect(await executeCommand(cmd, ctx)).toEqual({
        status: 'done',
        result: { from: 'To Do', to: 'Done' },
        changes: [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }],
      });
    });
  });

  describe('settledWalk: the journaled transitions Jira\'s status shows were taken', () => {
    const path = ['In Progress', 'Done'];
    it.each([
      ['none reached Jira', 'To Do', 'To Do', ['Start'], []],
      ['the last one in flight never reached Jira', 'To Do', 'In Progress', ['Start', 'Finish'], ['Start']],
      ['all taken', 'To Do', 'Done', ['Start', 'Finish'], ['Start', 'Finish']],
      ['a walk begun inside the path', 'In Progress', 'Done', ['Finish'], ['Finish']],
      ['the issue moved off the path since', 'To Do', 'Blocked', ['Start'], []],
      ['nothing journaled', 'To Do', 'Done', [], []],
    ] as const)('%s', (_, began, now, journaled, taken) => {
      expect(settledWalk(path, began, now, journaled)).toEqual(taken);
    });
  });

  describe.each(FLAVORS)('a write whose answer was lost: the agent stopped while Jira carried it out, on %s (decision 0121)', (flavor) => {
    afterEach(() => h.sim.setLatencyMs(0));

    /**
     * The command run with Jira answering late and the agent stopped once `method path` is in Jira's hands,
     * which Jira carries out all the same (`applied`); nothing is reported. The journal keeps what was written.
     */
    const stoppedDuring = async (cmd: { id: number; type: string; params: Record<string, unknown> }, journal: MemoryJournal, method: string, path: RegExp, applied: () => boolean) => {
      const stop = new AbortController();
      h.sim.clearRequests();
      h.sim.setLatencyMs(200);
      const running = executeCommand(cmd, { ...h.ctx(flavor, journal), client: h.client(flavor, stop.signal) });
      await until(() => h.sim.requests.some((r) => r.method === method && path.test(r.path)));
      stop.abort();
      expect(await running).toEqual({ status: 'failed', error: expect.stringContaining('остановлено'), stopped: true });
      await until(applied);
      h.sim.setLatencyMs(0);
    };

    it('ensure_sprint to the backlog: the re-delivery reports the sprint the issue left', async () => {
      const key = issue('В бэклог, ответ потерян', { sprintIds: [1] });
      const cmd = { id: nextId++, type: 'ensure_sprint', params: { key, sprint: null } };
      const journal = new MemoryJournal();
      await stoppedDuring(cmd, journal, 'POST', /\/rest\/agile\/1\.0\/backlog\/issue$/, () => h.sim.sprintsOf(key).length === 0);
      h.sim.clearRequests();
      expect(await executeCommand(cmd, h.ctx(flavor, journal))).toEqual({
        status: 'done',
        result: { sprint_id: null },
        changes: [{ key, what: 'sprint', before: { id: 1, name: 'Спринт 1', board_id: 1 }, after: null }],
      });
      expect(writes()).toEqual([]);
    });

    it('ensure_status stopped during its first transition: the re-delivery reports the whole walk, that transition included', async () => {
      const key = issue('Статус, ответ потерян');
      const cmd = { id: nextId++, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } };
      const journal = new MemoryJournal();
      await stoppedDuring(cmd, journal, 'POST', /\/transitions$/, () => h.sim.getIssue(key)?.status === 'In Progress');
      expect(await executeCommand(cmd, h.ctx(flavor, journal))).toEqual({
        status: 'done',
        result: { from: 'To Do', to: 'Done' },
        changes: [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }],
      });
    });

    it('ensure_status stopped during its last transition: the re-delivery makes no write and reports the whole walk', async () => {
      const key = issue('Статус, последний ответ потерян');
      const cmd = { id: nextId++, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } };
      const journal = new MemoryJournal();
      h.sim.store.transition(key, '11'); // Start, by this command's first execution, whose journal we stand in for
      journal.recordIntent(cmd.id, cmd, [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start'] }]);
      await stoppedDuring(cmd, journal, 'POST', /\/transitions$/, () => h.sim.getIssue(key)?.status === 'Done');
      h.sim.clearRequests();
      expect(await executeCommand(cmd, h.ctx(flavor, journal))).toEqual({
        status: 'done',
        result: { from: 'To Do', to: 'Done' },
        changes: [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }],
      });
      expect(writes()).toEqual([]);
    });

    it('ensure_status: a transition journaled but never sent (the agent stopped before Jira had it) is not reported', async () => {
      const key = issue('Статус, переход не отправлен');
      const cmd = { id: nextId++, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } };
      const journal = new MemoryJournal();
      // The first execution journaled its intent and «Start» just before sending it, then stopped: Jira still shows To Do.
      journal.recordIntent(cmd.id, cmd, [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start'] }]);
      expect(await executeCommand(cmd, h.ctx(flavor, journal))).toEqual({
        status: 'done',
        result: { from: 'To Do', to: 'Done' },
        changes: [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }],
      });
    });
  });

  describe.each(FLAVORS)('a status walk Jira refuses partway on %s (decision 1413): the failed outcome carries what the walk changed', (flavor) => {
    const bug = (summary: string) => issue(summary, { issueType: 'Bug' });
    const walk = { path: ['In Progress', 'In Review', 'Done'] };

    it('the transitions taken before the refusal, from the first status to the one reached', async () => {
      const key = bug('Ревью без исполнителя');
      expect(await run(flavor, 'ensure_status', { key, ...walk })).toEqual({
        status: 'failed',
        error: `Jira: не приняла запрос для задачи ${key} — исправьте значения в команде или в пакете и повторите (HTTP 400: Assignee is required.)`,
        changes: [{ key, what: 'status', before: 'To Do', after: 'In Review', transitions: ['Start', 'Review'] }],
      });
      expect(h.sim.getIssue(key)?.status).toBe('In Review');
    });

    it('refused at its first step: no changes', async () => {
      const key = bug('Сразу отказ');
      h.sim.store.transition(key, '11');
      h.sim.store.transition(key, '51');
      expect(await run(flavor, 'ensure_status', { key, path: ['Done'] })).toEqual({ status: 'failed', error: `Jira: не приняла запрос для задачи ${key} — исправьте значения в команде или в пакете и повторите (HTTP 400: Assignee is required.)` });
    });

    it('a re-delivery refused partway reports the earlier execution\'s transitions too', async () => {
      const key = bug('Ревью по частям');
      const cmd = { id: nextId++, type: 'ensure_status', params: { key, ...walk } };
      const journal = new MemoryJournal();
      h.sim.store.transition(key, '11'); // Start, by the first execution, whose report was lost
      journal.recordIntent(cmd.id, cmd, [{ key, what: 'status', before: 'To Do', after: 'Done', transitions: ['Start'] }]);
      expect(await executeCommand(cmd, h.ctx(flavor, journal))).toEqual({
        status: 'failed',
        error: `Jira: не приняла запрос для задачи ${key} — исправьте значения в команде или в пакете и повторите (HTTP 400: Assignee is required.)`,
        changes: [{ key, what: 'status', before: 'To Do', after: 'In Review', transitions: ['Start', 'Review'] }],
      });
    });
  });

  describe('delete_issue without the permission to delete', () => {
    let denied: SimHarness;
    beforeAll(async () => {
      denied = await startHarness({ seed: { deniedPermissions: ['DELETE_ISSUES'] } });
    });
    afterAll(async () => {
      await denied.sim.stop();
    });

    it('fails naming the permission; nothing is deleted', async () => {
      const key = denied.sim.store.createIssue('AURORA', { summary: 'Нельзя', issueType: 'Task' }, 'x').key;
      const out = await executeCommand({ id: 1, type: 'delete_issue', params: { key, summary: 'Нельзя' } }, denied.ctx('cloud'));
      expect(out).toEqual({ status: 'failed', error: `у учётной записи агента нет права удалять задачи в проекте AURORA (DELETE_ISSUES); задача ${key} не удалена` });
      expect(denied.sim.store.findIssue(key)).toBeDefined();
    });
  });
});
