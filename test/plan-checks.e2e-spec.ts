/**
 * Issue 20, acceptance on the hub's side (SPEC 16.2): a plan of 20 commands, each with a mistake Jira
 * would refuse, gets every finding in one dry run (1-based seq, a suggestion each); the same body
 * submitted → 422 plan_failed with the same findings, nothing written; the plan corrected by following
 * the suggestions passes and is stored in Jira's names. The agent is driven through its routes: the
 * catalogue is reported as a refresh_catalogue result, the mirror as a refresh result.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CATALOGUE, reportCatalogue } from './support/catalogue.js';
import { agentOf, refreshResult, rowCounts, startHub, type TestHub } from './support/app.js';

const TABLES = ['batch', 'command', 'delivery', 'idempotency_key', 'issue', 'issue_link', 'sync_run', 'catalogue'];
const LONG = 'Очень длинная тема '.repeat(16); // 304 characters

const issue = (n: number, issue_type: string, summary: string, extra: Record<string, unknown> = {}) => ({ type: 'ensure_issue', params: { temp_key: `new:${n}`, issue_type, summary, ...extra } });
const fields = (key: string, extra: Record<string, unknown>) => ({ type: 'ensure_fields', params: { key, ...extra } });
const status = (key: string, extra: Record<string, unknown>) => ({ type: 'ensure_status', params: { key, ...extra } });
const sprint = (key: string, extra: Record<string, unknown>) => ({ type: 'ensure_sprint', params: { key, ...extra } });
const link = (source: string, target: string, link_type: string) => ({ type: 'ensure_link', params: { source, target, link_type } });

/** [the command with its mistake, the finding's code, the command as the suggestion corrects it] */
const PLAN: [object, string, object][] = [
  [issue(1, 'task', 'Отчёт по продажам'), 'issue_type_case', issue(1, 'Task', 'Отчёт по продажам')],
  [issue(2, 'Sub-task', 'Подзадача отчёта'), 'parent_required', issue(2, 'Sub-task', 'Подзадача отчёта', { parent: 'AURORA-1' })],
  [issue(3, 'Epic', 'Квартальная отчётность'), 'required_field_missing', issue(3, 'Epic', 'Квартальная отчётность', { fields: { customfield_10011: 'Отчётность' } })],
  [issue(4, 'Task', 'Оценка', { fields: { customfield_10020: 5 } }), 'field_not_on_screen', issue(4, 'Task', 'Оценка')],
  [issue(5, 'Task', LONG), 'too_long', issue(5, 'Task', LONG.slice(0, 255).trim())],
  [issue(6, 'Task', 'Описание', { description: 'д'.repeat(33_000) }), 'too_long', issue(6, 'Task', 'Описание', { description: 'д'.repeat(32_000) })],
  [issue(7, 'Task', 'Отчёт по продажам'), 'duplicate_summary', issue(7, 'Task', 'Отчёт по закупкам')],
  [fields('AURORA-1', { priority: 'Очень высокий' }), 'value_not_allowed', fields('AURORA-1', { priority: 'Highest' })],
  [fields('AURORA-1', { labels: ['в работе'] }), 'bad_label', fields('AURORA-1', { labels: ['в_работе'] })],
  [fields('AURORA-2', { assignee: 'ivanof' }), 'unknown_assignee', fields('AURORA-2', { assignee: 'ivanov' })],
  [fields('AURORA-2', { customfield_10011: 'x' }), 'field_not_on_screen', fields('AURORA-2', { customfield_10020: 3 })],
  [fields('AURORA-3', { duedate: '2026-02-30' }), 'invalid_param', fields('AURORA-3', { duedate: '2026-02-28' })],
  [link('AURORA-1', 'AURORA-2', 'Blokcs'), 'unknown_link_type', link('AURORA-1', 'AURORA-2', 'блокирует')],
  [status('AURORA-1', { path: ['Готово'] }), 'unknown_status', status('AURORA-1', { to: 'Done' })],
  [status('AURORA-3', { path: ['Done'] }), 'status_unreachable', status('AURORA-3', { path: ['In Progress', 'Review', 'Done'] })],
  [status('AURORA-2', { path: ['Review', 'Rejected'] }), 'transition_screen', status('AURORA-2', { path: ['Review'] })],
  [sprint('AURORA-1', { sprint: 'Спринт 9' }), 'unknown_sprint', sprint('AURORA-1', { sprint: 'Спринт 2' })],
  [sprint('AURORA-2', { sprint: 'Спринт 3' }), 'sprint_ambiguous', sprint('AURORA-2', { sprint: 'Спринт 3', board: 'AURORA board' })],
  [{ type: 'ensure_comment', params: { key: 'AURORA-1', body: 'к'.repeat(40_000) } }, 'too_long', { type: 'ensure_comment', params: { key: 'AURORA-1', body: 'Согласовано' } }],
  [fields('new:8', { priority: 'High' }), 'temp_key', sprint('AURORA-3', { sprint: null })],
];

