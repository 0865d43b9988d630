/**
 * SPEC 16.1: the catalogue travels as refresh_catalogue, reported through the agent's routes; GET
 * /catalogue and the lookups serve it; the hub queues the refresh itself; a failure naming a screen,
 * field or transition, or a permission refused (decision 0130), marks it stale. SPEC 6.7 as amended: cancelling a finished batch.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Db } from '../src/database/db.service.js';
import { CATALOGUE, reportCatalogue } from './support/catalogue.js';
import { agentOf, fields, startHub, type TestHub } from './support/app.js';

describe('the catalogue (SPEC 16.1)', () => {
  let hub: TestHub;
  afterEach(() => hub.close());

  const rows = () => hub.app.get(Db).read(async (m) => (await m.query('SELECT count(*) AS n FROM catalogue'))[0].n);

  it('is null until the agent reports one; then GET /catalogue shows it with its age, and the lookups serve it', async () => {
    hub = await startHub();
    expect((await hub.http.get('/catalogue').expect(200)).body).toMatchObject({ catalogue: null, age_seconds: null, text: expect.stringContaining('ещё нет') });
    await hub.http.get('/catalogue/link-types').expect(404);
    await reportCatalogue(hub);
    hub.clock.advance(5 * 60_000);
    const state = (await hub.http.get('/catalogue').expect(200)).body;
    expect(state).toMatchObject({ project_key: 'AURORA', flavor: 'cloud', age_seconds: 300, stale: false, max_age_minutes: 1440, text: 'Каталог Jira проекта AURORA прочитан 5 мин назад.' });
    expect(state.catalogue.issue_types.map((t: { name: string }) => t.name)).toEqual(['Task', 'Sub-task', 'Epic']);

    const links = (await hub.http.get('/catalogue/link-types').expect(200)).body;
    expect(links).toContainEqual({ name: 'Blocks', outward: 'blocks', inward: 'is blocked by', words: ['блокирует'], symmetric: false });
    expect(links).toContainEqual(expect.objectContaining({ name: 'Relates', words: ['связанные'], symmetric: true }));
    const [epic] = (await hub.http.get('/catalogue/issue-types?name=epic').expect(200)).body;
    expect(epic.create_fields).toContainEqual(expect.objectContaining({ field_id: 'customfield_10011', name: 'Epic Name', required: true }));
    const [task] = (await hub.http.get('/catalogue/statuses?issue_type=Task&from=To%20Do&to=Done').expect(200)).body;
    expect(task).toMatchObject({ issue_type: 'Task', initial_status: 'To Do', route_from: 'To Do', route: ['In Progress', 'Review', 'Done'] });
    // a status named in another letter case is that status, as in a plan's checks
    const [cased] = (await hub.http.get('/catalogue/statuses?issue_type=task&from=to%20do&to=DONE').expect(200)).body;
    expect(cased).toMatchObject({ route_from: 'To Do', route: ['In Progress', 'Review', 'Done'] });
    expect((await hub.http.get('/catalogue/sprints?board=Поддержка').expect(200)).body).toEqual([{ id: 21, name: 'Спринт 3', state: 'future', board_id: 2, board: 'Поддержка' }]);
    expect((await hub.http.get('/catalogue/priorities').expect(200)).body).toEqual(['Highest', 'High', 'Medium', 'Low']);
    expect((await hub.http.get('/catalogue/components').expect(200)).body).toEqual(['Backend', 'Frontend']);
    expect((await hub.http.get('/catalogue/versions').expect(200)).body).toEqual(['1.0', '2.0']);
    expect((await hub.http.get('/catalogue/users?q=ИВАН').expect(200)).body).toEqual({ users: [{ id: 'ivanov', display_name: 'Иван Иванов' }], total: 1, truncated: false });
    // a page of the matches says how many there are in all
    const all = (await hub.http.get('/catalogue/users').expect(200)).body;
    expect((await hub.http.get('/catalogue/users?limit=1').expect(200)).body).toEqual({ users: [all.users[0]], total: all.users.length, truncated: false });
    expect(all.users.length).toBeGreaterThan(1);
    expect(await rows()).toBe(1);
  });

  it('read anew with transitions only observed, it keeps the routes the earlier read saw out of statuses this one did not (decision 1428)', async () => {
    hub = await startHub();
    const task = CATALOGUE.per_type['10001']!;
    const at = hub.clock.now().toISOString();
    const observed = (transitions: object[]) => ({ ...CATALOGUE, transitions_source: 'observed', per_type: { ...CATALOGUE.per_type, '10001': { ...task, transitions } } });
    const edge = (from: string, to: string, name: string) => ({ from, to, id: name, name, required_fields: [], observed_at: at });
    await reportCatalogue(hub, observed([edge('To Do', 'In Progress', 'Start'), edge('In Progress', 'Review', 'Review'), edge('Review', 'Done', 'Accept')]));
    hub.clock.advance(60 * 60_000);
    // No Task in «To Do» now: the second read sees nothing out of it.
    await reportCatalogue(hub, observed([edge('In Progress', 'Review', 'Review'), edge('Review', 'Done', 'Accept')]));
    const [route] = (await hub.http.get('/catalogue/statuses?issue_type=Task&from=To%20Do&to=Done').expect(200)).body;
    expect(route.route).toEqual(['In Progress', 'Review', 'Done']);
    const plan = (await hub.http.post('/batches/plan').send({ title: 'п', commands: [{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Новая' } }, { type: 'ensure_status', params: { key: 'new:1', to: 'Done' } }] }).expect(200)).body;
    expect(plan.commands[1]).toMatchObject({ check: 'will_change', params: { path: ['In Progress', 'Review', 'Done'] } });
  });

  it('bad input to the lookups: clear 4xx with {error, detail}', async () => {
    hub = await startHub();
    await reportCatalogue(hub);
    const cases: [string, number, string][] = [
      ['/catalogue/users?limit=0', 422, 'limit'],
      ['/catalogue/users?limit=abc', 422, 'limit'],
      ['/catalogue/statuses?from=To%20Do', 422, 'from и to'],
      ['/catalogue/statuses?from=To%20Do&to=Done', 422, 'issue_type'],
      ['/catalogue/issue-types?name=Story', 404, 'типа задачи «Story»'],
      ['/catalogue/statuses?issue_type=Task&from=To%20Do&to=Nope', 404, 'статуса «Nope» нет в процессе типа Task; есть: To Do, In Progress'],
      ['/catalogue/statuses?issue_type=Task&from=Nope&to=Done', 404, 'статуса «Nope» нет в процессе типа Task'],
      ['/catalogue/sprints?board=Nope', 404, 'доски «Nope»'],
      ['/catalogue?project=aurora', 422, 'ключ проекта'],
      ['/catalogue/link-types?project=OTHER', 404, 'проекта OTHER'],
      // no Jira key is that long: refused, not answered with a 404 that repeats it whole
      [`/catalogue/link-types?project=${'A'.repeat(3000)}`, 422, 'project'],
      ['/catalogue/priorities?colour=red', 422, 'colour'],
    ];
    for (const [path, status, detail] of cases) {
      const res = await hub.http.get(path).expect(status);
      expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), detail: expect.stringContaining(detail) }));
    }
  });

  it('a refresh_catalogue result that is no catalogue → 422, nothing stored; a part of one → 422', async () => {
    hub = await startHub();
    await hub.http.post('/catalogue/refresh').expect(201);
    const { command } = await agentOf(hub).claim();
    for (const result of [{}, { catalogue: { project_key: 'AURORA' } }, { catalogue: { ...CATALOGUE, issue_types: 'Task' } }, { catalogue: { ...CATALOGUE, permissions: { X: 'yes' } } }]) {
      const res = await agentOf(hub).report(command.id, { status: 'done', result }).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', detail: expect.stringMatching(/catalogue|refresh_catalogue/) });
    }
    await agentOf(hub).report(command.id, { status: 'partial', part: 1, result: { catalogue: CATALOGUE } }).expect(422);
    expect(await rows()).toBe(0);
    expect((await hub.http.get(`/commands/${command.id}`).expect(200)).body.status).toBe('claimed');
  });

  it('POST /catalogue/refresh: a batch «Каталог Jira» of the hub, no approval; a second ask answers the same batch; not for the assistant', async () => {
    hub = await startHub();
    await hub.http.patch('/settings').send({ approval: { hub: true, client: true } }).expect(200);
    const first = (await hub.http.post('/catalogue/refresh').expect(201)).body;
    expect(first).toMatchObject({ title: 'Каталог Jira', source: 'hub', status: 'queued', commands: [{ type: 'refresh_catalogue', params: {} }], estimate_seconds: 60 });
    expect((await hub.http.post('/catalogue/refresh').expect(200)).body.id).toBe(first.id);
    const res = await hub.http.post('/catalogue/refresh').set('X-Hub-Source', 'assistant').expect(403);
    expect(res.body).toMatchObject({ error: 'forbidden' });
  });

  it('a status walk that failed for want of a transition teaches an observed catalogue what Jira offered there, without marking it stale (decision 1485)', async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    const task = CATALOGUE.per_type['10001']!;
    const observed = { ...CATALOGUE, transitions_source: 'observed', per_type: { ...CATALOGUE.per_type, '10001': { ...task, transitions: [] } } };
    await reportCatalogue(hub, observed);
    const seen = { key: 'AURORA-7', issue_type: 'Task', status: 'To Do', transitions: [{ id: '11', name: 'Start', to: 'In Progress', required_fields: [] }] };
    const failWalk = async (report: Record<string, unknown>) => {
      await hub.http.post('/batches').send({ title: 'статус', commands: [{ type: 'ensure_status', params: { key: 'AURORA-7', path: ['Done'] } }] }).expect(201);
      const c = (await agent.claim()).command;
      expect(c.type).toBe('ensure_status');
      return { c, answer: agent.report(c.id, report) };
    };
    const error = 'переход в статус «Done» недоступен из «To Do» (доступные переходы: «Start» → «In Progress»)';

    // Malformed, or with another status: 422 and nothing written.
    const { c, answer } = await failWalk({ status: 'done', result: {}, transitions_seen: seen });
    expect((await answer.expect(422)).body.detail).toContain('transitions_seen бывают только при status: failed');
    expect((await agent.report(c.id, { status: 'failed', error, transitions_seen: { ...seen, key: 'aurora' } }).expect(422)).body.detail).toContain('transitions_seen');
    expect((await agent.report(c.id, { status: 'failed', error, transitions_seen: { ...seen, transitions: [{ id: '11' }] } }).expect(422)).body.detail).toContain('transitions_seen');
    expect((await hub.http.get(`/commands/${c.id}`).expect(200)).body.status).toBe('claimed');

    hub.clock.advance(60_000);
    await agent.report(c.id, { status: 'failed', error, transitions_seen: seen }).expect(200);
    const state = (await hub.http.get('/catalogue').expect(200)).body;
    expect(state).toMatchObject({ stale: false, stale_reason: null, age_seconds: 60 });
    expect(state.catalogue.per_type['10001'].transitions).toEqual([{ from: 'To Do', to: 'In Progress', id: '11', name: 'Start', required_fields: [], observed_at: hub.clock.iso() }]);
    const plan = (await hub.http.post('/batches/plan').send({ title: 'п', commands: [{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Новая' } }, { type: 'ensure_status', params: { key: 'new:1', to: 'Done' } }] }).expect(200)).body;
    expect(plan.commands[1].params.path).toEqual(['In Progress', 'Done']);

    // A catalogue read from the workflow API is complete: such a failure means the workflow changed, and marks it stale.
    const tail = (await agent.claim()).command;
    expect(tail.type).toBe('refresh'); // the batch's tail refresh
    await agent.done(tail.id, { issues: [], links: [] });
    await reportCatalogue(hub);
    const again = await failWalk({ status: 'failed', error, transitions_seen: seen });
    await again.answer.expect(200);
    expect((await hub.http.get('/catalogue').expect(200)).body).toMatchObject({ stale: true, stale_reason: expect.stringContaining('недоступен') });
  });

  it('the hub queues it at the first claim, again once older than catalogue_max_age_minutes and the queue is idle, and when a failure marks it stale', async () => {
    hub = await startHub({ HUB_CATALOGUE_AUTO_REFRESH: 'on' });
    const agent = agentOf(hub);
    const first = (await agent.claim()).command;
    expect(first).toMatchObject({ type: 'refresh_catalogue' });
    expect((await hub.http.get(`/batches/${first.batch_id}`).expect(200)).body).toMatchObject({ source: 'hub', author: 'hub', title: 'Каталог Jira' });
    await agent.done(first.id, { catalogue: CATALOGUE });
    expect((await agent.claim()).command).toBeNull();

    hub.clock.advance(1441 * 60_000);
    await hub.http.post('/batches').send({ title: 'работа', commands: [fields('AURORA-1', { priority: 'High' })] }).expect(201);
    const work = (await agent.claim()).command;
    expect(work.type).toBe('ensure_fields'); // busy: the catalogue waits for an idle queue
    await agent.report(work.id, { status: 'failed', error: "HTTP 400: Field 'priority' cannot be set. It is not on the appropriate screen, or unknown." }).expect(200);
    const state = (await hub.http.get('/catalogue').expect(200)).body;
    expect(state).toMatchObject({ stale: true, stale_reason: expect.stringContaining('It is not on the appropriate screen') });
    expect(state.stale_reason).toMatch(new RegExp(`^команда #${work.id} \\(ensure_fields\\): HTTP 400`));
    let next = (await agent.claim()).command;
    if (next.type === 'refresh') next = (await agent.done(next.id, { issues: [], links: [] }), (await agent.claim()).command);
    expect(next.type).toBe('refresh_catalogue');
    await agent.done(next.id, { catalogue: CATALOGUE });
    expect((await hub.http.get('/catalogue').expect(200)).body).toMatchObject({ stale: false, stale_reason: null, age_seconds: 0 });
  });

  it('a permission Jira refused (403) marks it stale too: the checks stop vouching for it, and once read anew they refuse the command', async () => {
    hub = await startHub({ HUB_CATALOGUE_AUTO_REFRESH: 'on' });
    const agent = agentOf(hub);
    await agent.done((await agent.claim()).command.id, { catalogue: CATALOGUE });
    const body = { title: 'правка', commands: [fields('AURORA-1', { priority: 'High' })] };
    const plan = async () => (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    expect((await plan()).catalogue).toMatchObject({ stale: false });
    await hub.http.post('/batches').send(body).expect(201);
    const work = (await agent.claim()).command;
    expect(work.type).toBe('ensure_fields');
    await agent.report(work.id, { status: 'failed', error: 'HTTP 403 (AURORA-1): You do not have permission to edit issues in this project.' }).expect(200);
    expect((await hub.http.get('/catalogue').expect(200)).body).toMatchObject({ stale: true, stale_reason: expect.stringContaining('You do not have permission to edit issues') });
    expect((await plan()).catalogue).toMatchObject({ stale: true });

    let next = (await agent.claim()).command;
    if (next.type === 'refresh') next = (await agent.done(next.id, { issues: [], links: [] }), (await agent.claim()).command);
    expect(next.type).toBe('refresh_catalogue');
    await agent.done(next.id, { catalogue: { ...CATALOGUE, permissions: { ...CATALOGUE.permissions, EDIT_ISSUES: false } } });
    const refused = await hub.http.post('/batches').send(body).expect(422);
    expect(refused.body).toMatchObject({ error: 'plan_failed', findings: [expect.objectContaining({ seq: 1, detail: expect.stringContaining('Edit Issues') })] });
  });

  it('an agent that cannot read the catalogue is not asked at every claim', async () => {
    hub = await startHub({ HUB_CATALOGUE_AUTO_REFRESH: 'on' });
    const agent = agentOf(hub);
    const first = (await agent.claim()).command;
    await agent.report(first.id, { status: 'failed', error: 'эта версия агента не умеет читать каталог Jira (refresh_catalogue)' }).expect(200);
    expect((await agent.claim()).command).toBeNull();
    hub.clock.advance(1441 * 60_000);
    expect((await agent.claim()).command).toMatchObject({ type: 'refresh_catalogue' });
  });
});

describe('cancel of a batch (SPEC 6.7 as amended)', () => {
  let hub: TestHub;
  afterEach(() => hub.close());

  it('says how many commands it cancelled and which one is still with the agent; a finished batch → 409 finished, nothing changes', async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    const batch = (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1'), fields('A-2'), fields('A-3')] }).expect(201)).body;
    const out = (await agent.claim()).command;
    const cancelled = (await hub.http.post(`/batches/${batch.id}/cancel`).expect(200)).body;
    expect(cancelled).toMatchObject({ cancelled_now: 3, with_agent: { id: out.id, seq: 1, type: 'ensure_fields' }, status: 'running' });
    expect(cancelled.message).toBe(`Отменено команд: 3. Команда #${out.id} (шаг 1 пакета, ensure_fields) ещё у агента: она завершится или будет выдана снова; отменить её можно только с force: true.`);
    await agent.done(out.id);
    // cancelled once: a repeat is idempotent even though every command has ended
    expect((await hub.http.post(`/batches/${batch.id}/cancel`).expect(200)).body).toMatchObject({ cancelled_now: 0, with_agent: null, status: 'cancelled' });

    const done = (await hub.http.post('/batches').send({ title: 'u', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] }).expect(201)).body;
    await agent.done((await agent.claim()).command.id, { issues: [], links: [] });
    const before = (await hub.http.get(`/batches/${done.id}`).expect(200)).body;
    const res = await hub.http.post(`/batches/${done.id}/cancel`).expect(409);
    expect(res.body).toEqual({ error: 'finished', detail: expect.stringContaining(`пакет #${done.id} уже завершён`) });
    expect((await hub.http.get(`/batches/${done.id}`).expect(200)).body).toEqual(before);
  });
});
