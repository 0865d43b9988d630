import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo } from 'node:net';
import { agentOf, fields, refreshResult, startHub, type TestHub } from './support/app.js';
import { spawn } from 'node:child_process';
import { connect, connectProcess, STDIO_ENTRY, type McpUnderTest, type Transport } from './support/mcp.js';

const ALL_TOOLS = [
  'agent_status',
  'apply_package',
  'cancel_batch',
  'cancel_command',
  'compare_package',
  'get_batch',
  'get_issue',
  'get_note',
  'import_notes',
  'jira_catalogue',
  'jira_issue_types',
  'jira_link_types',
  'jira_sprints',
  'jira_statuses',
  'jira_users',
  'jira_values',
  'list_batches',
  'package_drift',
  'plan_batch',
  'plan_package',
  'put_note',
  'retry_command',
  'revert_batch',
  'search_issues',
  'submit_batch',
];
const READ_TOOLS = [
  'agent_status',
  'compare_package',
  'get_batch',
  'get_issue',
  'get_note',
  'jira_catalogue',
  'jira_issue_types',
  'jira_link_types',
  'jira_sprints',
  'jira_statuses',
  'jira_users',
  'jira_values',
  'list_batches',
  'package_drift',
  'plan_batch',
  'plan_package',
  'search_issues',
];
const CYRILLIC = /[а-яё]/i;

