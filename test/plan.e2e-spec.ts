/** SPEC 15.4: POST /batches/plan — the findings of a submit, the estimate and a verdict per command; nothing written. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, comment, fields, issue, refreshResult, rowCounts, startHub, type TestHub } from './support/app.js';
import { connect } from './support/mcp.js';

const TABLES = ['batch', 'command', 'delivery', 'idempotency_key', 'issue', 'issue_link', 'issue_note', 'sync_run', 'setting', 'agent_status', 'catalogue'];

describe('dry run (SPEC 15.4)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    // the mirror: blocks A-2; synced at 10:00
    await hub.http.post('/batches').send({ title: 'обновление', commands: [{ type: 'refresh', params: { keys: ['A-1', 'A-2'] } }] }).expect(201);
    const c = (await agent.claim()).command;
    await agent.done(
      c.id,
      refreshResult(
        [
          { key: 'A-1', status: 'Done', sprint: 'Спринт 2', duedate: '2026-12-01', labels: ['b', 'a'] },
          { key: 'A-2', status: 'To Do', assignee: 'ivanov' },
        ],
        [{ source_key: 'A-1', target_key: 'A-2', link_type: 'Blocks' }],
      ),
    );
    hub.clock.advance(5 * 60_000);
  });
  afterAll(() => hub.close());

  const plan = (body: object) => hub.http.post('/batches/plan').send(body);
  const counts = () => rowCounts(hub, TABLES);
  /** The database's bytes: the file and its write-ahead log. */
  const file = () => Buffer.concat(['hub.sqlite', 'hub.sqlite-wal'].map((f) => join(hub.dir, f)).filter(existsSync).map((f) => readFileSync(f)));

  it('a plan of commands that all hold says so for each and writes nothing', async () => {
    const [rowsBefore, bytesBefore] = [await counts(), file()];
    const res = await plan({
      title: 'Проверка',
      commands: [
        fields('A-1', { duedate: '2026-12-01', labels: ['a', 'b'] }),
        { type: 'ensure_status', params: { key: 'A-1', path: ['In Progress', 'Done'] } },
        { type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 2' } },
        { type: 'ensure_link', params: { source: 'A-1', target: 'A-2', link_type: 'Blocks' } },
      ],
    }).expect(200);
    expect(res.body).toMatchObject({
      title: 'Проверка',
      source: 'client',
      awaiting_approval: false,
      all_hold: true,
      counts: { holds: 4, would_change: 0, unknown_key: 0, cannot_judge: 0 },
      estimate_seconds: 120 + 120 + 120 + 90 + 60,
      remaining_seconds: 510,
      text: expect.stringContaining('уже выполнены'),
    });
    const [given, tail] = [res.body.commands.slice(0, 4), res.body.commands[4]];
    for (const c of given) {
      expect(c).toMatchObject({ verdict: 'holds', changes: [], synced_at: '2026-11-30T10:00:00.000Z', age_seconds: 300, tail_refresh: false });
      expect(c.text).toBe('Уже выполнено (данные зеркала 5 мин назад): агенту менять нечего.');
    }
    expect(tail).toMatchObject({ seq: 5, type: 'refresh', tail_refresh: true, verdict: 'cannot_judge', params: { keys: ['A-1', 'A-2'] } });
    expect(await counts()).toEqual(rowsBefore);
    expect(file().equals(bytesBefore)).toBe(true);
  });

  it('would_change names from → to; unknown keys ask for a refresh; what the mirror cannot show says why', async () => {
    const res = await plan({
      title: 'Изменения',
      commands: [
        fields('A-2', { assignee: 'petrov', duedate: null }),
        { type: 'ensure_status', params: { key: 'A-2', path: ['Done'] } },
        { type: 'ensure_link', params: { source: 'A-2', target: 'A-1', link_type: 'Blocks' } },
        fields('B-7'),
        issue('new:1', 'Новая задача'),
        { type: 'ensure_sprint', params: { key: 'new:1', sprint: 'Спринт 3' } },
        comment('A-1'),
      ],
    }).expect(200);
    const v = res.body.commands;
    expect(v[0]).toMatchObject({ verdict: 'would_change', changes: [{ field: 'assignee', from: 'ivanov', to: 'petrov' }], age_seconds: 300 });
    expect(v[0].text).toBe('Изменит (данные зеркала 5 мин назад): assignee: «ivanov» → «petrov».');
    expect(v[1]).toMatchObject({ verdict: 'would_change', changes: [{ field: 'status', from: 'To Do', to: 'Done' }] });
    expect(v[2]).toMatchObject({ verdict: 'would_change', changes: [{ field: 'link', from: 'A-1 → A-2 (Blocks)', to: 'A-2 → A-1 (Blocks)' }] });
    expect(v[3]).toMatchObject({ verdict: 'unknown_key', unknown_keys: ['B-7'], synced_at: null, age_seconds: null });
    expect(v[3].text).toContain('обновите эти задачи в зеркале');
    expect(v[4]).toMatchObject({ verdict: 'cannot_judge', why: expect.stringContaining('ищет её по теме в самой Jira') });
    expect(v[4].why).not.toContain('уже есть');
    expect(v[5]).toMatchObject({ verdict: 'cannot_judge', why: expect.stringContaining('new:1') });
    expect(v[5].why).toBe('задача new:1 появится, только когда этот пакет её создаст');
    expect(v[6]).toMatchObject({ verdict: 'cannot_judge', why: expect.stringContaining('комментарии') });
    expect(res.body.counts).toEqual({ holds: 0, would_change: 3, unknown_key: 1, cannot_judge: 3 });
    expect(res.body.all_hold).toBe(false);
    expect(res.body.text).toMatch(/^Из 7 команд изменят Jira: 3/);
    const one = await hub.http.post('/batches/plan').send({ title: 't', commands: [{ type: 'ensure_fields', params: { key: 'A-1', duedate: '2027-01-01' } }] }).expect(200);
    expect(one.body.text).toMatch(/^Из 1 команды /); // its tail refresh is not counted
  });

  it('lists the findings a submit would answer 422 with, from the same checks, and writes nothing (SPEC 16.2)', async () => {
    const before = await counts();
    const bodies = [
      { title: 't', commands: [issue('new:1', 'Тема'), issue('new:2', 'Тема')] },
      { title: 't', commands: [fields('A-1', { customfield_1: 'x' })] },
      { title: 't', commands: [fields('new:5')] },
    ];
    let pointed = 0;
    for (const body of bodies) {
      const planned = await plan(body).expect(200);
      const submitted = await hub.http.post('/batches').send(body).expect(422);
      expect(planned.body.ok).toBe(false);
      expect(planned.body.findings.length).toBeGreaterThan(0);
      expect(planned.body.findings).toEqual(submitted.body.findings);
      expect(planned.body.text).toMatch(/^Пакет не пройдёт/);
      // A command with findings points at them in words for a person, not at a field of the answer.
      const refused = new Set(planned.body.findings.map((f: { seq: number }) => f.seq));
      for (const c of planned.body.commands.filter((c: { seq: number }) => refused.has(c.seq))) {
        expect(c).toMatchObject({ verdict: 'cannot_judge', text: 'Не проверить заранее: в команде ошибки — см. замечания проверки.' });
        pointed++;
      }
    }
    expect(pointed).toBeGreaterThan(0);
    // A body that is not a batch at all is refused by both alike.
    const shapeless = { title: ' ', commands: [] };
    expect((await plan(shapeless).expect(422)).body).toEqual((await hub.http.post('/batches').send(shapeless).expect(422)).body);
    expect(await counts()).toEqual(before);
  });

  it('an assistant\'s plan says the batch would wait for approval', async () => {
    const res = await plan({ title: 't', commands: [fields('A-1')] }).set('X-Hub-Source', 'assistant').expect(200);
    expect(res.body).toMatchObject({ source: 'assistant', awaiting_approval: true });
  });

  it('an ensure_issue whose summary the mirror already holds says which issue the agent would take', async () => {
    const res = await plan({ title: 't', commands: [issue('new:1', ' s ')] }).expect(200);
    expect(res.body.commands[0]).toMatchObject({ verdict: 'cannot_judge', why: expect.stringContaining('A-1, A-2') });
  });
});

