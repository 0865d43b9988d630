import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { agentOf, issue, refreshResult, startHub, type TestHub } from './support/app.js';

describe('mirror and notes (SPEC 7)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  /** Runs one refresh batch through the agent with the given result. */
  async function refresh(params: Record<string, unknown>, result: object) {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params }] }).expect(201);
    const c = (await agent.claim()).command;
    return (await agent.report(c.id, { status: 'done', result }).expect(200)).body;
  }

  it("keeps a field value from Jira whose keys are named like built-in members (an app field's object)", async () => {
    const value = { valueOf: 1, toString: 'a', hasOwnProperty: true, constructor: 'dropped', nested: { prototype: 'dropped', isPrototypeOf: 2 } };
    await refresh({ keys: ['A-1'] }, refreshResult([{ key: 'A-1', fields: { 'Story Points': value, customfield_1: [{ ['__proto__']: 'dropped', valueOf: 3 }] } }]));
    expect((await hub.http.get('/issues/A-1').expect(200)).body.fields).toEqual({
      'Story Points': { valueOf: 1, toString: 'a', hasOwnProperty: true, nested: { isPrototypeOf: 2 } },
      customfield_1: [{ valueOf: 3 }],
    });
  });

  it('refuses a result whose own keys include constructor, __proto__ or prototype, with nothing changed', async () => {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] }).expect(201);
    const c = (await agent.claim()).command;
    const res = await hub.http
      .post(`/agent/commands/${c.id}/result`)
      .set('Content-Type', 'application/json')
      .send('{"status":"done","result":{"issues":[],"links":[],"constructor":"x"}}')
      .expect(422);
    expect(res.body.detail).toBe('result.constructor: неизвестное поле');
    expect((await hub.http.get(`/commands/${c.id}`).expect(200)).body.status).toBe('claimed');
  });

  it('upserts issues, keeps unknown fields in `fields`, lists and filters them', async () => {
    await refresh(
      { keys: ['A-1', 'A-2', 'A-3'] },
      refreshResult(
        [
          { key: 'A-1', summary: 'Отчёт о продажах', status: 'In Progress', sprint: 'Спринт 2', labels: ['x'], customfield_10042: 5, fields: { story_points: 3 } },
          { key: 'A-2', summary: 'Другое', status: 'Done' },
        ],
        [{ source_key: 'A-1', target_key: 'A-2', link_type: 'Blocks' }],
      ),
    );
    const one = (await hub.http.get('/issues/A-1').expect(200)).body;
    expect(one).toMatchObject({
      key: 'A-1',
      summary: 'Отчёт о продажах',
      status: 'In Progress',
      sprint: 'Спринт 2',
      labels: ['x'],
      fields: { customfield_10042: 5, story_points: 3 },
      synced_at: hub.clock.iso(),
      links_out: [{ target_key: 'A-2', link_type: 'Blocks' }],
      links_in: [],
      note: null,
    });
    expect((await hub.http.get('/issues/A-2')).body.links_in).toEqual([{ source_key: 'A-1', link_type: 'Blocks' }]);
    expect((await hub.http.get('/issues?q=ОТЧЁТ')).body.map((i: { key: string }) => i.key)).toEqual(['A-1']);
    expect((await hub.http.get('/issues?status=Done')).body.map((i: { key: string }) => i.key)).toEqual(['A-2']);
    expect((await hub.http.get('/issues?sprint=Спринт 2')).body.map((i: { key: string }) => i.key)).toEqual(['A-1']);
    expect((await hub.http.get('/issues?keys=A-2,A-9')).body.map((i: { key: string }) => i.key)).toEqual(['A-2']);
    expect((await hub.http.get('/issues?limit=1&offset=1')).body.map((i: { key: string }) => i.key)).toEqual(['A-2']);
    const run = (await hub.http.get('/sync-runs')).body[0];
    expect((await hub.http.get('/issues/A-3').expect(404)).body).toEqual({
      error: 'not_found',
      detail: `задачи A-3 нет в зеркале: Jira её не нашла (чтение #${run.id} в /sync-runs) — задачу удалили, перенесли в другой проект или скрыли от агента`,
    });
    expect(run).toMatchObject({ kind: 'keys', query: 'A-1,A-2,A-3', issues: 2, links: 1, missing: ['A-3'], error: null });
  });

  it("keeps which sprint an issue is in by Jira's id and board (decision 1430); an older agent's name-only refresh is accepted and leaves them unknown", async () => {
    await refresh(
      { keys: ['A-1', 'A-2'] },
      refreshResult([
        { key: 'A-1', sprint: 'Спринт 2', sprint_id: 7, sprint_board_id: 2 },
        // an id without a sprint name is no sprint: the backlog
        { key: 'A-2', sprint: null, sprint_id: 7, sprint_board_id: 2 },
      ]),
    );
    const one = (await hub.http.get('/issues/A-1').expect(200)).body;
    expect(one).toMatchObject({ sprint: 'Спринт 2', sprint_id: 7, sprint_board_id: 2 });
    expect(one.fields).toEqual({});
    expect((await hub.http.get('/issues?keys=A-1,A-2').expect(200)).body.map((i: Record<string, unknown>) => [i.key, i.sprint, i.sprint_id, i.sprint_board_id])).toEqual([
      ['A-1', 'Спринт 2', 7, 2],
      ['A-2', null, null, null],
    ]);
    // An agent of an earlier version reports the name only: accepted, the ids become unknown.
    await refresh({ keys: ['A-1'] }, refreshResult([{ key: 'A-1', sprint: 'Спринт 2' }]));
    expect((await hub.http.get('/issues/A-1').expect(200)).body).toMatchObject({ sprint: 'Спринт 2', sprint_id: null, sprint_board_id: null });
    // An id that is no Jira id: the report is refused, nothing changes.
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] }).expect(201);
    const c = (await agent.claim()).command;
    const refused = await agent.report(c.id, { status: 'done', result: refreshResult([{ key: 'A-1', sprint: 'Спринт 3', sprint_id: '7' }]) }).expect(422);
    expect(refused.body.detail).toContain('issues[0].sprint_id: нужен id Jira');
    expect((await hub.http.get('/issues/A-1').expect(200)).body.sprint).toBe('Спринт 2');
  });

  it("keeps the sprint's state (decision 1434): closed is the backlog's sign; a state it does not know is refused, nothing changes", async () => {
    await refresh(
      { keys: ['A-1', 'A-2', 'A-3'] },
      refreshResult([
        { key: 'A-1', sprint: 'Спринт 0', sprint_id: 3, sprint_board_id: 1, sprint_state: 'closed' },
        // no sprint, no state
        { key: 'A-2', sprint: null, sprint_state: 'active' },
        // an older agent says nothing of it
        { key: 'A-3', sprint: 'Спринт 2', sprint_id: 2, sprint_board_id: 1 },
      ]),
    );
    expect((await hub.http.get('/issues?keys=A-1,A-2,A-3').expect(200)).body.map((i: Record<string, unknown>) => [i.key, i.sprint, i.sprint_state])).toEqual([
      ['A-1', 'Спринт 0', 'closed'],
      ['A-2', null, null],
      ['A-3', 'Спринт 2', null],
    ]);
    expect((await hub.http.get('/issues/A-1').expect(200)).body.fields).toEqual({});
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] }).expect(201);
    const c = (await agent.claim()).command;
    const refused = await agent.report(c.id, { status: 'done', result: refreshResult([{ key: 'A-1', sprint: 'Спринт 0', sprint_state: 'CLOSED' }]) }).expect(422);
    expect(refused.body.detail).toContain('issues[0].sprint_state: нужно active, future, closed или null');
    expect((await hub.http.get('/issues/A-1').expect(200)).body.sprint_state).toBe('closed');
  });

  it('a link removed in Jira disappears; an issue not returned stays', async () => {
    await refresh({ keys: ['A-1', 'A-2'] }, refreshResult([{ key: 'A-1' }, { key: 'A-2' }], [{ source_key: 'A-1', target_key: 'A-2', link_type: 'Blocks' }]));
    await refresh({ keys: ['A-1'] }, refreshResult([{ key: 'A-1', status: 'Done' }], []));
    expect((await hub.http.get('/issues/A-1')).body).toMatchObject({ status: 'Done', links_out: [] });
    expect((await hub.http.get('/issues/A-2')).body.links_in).toEqual([]);
    await refresh({ keys: ['A-1', 'A-2'] }, { issues: [], links: [], missing_keys: ['A-1', 'A-2'] });
    await hub.http.get('/issues/A-1').expect(200);
    expect((await hub.http.get('/sync-runs')).body[0].missing).toEqual(['A-1', 'A-2']);
  });

  it("GET /issues/{key} of a key a refresh asked Jira for and did not get says so, instead of advising another refresh", async () => {
    await refresh({ keys: ['A-1', 'A-3'] }, refreshResult([{ key: 'A-1' }]));
    const run = (await hub.http.get('/sync-runs').expect(200)).body[0];
    expect(run.missing).toEqual(['A-3']);
    expect((await hub.http.get('/issues/A-3').expect(404)).body).toEqual({
      error: 'not_found',
      detail: `задачи A-3 нет в зеркале: Jira её не нашла (чтение #${run.id} в /sync-runs) — задачу удалили, перенесли в другой проект или скрыли от агента`,
    });
    // a key no refresh asked for: a refresh is the way to it
    expect((await hub.http.get('/issues/A-4').expect(404)).body.detail).toBe('задачи A-4 нет в зеркале: обновите эту задачу в зеркале, чтобы прочитать её из Jira');
    // Jira has it again: the mirror shows it
    await refresh({ keys: ['A-3'] }, refreshResult([{ key: 'A-3', summary: 'вернулась' }]));
    expect((await hub.http.get('/issues/A-3').expect(200)).body.summary).toBe('вернулась');
  });

  it('a failed refresh closes its sync run with the error', async () => {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { jql: 'project = A' } }] });
    const c = (await agent.claim()).command;
    await agent.report(c.id, { status: 'failed', error: 'HTTP 400: bad JQL' }).expect(200);
    expect((await hub.http.get('/sync-runs')).body[0]).toMatchObject({ kind: 'jql', query: 'project = A', error: 'HTTP 400: bad JQL', finished_at: hub.clock.iso() });
  });

  it('a refresh force-cancelled while handed out closes its sync run', async () => {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] });
    const c = (await agent.claim()).command;
    await hub.http.post(`/commands/${c.id}/cancel`).send({ force: true }).expect(200);
    expect((await hub.http.get('/sync-runs')).body[0]).toMatchObject({ command_id: c.id, finished_at: hub.clock.iso(), error: 'команда отменена до отчёта агента' });
  });

  it('notes: PUT creates and changes (a field left out is kept), GET lists; bad keys → 422', async () => {
    expect((await hub.http.put('/notes/A-1').send({ fact_status: 'готово' }).expect(200)).body).toMatchObject({
      key: 'A-1',
      fact_status: 'готово',
      comment: null,
      source: 'api',
      updated_at: hub.clock.iso(),
    });
    await hub.http.put('/notes/A-1').send({ comment: 'ок' }).expect(200);
    expect((await hub.http.get('/notes/A-1')).body).toMatchObject({ fact_status: 'готово', comment: 'ок' });
    await hub.http.put('/notes/A-1').send({ fact_status: null }).expect(200);
    expect((await hub.http.get('/notes/A-1')).body.fact_status).toBeNull();
    // as an imported cell: spaces at the ends dropped, a blank value clears the field
    expect((await hub.http.put('/notes/A-1').send({ fact_status: '  в работе  ', comment: '   ' }).expect(200)).body).toMatchObject({ fact_status: 'в работе', comment: null });
    await hub.http.put('/notes/A-1').send({ comment: 'ок' }).expect(200);
    await hub.http.put('/notes/new:3').send({ comment: 'план' }).expect(200);
    expect((await hub.http.get('/notes')).body.map((n: { key: string }) => n.key)).toEqual(['A-1', 'new:3']);
    await hub.http.put('/notes/not-a-key').send({ comment: 'x' }).expect(422);
    await hub.http.put('/notes/A-2').send({ comment: 5 }).expect(422);
    // counted as the import counts a cell: 1,500 hearts with their variation selectors are 3,000 characters
    const hearts = '\u2764\uFE0F'.repeat(1500);
    expect((await hub.http.put('/notes/A-2').send({ fact_status: hearts }).expect(422)).body).toEqual({ error: 'validation_failed', detail: 'fact_status: не длиннее 2000 символов', errors: expect.any(Array) });
    await hub.http.get('/notes/A-2').expect(404);
    // the limit counts the text as stored, its ends trimmed (as the import counts a cell): 2,000 letters and a newline fit
    expect((await hub.http.put('/notes/A-2').send({ fact_status: `${'я'.repeat(2000)}\n` }).expect(200)).body.fact_status).toBe('я'.repeat(2000));
    await refresh({ keys: ['A-1'] }, refreshResult([{ key: 'A-1' }]));
    expect((await hub.http.get('/issues/A-1')).body.note).toMatchObject({ key: 'A-1', comment: 'ок' });
  });

  it('PUT /notes with neither field → 422 naming both, nothing written; a PUT that changes nothing keeps source and updated_at (decision 1408)', async () => {
    const first = (await hub.http.put('/notes/A-1').send({ fact_status: 'готово', comment: 'ок' }).expect(200)).body;
    hub.clock.advance(60_000);
    const empty = await hub.http.put('/notes/A-1').send({}).expect(422);
    expect(empty.body).toEqual({
      error: 'validation_failed',
      detail: 'передайте fact_status и/или comment (null стирает поле)',
      errors: [
        { field: 'fact_status', detail: 'передайте fact_status и/или comment (null стирает поле)' },
        { field: 'comment', detail: 'передайте fact_status и/или comment (null стирает поле)' },
      ],
    });
    await hub.http.put('/notes/A-2').send({}).expect(422);
    await hub.http.get('/notes/A-2').expect(404);
    // The same values again, by the assistant this time: nothing changed, so nothing is written.
    const same = await hub.http.put('/notes/A-1').set('X-Hub-Source', 'assistant').send({ fact_status: 'готово' }).expect(200);
    expect(same.body).toEqual(first);
    expect((await hub.http.get('/notes').expect(200)).body).toEqual([first]);
    // A real change moves both.
    const changed = (await hub.http.put('/notes/A-1').send({ comment: 'иначе' }).expect(200)).body;
    expect(changed).toMatchObject({ comment: 'иначе', source: 'api', updated_at: '2026-11-30T10:01:00.000Z' });
    expect(first.updated_at).toBe('2026-11-30T10:00:00.000Z');
  });

  it('PUT and GET /notes/new:N after new:N resolved to a Jira key use the note of that key, as import does', async () => {
    await hub.http.put('/notes/A-10').send({ fact_status: 'в работе' }).expect(200);
    await hub.http.post('/batches').send({ title: 'i', commands: [issue('new:1', 'Отчёт')] }).expect(201);
    await agent.done((await agent.claim()).command.id, { key: 'A-10', created: true });
    const res = await hub.http.put('/notes/new:1').send({ comment: 'план' }).expect(200);
    expect(res.body).toEqual({ key: 'A-10', fact_status: 'в работе', comment: 'план', source: 'api', updated_at: hub.clock.iso() });
    // reading new:1 reads the note of its key too
    expect((await hub.http.get('/notes/new:1').expect(200)).body).toEqual(res.body);
    expect((await hub.http.get('/notes')).body.map((n: { key: string }) => n.key)).toEqual(['A-10']);
    // an unresolved temp key keeps its own note
    expect((await hub.http.put('/notes/new:2').send({ comment: 'x' }).expect(200)).body.key).toBe('new:2');
  });

  it('GET /issues/new:N reads the issue new:N was created as, with its note, as GET /notes/new:N reads the note (decision 1506)', async () => {
    await hub.http.post('/batches').send({ title: 'i', commands: [issue('new:1', 'Отчёт')] }).expect(201);
    await hub.http.put('/notes/new:1').send({ fact_status: 'план' }).expect(200);
    // not created yet: no refresh can bring it
    expect((await hub.http.get('/issues/new:1').expect(404)).body).toEqual({
      error: 'not_found',
      detail: 'задачи new:1 в Jira ещё нет: временный ключ становится ключом Jira, когда выполнена команда ensure_issue с ним',
    });
    await agent.done((await agent.claim()).command.id, { key: 'A-77', created: true });
    // created, not yet read from Jira: the answer names the key to refresh
    expect((await hub.http.get('/issues/new:1').expect(404)).body.detail).toBe('задачи A-77 (new:1) нет в зеркале: обновите эту задачу в зеркале, чтобы прочитать её из Jira');
    const tail = (await agent.claim()).command;
    expect(tail).toMatchObject({ type: 'refresh', params: { keys: ['A-77'] } });
    await agent.done(tail.id, refreshResult([{ key: 'A-77', summary: 'Отчёт' }, { key: 'A-78' }], [{ source_key: 'A-77', target_key: 'A-78', link_type: 'Blocks' }]));
    const byTempKey = (await hub.http.get('/issues/new:1').expect(200)).body;
    expect(byTempKey).toEqual((await hub.http.get('/issues/A-77').expect(200)).body);
    expect(byTempKey).toMatchObject({ key: 'A-77', summary: 'Отчёт', links_out: [{ target_key: 'A-78', link_type: 'Blocks' }], note: { key: 'A-77', fact_status: 'план' } });
    // a temp key no batch defined is not found either
    expect((await hub.http.get('/issues/new:9').expect(404)).body.detail).toContain('задачи new:9 в Jira ещё нет');
  });

  it('a temp key defined again by a batch still waiting keeps its own note, which moves to the new issue', async () => {
    await hub.http.post('/batches').send({ title: 'i', commands: [issue('new:1', 'Первая')] }).expect(201);
    await agent.done((await agent.claim()).command.id, { key: 'A-10', created: true });
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'A-10' }])); // the tail refresh
    const again = (await hub.http.post('/batches').send({ title: 'i2', commands: [issue('new:1', 'Вторая')] }).expect(201)).body;
    expect((await hub.http.put('/notes/new:1').send({ comment: 'для второй' }).expect(200)).body.key).toBe('new:1');
    expect((await hub.http.get('/notes/new:1').expect(200)).body.comment).toBe('для второй');
    const c = (await agent.claim()).command;
    expect(c.id).toBe(again.commands[0].id);
    await agent.done(c.id, { key: 'A-50', created: true });
    expect((await hub.http.get('/notes/A-50').expect(200)).body.comment).toBe('для второй');
    await hub.http.get('/notes/A-10').expect(404);
    expect((await hub.http.get('/notes/new:1').expect(200)).body.key).toBe('A-50'); // now resolved to the newest
  });

  it('a note kept under a temp key whose new ensure_issue was cancelled stays readable and writable there', async () => {
    await hub.http.post('/batches').send({ title: 'i', commands: [issue('new:1', 'Первая')] }).expect(201);
    await agent.done((await agent.claim()).command.id, { key: 'A-10', created: true });
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'A-10' }]));
    const again = (await hub.http.post('/batches').send({ title: 'i2', commands: [issue('new:1', 'Вторая')] }).expect(201)).body;
    await hub.http.put('/notes/new:1').send({ comment: 'для второй' }).expect(200);
    await hub.http.post(`/batches/${again.id}/cancel`).expect(200);
    expect((await hub.http.get('/notes/new:1').expect(200)).body).toMatchObject({ key: 'new:1', comment: 'для второй' });
    expect((await hub.http.put('/notes/new:1').send({ fact_status: 'отменено' }).expect(200)).body).toMatchObject({ key: 'new:1', comment: 'для второй' });
    await hub.http.get('/notes/A-10').expect(404);
  });

  it('a batch whose commands and tail refresh are done is done', async () => {
    const b = (await hub.http.post('/batches').send({ title: 't', commands: [{ type: 'ensure_sprint', params: { key: 'A-7', sprint: 'Спринт 2' } }] })).body;
    const s = (await agent.claim()).command;
    await agent.done(s.id, { sprint_id: 12 });
    const tail = (await agent.claim()).command;
    await agent.done(tail.id, refreshResult([{ key: 'A-7', sprint: 'Спринт 2' }]));
    expect((await hub.http.get(`/batches/${b.id}`)).body).toMatchObject({ status: 'done', counts: { done: 2 } });
  });
});