describe.each<Transport>(['stdio', 'http'])('MCP server over %s', (kind) => {
  let hub: TestHub;
  let url: string;
  let mcp: McpUnderTest;
  let agent: ReturnType<typeof agentOf>;

  beforeAll(async () => {
    hub = await startHub();
    url = hub.url;
    agent = agentOf(hub);
    mcp = await connect(kind, url);
  });
  afterAll(async () => {
    await mcp?.close();
    await hub?.close();
  });

  /** Puts issues and links into the mirror through a refresh the agent reports. */
  const mirror = async (issues: Record<string, unknown>[], links: { source_key: string; target_key: string; link_type: string }[]) => {
    await hub.http.post('/batches').send({ title: 'refresh', commands: [{ type: 'refresh', params: { keys: issues.map((i) => i.key) } }] }).expect(201);
    const { command } = await agent.claim();
    await agent.done(command.id, refreshResult(issues, links));
  };

  it('lists every tool with a description for a model and a JSON Schema of its input', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    for (const t of tools) {
      expect(t.description).toMatch(CYRILLIC);
      expect(t.inputSchema.type).toBe('object');
      expect(t.annotations?.readOnlyHint).toBe(READ_TOOLS.includes(t.name));
    }
    const submit = tools.find((t) => t.name === 'submit_batch')!;
    expect(submit.description).toMatch(/одобрени/);
    expect(submit.description).toMatch(/new:N/);
    expect(submit.description).toMatch(/source блокирует target/);
    expect(submit.inputSchema.required).toEqual(['title', 'commands']);
    expect(Object.keys(submit.inputSchema.properties ?? {})).toContain('idempotency_key');
  });

  it.each([
    ['get_batch', { batch_id: 'семь' }, /batch_id/],
    ['get_batch', {}, /batch_id: обязательный аргумент не передан/],
    ['submit_batch', { title: 'План', commands: [] }, /нужна хотя бы одна команда/],
    ['submit_batch', { title: 'План', commands: [{ type: 'ensure_everything', params: {} }] }, /commands\.0\.type: тип команды/],
    ['get_issue', { key: 'aurora 1' }, /ключ Jira \(AURORA-123\) или временный ключ \(new:1\)/],
    ['put_note', { key: 'A-1' }, /передайте fact_status и\/или comment/],
    ['compare_package', {}, /links_csv: обязательный аргумент не передан/],
  ])('bad input to %s %j → a tool error in Russian, the server keeps serving', async (name, args, message) => {
    const before = (await hub.http.get('/batches').expect(200)).body.length;
    const result = await mcp.call(name, args);
    expect(result.isError).toBe(true);
    expect(mcp.text(result)).toMatch(/^неверные аргументы /);
    expect(mcp.text(result)).toMatch(message);
    expect((await hub.http.get('/batches').expect(200)).body.length).toBe(before);
    expect((await mcp.call('list_batches')).isError).toBeFalsy();
  });

  it('an unknown tool is a tool error in Russian', async () => {
    const result = await mcp.call('drop_database');
    expect(result.isError).toBe(true);
    expect(mcp.text(result)).toMatch(/инструмента drop_database нет/);
  });

  it("the hub's own errors come back as tool errors with its Russian detail", async () => {
    const missing = await mcp.call('get_batch', { batch_id: 999_999 });
    expect(missing.isError).toBe(true);
    expect(mcp.text(missing)).toBe('пакета #999999 нет');
    expect(missing.structuredContent).toMatchObject({ error: 'not_found', status: 404 });
    const invalid = await mcp.call('submit_batch', { title: 'План', commands: [{ type: 'ensure_fields', params: { key: 'A-1', colour: 'red' } }] });
    expect(invalid.isError).toBe(true);
    expect(mcp.text(invalid)).toMatch(CYRILLIC);
    expect(invalid.structuredContent).toMatchObject({ error: 'validation_failed' });
  });

  it('get_issue and search_issues describe links both ways in words, with settings link_types in Russian', async () => {
    await mirror(
      [
        { key: 'AURORA-1', summary: 'Сервер отчётов', status: 'In Progress', sprint: 'Спринт 2' },
        { key: 'AURORA-2', summary: 'Выгрузка отчётов' },
        { key: 'AURORA-3', summary: 'Клон' },
      ],
      [
        { source_key: 'AURORA-1', target_key: 'AURORA-2', link_type: 'Blocks' },
        { source_key: 'AURORA-3', target_key: 'AURORA-2', link_type: 'Cloners' },
      ],
    );
    const one = await mcp.call('get_issue', { key: 'AURORA-2' });
    expect(one.isError).toBeFalsy();
    expect(mcp.text(one)).toContain('AURORA-1 блокирует (Blocks) AURORA-2');
    expect(mcp.text(one)).toContain('AURORA-3 Cloners AURORA-2');
    expect(one.structuredContent).toMatchObject({ key: 'AURORA-2', links_in: expect.arrayContaining([{ source_key: 'AURORA-1', link_type: 'Blocks' }]) });

    const found = await mcp.call('search_issues', { q: 'отчёт' });
    expect(found.structuredContent?.issues.map((i: { key: string }) => i.key).sort()).toEqual(['AURORA-1', 'AURORA-2']);
    // the summary and the values in one fence, the links in another (Jira's text)
    expect(mcp.text(found)).toMatch(/^AURORA-1 <jira-data>Сервер отчётов — .*статус In Progress.*спринт Спринт 2.*<\/jira-data>.*связи: <jira-data>AURORA-1 блокирует \(Blocks\) AURORA-2/m);

    // a temp key reads the issue it became (decision 1506), as get_note does; one no batch created is said so
    const unmade = await mcp.call('get_issue', { key: 'new:9' });
    expect(unmade.isError).toBe(true);
    expect(mcp.text(unmade)).toContain('задачи new:9 в Jira ещё нет: временный ключ становится ключом Jira, когда выполнена команда ensure_issue с ним');

    const none = await mcp.call('search_issues', { keys: ['AURORA-404'] });
    expect(mcp.text(none)).toMatch(/refresh/);
    expect(none.structuredContent).toMatchObject({ issues: [], total: 0 });
  });

  it('put_note and get_note keep the team’s note; compare_package returns the import report', async () => {
    const put = await mcp.call('put_note', { key: 'new:7', fact_status: 'ждём юристов', comment: null });
    expect(put.isError).toBeFalsy();
    expect(put.structuredContent).toMatchObject({ key: 'new:7', fact_status: 'ждём юристов', source: 'assistant' });
    expect(mcp.text(await mcp.call('get_note', { key: 'new:7' }))).toContain('ждём юристов');

    const imported = await mcp.call('import_notes', { notes_csv: 'Ключ;Факт. статус;Комментарий (внутр.)\nAURORA-1;в работе;срочно\n' });
    expect(imported.isError).toBeFalsy();
    expect(mcp.text(imported)).toMatch(/Заметок записано: 1/);
    const report = await mcp.call('compare_package', { links_csv: 'Откуда,Тип,Куда\nAURORA-2,блокирует,AURORA-1\nAURORA-1,связанные,AURORA-3\n' });
    expect(report.isError).toBeFalsy();
    expect(report.structuredContent).toMatchObject({
      notes: 0,
      reversed_links: [{ source: 'AURORA-2', target: 'AURORA-1', link_type: 'Blocks' }],
      missing_links: [{ source: 'AURORA-1', target: 'AURORA-3', link_type: 'Relates' }],
    });
    expect(mcp.text(report)).toMatch(/Нет в Jira: 1/);
    expect((await hub.http.get('/notes/AURORA-1').expect(200)).body).toMatchObject({ fact_status: 'в работе', source: 'import' });

    const malformed = await mcp.call('compare_package', { links_csv: 'что-то\n' });
    expect(malformed.isError).toBe(true);
    expect(mcp.text(malformed)).toMatch(CYRILLIC);
  });

  it('agent_status says «офлайн» or «онлайн» and names each re-delivered command with its deliveries', async () => {
    // A fresh hub's agent has never called: offline.
    expect(mcp.text(await mcp.call('agent_status'))).toMatch(/^Агент (офлайн|онлайн)/);
    const batch = (await hub.http.post('/batches').send({ title: 'поля', commands: [fields('AURORA-1')] }).expect(201)).body;
    const first = (await agent.claim({ agent_version: '2.0.1' })).command;
    expect(first.id).toBe(batch.commands[0].id);
    hub.clock.advance(1000);
    await agent.claim();
    const status = await mcp.call('agent_status');
    const text = mcp.text(status);
    expect(text).toMatch(/^Агент онлайн/);
    expect(text).toContain('версия 2.0.1');
    expect(text).toContain(`Сейчас у агента команда #${first.id}.`);
    expect(text).toContain(`#${first.id} ensure_fields — выдач 2, последняя выдача ${hub.clock.iso()}`);
    expect(text).toContain('Ответов 429 (лимит Jira) за 24 ч: 0.');
    expect(status.structuredContent).toMatchObject({ online: true, redelivered: [{ id: first.id, deliveries: 2 }] });
    await agent.done(first.id);
    hub.clock.advance(3600_000);
    await hub.http.post('/batches').send({ title: 'ещё', commands: [fields('AURORA-2')] }).expect(201);
    const offline = mcp.text(await mcp.call('agent_status'));
    expect(offline).toMatch(/^Агент офлайн/);
    expect(offline).toMatch(/Внимание: Агент не выходил на связь/);
  });
});

