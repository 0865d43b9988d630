import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Db } from '../src/database/db.service.js';
import { run, sql } from '../src/database/sql.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, comment, fields, issue, startHub, tempDir, type TestHub } from './support/app.js';

describe('batches', () => {
  let hub: TestHub;
  const noBatches = async () => expect((await hub.http.get('/batches').expect(200)).body).toEqual([]);
  /** Sends the body as written, so that JSON.parse makes `__proto__` an own property as it does for any client. */
  const postRaw = (json: string) => hub.http.post('/batches').set('Content-Type', 'application/json').send(json);
  const many = (n: number) => Array.from({ length: n }, (_, i) => fields(`A-${i + 1}`));

  describe('created, listed, cancelled (a hub per test)', () => {
    beforeEach(async () => {
      hub = await startHub();
    });
    afterEach(() => hub.close());

    it('scenario 1: tail refresh and estimate on default pacing', async () => {
      const res = await hub.http
        .post('/batches')
        .send({ title: 'Оценка', commands: [fields('A-1'), fields('A-2'), fields('A-1', { labels: ['x'] }), comment('A-3'), comment('A-1')] })
        .expect(201);
      expect(res.body.commands).toHaveLength(6);
      expect(res.body.commands.map((c: { seq: number }) => c.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(res.body.commands[5]).toMatchObject({ type: 'refresh', params: { keys: ['A-1', 'A-2', 'A-3'] }, status: 'queued', deliveries: 0 });
      expect(res.body.estimate_seconds).toBe(3 * 120 + 2 * 150 + 60);
      expect(res.body.remaining_seconds).toBe(720);
      expect(res.body).toMatchObject({ title: 'Оценка', author: 'api', status: 'queued', cancelled_at: null });
      expect(res.body.counts).toMatchObject({ queued: 6, claimed: 0, done: 0 });
    });

    it('scenario 2: duplicate summaries after trimming → 422 duplicate_summary, nothing written', async () => {
      const res = await hub.http
        .post('/batches')
        .send({ title: 't', commands: [issue('new:1', 'Отчёт'), issue('new:2', ' Отчёт ')] })
        .expect(422);
      expect(res.body.error).toBe('duplicate_summary');
      expect(res.body.detail).toContain('повторяется тема ensure_issue: «Отчёт»');
      await noBatches();
      // the same summary in two Unicode spellings («ё» composed, and «е» + U+0308): one summary, as the agent compares them
      const spelled = await hub.http.post('/batches').send({ title: 't', commands: [issue('new:1', 'Отчёт'), issue('new:2', 'Отче\u0308т')] }).expect(422);
      expect(spelled.body).toMatchObject({ error: 'duplicate_summary', detail: expect.stringContaining('повторяется тема ensure_issue: «Отчёт»') });
      await noBatches();
      await hub.http
        .post('/batches')
        .send({ title: 't', commands: [issue('new:1', 'Отчёт'), issue('new:2', 'отчёт')] })
        .expect(201);
    });

    it('names every repeated summary', async () => {
      const res = await hub.http
        .post('/batches')
        .send({ title: 't', commands: [issue('new:1', 'А'), issue('new:2', 'Б'), issue('new:3', 'А '), issue('new:4', ' Б')] })
        .expect(422);
      // SPEC 12: the fixed sentence for each repeated summary.
      expect(res.body.detail).toContain('повторяется тема ensure_issue: «А»');
      expect(res.body.detail).toContain('повторяется тема ensure_issue: «Б»');
    });

    it('a "__proto__" param in the JSON neither crashes nor pollutes anything', async () => {
      const res = await postRaw('{"title":"t","commands":[{"type":"ensure_fields","params":{"key":"A-1","summary":"x","__proto__":{"parent":"new:9","polluted":1}}}]}');
      expect(res.status).toBe(422);
      expect(res.body.detail).toContain('commands.0.params.__proto__: неизвестное поле');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).parent).toBeUndefined();
      await hub.http.post('/batches').send({ title: 't', commands: [fields('A-2')] }).expect(201);
    });

    it('a custom field named like a key param of another type is a field, not a key (SPEC 4, 5)', async () => {
      // PATCH /settings may refuse such names; a database saved before that rule can still hold them.
      const dir = tempDir();
      try {
        const file = join(dir, 'hub.sqlite');
        const saved = await startHub({ HUB_DB_PATH: file });
        await saved.app
          .get(Db)
          .transaction((m) =>
            run(m, sql`INSERT INTO setting (key, value) VALUES ('fields', ${JSON.stringify(['parent', 'source', 'target'])}) ON CONFLICT(key) DO UPDATE SET value = excluded.value`),
          );
        await saved.close();
        const old = await startHub({ HUB_DB_PATH: file });
        try {
          expect((await old.http.get('/settings').expect(200)).body.fields).toEqual(['parent', 'source', 'target']);
          const res = await old.http
            .post('/batches')
            .send({ title: 't', commands: [fields('A-1', { parent: 'hello world' }), fields('A-2', { source: 'new:5', target: 'new:6', parent: 'A-9' })] })
            .expect(201);
          expect(res.body.commands[2].params).toEqual({ keys: ['A-1', 'A-2'] });
          // Handed out as written: a field value that looks like a temp key is neither waited for nor substituted.
          await agentOf(old).done((await agentOf(old).claim()).command.id);
          expect((await agentOf(old).claim()).command.params).toEqual({ key: 'A-2', source: 'new:5', target: 'new:6', parent: 'A-9' });
        } finally {
          await old.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a temp key used before its definer is refused even when an earlier batch resolved it', async () => {
      await hub.http.post('/batches').send({ title: 'a', commands: [issue('new:1', 'X')] }).expect(201);
      const claimed = (await hub.http.post('/agent/claim').send({}).expect(200)).body.command;
      await hub.http.post(`/agent/commands/${claimed.id}/result`).send({ status: 'done', result: { key: 'A-100', created: true } }).expect(200);
      // Used alone it stands for A-100 ...
      await hub.http.post('/batches').send({ title: 'b', commands: [fields('new:1')] }).expect(201);
      // ... but a later definer in the same batch would make one temp key name two issues.
      const res = await hub.http.post('/batches').send({ title: 'c', commands: [fields('new:1'), issue('new:1', 'Y')] }).expect(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.detail).toContain('шаг 1: временный ключ new:1 используется раньше, чем его создаёт ensure_issue');
      expect(res.body.detail).toContain('(шаг 2)');
      expect((await hub.http.get('/batches').expect(200)).body).toHaveLength(2);
    });

    it('accepts 1000 commands and a custom field listed in settings', async () => {
      await hub.http.post('/batches').send({ title: 't', commands: many(1000) }).expect(201);
      await hub.http.patch('/settings').send({ fields: ['customfield_1'] }).expect(200);
      await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1', { customfield_1: { value: 'x' } })] }).expect(201);
    });

    it('an author given is kept', async () => {
      expect((await hub.http.post('/batches').send({ title: 't', author: 'ivanov', commands: [fields('A-1')] })).body.author).toBe('ivanov');
    });

    it('a refresh-only batch gets no tail', async () => {
      const res = await hub.http.post('/batches').send({ title: 't', commands: [{ type: 'refresh', params: { jql: 'project = A' } }] }).expect(201);
      expect(res.body.commands).toHaveLength(1);
      expect(res.body.estimate_seconds).toBe(60);
    });

    it('tail refresh names temp keys, parents, link ends in order of first appearance', async () => {
      const res = await hub.http
        .post('/batches')
        .send({
          title: 't',
          commands: [
            issue('new:1', 'X', { parent: 'A-9' }),
            { type: 'ensure_link', params: { source: 'A-2', target: 'new:1', link_type: 'Blocks' } },
            { type: 'refresh', params: { keys: ['A-3', 'A-2'] } },
          ],
        })
        .expect(201);
      expect(res.body.commands[3].params).toEqual({ keys: ['new:1', 'A-9', 'A-2', 'A-3'] });
    });

    it('lists newest first with paging and status filter; 404 for unknown ids', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await hub.http.post('/batches').send({ title: `b${i}`, commands: [fields('A-1')] })).body.id);
      await hub.http.post(`/batches/${ids[1]}/cancel`).expect(200);
      const all = (await hub.http.get('/batches').expect(200)).body;
      expect(all.map((b: { id: number }) => b.id)).toEqual([...ids].reverse());
      expect(all[0].commands).toBeUndefined();
      expect((await hub.http.get('/batches?limit=1').expect(200)).body.map((b: { id: number }) => b.id)).toEqual([ids[2]]);
      expect((await hub.http.get(`/batches?before_id=${ids[2]}`).expect(200)).body.map((b: { id: number }) => b.id)).toEqual([ids[1], ids[0]]);
      expect((await hub.http.get('/batches?status=cancelled').expect(200)).body.map((b: { id: number }) => b.id)).toEqual([ids[1]]);
      await hub.http.get('/batches?limit=0').expect(422);
      await hub.http.get('/batches?status=nope').expect(422);
      expect((await hub.http.get('/batches/999').expect(404)).body.error).toBe('not_found');
      await hub.http.get('/batches/abc').expect(404);
      await hub.http.get('/commands/999').expect(404);
      await hub.http.post('/batches/999/cancel').expect(404);
    });

    it('scenario 10 (first half): cancel marks queued commands cancelled, idempotently', async () => {
      const b = (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1'), fields('A-2')] })).body;
      const c1 = (await hub.http.post(`/batches/${b.id}/cancel`).expect(200)).body;
      expect(c1.status).toBe('cancelled');
      expect(c1.cancelled_at).toBe(hub.clock.iso());
      expect(c1.commands.every((c: { status: string; finished_at: string }) => c.status === 'cancelled' && c.finished_at)).toBe(true);
      expect(c1.remaining_seconds).toBe(0);
      hub.clock.advance(1000);
      const c2 = (await hub.http.post(`/batches/${b.id}/cancel`).expect(200)).body;
      expect(c2.cancelled_at).toBe(c1.cancelled_at);
      const cmd = (await hub.http.get(`/commands/${b.commands[0].id}`).expect(200)).body;
      expect(cmd).toMatchObject({ id: b.commands[0].id, batch_id: b.id, seq: 1, status: 'cancelled', retry_of: null, deliveries: 0 });
    });
  });

  // Refusals write nothing, so one hub serves them all: each asserts the list of batches is still empty.
  describe('refused: 422, nothing written (one hub for all)', () => {
    beforeAll(async () => {
      hub = await startHub();
    });
    afterAll(() => hub.close());

    const bad: [string, unknown, string][] = [
      ['unknown type', { title: 't', commands: [{ type: 'ensure_magic', params: {} }] }, 'commands.0.type: неизвестный тип команды'],
      ['missing param', { title: 't', commands: [{ type: 'ensure_status', params: { key: 'A-1' } }] }, 'path: обязательный параметр'],
      ['unknown param', { title: 't', commands: [{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'S', extra: 1 } }] }, 'extra: неизвестный параметр'],
      ['bad key', { title: 't', commands: [fields('a-1')] }, 'key: нужен ключ Jira'],
      ['temp key not defined', { title: 't', commands: [fields('new:7')] }, 'временный ключ new:7 не создаётся в этом пакете'],
      ['temp key used before its definer', { title: 't', commands: [fields('new:1'), issue('new:1', 'X')] }, 'new:1 используется раньше'],
      ['temp key defined twice', { title: 't', commands: [issue('new:1', 'X'), issue('new:1', 'Y')] }, 'new:1 определён дважды'],
      ['keys and jql together', { title: 't', commands: [{ type: 'refresh', params: { keys: ['A-1'], jql: 'project = A' } }] }, 'keys или jql, не оба'],
      ['empty path', { title: 't', commands: [{ type: 'ensure_status', params: { key: 'A-1', path: [] } }] }, 'path: нужен непустой массив'],
      ['a status twice in a path', { title: 't', commands: [{ type: 'ensure_status', params: { key: 'A-1', path: ['Done', 'Reopened', 'Done'] } }] }, 'path: статус «Done» в пути дважды'],
      ['bad date', { title: 't', commands: [fields('A-1', { duedate: '2026-02-30' })] }, 'duedate: нужна дата'],
      ['0 commands', { title: 't', commands: [] }, 'commands: нужна хотя бы одна команда'],
      ['1001 commands', { title: 't', commands: many(1001) }, 'commands: не больше 1000 команд'],
      ['empty title', { title: '  ', commands: [fields('A-1')] }, 'title: нужна непустая строка'],
      ['no title', { commands: [fields('A-1')] }, 'title:'],
      ['wrong param type', { title: 't', commands: [fields('A-1', { labels: 'x' })] }, 'labels: нужен массив строк'],
      ['custom field not in settings', { title: 't', commands: [fields('A-1', { customfield_1: 'x' })] }, 'поле customfield_1 не стандартное'],
      ['params not an object', { title: 't', commands: [{ type: 'ensure_fields', params: ['A-1'] }] }, 'commands.0.params: нужен объект'],
      ['unknown top-level property', { title: 't', commands: [fields('A-1')], colour: 'red' }, 'colour: неизвестное поле'],
      ['commands not an array', { title: 't', commands: 'ensure_fields' }, 'commands:'],
    ];
    it.each(bad)('%s → 422 validation_failed naming the rule, nothing written', async (_, body, expected) => {
      const res = await hub.http.post('/batches').send(body as object).expect(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.detail).toContain(expected);
      await noBatches();
    });

    // Keys named like Object.prototype members are unknown (SPEC 4, 11.1): params get the catalogue's
    // own check (they reach it as sent), the structured part of the body the pipe's.
    const builtInNames: [string, unknown, string][] = [
      ['ensure_issue + hasOwnProperty', { title: 't', commands: [issue('new:1', 'X', { hasOwnProperty: 'x' })] }, 'hasOwnProperty: неизвестный параметр'],
      [
        'ensure_link + hasOwnProperty',
        { title: 't', commands: [{ type: 'ensure_link', params: { source: 'A-1', target: 'A-2', link_type: 'Blocks', hasOwnProperty: 'x' } }] },
        'hasOwnProperty: неизвестный параметр',
      ],
      ['refresh + valueOf', { title: 't', commands: [{ type: 'refresh', params: { keys: ['A-1'], valueOf: 'x' } }] }, 'valueOf: неизвестный параметр'],
      ['ensure_sprint + valueOf', { title: 't', commands: [{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'S', valueOf: 1 } }] }, 'valueOf: неизвестный параметр'],
      ['ensure_comment + toString', { title: 't', commands: [{ type: 'ensure_comment', params: { key: 'A-1', body: 'b', toString: 'x' } }] }, 'toString: неизвестный параметр'],
      [
        'ensure_status + isPrototypeOf',
        { title: 't', commands: [{ type: 'ensure_status', params: { key: 'A-1', path: ['Готово'], isPrototypeOf: true } }] },
        'isPrototypeOf: неизвестный параметр',
      ],
      ['ensure_issue + __defineGetter__', { title: 't', commands: [issue('new:1', 'X', { __defineGetter__: 'x' })] }, '__defineGetter__: неизвестный параметр'],
      ['ensure_fields + toString only', { title: 't', commands: [fields('A-1', { toString: 'x' })] }, 'поле toString не стандартное и не указано в настройке fields'],
      ['ensure_fields + propertyIsEnumerable beside a field', { title: 't', commands: [fields('A-1', { summary: 's', propertyIsEnumerable: 1 })] }, 'поле propertyIsEnumerable не стандартное'],
      ['the batch + toString', { title: 't', commands: [fields('A-1')], toString: 'x' }, 'toString: неизвестное поле'],
      ['a command + hasOwnProperty', { title: 't', commands: [{ ...fields('A-1'), hasOwnProperty: 'x' }] }, 'commands.0.hasOwnProperty: неизвестное поле'],
    ];
    it.each(builtInNames)('%s → 422 naming the param, nothing written', async (_, body, expected) => {
      const res = await hub.http.post('/batches').send(body as object).expect(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.detail).toContain(expected);
      await noBatches();
    });

    // Nest's ValidationPipe would delete these keys silently; the hub's pipe refuses them (common/validation.ts).
    it.each([
      ['ensure_issue + constructor', '{"type":"ensure_issue","params":{"temp_key":"new:1","issue_type":"Task","summary":"X","constructor":"x"}}'],
      ['refresh + constructor', '{"type":"refresh","params":{"keys":["A-1"],"constructor":"x"}}'],
      ['ensure_sprint + prototype', '{"type":"ensure_sprint","params":{"key":"A-1","sprint":"S","prototype":{}}}'],
      ['ensure_issue + __proto__', '{"type":"ensure_issue","params":{"temp_key":"new:1","issue_type":"Task","summary":"X","__proto__":{"parent":"A-1"}}}'],
      ['ensure_fields + __proto__ only', '{"type":"ensure_fields","params":{"key":"A-1","__proto__":{"summary":"x"}}}'],
      ['ensure_fields + __proto__ beside a field', '{"type":"ensure_fields","params":{"key":"A-1","summary":"x","__proto__":"y"}}'],
      ['refresh + __proto__', '{"type":"refresh","params":{"keys":["A-1"],"__proto__":null}}'],
    ])('%s → 422 naming the param, nothing written', async (_, command) => {
      const res = await postRaw(`{"title":"t","commands":[${command}]}`);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.detail).toMatch(/^commands\.0\.params\.(constructor|prototype|__proto__): неизвестное поле$/);
      await noBatches();
    });

    it('constructor, __proto__ or prototype deep inside params (sent on to Jira) → 422 naming the path, not dropped', async () => {
      const res = await postRaw(
        '{"title":"t","commands":[{"type":"ensure_issue","params":{"temp_key":"new:1","issue_type":"Task","summary":"X","fields":{"customfield_1":{"value":"x","constructor":"c","nested":{"__proto__":{}}}}}}]}',
      ).expect(422);
      expect(res.body.detail).toBe('commands.0.params.fields.customfield_1.constructor: неизвестное поле; commands.0.params.fields.customfield_1.nested.__proto__: неизвестное поле');
      await noBatches();
    });

    const typeErrors: [string, unknown, string][] = [
      ['title a number', { title: 5, commands: [fields('A-1')] }, 'title: нужна строка'],
      ['title an object', { title: { ru: 't' }, commands: [fields('A-1')] }, 'title: нужна строка'],
      ['title null', { title: null, commands: [fields('A-1')] }, 'title:'],
      ['author a number', { title: 't', author: 7, commands: [fields('A-1')] }, 'author: нужна строка'],
      ['author an array', { title: 't', author: ['a'], commands: [fields('A-1')] }, 'author: нужна строка'],
      ['a null command', { title: 't', commands: [fields('A-1'), null] }, 'commands.1'],
      ['a string command', { title: 't', commands: ['ensure_fields'] }, 'commands.0'],
      ['a command without params', { title: 't', commands: [{ type: 'ensure_fields' }] }, 'commands.0.params: обязательное поле'],
      ['params null', { title: 't', commands: [{ type: 'ensure_fields', params: null }] }, 'commands.0.params: нужен объект'],
      ['type not a string', { title: 't', commands: [{ type: 1, params: { key: 'A-1', summary: 'x' } }] }, 'commands.0.type: неизвестный тип команды'],
    ];
    it.each(typeErrors)('%s → 422 validation_failed, nothing written', async (_, body, expected) => {
      const res = await hub.http.post('/batches').send(body as object).expect(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.detail).toContain(expected);
      await noBatches();
    });

    it('a duplicate summary beside another error → 422 naming both, nothing written', async () => {
      const res = await hub.http
        .post('/batches')
        .send({ title: 't', commands: [issue('new:1', 'Отчёт'), issue('new:2', 'Отчёт '), fields('a-1'), { type: 'ensure_sprint', params: { key: 'A-1', sprint: 'S', colour: 'x' } }] })
        .expect(422);
      expect(res.body.error).toBe('duplicate_summary');
      expect(res.body.detail).toContain('повторяется тема ensure_issue: «Отчёт»');
      const fieldsNamed = res.body.errors.map((e: { field: string }) => e.field);
      expect(fieldsNamed).toEqual(expect.arrayContaining(['commands', 'commands.2.params', 'commands.3.params']));
      expect(res.body.errors.find((e: { field: string }) => e.field === 'commands.3.params').detail).toContain('colour: неизвестный параметр');
      await noBatches();
    });

    it('a duplicate summary beside an unlisted custom field → 422, nothing written', async () => {
      const res = await hub.http
        .post('/batches')
        .send({ title: 't', commands: [issue('new:1', 'Отчёт'), issue('new:2', 'Отчёт'), fields('A-1', { customfield_1: 'x' })] })
        .expect(422);
      expect(res.body.error).toBe('duplicate_summary');
      expect(res.body.detail).toContain('повторяется тема ensure_issue: «Отчёт»');
      await noBatches();
    });
  });
});
