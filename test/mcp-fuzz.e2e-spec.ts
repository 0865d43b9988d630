/**
 * What a fuzzing run over every tool on both transports found: error answers without a size cap,
 * strings no database can hold, lookups that fail on the length of a URL, doubled argument names,
 * malformed requests answered in English, a hub the MCP server could not reach, and stdio lines the
 * SDK reads without answering. Through the
 * official MCP SDK client on both transports (stdio `jira-hub mcp`, Streamable HTTP /mcp).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError, LONE_SURROGATE_DETAIL, NUL_DETAIL } from '../src/common/index.js';
import { NOTE_LIMITS } from '../src/mirror/index.js';
import { MAX_AUTHOR, MAX_TITLE } from '../src/queue/index.js';
import { fields, startHub, type TestHub } from './support/app.js';
import { reportCatalogue } from './support/catalogue.js';
import { PassThrough } from 'node:stream';
import { runMcpStdio, STDIO_BUFFER_BYTES } from '../src/mcp/stdio.js';
import { waitFor } from './support/wait.js';
import { connect, type McpUnderTest, type Transport } from './support/mcp.js';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';

const CAP = 60_000;
const size = (r: { content: unknown; structuredContent?: unknown }) => JSON.stringify(r.content).length + JSON.stringify(r.structuredContent ?? {}).length;
const fieldsOf = (params: Record<string, unknown>) => ({ type: 'ensure_fields', params: { key: 'AURORA-1', ...params } });
const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

describe.each<Transport>(['stdio', 'http'])('the fuzzing run over %s', (kind) => {
  /** The audit's channel of a tool call: the hub's endpoint records what it serves; the stdio server reports its calls. */
  const toolChannel = kind === 'stdio' ? 'mcp_stdio' : 'mcp';
  let hub: TestHub;
  let mcp: McpUnderTest;

  beforeAll(async () => {
    hub = await startHub();
    await reportCatalogue(hub);
    mcp = await connect(kind, hub.url);
  });
  afterAll(async () => {
    await mcp?.close();
    await hub?.close();
  });

  it('1: an error answer stays under the cap; a cut list of findings says how many there are and how to see them', async () => {
    const refresh = await mcp.call('submit_batch', { title: 'П', commands: times(1000, () => ({ type: 'refresh', params: { keys: ['bad'] } })) });
    // Params are the hub's checks' to judge: its refusal lists every finding by seq (SPEC 16.2), cut to the cap.
    expect(refresh.isError).toBe(true);
    expect(size(refresh)).toBeLessThan(CAP);
    expect(refresh.structuredContent).toMatchObject({ status: 422, detail: mcp.text(refresh) });
    expect(mcp.text(refresh)).toMatch(/шаг 1: keys: нужны ключи Jira \(ABC-123\) или временные ключи \(new:N\), а не «bad»/);
    expect(mcp.text(refresh)).toMatch(/… Замечаний всего: 1000, показаны первые \(ответ ограничен по размеру\); все замечания по командам покажет plan_batch с теми же командами, частями \(offset, limit\)\.$/);

    // the dry run answers them as its findings, every one counted
    const fields = await mcp.call('plan_batch', { title: 'П', commands: times(1000, () => ({ type: 'ensure_fields', params: { key: 'AURORA-1', labels: ['a b'], duedate: 'bad', summary: ' ' } })) });
    expect(fields.isError).toBeFalsy();
    expect(size(fields)).toBeLessThan(CAP);
    expect(fields.structuredContent).toMatchObject({ ok: false });
    // each command: its date and its summary (a command with a syntax finding gets no content checks: its label waits for the next pass)
    expect(mcp.text(fields)).toMatch(/Пакет не пройдёт: замечаний 2000 — шаг 1: duedate: нужна дата ГГГГ-ММ-ДД или null; шаг 1: summary: нужна непустая строка;/);

    // the hub's refusal (the catalogue has no such issue type): plan_batch shows every finding, page by page
    const nope = await mcp.call('submit_batch', { title: 'П', commands: times(1000, (i) => ({ type: 'ensure_issue', params: { temp_key: `new:${i + 1}`, issue_type: 'Nope', summary: `Задача ${i}` } })) });
    expect(nope.isError).toBe(true);
    expect(nope.structuredContent).toMatchObject({ error: 'plan_failed', status: 422, findings_total: 1000 });
    // the findings as data as well, the first 50, each with its seq, param and code
    expect(nope.structuredContent!.findings).toHaveLength(50);
    expect((nope.structuredContent!.findings as object[])[0]).toMatchObject({ seq: 1, param: 'issue_type', code: 'unknown_issue_type' });
    expect(size(nope)).toBeLessThan(CAP);
    // the findings name Jira's catalogue: fenced as data, the note of the cut outside
    expect(mcp.text(nope)).toMatch(/^<jira-data>план не пройдёт в Jira: шаг 1: issue_type: .*<\/jira-data>; … Замечаний/);
    expect(mcp.text(nope)).toMatch(/Замечаний всего: 1000, показаны первые \(ответ ограничен по размеру\); все замечания по командам покажет plan_batch с теми же командами, частями \(offset, limit\)\.$/);
  }, 60_000);

  it('1: echoed names are cut: thousands of unknown arguments, a tool name of 100,000 characters', async () => {
    const unknown = await mcp.call('get_batch', { batch_id: 1, ...Object.fromEntries(times(5000, (i) => [`unknown_argument_${i}`, 1])) });
    expect(unknown.isError).toBe(true);
    expect(size(unknown)).toBeLessThan(5_000);
    expect(mcp.text(unknown)).toMatch(/неизвестные аргументы unknown_argument_0, unknown_argument_1, .* и ещё 49\d\d; известные: batch_id, view, offset, limit$/);

    const name = await mcp.call('x'.repeat(100_000));
    expect(name.isError).toBe(true);
    expect(size(name)).toBeLessThan(5_000);
    expect(mcp.text(name)).toMatch(/^инструмента x{100}… \[обрезано: ещё 99900 символов\] нет; доступны: plan_batch, /);
  });

  it('4: a refusal names each argument once, with one message per argument', async () => {
    const refusals: [string, Record<string, unknown>, string][] = [
      ['plan_batch', { title: 'П', commands: 'все' }, 'commands: нужен массив команд'],
      ['plan_batch', { title: 'П', commands: [{ type: 'ensure_fields', params: 5 }] }, 'commands.0.params: нужен объект'],
      ['get_batch', { batch_id: 1, view: 'всё' }, 'view: summary или commands'],
      ['jira_values', { what: 'всё' }, 'what: priorities, components или versions'],
      ['list_batches', { status: 'всё' }, 'status: один из: awaiting_approval, queued, running, done, cancelled, done_with_errors'],
      ['list_batches', { limit: 1e20 }, 'limit: не больше 100'],
      ['get_batch', { batch_id: 1, offset: 1e20 }, 'offset: не больше 9007199254740991'],
      ['get_batch', { batch_id: 2147483648 }, 'batch_id: не больше 2147483647'],
      ['compare_package', { links_csv: 'я'.repeat(1_000_001) }, 'links_csv: не больше 1000000 символов; большой пакет импортируйте через панель или jira-hub import'],
      ['plan_package', { issues_csv: 'я'.repeat(1_000_001) }, 'issues_csv: не больше 1000000 символов; большой пакет передайте хабу файлами: страница «Пакеты» панели или jira-hub plan/apply <папка>'],
      ['apply_package', { links_csv: 'я'.repeat(1_000_001) }, 'links_csv: не больше 1000000 символов; большой пакет передайте хабу файлами: страница «Пакеты» панели или jira-hub plan/apply <папка>'],
    ];
    for (const [name, args, message] of refusals) {
      const answer = await mcp.call(name, args);
      expect({ name, text: mcp.text(answer) }).toEqual({ name, text: `неверные аргументы ${name}: ${message}` });
    }
    // A param of a command is the hub's checks' to judge (SPEC 16.2): a finding of the dry run by seq, beside every other one.
    for (const [command, param] of [
      [{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'С', fields: 5 } }, 'fields'],
      [fieldsOf({ duedate: 'bad' }), 'duedate'],
    ] as const) {
      const plan = await mcp.call('plan_batch', { title: 'П', commands: [command] });
      expect(plan.isError).toBeFalsy();
      expect(plan.structuredContent).toMatchObject({ ok: false, findings: [expect.objectContaining({ seq: 1, param, detail: expect.stringMatching(/[а-я]/) })] });
    }
    const q = mcp.text(await mcp.call('search_issues', { q: 'я'.repeat(501) }));
    expect(q).toMatch(/^неверные аргументы search_issues: q: не длиннее 500 символов — это поиск по словам темы/);
  });

  it('2: a string with a lone surrogate or U+0000 is refused by every tool with the REST words, naming the argument; nothing is written', async () => {
    const NOTES = 'Ключ,Комментарий (внутр.)\nAURORA-1,комм\udc00ентарий\n';
    const LINKS = 'Откуда,Тип,Куда\nAURORA-1,блокирует,AURORA-2\n';
    const refusals: [string, Record<string, unknown>, string][] = [
      ['import_notes', { notes_csv: NOTES }, `notes_csv: ${LONE_SURROGATE_DETAIL}`],
      ['import_notes', { notes_csv: NOTES.replace('\udc00', '\u0000') }, `notes_csv: ${NUL_DETAIL}`],
      ['apply_package', { links_csv: LINKS, name: 'Спринт\ud800' }, `name: ${LONE_SURROGATE_DETAIL}`],
      ['plan_package', { links_csv: LINKS.replace('блокирует', 'блок\udc00ирует') }, `links_csv: ${LONE_SURROGATE_DETAIL}`],
      ['search_issues', { q: 'отчёт\udc00' }, `q: ${LONE_SURROGATE_DETAIL}`],
      ['jira_users', { q: 'ив\u0000ан' }, `q: ${NUL_DETAIL}`],
      ['jira_statuses', { issue_type: 'Task', from: 'To Do\udc00', to: 'Done\u0000' }, `from: ${LONE_SURROGATE_DETAIL}; to: ${NUL_DETAIL}`],
      ['put_note', { key: 'AURORA-1', comment: 'a\udc00', fact_status: 'b\u0000' }, `comment: ${LONE_SURROGATE_DETAIL}; fact_status: ${NUL_DETAIL}`],
      ['submit_batch', { title: 'П', commands: [fields('AURORA-1')], idempotency_key: 'K\udc00' }, `idempotency_key: ${LONE_SURROGATE_DETAIL}`],
      ['plan_batch', { title: 'П', commands: [fields('AURORA-1', { summary: 's1\udc00' })], ['x\udc00']: 1 }, `commands.0.params.summary: ${LONE_SURROGATE_DETAIL}; x\\udc00: ${LONE_SURROGATE_DETAIL}`],
    ];
    const before = (await hub.http.get('/batches?limit=500').expect(200)).body.length;
    for (const [name, args, message] of refusals) {
      const answer = await mcp.call(name, args);
      expect({ name, isError: answer.isError, text: mcp.text(answer) }).toEqual({ name, isError: true, text: `неверные аргументы ${name}: ${message}` });
      expect(answer.structuredContent).toMatchObject({ error: 'invalid_arguments' });
    }
    expect((await hub.http.get('/batches?limit=500').expect(200)).body.length).toBe(before);
    await hub.http.get('/notes/AURORA-1').expect(404);
    // U+FFFD itself is a character like any other: a key with it is a key of its own
    const replacement = await mcp.call('submit_batch', { title: 'П', commands: [fields('AURORA-1')], idempotency_key: 'K\ufffd' });
    expect(replacement.structuredContent).toMatchObject({ replayed: false });
  });

  it('2: such a refused call is audited like any refused call, each offending character written as \\uXXXX (decision 0110)', async () => {
    type Row = { id: number; channel: string; tool: string; arguments: string; outcome: string; detail: string };
    const latest = async (): Promise<Row[]> => (await hub.http.get('/audit?limit=100').expect(200)).body;
    const before = (await latest())[0]?.id ?? 0;
    await mcp.call('put_note', { key: 'AURORA-1', comment: 'a\udc00b', fact_status: 'c\u0000' });
    await mcp.call('plan_batch', { title: 'П', commands: [fields('AURORA-1', { summary: 's\ud800' })], ['x\udc00']: 1 });
    await mcp.call('инструмент\u0000\udc00');
    await mcp.call('создать_задачу'); // a name no header can carry: recorded too
    await mcp.call(' \t'); // a blank name (POST /audit refuses a blank tool): recorded as its JSON string
    const rows = (await latest()).filter((r) => r.id > before && r.channel === toolChannel).reverse();
    expect(rows.map((r) => ({ tool: r.tool, outcome: r.outcome, arguments: JSON.parse(r.arguments) }))).toEqual([
      { tool: 'put_note', outcome: 'invalid_arguments', arguments: { key: 'AURORA-1', comment: 'a\\udc00b', fact_status: 'c\\u0000' } },
      { tool: 'plan_batch', outcome: 'invalid_arguments', arguments: { title: 'П', commands: [fields('AURORA-1', { summary: 's\\ud800' })], ['x\\udc00']: 1 } },
      { tool: 'инструмент\\u0000\\udc00', outcome: 'unknown_tool', arguments: {} },
      { tool: 'создать_задачу', outcome: 'unknown_tool', arguments: {} },
      { tool: '" \\t"', outcome: 'unknown_tool', arguments: {} },
    ]);
    expect(rows[0].detail).toBe(`неверные аргументы put_note: comment: ${LONE_SURROGATE_DETAIL}; fact_status: ${NUL_DETAIL}`);
    expect(rows[2].detail).toMatch(/^инструмента инструмент\\u0000\\udc00 нет; доступны: /);
  });

  type AuditRow = { id: number; channel: string; tool: string; arguments: string; outcome: string; detail: string | null };
  /** The audit's rows recorded by `calls`, oldest first. */
  const audited = async (calls: () => Promise<unknown>): Promise<AuditRow[]> => {
    const latest = async (): Promise<AuditRow[]> => (await hub.http.get('/audit?limit=100').expect(200)).body;
    const before = (await latest())[0]?.id ?? 0;
    await calls();
    return (await latest()).filter((r) => r.id > before).reverse();
  };
  const clipped = (n: number) => `… [обрезано: ещё ${n} символов]`;

  it('2: the audit cuts a call’s arguments and detail between characters, never inside an emoji (it stored half of one)', async () => {
    const rows = await audited(async () => {
      // The arguments' JSON, {"s":"xx…, has the emoji's two halves at units 1999 and 2000 of the 2,000 kept.
      await mcp.call('get_batch', { s: `${'x'.repeat(1993)}😀${'y'.repeat(100)}` });
      // The detail (500 kept) as POST /audit receives it, the emoji's halves at units 499 and 500.
      await hub.http.post('/audit').send({ tool: 'get_batch', outcome: 'internal', detail: `${'д'.repeat(499)}😀 и дальше` }).expect(204);
    });
    expect(rows.map((r) => ({ tool: r.tool, outcome: r.outcome }))).toEqual([
      { tool: 'get_batch', outcome: 'invalid_arguments' },
      { tool: 'get_batch', outcome: 'internal' },
    ]);
    expect(rows[0].arguments).toBe(`{"s":"${'x'.repeat(1993)}😀${clipped(102)}`);
    expect(rows[1].detail).toBe(`${'д'.repeat(499)}😀${clipped(9)}`);
  });

  it('2: an unknown tool named past the 100 characters POST /audit takes is audited, its name clipped between characters saying so (it left no row)', async () => {
    const rows = await audited(async () => {
      await mcp.call('x'.repeat(100_000));
      await mcp.call(`${'x'.repeat(67)}😀${'z'.repeat(99_900)}`); // the emoji's halves at units 67 and 68 of the 68 kept
    });
    expect(rows.map((r) => ({ tool: r.tool, outcome: r.outcome }))).toEqual([
      { tool: `${'x'.repeat(68)}${clipped(99_932)}`, outcome: 'unknown_tool' },
      { tool: `${'x'.repeat(67)}😀${clipped(99_900)}`, outcome: 'unknown_tool' },
    ]);
    expect(rows.map((r) => Array.from(r.tool).length)).toEqual([100, 100]);
    expect(rows[0].detail).toMatch(/^инструмента x{100}… \[обрезано: ещё 99900 символов\] нет; доступны: /);
    expect(rows[1].detail).toMatch(/^инструмента x{67}😀z{32}… \[обрезано: ещё 99868 символов\] нет; доступны: /);
  });

  it("3: a lookup's name is refused by its length in the tool's words, and its schema states the hub's own bound", async () => {
    const long = 'x'.repeat(100_000);
    const refusals: [string, Record<string, unknown>, string][] = [
      ['jira_issue_types', { name: long }, 'name'],
      ['jira_statuses', { issue_type: long }, 'issue_type'],
      ['jira_statuses', { issue_type: 'Task', from: long, to: 'Done' }, 'from'],
      ['jira_statuses', { issue_type: 'Task', from: 'To Do', to: long }, 'to'],
      ['jira_sprints', { board: long }, 'board'],
      ['jira_users', { q: 'x'.repeat(5000) }, 'q'],
    ];
    for (const [name, args, argument] of refusals) {
      expect({ name, text: mcp.text(await mcp.call(name, args)) }).toEqual({ name, text: `неверные аргументы ${name}: ${argument}: не длиннее 200 символов` });
    }
    // the bounds are the hub's: its OpenAPI document states them for the same query parameters
    const doc = (await hub.http.get('/docs/json').expect(200)).body as { paths: Record<string, { get: { parameters: { name: string; schema: { maxLength?: number } }[] } }> };
    const { tools } = await mcp.client.listTools();
    const routes: Record<string, string> = { jira_issue_types: '/catalogue/issue-types', jira_statuses: '/catalogue/statuses', jira_sprints: '/catalogue/sprints', jira_users: '/catalogue/users' };
    for (const [name, route] of Object.entries(routes)) {
      const properties = tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, { type?: string; maxLength?: number }>;
      for (const p of doc.paths[route].get.parameters.filter((x) => x.name in properties && properties[x.name].type === 'string')) {
        expect({ name, argument: p.name, maxLength: properties[p.name].maxLength }).toEqual({ name, argument: p.name, maxLength: p.schema.maxLength });
      }
    }
  });

  it("3: put_note's and the batch tools' texts have the hub's own bounds: the longest the hub takes passes, one more is refused by the tool", async () => {
    const { fact_status, comment } = NOTE_LIMITS;
    const note = await mcp.call('put_note', { key: 'AURORA-1', fact_status: 'ф'.repeat(fact_status), comment: 'к'.repeat(comment) });
    expect(note.isError).toBeFalsy();
    expect((await hub.http.get('/notes/AURORA-1').expect(200)).body).toMatchObject({ fact_status: 'ф'.repeat(fact_status), comment: 'к'.repeat(comment) });
    for (const [field, max] of [['fact_status', fact_status], ['comment', comment]] as const) {
      expect(mcp.text(await mcp.call('put_note', { key: 'AURORA-1', [field]: 'я'.repeat(max + 1) }))).toBe(`неверные аргументы put_note: ${field}: не длиннее ${max} символов`);
    }
    const plan = await mcp.call('plan_batch', { title: 'П'.repeat(MAX_TITLE), author: 'а'.repeat(MAX_AUTHOR), commands: [fieldsOf({ duedate: '2026-12-01' })] });
    expect(plan.isError).toBeFalsy();
    expect(mcp.text(await mcp.call('plan_batch', { title: 'П'.repeat(MAX_TITLE + 1), commands: [fieldsOf({ duedate: '2026-12-01' })] }))).toBe(
      `неверные аргументы plan_batch: title: не длиннее ${MAX_TITLE} символов`,
    );
    for (const name of ['plan_batch', 'submit_batch']) {
      expect(mcp.text(await mcp.call(name, { title: 'П', author: 'а'.repeat(MAX_AUTHOR + 1), commands: [fieldsOf({ duedate: '2026-12-01' })] }))).toBe(
        `неверные аргументы ${name}: author: не длиннее ${MAX_AUTHOR} символов`,
      );
    }
    // the hub's OpenAPI document states the same bound for a batch's author
    const doc = (await hub.http.get('/docs/json').expect(200)).body as { components: { schemas: Record<string, { properties: Record<string, { maxLength?: number }> }> } };
    expect(doc.components.schemas.CreateBatchDto.properties.author.maxLength).toBe(MAX_AUTHOR);
    expect(doc.components.schemas.CreateBatchDto.properties.title.maxLength).toBe(MAX_TITLE);
  });

  it('3: a title, an author and a package name are counted alike by the tools and by REST: a variation selector is a character (❤️ is two)', async () => {
    const hearts = (n: number) => '\u2764\uFE0F'.repeat(n);
    const body = { title: hearts(MAX_TITLE / 2 + 1), commands: [fieldsOf({ duedate: '2026-12-01' })] };
    expect(mcp.text(await mcp.call('plan_batch', body))).toBe(`неверные аргументы plan_batch: title: не длиннее ${MAX_TITLE} символов`);
    expect((await hub.http.post('/batches/plan').send(body).expect(422)).body).toEqual({
      error: 'validation_failed',
      detail: `title: не длиннее ${MAX_TITLE} символов`,
      errors: [{ field: 'title', detail: `не длиннее ${MAX_TITLE} символов` }],
    });
    const author = { ...body, title: 'П', author: hearts(MAX_AUTHOR / 2 + 1) };
    expect(mcp.text(await mcp.call('plan_batch', author))).toBe(`неверные аргументы plan_batch: author: не длиннее ${MAX_AUTHOR} символов`);
    expect((await hub.http.post('/batches/plan').send(author).expect(422)).body.detail).toBe(`author: не длиннее ${MAX_AUTHOR} символов`);
    const links = 'from,type,to\nAURORA-1,блокирует,AURORA-2\n';
    expect((await mcp.call('plan_package', { links_csv: links, name: hearts(101) })).isError).toBe(true);
    const form = await hub.http.post('/packages/plan').field('name', hearts(101)).attach('links', Buffer.from(links), 'links.csv').expect(422);
    expect(form.body.detail).toBe('name: не длиннее 200 символов');
  });

  it('3: keys in a URL are bounded: a search with every argument at its longest is answered, a longer key is refused by the tool', async () => {
    const key = (i: number) => `${'K'.repeat(43)}-${100_000 + i}`;
    expect(key(0)).toHaveLength(50);
    const longest = await mcp.call('search_issues', { keys: times(100, key), q: 'я'.repeat(500), status: 'я'.repeat(255), sprint: 'я'.repeat(255), assignee: 'я'.repeat(255), label: 'я'.repeat(255) });
    expect(longest.isError).toBeFalsy();
    expect(mcp.text(longest)).toMatch(/^Ни одна задача зеркала не подходит под фильтр/);
    for (const [name, args] of [
      ['search_issues', { keys: [`${key(0)}1`] }],
      ['get_issue', { key: `A${'B'.repeat(20_000)}-1` }],
      ['get_note', { key: `A${'B'.repeat(20_000)}-1` }],
      ['put_note', { key: `A${'B'.repeat(20_000)}-1`, comment: 'ок' }],
    ] as const) {
      expect(mcp.text(await mcp.call(name, args))).toMatch(new RegExp(`^неверные аргументы ${name}: key(s\\.0)?: не длиннее 50 символов$`));
    }
  });

  it('5: a malformed request gets -32602 in Russian naming the parameter, and the server goes on', async () => {
    const malformed: [{ method: string; params?: Record<string, unknown> }, RegExp][] = [
      [{ method: 'tools/call' }, /^tools\/call: не передано имя инструмента \(params\.name\); список инструментов — tools\/list$/],
      [{ method: 'tools/call', params: { name: 'x'.repeat(100_000), arguments: [] } }, /^tools\/call x{100}… \[обрезано: ещё 99900 символов\]: params\.arguments — объект с аргументами инструмента$/],
      [{ method: 'tools/list', params: { cursor: 5 } }, /^tools\/list: неверные параметры: params\.cursor: ожидалось: строка, а передано: число$/],
      [{ method: 'initialize', params: {} }, /^initialize: неверные параметры: params\.protocolVersion: обязательный аргумент не передан; params\.capabilities: /],
    ];
    for (const [request, message] of malformed) {
      const error = await mcp.client.request(request as never, EmptyResultSchema).then(
        () => undefined,
        (err: { code: number; message: string }) => ({ code: err.code, message: err.message.replace(/^MCP error -32602: /, '') }),
      );
      expect({ method: request.method, error }).toEqual({ method: request.method, error: { code: -32602, message: expect.stringMatching(message) } });
    }
    expect((await mcp.client.listTools()).tools.length).toBe(25);
  });
});