describe('dry run of a command on an issue Jira no longer has (SPEC 7, 15.4)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-2', 'A-3'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'A-2', status: 'To Do' }, { key: 'A-3', status: 'Done' }], [{ source_key: 'A-3', target_key: 'A-2', link_type: 'Blocks' }]));
  });
  afterAll(() => hub.close());

  it('is not judged by the mirror\'s last copy once a refresh by keys did not get the issue back; a later refresh that finds it makes it judged again', async () => {
    const agent = agentOf(hub);
    const body = {
      title: 't',
      commands: [
        { type: 'ensure_status', params: { key: 'A-3', path: ['Done'] } },
        { type: 'ensure_link', params: { source: 'A-3', target: 'A-2', link_type: 'Blocks' } },
        { type: 'ensure_status', params: { key: 'A-2', path: ['Done'] } },
      ],
    };
    expect((await hub.http.post('/batches/plan').send(body).expect(200)).body.commands.map((c: { verdict: string }) => c.verdict)).toEqual(['holds', 'holds', 'would_change', 'cannot_judge']);
    hub.clock.advance(60_000);
    // A-3 deleted in Jira: the refresh of both returns A-2 only.
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-2', 'A-3'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, { ...refreshResult([{ key: 'A-2', status: 'To Do' }]), missing_keys: ['A-3'] });
    const run = (await hub.http.get('/sync-runs').expect(200)).body[0];
    expect(run).toMatchObject({ missing: ['A-3'] });
    const res = (await hub.http.post('/batches/plan').send(body).expect(200)).body;
    const why = `задачи A-3 в Jira больше нет: Jira её не нашла (чтение #${run.id} в /sync-runs) — команда завершится ошибкой; уберите её из пакета или обновите задачу в зеркале, если она вернулась`;
    for (const c of res.commands.slice(0, 2)) {
      expect(c).toMatchObject({ verdict: 'cannot_judge', why, changes: [], unknown_keys: [], synced_at: null, age_seconds: null });
      expect(c.text).toBe(`Не проверить заранее: ${why}.`);
    }
    expect(res.commands[2]).toMatchObject({ verdict: 'would_change' });
    expect(res).toMatchObject({ all_hold: false, counts: { holds: 0, would_change: 1, unknown_key: 0, cannot_judge: 2 } });
    // MCP's plan_batch says the same, in the hub's own words
    const mcp = await connect('http', hub.url);
    try {
      expect(mcp.text(await mcp.call('plan_batch', body))).toContain(`Не проверить заранее: ${why}.`);
    } finally {
      await mcp.close();
    }
    // Found again by a later refresh (moved back): judged by the mirror as ever.
    hub.clock.advance(60_000);
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-3'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'A-3', status: 'Done' }], [{ source_key: 'A-3', target_key: 'A-2', link_type: 'Blocks' }]));
    expect((await hub.http.post('/batches/plan').send(body).expect(200)).body.commands.map((c: { verdict: string }) => c.verdict)).toEqual(['holds', 'holds', 'would_change', 'cannot_judge']);
  });
});