describe('a plan checked against the catalogue (issue 20 acceptance, hub side)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
    await hub.http.patch('/settings').send({ fields: ['customfield_10011', 'customfield_10020'] }).expect(200);
    await reportCatalogue(hub, { ...CATALOGUE, permissions: { ...CATALOGUE.permissions } });
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2', 'AURORA-3'] } }] }).expect(201);
    const { command } = await agent.claim();
    await agent.done(
      command.id,
      refreshResult([
        { key: 'AURORA-1', status: 'To Do', priority: 'Medium' },
        { key: 'AURORA-2', status: 'In Progress' },
        { key: 'AURORA-3', status: 'To Do' },
      ], [{ source_key: 'AURORA-3', target_key: 'AURORA-2', link_type: 'Blocks' }]),
    );
  });
  afterAll(() => hub.close());

  const counts = () => rowCounts(hub, TABLES);
  const bad = { title: 'План с ошибками', commands: PLAN.map(([c]) => c) };

  it('remove_link is checked as ensure_link is: a word or an inward description becomes Jira\'s type, an unknown one is a finding', async () => {
    const before = await counts();
    const unlink = (source: string, target: string, link_type: string) => ({ type: 'remove_link', params: { source, target, link_type } });
    const body = { title: 'Связи', commands: [unlink('AURORA-3', 'AURORA-2', 'блокирует'), unlink('AURORA-3', 'AURORA-2', 'Blokcs'), unlink('AURORA-2', 'AURORA-3', 'is blocked by')] };
    const res = await hub.http.post('/batches/plan').send(body).expect(200);
    expect(res.body.findings.map((f: { seq: number; code: string }) => [f.seq, f.code])).toEqual([[2, 'unknown_link_type']]);
    for (const i of [0, 2]) {
      expect(res.body.commands[i].params).toEqual({ source: 'AURORA-3', target: 'AURORA-2', link_type: 'Blocks' });
      // the mirror has that link: removing it changes Jira (the literal «блокирует» would have read as «already done»)
      expect(res.body.commands[i].verdict).toBe('would_change');
    }
    await hub.http.post('/batches').send(body).expect(422);
    expect(await counts()).toEqual(before);
  });

  it('ensure_link whose reverse Jira holds (a directional type) is a finding before approval: the agent would fail it, not flip it', async () => {
    const link = (source: string, target: string, link_type: string) => ({ type: 'ensure_link', params: { source, target, link_type } });
    const body = { title: 'Связи', commands: [link('AURORA-2', 'AURORA-3', 'Blocks'), link('AURORA-3', 'AURORA-2', 'Blocks'), link('AURORA-3', 'AURORA-2', 'is blocked by')] };
    const res = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    expect(res.findings.map((f: { seq: number; param: string; code: string }) => [f.seq, f.param, f.code])).toEqual([
      [1, 'source', 'reversed_link'],
      [3, 'source', 'reversed_link'],
    ]);
    expect(res.findings[0].detail).toBe('в Jira уже есть обратная связь: AURORA-3 blocks AURORA-2 (тип «Blocks»); агент связь не переворачивает, и команда завершится ошибкой');
    expect(res.commands[1]).toMatchObject({ check: 'no_change', findings: [] }); // the link as Jira holds it
    await hub.http.post('/batches').send(body).expect(422);
    // The reverse removed first in the same body (as the finding suggests, and a revert of a flipped link does): no finding.
    const flip = { title: 'Переворот', commands: [{ type: 'remove_link', params: { source: 'AURORA-3', target: 'AURORA-2', link_type: 'Blocks' } }, link('AURORA-2', 'AURORA-3', 'Blocks')] };
    expect((await hub.http.post('/batches/plan').send(flip).expect(200)).body).toMatchObject({ ok: true, findings: [] });
    // Removed after it, it is no help.
    const late = { title: 'Поздно', commands: [link('AURORA-2', 'AURORA-3', 'Blocks'), { type: 'remove_link', params: { source: 'AURORA-3', target: 'AURORA-2', link_type: 'Blocks' } }] };
    expect((await hub.http.post('/batches/plan').send(late).expect(200)).body.findings).toEqual([expect.objectContaining({ seq: 1, code: 'reversed_link' })]);
  });

  it('a very long name a command gives (assignee, board, sprint, link type…) is quoted by its first 100 characters in the findings, not whole; nothing written', async () => {
    const long = 'Ж'.repeat(20_000);
    const shown = `«${'Ж'.repeat(100)}… [обрезано: ещё 19900 символов]»`;
    const body = {
      title: 'Длинные имена',
      commands: [
        fields('AURORA-2', { assignee: long }),
        sprint('AURORA-1', { sprint: 'Спринт 2', board: long }),
        sprint('AURORA-1', { sprint: long }),
        link('AURORA-1', 'AURORA-2', long),
        fields('AURORA-1', { priority: long }),
        status('AURORA-1', { to: long }),
        issue(9, long, 'Новая задача'),
        fields('AURORA-3', { labels: [`${'Ж'.repeat(19_998)} x`] }),
      ],
    };
    const before = await counts();
    const plan = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    const findings = plan.findings as { seq: number; code: string; detail: string; suggestion?: string }[];
    expect(findings.map((f) => [f.seq, f.code, f.detail.includes(shown), `${f.detail} ${f.suggestion ?? ''}`.includes('Ж'.repeat(101))])).toEqual([
      [1, 'unknown_assignee', true, false],
      [2, 'unknown_sprint', true, false],
      [3, 'unknown_sprint', true, false],
      [4, 'unknown_link_type', true, false],
      [5, 'value_not_allowed', true, false],
      [6, 'unknown_status', true, false],
      [7, 'unknown_issue_type', true, false],
      [8, 'bad_label', true, false],
    ]);
    const refused = (await hub.http.post('/batches').send(body).expect(422)).body;
    expect(refused).toMatchObject({ error: 'plan_failed', detail: expect.stringContaining(`шаг 1: assignee: ${shown}`) });
    expect(refused.detail.length).toBeLessThan(5_000);
    expect(await counts()).toEqual(before);
  });

  it('one dry run answers every finding of the 20 commands, seq 1-based, each with a Russian detail and a suggestion', async () => {
    const before = await counts();
    const res = await hub.http.post('/batches/plan').send(bad).expect(200);
    expect(res.body.ok).toBe(false);
    const bySeq = new Map<number, string[]>();
    for (const f of res.body.findings) bySeq.set(f.seq, [...(bySeq.get(f.seq) ?? []), f.code]);
    PLAN.forEach(([, code], i) => expect([i + 1, bySeq.get(i + 1)]).toEqual([i + 1, expect.arrayContaining([code])]));
    expect([...bySeq.keys()].sort((a, b) => a - b)).toEqual(PLAN.map((_, i) => i + 1));
    for (const f of res.body.findings) {
      expect(f.detail).toMatch(/[А-Яа-яЁё]/);
      if (f.code !== 'invalid_param' && f.code !== 'temp_key') expect(f.suggestion).toEqual(expect.any(String));
    }
    expect(res.body.findings.find((f: { seq: number }) => f.seq === 13).suggestion).toBe('может быть, Blocks?');
    expect(res.body.findings.find((f: { seq: number }) => f.seq === 1).suggestion).toContain('Task');
    expect(res.body.findings.find((f: { seq: number }) => f.seq === 17).suggestion).toContain('AURORA board: Спринт 2');
    expect(res.body.commands.slice(0, 20).every((c: { check: string }) => c.check === 'will_fail')).toBe(true);
    expect(res.body.checks).toEqual({ will_change: 0, no_change: 0, will_fail: 20, unknown: 0 });
    expect(res.body.text).toMatch(/^Пакет не пройдёт: замечаний \d+ — шаг 1: issue_type:/);
    expect(await counts()).toEqual(before);
  });

  it('the same body submitted → 422 plan_failed with every finding, nothing written', async () => {
    const before = await counts();
    const planned = (await hub.http.post('/batches/plan').send(bad).expect(200)).body;
    const res = await hub.http.post('/batches').send(bad).expect(422);
    expect(res.body.error).toBe('duplicate_summary'); // the command catalogue's own code stays what earlier hubs answered
    expect(res.body.findings).toEqual(planned.findings);
    const withoutDuplicate = { ...bad, commands: bad.commands.map((c, i) => (i === 6 ? PLAN[6]![2] : c)) };
    const plain = await hub.http.post('/batches').send(withoutDuplicate).expect(422);
    expect(plain.body).toMatchObject({ error: 'plan_failed', detail: expect.stringContaining('план не пройдёт в Jira: шаг 1: issue_type:') });
    expect(plain.body.findings.length).toBe(planned.findings.length - 1);
    // an assistant may not turn findings into warnings, and its dry run says so as its submit does
    const submitted = await hub.http.post('/batches').set('X-Hub-Source', 'assistant').send({ ...withoutDuplicate, checks: 'warn' }).expect(403);
    const dry = await hub.http.post('/batches/plan').set('X-Hub-Source', 'assistant').send({ ...withoutDuplicate, checks: 'warn' }).expect(403);
    expect(dry.body).toEqual(submitted.body);
    expect(dry.body).toMatchObject({ error: 'forbidden', detail: expect.stringContaining('checks: "warn" — выбор человека') });
    expect(await counts()).toEqual(before);
  });

  it('the plan corrected by following the suggestions passes, stored in Jira\'s names and routes, with its verdicts on the batch', async () => {
    const good = { title: 'План исправлен', commands: PLAN.map(([, , c]) => c) };
    const planned = (await hub.http.post('/batches/plan').send(good).expect(200)).body;
    expect(planned.findings).toEqual([]);
    expect(planned.ok).toBe(true);
    expect(planned.commands[12]).toMatchObject({ params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }, notes: ['тип связи «блокирует» записан как «Blocks»'] });
    expect(planned.commands[13].params).toEqual({ key: 'AURORA-1', path: ['In Progress', 'Review', 'Done'] });
    const batch = (await hub.http.post('/batches').send(good).expect(201)).body;
    expect(batch.commands[12].params.link_type).toBe('Blocks');
    expect(batch.commands[13].params).toEqual({ key: 'AURORA-1', path: ['In Progress', 'Review', 'Done'] });
    expect(batch.checks).toMatchObject({ mode: 'refuse', catalogue: { project_key: 'AURORA', stale: false }, counts: { will_fail: 0, unknown: 0 } });
    expect(batch.checks.commands).toHaveLength(20);
    expect(batch.commands).toHaveLength(21); // the tail refresh
  });

  it('{"checks": "warn"} from a client stores the catalogue\'s findings as warnings; Jira\'s limits still refuse; the dry run says the same', async () => {
    const knowBetter = { title: 'Знаю лучше', checks: 'warn', commands: [PLAN[7]![0], PLAN[12]![0]] };
    const planned = (await hub.http.post('/batches/plan').send(knowBetter).expect(200)).body;
    expect(planned).toMatchObject({ ok: true, checks: { will_fail: 2 } });
    expect(planned.findings.map((f: { code: string }) => f.code)).toContain('value_not_allowed');
    expect(planned.text).not.toMatch(/не пройдёт/);
    const warned = (await hub.http.post('/batches').send(knowBetter).expect(201)).body;
    expect(warned.checks).toMatchObject({ mode: 'warn', counts: { will_fail: 2 } });
    expect(warned.checks.commands[0].findings[0]).toMatchObject({ seq: 1, code: 'value_not_allowed' });
    const res = await hub.http.post('/batches').send({ title: 'Лимит', checks: 'warn', commands: [PLAN[4]![0]] }).expect(422);
    expect(res.body).toMatchObject({ error: 'plan_failed', findings: [expect.objectContaining({ code: 'too_long' })] });
    const limit = (await hub.http.post('/batches/plan').send({ title: 'Лимит', checks: 'warn', commands: [PLAN[4]![0]] }).expect(200)).body;
    expect(limit).toMatchObject({ ok: false, findings: [expect.objectContaining({ code: 'too_long' })], text: expect.stringMatching(/^Пакет не пройдёт: замечаний 1 — /) });
    await hub.http.post('/batches').send({ title: 'x', checks: 'maybe', commands: [PLAN[7]![2]] }).expect(422);
  });

  it.each([
    ['a status the catalogue does not know', 'Closed'],
    ['a status written in another case', 'done'],
  ])('{"checks": "warn"} with ensure_status {key, to} and %s: stored with path [to], which the agent walks (it had no path)', async (_name, to) => {
    const body = { title: 'Статус', checks: 'warn', commands: [{ type: 'ensure_status', params: { key: 'AURORA-1', to } }] };
    const planned = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    expect(planned.commands[0].params).toEqual({ key: 'AURORA-1', path: [to] });
    const batch = (await hub.http.post('/batches').send(body).expect(201)).body;
    expect(batch.commands[0].params).toEqual({ key: 'AURORA-1', path: [to] });
    expect(batch.checks.commands[0].findings.length).toBeGreaterThan(0);
  });

  it('a delete_issue summary longer than 255 (as the OpenAPI document says) → 422 plan_failed too_long, nothing written; 255 is taken', async () => {
    const before = await counts();
    const del = (summary: string) => ({ type: 'delete_issue', params: { key: 'AURORA-1', summary } });
    for (const body of [{ title: 'Удаление', commands: [del('я'.repeat(100_000))] }, { title: 'Удаление', checks: 'warn', commands: [del('я'.repeat(256))] }]) {
      const res = await hub.http.post('/batches').send(body).expect(422);
      expect(res.body).toMatchObject({ error: 'plan_failed', detail: expect.stringContaining('Jira принимает не больше 255'), findings: [{ seq: 1, param: 'summary', code: 'too_long' }] });
    }
    expect(await counts()).toEqual(before);
    const plan = (await hub.http.post('/batches/plan').send({ title: 'Удаление', commands: [del('я'.repeat(256))] }).expect(200)).body;
    expect(plan.commands[0].findings).toEqual([expect.objectContaining({ param: 'summary', code: 'too_long' })]);
    await hub.http.post('/batches/plan').send({ title: 'Удаление', commands: [del('я'.repeat(255))] }).expect(200);
  });

  it('a summary of two lines → 422 plan_failed summary_line_break (Jira answers 400 to it), also with checks "warn"; nothing written', async () => {
    const before = await counts();
    const commands = [
      { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт\nза квартал' } },
      { type: 'ensure_fields', params: { key: 'AURORA-1', summary: 'Отчёт\r\n' } },
    ];
    for (const body of [{ title: 'Темы', commands }, { title: 'Темы', checks: 'warn', commands }]) {
      const res = await hub.http.post('/batches').send(body).expect(422);
      expect(res.body.findings).toEqual([
        expect.objectContaining({ seq: 1, param: 'summary', code: 'summary_line_break', detail: 'тема — одна строка: в Jira у задачи не бывает темы с переводом строки' }),
        expect.objectContaining({ seq: 2, param: 'summary', code: 'summary_line_break' }),
      ]);
    }
    expect(await counts()).toEqual(before);
  });

  it('with no catalogue the same body is judged unknown, never refused for the catalogue', async () => {
    const bare = await startHub();
    try {
      const res = (await bare.http.post('/batches/plan').send({ title: 't', commands: [PLAN[0]![0], PLAN[12]![0], PLAN[16]![0]] }).expect(200)).body;
      expect(res).toMatchObject({ ok: true, findings: [], catalogue: null, checks: { unknown: 3 } });
      const batch = (await bare.http.post('/batches').send({ title: 't', commands: [PLAN[0]![0], PLAN[12]![2]] }).expect(201)).body;
      expect(batch.commands[1].params.link_type).toBe('Blocks'); // the settings word, even without a catalogue
      expect(batch.checks.counts).toMatchObject({ unknown: 2 });
    } finally {
      await bare.close();
    }
  });
});