describe('6: the MCP server reaches the hub on any port, and says what is wrong with its settings', () => {
  /** Ports of the WHATWG fetch standard's «bad ports» list, which fetch() refuses to call. */
  const BAD_PORTS = [6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 10080];
  let hub: TestHub | undefined;
  beforeAll(async () => {
    for (const port of BAD_PORTS) {
      hub = await startHub({}, undefined, port).catch((err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? undefined : Promise.reject(err)));
      if (hub) break;
    }
  });
  afterAll(() => hub?.close());

  it('over stdio, a hub on a port fetch refuses answers the tools', async () => {
    expect(BAD_PORTS).toContain(hub!.port);
    const mcp = await connect('stdio', hub!.url);
    try {
      const status = await mcp.call('agent_status');
      expect({ isError: status.isError, text: mcp.text(status) }).toEqual({ isError: undefined, text: expect.stringMatching(/^Агент офлайн/) });
    } finally {
      await mcp.close();
    }
  });

  it("over /mcp, the tools of a hub on such a port call its REST API (the SDK's client is fetch's, so the request is supertest's)", async () => {
    const res = await hub!.http
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'agent_status', arguments: {} } })
      .expect(200);
    expect({ isError: res.body.result.isError, text: res.body.result.content[0].text }).toEqual({ isError: undefined, text: expect.stringMatching(/^Агент офлайн/) });
  });

  it.each([
    [{ HUB_URL: 'not a url' }, /^HUB_URL: «not a url» — не адрес; укажите адрес хаба, например http:\/\/127\.0\.0\.1:3000$/],
    [{ HUB_URL: 'ftp://127.0.0.1:3000' }, /^HUB_URL: адрес ftp:\/\/… не подходит: хаб отвечает по http:\/\/ или https:\/\/, например http:\/\/127\.0\.0\.1:3000$/],
    [{ HUB_URL: 'http://user:secret@127.0.0.1:3000' }, /^HUB_URL: адрес хаба без имени и пароля; токен задаёт HUB_ASSISTANT_TOKEN$/],
    // the tools append their routes to the address: a query or a fragment, even an empty one, would swallow them
    ...['http://127.0.0.1:4231?x=1', 'http://127.0.0.1:4231#frag', 'http://127.0.0.1:4231/?', 'http://127.0.0.1:4231/mcp#'].map(
      (url): [Record<string, string>, string] => [{ HUB_URL: url }, `HUB_URL: «${url}» — адрес хаба без запроса (?…) и фрагмента (#…), например http://127.0.0.1:3000 или http://127.0.0.1:3000/mcp`],
    ),
    [{ HUB_ASSISTANT_TOKEN: 'токен' }, /^HUB_ASSISTANT_TOKEN: символ «т» \(U\+0442\) нельзя передать в заголовке Authorization; токен — латинские буквы, цифры и знаки ASCII$/],
    // As a process, a ConfigError of the start is one line and exit code 2: mcp-defects spawns that path once.
  ])('a bad setting %j stops the stdio server at the start with a Russian message', async (env, message) => {
    const err = await runMcpStdio({ HUB_URL: 'http://127.0.0.1:3000', ...env }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(message);
  });
});

