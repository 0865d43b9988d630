import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { formatReport, main } from '../src/cli.js';
import { MAX_PACKAGE_RECORDS } from '../src/import/package-reader.js';
import { agentOf, issue, refreshResult, startHub, type TestHub } from './support/app.js';
import { reportCatalogue } from './support/catalogue.js';
import { testDatabaseEnv } from './support/pg.js';

/** The line the CLI prints first: the database it writes (the SQLite file, or PostgreSQL in the PostgreSQL pass). */
const databaseLine = (hub: TestHub) => `база данных: ${hub.config.databaseUrl ? 'PostgreSQL (HUB_DATABASE_URL)' : hub.config.dbPath}`;

describe('import of a planning package (SPEC 8)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  async function mirror(issues: string[], links: { source_key: string; target_key: string; link_type: string }[]) {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: issues } }] });
    const c = (await agent.claim()).command;
    await agent.done(c.id, refreshResult(issues.map((key) => ({ key })), links));
  }
  const upload = (files: Record<string, string | Buffer>) => {
    let req = hub.http.post('/import');
    for (const [field, content] of Object.entries(files)) req = req.attach(field, Buffer.from(content), `${field}.csv`);
    return req;
  };

  it('scenario 13: a reversed link is reported as reversed, an absent one as missing', async () => {
    await mirror(['AURORA-1533', 'AURORA-1586', 'AURORA-1600'], [{ source_key: 'AURORA-1586', target_key: 'AURORA-1533', link_type: 'Relates' }]);
    const links = 'Откуда,Тип,Куда,Пояснение (внутр.)\nAURORA-1533,связанные,AURORA-1586,\nAURORA-1533,блокирует,AURORA-1600,важно\n';
    const res = await upload({ links }).expect(200);
    expect(res.body).toEqual({
      notes: 0,
      expected_links: [
        { source: 'AURORA-1533', target: 'AURORA-1586', link_type: 'Relates' },
        { source: 'AURORA-1533', target: 'AURORA-1600', link_type: 'Blocks' },
      ],
      missing_keys: [],
      missing_links: [{ source: 'AURORA-1533', target: 'AURORA-1600', link_type: 'Blocks' }],
      reversed_links: [{ source: 'AURORA-1533', target: 'AURORA-1586', link_type: 'Relates' }],
    });
  });

  it('with the catalogue, a type written as Jira\'s name in another case or as its words reads as a batch and a package plan read it: not a false «missing» (decision 1445)', async () => {
    await reportCatalogue(hub);
    await mirror(['AURORA-1', 'AURORA-2', 'AURORA-3'], [{ source_key: 'AURORA-3', target_key: 'AURORA-2', link_type: 'Blocks' }]);
    const links = 'Откуда;Тип;Куда\nAURORA-3;blocks;AURORA-2\nAURORA-2;is blocked by;AURORA-3\nAURORA-2;BLOCKS;AURORA-3\nAURORA-1;блокирует;AURORA-2\n';
    const res = await upload({ links }).expect(200);
    expect(res.body).toEqual({
      notes: 0,
      expected_links: [
        { source: 'AURORA-3', target: 'AURORA-2', link_type: 'Blocks' },
        { source: 'AURORA-2', target: 'AURORA-3', link_type: 'Blocks' },
        { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' },
      ],
      missing_keys: [],
      missing_links: [{ source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }],
      reversed_links: [{ source: 'AURORA-2', target: 'AURORA-3', link_type: 'Blocks' }],
    });
    // The same links.csv, planned as a package, agrees: nothing to create for the first three rows.
    const plan = (await hub.http.post('/packages/plan').attach('links', Buffer.from(links), 'links.csv').expect(200)).body;
    expect(plan.commands.map((c: { params: object }) => c.params)).toEqual([{ source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }]);
  });

  it('a note for a temp key that a waiting ensure_issue defines again stays under the temp key until it is created', async () => {
    await hub.http.post('/batches').send({ title: 'i', commands: [issue('new:1', 'Первая')] }).expect(201);
    await agent.done((await agent.claim()).command.id, { key: 'A-10', created: true });
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'A-10' }]));
    await hub.http.post('/batches').send({ title: 'i2', commands: [issue('new:1', 'Вторая')] }).expect(201);
    const report = (await upload({ notes: 'key,comment\nnew:1,для второй\n', links: 'from,type,to\nnew:1,Blocks,A-11\n' }).expect(200)).body;
    expect(await notesNow()).toEqual([expect.objectContaining({ key: 'new:1' })]);
    // links resolve through SPEC 6.3 (the newest resolution, A-10, until the new one reports)
    expect(report).toMatchObject({ expected_links: [{ source: 'A-10', target: 'A-11', link_type: 'Blocks' }] });
    await agent.done((await agent.claim()).command.id, { key: 'A-50', created: true });
    expect((await hub.http.get('/notes/A-50').expect(200)).body.comment).toBe('для второй');
  });

  it('BOM, semicolons, English headers, temp keys resolved or skipped, untranslated types, missing keys', async () => {
    await hub.http.post('/batches').send({ title: 'i', commands: [issue('new:1', 'X')] });
    await agent.done((await agent.claim()).command.id, { key: 'A-10', created: true });
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'A-10' }], [{ source_key: 'A-10', target_key: 'A-11', link_type: 'Cloners' }]));
    const notes = '\uFEFFKey;Fact_Status;Comment\nnew:1;в работе;ждём\nA-12;;\n';
    const links = '\uFEFF FROM ; type ; To ; note\nnew:1;Cloners;A-11;\nnew:2;блокирует;A-10;\n;связанные;A-10;\n';
    const res = await upload({ notes, links }).expect(200);
    expect(res.body).toEqual({
      notes: 2,
      expected_links: [{ source: 'A-10', target: 'A-11', link_type: 'Cloners' }],
      missing_keys: ['A-11', 'A-12'],
      missing_links: [],
      reversed_links: [],
      // issue 22: rows that cannot be compared are said, not dropped silently
      skipped_links: [
        { row: 3, from: 'new:2', to: 'A-10', reason: 'new:2 ещё не создан (временный ключ без задачи в Jira)' },
        { row: 4, from: '', to: 'A-10', reason: 'пусто в «Откуда»' },
      ],
    });
    // new:1 is already A-10: its note goes to the issue
    expect((await hub.http.get('/notes/A-10')).body).toMatchObject({ fact_status: 'в работе', comment: 'ждём', source: 'import' });
    expect((await hub.http.get('/notes/new:1').expect(200)).body.key).toBe('A-10'); // read through to the issue's note
    expect((await hub.http.get('/notes')).body.map((n: { key: string }) => n.key)).not.toContain('new:1');
    expect((await hub.http.get('/notes/A-12')).body).toMatchObject({ fact_status: null, comment: null, source: 'import' });
  });

  const EMPTY = { notes: 0, expected_links: [], missing_keys: [], missing_links: [], reversed_links: [] };
  const notesNow = async () => (await hub.http.get('/notes')).body;

  it('a multipart request without files, or no body at all → the empty report (SPEC 8)', async () => {
    const noParts = hub.http.post('/import').set('content-type', 'multipart/form-data; boundary=x').send('--x--\r\n');
    expect((await noParts.expect(200)).body).toEqual(EMPTY);
    expect((await hub.http.post('/import').expect(200)).body).toEqual(EMPTY);
  });

  describe('notes and links must come as files of multipart/form-data', () => {
    const csv = 'key,comment\nA-1,ок\n';
    it.each([
      ['notes as a text field (curl -F notes=<notes.csv)', () => upload({ links: 'from,type,to\n' }).field('notes', csv)],
      ['links as a text field', () => hub.http.post('/import').field('links', 'from,type,to\nA-1,Blocks,A-2\n')],
      ['a JSON body', () => hub.http.post('/import').send({ notes: csv })],
      ['a urlencoded body', () => hub.http.post('/import').type('form').send({ notes: csv })],
    ])('%s → 422, nothing imported', async (_name, send) => {
      const res = await send().expect(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.detail).toContain('multipart/form-data');
      expect(res.body.detail).toMatch(/файл/);
      expect(await notesNow()).toEqual([]);
    });
  });

  it('two files in one field → 422 saying one file per field', async () => {
    const res = await hub.http
      .post('/import')
      .attach('notes', Buffer.from('key\nA-1\n'), 'notes.csv')
      .attach('notes', Buffer.from('key\nA-2\n'), 'notes2.csv')
      .expect(422);
    expect(res.body.detail).toContain('notes');
    expect(res.body.detail).toContain('только один файл');
    expect(res.body.detail).not.toContain('неизвестное');
    expect(await notesNow()).toEqual([]);
  });

  describe('notes keep what the package does not name', () => {
    beforeEach(async () => {
      await hub.http.put('/notes/A-1').send({ fact_status: 'в работе', comment: 'старый' }).expect(200);
    });
    const noteOf = async (key: string) => (await hub.http.get(`/notes/${key}`).expect(200)).body;

    it('a file without a fact_status column keeps the stored fact_status', async () => {
      await upload({ notes: 'key,comment\nA-1,новый\n' }).expect(200);
      expect(await noteOf('A-1')).toMatchObject({ fact_status: 'в работе', comment: 'новый', source: 'import' });
    });

    it('a misspelled header beside a known one (Факт статус) is ignored and clears nothing', async () => {
      await upload({ notes: 'Ключ;Факт статус;comment\nA-1;Готово;новый\n' }).expect(200);
      expect(await noteOf('A-1')).toMatchObject({ fact_status: 'в работе', comment: 'новый' });
    });

    it('every note column misspelled: refused (422), the note as it was (decision 1415)', async () => {
      await upload({ notes: 'Ключ;Факт статус;Коментарий\nA-1;Готово;новый\n' }).expect(422);
      expect(await noteOf('A-1')).toMatchObject({ fact_status: 'в работе', comment: 'старый' });
    });

    it('a present column with an empty cell clears the value', async () => {
      await upload({ notes: 'key,fact_status,comment\nA-1,,новый\n' }).expect(200);
      expect(await noteOf('A-1')).toMatchObject({ fact_status: null, comment: 'новый' });
    });

    it('a note redirected from a resolved temp key keeps the issue note\'s other field', async () => {
      await hub.http.post('/batches').send({ title: 'i', commands: [issue('new:1', 'X')] });
      await agent.done((await agent.claim()).command.id, { key: 'A-1', created: true });
      await upload({ notes: 'key,comment\nnew:1,из плана\n' }).expect(200);
      expect(await noteOf('A-1')).toMatchObject({ fact_status: 'в работе', comment: 'из плана' });
    });
  });

  it('a file not in UTF-8 → 422 naming the file, nothing imported', async () => {
    // «Ключ;Комментарий» / «A-1;ок» in Windows-1251
    const cp1251 = Buffer.from([0xca, 0xeb, 0xfe, 0xf7, 0x3b, 0xea, 0xee, 0xec, 0x0d, 0x0a, 0x41, 0x2d, 0x31, 0x3b, 0xee, 0xea, 0x0d, 0x0a]);
    const res = await hub.http
      .post('/import')
      .attach('links', Buffer.from('from,type,to\nA-1,Blocks,A-2\n'), 'links.csv')
      .attach('notes', cp1251, 'notes.csv')
      .expect(422);
    expect(res.body.detail).toContain('notes.csv');
    expect(res.body.detail).toContain('UTF-8');
    expect(await notesNow()).toEqual([]);
  });

  it('a multipart body cut short or without its boundary → 400 bad_request saying so, nothing imported', async () => {
    const cut = '--x\r\nContent-Disposition: form-data; name="notes"; filename="notes.csv"\r\n\r\nkey,comment\nA-1,ок\n';
    const res = await hub.http.post('/import').set('content-type', 'multipart/form-data; boundary=x').send(cut).expect(400);
    expect(res.body).toEqual({ error: 'bad_request', detail: expect.stringContaining('тело multipart/form-data оборвано') });
    const noBoundary = await hub.http.post('/import').set('content-type', 'multipart/form-data').send('--x--\r\n').expect(400);
    expect(noBoundary.body.detail).toContain('в заголовке Content-Type нет boundary');
    // An empty boundary: busboy found no parts and the import answered 200 with nothing imported.
    const body = '--x\r\nContent-Disposition: form-data; name="notes"; filename="n.csv"\r\n\r\nkey,comment\r\nA-1,zzz\r\n--x--\r\n';
    for (const route of ['/import', '/packages/plan', '/packages/apply']) {
      const empty = await hub.http.post(route).set('content-type', 'multipart/form-data; boundary=').send(body).expect(400);
      expect(empty.body.detail).toContain('в заголовке Content-Type нет boundary');
    }
    expect(await notesNow()).toEqual([]);
  });

  it('a text field beside the files (a misspelled option, say) → 422 naming it, nothing imported', async () => {
    const res = await hub.http.post('/import').field('dryrun', '1').attach('notes', Buffer.from('key,comment\nA-1,ок\n'), 'notes.csv').expect(422);
    expect(res.body).toEqual({
      error: 'validation_failed',
      detail: 'неизвестное поле «dryrun»: файлы — notes и links; текстовых полей нет; ничего не импортировано',
      errors: [{ field: 'dryrun', detail: 'неизвестное поле' }],
    });
    expect(await notesNow()).toEqual([]);
    // Hundreds of them: ten named, the rest counted.
    let many = hub.http.post('/import');
    for (let i = 1; i <= 300; i++) many = many.field(`f${i}`, 'x');
    const crowd = (await many.expect(422)).body;
    expect(crowd.detail).toBe('неизвестное поле «f1», «f2», «f3», «f4», «f5», «f6», «f7», «f8», «f9», «f10» и ещё 290: файлы — notes и links; текстовых полей нет; ничего не импортировано');
    expect(crowd.errors).toHaveLength(10);
  });

  it('note columns all misspelled → 422 naming them, no empty note written (decision 1415)', async () => {
    const res = await upload({ notes: 'Ключ;Факт статус;Коментарий\nA-1;Готово;ок\n' }).expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed', detail: expect.stringContaining('notes.csv, строка 1: нет ни одного известного столбца заметки (неизвестные: «Факт статус», «Коментарий»)') });
    expect(await notesNow()).toEqual([]);
  });

  it('files separated by tabs → 422 naming each file, saying so and which separators are read; no note written', async () => {
    const res = await upload({ notes: 'Ключ\tФакт. статус\tКомментарий (внутр.)\nA-1\tГотово\t"да, ок"\n', links: 'from\ttype\tto\nA-1\tBlocks\tA-2\n' }).expect(422);
    const problem = expect.stringMatching(/^похоже, значения в файле разделены табуляцией .+ разделителем «,» \(запятая\) или «;» \(точка с запятой\)/);
    expect(res.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'notes.csv', detail: problem }, { field: 'links.csv', detail: problem }] });
    expect(res.body.detail).toMatch(/^notes\.csv: похоже, значения в файле разделены табуляцией.+; links\.csv: похоже/);
    expect(await notesNow()).toEqual([]);
  });

  it('a very long unknown column is named by its first 100 characters, not echoed whole: the 422 stays short, no note written', async () => {
    const long = 'Ж'.repeat(20_000);
    const res = await upload({ notes: `Ключ;${long};${long}\nA-1;Готово;ок\n` }).expect(422);
    const shown = `«${'Ж'.repeat(100)}… [обрезано: ещё 19900 символов]»`;
    expect(res.body.detail).toBe(`notes.csv, строка 1: нет ни одного известного столбца заметки (неизвестные: ${shown}, ${shown}): нужен «Факт. статус» (fact_status) или «Комментарий (внутр.)» (comment)`);
    expect(await notesNow()).toEqual([]);
  });

  it('a comment with an unquoted comma (text past the last column) → 422 naming the row, no note written (decision 1406)', async () => {
    const detail = 'ячеек 4, а столбцов в заголовке 3: значение с запятой или точкой с запятой берут в кавычки';
    const res = await upload({ notes: 'key,fact_status,comment\nA-1,ok,первое, второе\n' }).expect(422);
    expect(res.body).toEqual({ error: 'validation_failed', detail: `notes.csv, строка 2: ${detail}`, errors: [{ field: 'notes.csv:2', detail }] });
    expect(await notesNow()).toEqual([]);
  });

  it('U+0000 in a cell → 422 naming file, row and column, as the JSON routes refuse it; no note written, on both engines', async () => {
    const NUL = 'текст содержит нулевой символ (U+0000, \\u0000) — такой текст нельзя сохранить; уберите его';
    const res = await upload({ notes: 'key,fact_status,comment\nA-1,ok,\nA-7,a\u0000b,c\n' }).expect(422);
    expect(res.body).toEqual({ error: 'validation_failed', detail: `notes.csv, строка 3, столбец «fact_status»: ${NUL}`, errors: [{ field: 'notes.csv:3:fact_status', detail: NUL }] });
    expect((await upload({ links: 'from,type,to,note\nA-1,Blocks,A-2,x\u0000\n' }).expect(422)).body.errors).toEqual([{ field: 'links.csv:2:note', detail: NUL }]);
    expect(await notesNow()).toEqual([]);
  });

  it('every bad row of both files in one 422 (and every NUL cell), the first error\'s text first; no note written', async () => {
    const res = await upload({
      notes: `key,fact_status,comment\nA-1,ok,\nabc,,\n,x,\nA-4,${'я'.repeat(2001)},\n`,
      links: 'from,type,to\nA-1,,A 2\n',
    }).expect(422);
    expect(res.body.errors).toEqual([
      { field: 'notes.csv:3', detail: 'ключ «abc» — не ключ Jira (ABC-123) и не временный ключ (new:N)' },
      { field: 'notes.csv:4', detail: 'пустой ключ' },
      { field: 'notes.csv:5', detail: '«Факт. статус» длиннее 2000 символов (2001)' },
      { field: 'links.csv:2', detail: 'конец связи «A 2» — не ключ Jira (ABC-123) и не временный ключ (new:N)' },
      { field: 'links.csv:2', detail: 'пустой тип связи' },
    ]);
    expect(res.body.detail).toMatch(/^notes\.csv, строка 3: ключ «abc» .*; notes\.csv, строка 4: пустой ключ; .*; links\.csv, строка 2: пустой тип связи$/);
    const nul = await upload({ notes: 'key,fact_status,comment\nA-1,a\u0000,b\u0000\nA-2,,\u0000\n' }).expect(422);
    expect(nul.body.errors.map((e: { field: string }) => e.field)).toEqual(['notes.csv:2:fact_status', 'notes.csv:2:comment', 'notes.csv:3:comment']);
    expect(await notesNow()).toEqual([]);
  });

  it('row numbers in errors are file lines, after a quoted multi-line cell too', async () => {
    const res = await upload({ notes: 'key,comment\r\nA-1,"первая\r\nвторая"\r\nbad,x\r\n' }).expect(422);
    expect(res.body.detail).toContain('notes.csv, строка 4');
  });

  it('a file of more records than a package may have (tiny rows, well under 10 MB) → 422 naming the limit, nothing imported', async () => {
    const notes = ['key,comment', ...Array.from({ length: MAX_PACKAGE_RECORDS }, (_, i) => `A-${i + 1},x`)].join('\n');
    const res = await upload({ notes }).expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed', detail: expect.stringContaining(`notes.csv: в файле больше ${MAX_PACKAGE_RECORDS} записей`) });
    expect(await notesNow()).toEqual([]);
  });

  describe('the whole request is capped at 10 MB (SPEC 11.1)', () => {
    const SIX_MB = 6 * 1024 * 1024;
    const bigNotes = `key,comment\nA-1,${'x'.repeat(SIX_MB)}\n`;
    const bigLinks = `from,type,to,note\nA-1,Blocks,A-2,${'y'.repeat(SIX_MB)}\n`;

    it('two files of 6 MB each → 413, nothing imported', async () => {
      const res = await upload({ notes: bigNotes, links: bigLinks }).expect(413);
      expect(res.body).toEqual({ error: 'payload_too_large', detail: 'тело запроса больше 10 МБ: файлы notes и links вместе с разметкой multipart/form-data должны занимать не больше 10 МБ; ничего не импортировано' });
      expect(await notesNow()).toEqual([]);
    });

    it('without Content-Length (chunked) the bytes are counted → 413, nothing imported', async () => {
      const { port } = hub;
      const boundary = 'jira-hub-test-boundary';
      const part = (field: string, content: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${field}.csv"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`;
      const chunks = [part('notes', bigNotes), part('links', bigLinks), `--${boundary}--\r\n`];
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { port, host: '127.0.0.1', method: 'POST', path: '/import', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        for (const c of chunks) req.write(c);
        req.end();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'payload_too_large' });
      expect(await notesNow()).toEqual([]);
    });

    it('a package just under the cap is imported', async () => {
      // about 9.5 MB: 500 notes of 19,000 characters (a comment may have 20,000)
      const rows = Array.from({ length: 500 }, (_, i) => `A-${i + 1},${'z'.repeat(19_000)}`);
      const big = `key,comment\n${rows.join('\n')}\n`;
      expect(big.length).toBeGreaterThan(9 * 1024 * 1024);
      expect((await upload({ notes: big, links: 'from,type,to\nA-1,Blocks,A-2\n' }).expect(200)).body.notes).toBe(500);
    });
  });

  const malformed: [string, Record<string, string>, RegExp][] = [
    ['a bad key in a row', { notes: 'Ключ,Факт. статус\nA-1,ok\nnot a key,x\n' }, /notes\.csv, строка 3/],
    ['no header', { notes: '' }, /notes\.csv/],
    ['unknown columns only', { links: 'a,b,c\n1,2,3\n' }, /links\.csv, строка 1/],
    ['a bad link end', { notes: 'key\nA-1\n', links: 'from,type,to\nA-1,Blocks,A-2\nA-1,Blocks,x-2\n' }, /links\.csv, строка 3/],
  ];
  it.each(malformed)('%s → 422 naming the file and row, no note written', async (_, files, detail) => {
    const res = await upload(files).expect(422);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.detail).toMatch(detail);
    expect((await hub.http.get('/notes')).body).toEqual([]);
  });

  it('CLI `import <folder>` prints a readable report, or JSON with --json', async () => {
    await hub.app.close();
    const folder = join(hub.dir, 'package');
    mkdirSync(folder);
    writeFileSync(join(folder, 'links.csv'), 'from,type,to\nA-1,блокирует,A-2\n');
    writeFileSync(join(folder, 'notes.csv'), 'key,comment\nA-1,hi\n');
    const out: string[] = [];
    const stderr: string[] = [];
    const [log, logError] = [console.log, console.error];
    console.log = (s: string) => out.push(s);
    console.error = (s: string) => stderr.push(s);
    try {
      expect(await main(['import', folder, '--json'], await testDatabaseEnv({ HUB_DB_PATH: hub.config.dbPath }))).toBe(0);
      expect(await main(['import', folder], await testDatabaseEnv({ HUB_DB_PATH: hub.config.dbPath }))).toBe(0);
    } finally {
      [console.log, console.error] = [log, logError];
    }
    expect(stderr).toHaveLength(1); // the --json run names the database on stderr, the other on stdout
    expect(stderr[0]).toMatch(/^база данных: /);
    const report = JSON.parse(out[0]);
    expect(report).toMatchObject({ notes: 1, missing_links: [{ source: 'A-1', target: 'A-2', link_type: 'Blocks' }], missing_keys: ['A-1', 'A-2'] });
    expect(out[1]).toBe(databaseLine(hub)); // the readable report says first which database it wrote
    expect(out[2]).toBe(formatReport(report));
    expect(out[2]).toContain('A-1 —Blocks→ A-2');
    const errors: string[] = [];
    const error = console.error;
    console.error = (s: string) => errors.push(s);
    try {
      expect(await main(['import', join(hub.dir, 'nope')], await testDatabaseEnv({ HUB_DB_PATH: hub.config.dbPath }))).toBe(2);
    } finally {
      console.error = error;
    }
    expect(errors[0]).toBe(`jira-hub: папки ${join(hub.dir, 'nope')} нет; укажите папку с notes.csv и/или links.csv`);
  });

  describe('CLI file names and messages', () => {
    let folder: string;
    let out: string[];
    let errors: string[];
    const run = async (args: string[]) => {
      const log = console.log;
      const error = console.error;
      console.log = (s: string) => out.push(s);
      console.error = (s: string) => errors.push(s);
      try {
        return await main(args, await testDatabaseEnv({ HUB_DB_PATH: hub.config.dbPath }));
      } finally {
        console.log = log;
        console.error = error;
      }
    };
    beforeEach(async () => {
      await hub.app.close();
      folder = join(hub.dir, 'package');
      mkdirSync(folder);
      out = [];
      errors = [];
    });

    it('finds Notes.csv and LINKS.CSV whatever the case of their names', async () => {
      writeFileSync(join(folder, 'Notes.csv'), 'key,comment\nA-1,hi\n');
      writeFileSync(join(folder, 'LINKS.CSV'), 'from,type,to\nA-1,блокирует,A-2\n');
      expect(await run(['import', folder, '--json'])).toBe(0);
      expect(JSON.parse(out[0])).toMatchObject({ notes: 1, expected_links: [{ source: 'A-1', target: 'A-2', link_type: 'Blocks' }] });
      expect(errors).toEqual([databaseLine(hub)]); // with --json, on stderr
    });

    it('a folder without notes.csv and links.csv: the empty report and a Russian warning on stderr', async () => {
      writeFileSync(join(folder, 'notes.txt'), 'key\nA-1\n');
      expect(await run(['import', folder, '--json'])).toBe(0);
      expect(JSON.parse(out[0])).toEqual(EMPTY);
      expect(errors).toHaveLength(2);
      expect(errors[0]).toBe(databaseLine(hub));
      expect(errors[1]).toContain('notes.csv');
      expect(errors[1]).toContain('links.csv');
      expect(errors[1]).toMatch(/нет/);
    });

    it('no folder given → a Russian message', async () => {
      expect(await run(['import'])).toBe(2);
      expect(errors[0]).toMatch(/папк/);
      expect(errors[0]).not.toMatch(/needs a folder/);
    });
  });
});