describe('a plan whose ensure_issue the agent would answer with an existing issue (same summary)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
    await reportCatalogue(hub, { ...CATALOGUE, permissions: { ...CATALOGUE.permissions } });
  });
  afterAll(() => hub.close());

  it('an ensure_issue whose summary an issue of the project has: the agent takes that issue, so it and the commands on its temp key are judged against it', async () => {
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-4', 'AURORA-5'] } }] }).expect(201);
    const { command } = await agent.claim();
    // Two issues of the summary: the agent's duplicate search takes the oldest.
    await agent.done(command.id, refreshResult([{ key: 'AURORA-5', summary: 'Сверка с банком', status: 'Done' }, { key: 'AURORA-4', summary: 'Сверка с банком', status: 'Review' }]));
    const body = { title: 'Сверка', commands: [issue(9, 'Task', ' Сверка с банком '), status('new:9', { to: 'Done' }), issue(10, 'Task', 'Новая сверка'), status('new:10', { to: 'Done' })] };
    const plan = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    expect(plan).toMatchObject({ ok: true, findings: [] });
    expect(plan.commands[0]).toMatchObject({ check: 'no_change', notes: [expect.stringContaining('в проекте уже есть AURORA-4 с той же темой: агент возьмёт эту задачу, а не создаст новую')] });
    // From Review, where AURORA-4 is, «Done» is a step away; a new issue walks from «To Do».
    expect(plan.commands[1]).toMatchObject({ check: 'will_change', params: { key: 'new:9', path: ['Done'] } });
    expect(plan.commands[2]).toMatchObject({ check: 'will_change', notes: [] });
    expect(plan.commands[3]).toMatchObject({ check: 'will_change', params: { key: 'new:10', path: ['In Progress', 'Review', 'Done'] } });
    // The summary in another Unicode spelling («й» as «и» + U+0306, «ё» as «е» + U+0308) is the same one to the agent.
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-5'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-5', summary: 'Свой отчёт', status: 'Done' }]));
    const spelled = (await hub.http.post('/batches/plan').send({ title: 'Отчёт', commands: [issue(11, 'Task', 'Свои\u0306 отче\u0308т')] }).expect(200)).body;
    expect(spelled.commands[0]).toMatchObject({ check: 'no_change', notes: [expect.stringContaining('в проекте уже есть AURORA-5 с той же темой')] });
  });

  it('ensure_link of a symmetric type the mirror holds the other way is no_change: either way is the same link (SPEC 4); an end the mirror lacks is unknown', async () => {
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-6', 'AURORA-7', 'AURORA-8'] } }] }).expect(201);
    await agent.done(
      (await agent.claim()).command.id,
      refreshResult([{ key: 'AURORA-6', summary: 'Шесть' }, { key: 'AURORA-7', summary: 'Семь' }, { key: 'AURORA-8', summary: 'Восемь' }], [{ source_key: 'AURORA-7', target_key: 'AURORA-6', link_type: 'Relates' }]),
    );
    const body = { title: 'Связь', commands: [link('AURORA-6', 'AURORA-7', 'relates to'), link('AURORA-7', 'AURORA-6', 'Relates'), link('AURORA-6', 'AURORA-8', 'Relates'), link('AURORA-6', 'AURORA-99', 'Relates')] };
    const plan = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    expect(plan.commands.slice(0, 4).map((c: { check: string }) => c.check)).toEqual(['no_change', 'no_change', 'will_change', 'unknown']);
    // The dry run's own verdict reads the mirror by the same rule: nothing to change, nothing counted as a change.
    expect(plan.commands.slice(0, 2).map((c: { verdict: string }) => c.verdict)).toEqual(['holds', 'holds']);
    // Removed earlier in the same body, the link is made again: a change.
    const again = (await hub.http.post('/batches/plan').send({ title: 'Снова', commands: [{ type: 'remove_link', params: { source: 'AURORA-7', target: 'AURORA-6', link_type: 'Relates' } }, link('AURORA-6', 'AURORA-7', 'Relates')] }).expect(200)).body;
    expect(again.commands[1].check).toBe('will_change');
    // An end the mirror lacks: the agent would get a 404 for it, so the hub says it cannot tell.
    expect(plan.commands[3].notes).toContain('AURORA-99 нет в зеркале: есть ли такая задача в Jira, хаб не знает (сначала обновите её в зеркале)');
  });

  it("ensure_sprint with a board: judged exactly by the sprint id the mirror holds (decision 1430); an older agent's name-only refresh is accepted and Jira settles it (1423)", async () => {
    // «Спринт 3» is sprint 12 of «AURORA board» and sprint 21 of «Поддержка» (the catalogue).
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-11', 'AURORA-12'] } }] }).expect(201);
    await agent.done(
      (await agent.claim()).command.id,
      refreshResult([
        { key: 'AURORA-11', summary: 'В спринте поддержки', sprint: 'Спринт 3', sprint_id: 21, sprint_board_id: 2 },
        { key: 'AURORA-12', summary: 'Обновлена старым агентом', sprint: 'Спринт 3' },
      ]),
    );
    const body = {
      title: 'Спринты досок',
      commands: [
        sprint('AURORA-11', { sprint: 'Спринт 3', board: 'Поддержка' }),
        sprint('AURORA-11', { sprint: 'Спринт 3', board: 2 }),
        sprint('AURORA-11', { sprint: 'Спринт 3', board: 'AURORA board' }),
        sprint('AURORA-12', { sprint: 'Спринт 3', board: 'Поддержка' }),
      ],
    };
    const plan = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    expect(plan).toMatchObject({ ok: true, findings: [] });
    expect(plan.commands.slice(0, 4).map((c: { check: string; verdict: string }) => [c.check, c.verdict])).toEqual([
      ['no_change', 'holds'],
      ['no_change', 'holds'],
      ['will_change', 'would_change'],
      // no sprint id in the mirror: the command goes to Jira, which settles it
      ['will_change', 'cannot_judge'],
    ]);
    expect(plan.commands[2].changes).toEqual([{ field: 'sprint', from: 'Спринт 3 (доска Поддержка)', to: 'Спринт 3 (доска AURORA board)' }]);
    expect(plan.commands[3].why).toContain('агент старой версии');
    // Submitted, the batch keeps the same verdicts.
    const batch = (await hub.http.post('/batches').send(body).expect(201)).body;
    expect(batch.checks.commands.map((c: { verdict: string }) => c.verdict)).toEqual(['no_change', 'no_change', 'will_change', 'will_change']);
    await hub.http.post(`/batches/${batch.id}/cancel`).expect(200);
  });

  it('an issue of another project is not judged by this project\'s catalogue: unknown, saying why, never refused for it', async () => {
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['OTHER-1'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'OTHER-1', summary: 'Чужая задача' }]));
    const body = { title: 'Чужой проект', commands: [sprint('OTHER-1', { sprint: 'Чужой спринт' }), fields('OTHER-1', { priority: 'Очень высокий' }), sprint('AURORA-1', { sprint: 'Чужой спринт' })] };
    const plan = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    const why = 'OTHER-1 — задача проекта OTHER, а каталог в хабе — проекта AURORA: экраны, переходы, спринты и права проекта OTHER хабу неизвестны';
    expect(plan.commands.slice(0, 2)).toEqual([expect.objectContaining({ check: 'unknown', findings: [], notes: [why] }), expect.objectContaining({ check: 'unknown', findings: [], notes: [why] })]);
    // The project's own issue is judged as ever.
    expect(plan.findings).toEqual([expect.objectContaining({ seq: 3, code: 'unknown_sprint' })]);

    // A status move on it: the dry run answers (it was a 500), and the command is stored as the direct step the
    // agent will try — the agent walks only a path, and a bare `to` could not be carried out.
    const status = { title: 'Чужой статус', commands: [{ type: 'ensure_status', params: { key: 'OTHER-1', to: 'Done' } }] };
    const dry = (await hub.http.post('/batches/plan').send(status).expect(200)).body;
    expect(dry.commands[0]).toMatchObject({ check: 'unknown', findings: [], params: { key: 'OTHER-1', path: ['Done'] } });
    expect(dry.commands[0].notes).toEqual([expect.stringContaining('маршрут неизвестен: агент попробует прямой переход'), why]);
    const batch = (await hub.http.post('/batches').send(status).expect(201)).body;
    expect(batch.commands[0].params).toEqual({ key: 'OTHER-1', path: ['Done'] });
    await hub.http.post(`/batches/${batch.id}/cancel`).expect(200);
  });

  it('a command on an issue Jira no longer has is unknown at submit, naming the issue and the run that found it gone; never refused for it (decision 1449)', async () => {
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-20'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-20', summary: 'Двадцать', priority: 'Medium' }]));
    const body = { title: 'Удалённая задача', commands: [fields('AURORA-20', { priority: 'Medium' })] };
    // The mirror's copy already shows it.
    expect((await hub.http.post('/batches/plan').send(body).expect(200)).body.commands[0]).toMatchObject({ check: 'no_change', notes: [] });
    hub.clock.advance(60_000);
    // AURORA-20 deleted in Jira: a refresh by its key does not get it back.
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-20'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, { ...refreshResult([]), missing_keys: ['AURORA-20'] });
    const run = (await hub.http.get('/sync-runs').expect(200)).body[0];
    expect(run).toMatchObject({ missing: ['AURORA-20'] });
    const note = `задачи AURORA-20 в Jira больше нет: Jira её не нашла (чтение #${run.id} в /sync-runs) — команда завершится ошибкой; уберите её из пакета или обновите задачу в зеркале, если она вернулась`;
    const plan = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    expect(plan).toMatchObject({ ok: true, findings: [] });
    expect(plan.commands[0]).toMatchObject({ check: 'unknown', findings: [], notes: [note], verdict: 'cannot_judge', why: note });
    // Submitted: stored (the issue may have come back; Jira settles it), its check unknown with the note.
    const batch = (await hub.http.post('/batches').send(body).expect(201)).body;
    expect(batch.checks.commands[0]).toEqual({ seq: 1, verdict: 'unknown', findings: [], notes: [note] });
    expect(batch.checks.counts).toMatchObject({ unknown: 1, no_change: 0 });
    await hub.http.post(`/batches/${batch.id}/cancel`).expect(200);
  });
});