describe.each<Transport>(['stdio', 'http'])('MCP server over %s, read-only (HUB_MCP_READ_ONLY=1)', (kind) => {
  let hub: TestHub;
  let mcp: McpUnderTest;
  beforeAll(async () => {
    hub = await startHub({ HUB_MCP_READ_ONLY: '1' });
    mcp = await connect(kind, hub.url, { HUB_MCP_READ_ONLY: '1' });
  });
  afterAll(async () => {
    await mcp?.close();
    await hub?.close();
  });

  it('lists only the tools that write nothing and refuses the others', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
    const refused = await mcp.call('submit_batch', { title: 'План', commands: [fields('A-1')] });
    expect(refused.isError).toBe(true);
    expect(mcp.text(refused)).toMatch(/только на чтение \(HUB_MCP_READ_ONLY\): submit_batch недоступен/);
    expect((await hub.http.get('/batches').expect(200)).body).toEqual([]);
  });
});

/** A loopback port nobody listens on. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('stdio without a hub', () => {
  it('a script that pipes its requests and closes stdin gets every answer, then the process ends', async () => {
    const port = await deadPort();
    const child = spawn(STDIO_ENTRY.command, STDIO_ENTRY.args, { cwd: STDIO_ENTRY.cwd, env: { ...process.env, HUB_URL: `http://127.0.0.1:${port}` } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'script', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'agent_status', arguments: {} } },
    ];
    child.stdin.end(messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const answers = out.trim().split('\n').map((line) => JSON.parse(line));
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1].result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^хаб недоступен/) }] });
  });

  it('answers a tool call with a Russian tool error naming HUB_URL', async () => {
    const port = await deadPort();
    const mcp = await connectProcess(`http://127.0.0.1:${port}`); // the SDK's client on the entry as its own process
    try {
      const result = await mcp.call('agent_status');
      expect(result.isError).toBe(true);
      expect(mcp.text(result)).toBe(`хаб недоступен по адресу http://127.0.0.1:${port}: ECONNREFUSED; проверьте, что он запущен, и переменную HUB_URL`);
    } finally {
      await mcp.close();
    }
  });
});

describe('MCP server on a hub where the assistant needs no approval (settings approval.assistant: false)', () => {
  let hub: TestHub;
  let mcp: McpUnderTest;

  beforeAll(async () => {
    hub = await startHub();
    await hub.http.patch('/settings').send({ approval: { assistant: false } }).expect(200);
    mcp = await connect('http', hub.url);
  });
  afterAll(async () => {
    await mcp?.close();
    await hub?.close();
  });

  /** A sentence that says a batch waits for a person without saying that the hub's setting decides it. */
  const PROMISE = /(ждут|ждёт|будет ждать|выполнится после|не выполнит|не возьмёт)[^.]*одобрени|одобрени[^.]*(ждут|ждёт)|ничего не уходит в Jira/;
  const unconditional = (text: string) => text.split(/(?<=[.;])\s+/).filter((s) => PROMISE.test(s) && !/настройк|если /.test(s));

  it('the batch of submit_batch runs at once, and no description or instruction promised it would wait for a person', async () => {
    const sent = await mcp.call('submit_batch', { title: 'Без одобрения', commands: [fields('AURORA-1')] });
    expect(sent.structuredContent).toMatchObject({ status: 'queued', source: 'assistant' });
    const { tools } = await mcp.client.listTools();
    const makers = ['submit_batch', 'retry_command', 'revert_batch', 'apply_package'];
    const texts = [
      ['instructions', mcp.client.getInstructions() ?? ''],
      ...tools.filter((t) => makers.includes(t.name)).map((t) => [t.name, t.description ?? '']),
    ];
    expect(texts).toHaveLength(5);
    // Each says it waits only as the hub is set (it said «ничего не уходит в Jira сразу» whatever the setting).
    expect(texts.map(([name, text]) => [name, unconditional(text)])).toEqual(texts.map(([name]) => [name, []]));
    expect(tools.find((t) => t.name === 'submit_batch')!.description).toContain('настройка approval');
  });
});