describe('7: stdio lines the SDK cannot read are answered, and the server goes on', () => {
  let hub: TestHub | undefined;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub?.close());

  it('not JSON → -32700, JSON that is not JSON-RPC → -32600, a line over the limit → -32600; then ping is answered', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: Record<string, any>[] = [];
    let text = '';
    output.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n')) {
        lines.push(JSON.parse(text.slice(0, i)));
        text = text.slice(i + 1);
      }
    });
    const log = console.error;
    console.error = () => undefined; // the start's line belongs to a process's stderr
    const running = runMcpStdio({ HUB_URL: hub!.url }, { input, output });
    try {
      input.write('{"jsonrpc": \n');
      input.write('{"hello": "world"}\n');
      // One line longer than the server reads, written in pieces as a pipe would carry it.
      const piece = Buffer.alloc(8 * 1024 * 1024, 0x61);
      for (let written = 0; written <= STDIO_BUFFER_BYTES; written += piece.length) input.write(piece);
      input.write('\n');
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' })}\n`);
      await waitFor('four answers', () => (lines.length >= 4 ? lines : undefined));
      expect(lines).toEqual([
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'строка не является JSON: каждое сообщение — один объект JSON-RPC 2.0 в строке' } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'строка не является сообщением JSON-RPC 2.0: нужны поля jsonrpc: "2.0", method и id (у запроса)' } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'сообщение длиннее 64 МиБ: сервер его не читает; отправьте данные частями' } },
        { jsonrpc: '2.0', id: 7, result: {} },
      ]);
    } finally {
      input.end();
      await running;
      console.error = log;
    }
  });
});
