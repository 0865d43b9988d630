import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { agentOf, fields, refreshResult, startHub, type TestHub } from './support/app.js';
import { connect, type McpUnderTest, type Transport } from './support/mcp.js';
import { waitFor } from './support/wait.js';

const TOKENS = { HUB_CLIENT_TOKEN: 'client-secret', HUB_AGENT_TOKEN: 'agent-secret', HUB_ASSISTANT_TOKEN: 'assistant-secret' };

/** The agent's side over REST: claims and reports until nothing is left; a refresh reports `issues`. */
async function drain(agent: ReturnType<typeof agentOf>, issues: Record<string, unknown>[]): Promise<number[]> {
  const done: number[] = [];
  for (let c = (await agent.claim()).command; c; c = (await agent.claim()).command) {
    await agent.done(c.id, c.type === 'refresh' ? refreshResult(issues) : { changed: ['duedate'] });
    done.push(c.id);
  }
  return done;
}

describe.each<Transport>(['stdio', 'http'])('an assistant over %s: plan → submit → a person approves → the agent drains → done', (kind) => {
  let hub: TestHub;
  let mcp: McpUnderTest;
  let agent: ReturnType<typeof agentOf>;

  beforeAll(async () => {
    hub = await startHub();
    agent = agentOf(hub);
    mcp = await connect(kind, hub.url);
    // The mirror knows both issues: AURORA-1 is already due 2026-12-01, AURORA-2 has no due date.
    await hub.http.post('/batches').send({ title: 'refresh', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }] }).expect(201);
    await drain(agent, [
      { key: 'AURORA-1', duedate: '2026-12-01' },
      { key: 'AURORA-2', duedate: null },
    ]);
  });
  afterAll(async () => {
    await mcp?.close();
    await hub?.close();
  });

  const plan = { title: 'Сроки спринта', commands: [fields('AURORA-1', { duedate: '2026-12-01' }), fields('AURORA-2', { duedate: '2026-12-15' })] };

  it('walks the whole way', async () => {
    const batchesBefore = (await hub.http.get('/batches').expect(200)).body.length;

    const planned = await mcp.call('plan_batch', plan);
    expect(planned.isError).toBeFalsy();
    expect(planned.structuredContent?.commands.map((c: { verdict: string }) => c.verdict).slice(0, 2)).toEqual(['holds', 'would_change']);
    expect(planned.structuredContent).toMatchObject({ source: 'assistant', awaiting_approval: true });
    const planText = mcp.text(planned);
    expect(planText).toMatch(/^\(1\) ensure_fields AURORA-1: duedate=2026-12-01 — /m);
    expect(planText).toMatch(/^\(2\) ensure_fields AURORA-2: duedate=2026-12-15 — .*«2026-12-15»/m);
    // The hub's verdict sentences outside the fence, the mirror's and the command's values inside.
    expect(planText).toMatch(/^\(1\) ensure_fields AURORA-1: duedate=2026-12-01 — Уже выполнено \(данные зеркала \d+ \S+ назад\): агенту менять нечего\. /m);
    expect(planText).toMatch(/^\(2\) ensure_fields AURORA-2: duedate=2026-12-15 — Изменит \(данные зеркала \d+ \S+ назад\): duedate: пусто → <jira-data>«2026-12-15»<\/jira-data>\. /m);
    expect((await hub.http.get('/batches').expect(200)).body.length).toBe(batchesBefore);

    const submitted = await mcp.call('submit_batch', { ...plan, idempotency_key: `plan-${kind}` });
    expect(submitted.isError).toBeFalsy();
    const batch = submitted.structuredContent!;
    expect(batch).toMatchObject({ status: 'awaiting_approval', source: 'assistant', replayed: false });
    expect(mcp.text(submitted)).toContain('ждёт одобрения человека');
    expect((await agent.claim()).command).toBeNull(); // never claimed while it waits

    const again = await mcp.call('submit_batch', { ...plan, idempotency_key: `plan-${kind}` });
    expect(again.structuredContent).toMatchObject({ id: batch.id, replayed: true });
    expect(mcp.text(again)).toMatch(/^Пакет с ключом идемпотентности «plan-\w+» уже был отправлен/);
    const mismatch = await mcp.call('submit_batch', { ...plan, title: 'Другой', idempotency_key: `plan-${kind}` });
    expect(mismatch.isError).toBe(true);
    expect(mismatch.structuredContent).toMatchObject({ error: 'idempotency_mismatch' });
    expect(mcp.text(mismatch)).toMatch(/[а-яё]/);

    const waiting = await mcp.call('list_batches', { status: 'awaiting_approval' });
    expect(waiting.structuredContent?.batches.map((b: { id: number }) => b.id)).toEqual([batch.id]);

    await hub.http.post(`/batches/${batch.id}/approve`).send({ by: 'ivanov' }).expect(200);
    const ran = await drain(agent, [
      { key: 'AURORA-1', duedate: '2026-12-01' },
      { key: 'AURORA-2', duedate: '2026-12-15' },
    ]);
    const { commands } = (await hub.http.get(`/batches/${batch.id}`).expect(200)).body;
    expect(ran).toEqual(commands.map((c: { id: number }) => c.id));

    const finished = await mcp.call('get_batch', { batch_id: batch.id });
    expect(finished.structuredContent).toMatchObject({ id: batch.id, status: 'done', approved_by: 'ivanov' });
    expect(mcp.text(finished)).toMatch(new RegExp(`^Пакет #${batch.id} «Сроки спринта» — завершён \\(.*одобрил ivanov`));
  });

  it('retry_command makes a new batch that waits for approval too; cancel_batch cancels it', async () => {
    const batch = (await mcp.call('submit_batch', { title: 'Отменю', commands: [fields('AURORA-2')] })).structuredContent!;
    const submitted = (await hub.http.get(`/batches/${batch.id}`).expect(200)).body;
    const cancelled = await mcp.call('cancel_command', { command_id: submitted.commands[0].id });
    expect(cancelled.structuredContent).toMatchObject({ status: 'cancelled' });
    const retried = await mcp.call('retry_command', { command_id: submitted.commands[0].id });
    expect(retried.structuredContent).toMatchObject({ title: `Повтор команды #${submitted.commands[0].id}`, status: 'awaiting_approval', source: 'assistant' });
    const gone = await mcp.call('cancel_batch', { batch_id: retried.structuredContent!.id });
    expect(gone.structuredContent).toMatchObject({ status: 'cancelled' });
    expect(mcp.text(gone)).toMatch(/^Пакет отменён\. Отменено команд в очереди: 2\./); // the command and the tail refresh
    // a repeat cancels nothing, and says so (it said «Пакет отменён.» again)
    const again = await mcp.call('cancel_batch', { batch_id: retried.structuredContent!.id });
    expect(mcp.text(again)).toMatch(/^Ни одной команды не отменено: в очереди у пакета их не было\./);
    // a batch whose command failed: finished, not carried out
    expect(mcp.text(again)).toMatch(/Выполнено команд: 0 из \d+; завершено: \d+ из \d+ \(100%\), из них не выполнено \(ошибка, отмена или пропуск\): \d+\./);
  });

  it("the audit records a call on a command with its batch: a refused retry_command or cancel_command on the command's, a retry on the batch it made", async () => {
    const channel = kind === 'stdio' ? 'mcp_stdio' : 'mcp';
    const batch = (await mcp.call('submit_batch', { title: 'Аудит повтора', commands: [fields('AURORA-1')] })).structuredContent!;
    const commandId = (await hub.http.get(`/batches/${batch.id}`).expect(200)).body.commands[0].id;
    // A queued command is not retried: refused, and the refusal says which batch it was about.
    const early = await mcp.call('retry_command', { command_id: commandId });
    expect(early.isError).toBe(true);
    expect(early.structuredContent).toMatchObject({ status: 409, batch_id: batch.id });
    // The hub's words and advice, outside the fence of Jira's data (they came fenced whole, as if Jira had said them).
    expect(mcp.text(early)).toBe(`повторить можно только команду в статусе failed, cancelled или skipped; у команды #${commandId} статус queued`);
    expect((await mcp.call('cancel_command', { command_id: commandId })).isError).toBeFalsy();
    const late = await mcp.call('cancel_command', { command_id: commandId }); // finished: nothing to cancel
    expect(late.structuredContent).toMatchObject({ status: 409, batch_id: batch.id });
    const retried = (await mcp.call('retry_command', { command_id: commandId })).structuredContent!;
    type Row = { channel: string; tool: string; outcome: string; batch_id: number | null };
    const calls = (id: number) => async () => ((await hub.http.get(`/audit?batch_id=${id}`).expect(200)).body as Row[]).filter((r) => r.channel === channel);
    const onBatch = await waitFor('the calls on the batch', async () => {
      const rows = await calls(batch.id)();
      return rows.length >= 4 ? rows : undefined;
    });
    expect(onBatch.map((r) => [r.tool, r.outcome === 'ok' ? 'ok' : 'refused', r.batch_id])).toEqual([
      ['cancel_command', 'refused', batch.id],
      ['cancel_command', 'ok', batch.id],
      ['retry_command', 'refused', batch.id],
      ['submit_batch', 'ok', batch.id],
    ]);
    const onRetry = await waitFor('the retry on its batch', async () => {
      const rows = await calls(retried.id)();
      return rows.length ? rows : undefined;
    });
    expect(onRetry.map((r) => [r.tool, r.outcome])).toEqual([['retry_command', 'ok']]);
  });
});

describe.each<Transport>(['stdio', 'http'])('an assistant over %s with tokens', (kind) => {
  let hub: TestHub;
  let url: string;
  let mcp: McpUnderTest;
  let agent: ReturnType<typeof agentOf>;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    hub = await startHub(TOKENS);
    url = hub.url;
    agent = {
      claim: async () => (await hub.http.post('/agent/claim').set(as(TOKENS.HUB_AGENT_TOKEN)).send({}).expect(200)).body,
      report: (id: number, body: Record<string, unknown>) => hub.http.post(`/agent/commands/${id}/result`).set(as(TOKENS.HUB_AGENT_TOKEN)).send(body),
      done: async (id: number, result: Record<string, unknown> = {}) =>
        (await hub.http.post(`/agent/commands/${id}/result`).set(as(TOKENS.HUB_AGENT_TOKEN)).send({ status: 'done', result }).expect(200)).body,
    };
    mcp = await connect(kind, url, { HUB_ASSISTANT_TOKEN: TOKENS.HUB_ASSISTANT_TOKEN }, as(TOKENS.HUB_ASSISTANT_TOKEN));
  });
  afterAll(async () => {
    await mcp?.close();
    await hub?.close();
  });

  it("submits as the assistant; a person's token approves; the assistant cannot cancel what the agent holds", async () => {
    const batch = (await mcp.call('submit_batch', { title: 'С токеном', commands: [fields('AURORA-1'), fields('AURORA-2')] })).structuredContent!;
    expect(batch).toMatchObject({ status: 'awaiting_approval', source: 'assistant', author: 'assistant' });
    await hub.http.post(`/batches/${batch.id}/approve`).set(as(TOKENS.HUB_CLIENT_TOKEN)).send({}).expect(200);
    const held = (await agent.claim()).command;
    const { commands } = (await hub.http.get(`/batches/${batch.id}`).set(as(TOKENS.HUB_CLIENT_TOKEN)).expect(200)).body;
    expect(held.id).toBe(commands[0].id);
    const refused = await mcp.call('cancel_command', { command_id: held.id });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'claimed', status: 409 });
    // Defect 3: what the assistant can do (ask a person, where), never «force».
    expect(mcp.text(refused)).toMatch(new RegExp(`^Команда #${held.id} уже выдана агенту: ассистент не может её прервать\\. .*попросите человека отменить её на странице http://127\\.0\\.0\\.1:\\d+/#/batch/${batch.id}\\.$`));
    expect(mcp.text(refused)).not.toMatch(/force/);
    expect((await mcp.call('get_batch', { batch_id: batch.id })).structuredContent).toMatchObject({ status: 'running', approved_by: 'client' });
    // A finished command: retry_command is advised only where it would be taken (failed, cancelled, skipped).
    await hub.http.post(`/agent/commands/${held.id}/result`).set(as(TOKENS.HUB_AGENT_TOKEN)).send({ status: 'done', result: {} }).expect(200);
    const done = mcp.text(await mcp.call('cancel_command', { command_id: held.id }));
    expect(done).toMatch(new RegExp(`^Команда #${held.id} уже завершена \\(done\\): отменять нечего; пакет — на странице `));
    expect(done).not.toContain('retry_command');
    const second = (await agent.claim()).command;
    await hub.http.post(`/agent/commands/${second.id}/result`).set(as(TOKENS.HUB_AGENT_TOKEN)).send({ status: 'failed', error: 'HTTP 400' }).expect(200);
    expect(mcp.text(await mcp.call('cancel_command', { command_id: second.id }))).toContain('отменять нечего. Повторить её можно инструментом retry_command; пакет — на странице');
  });

  it('every reading and note tool works with the assistant token', async () => {
    for (const [name, args] of [
      ['agent_status', {}],
      ['list_batches', {}],
      ['search_issues', { q: 'отчёт' }], // reads settings link_types too
      ['put_note', { key: 'AURORA-9', comment: 'от ассистента' }],
      ['get_note', { key: 'AURORA-9' }],
      ['compare_package', { links_csv: 'from,type,to\nAURORA-1,блокирует,AURORA-2\n' }],
      ['import_notes', { notes_csv: 'key,comment\nAURORA-9,заметка\n' }],
      ['plan_batch', { title: 'П', commands: [fields('AURORA-1')] }],
    ] as const) {
      const result = await mcp.call(name, args);
      expect({ name, isError: result.isError ?? false, text: result.isError ? mcp.text(result) : '' }).toEqual({ name, isError: false, text: '' });
    }
  });
});

describe('/mcp over HTTP, auth (SPEC 15.1)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(TOKENS);
  });
  afterAll(() => hub?.close());

  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  const post = () => hub.http.post('/mcp').set('Accept', 'application/json, text/event-stream');

  it('needs the assistant token: none → 401, a wrong one → 401, the agent’s or the client’s → 403', async () => {
    const none = await post().send(initialize).expect(401);
    expect(none.body.error).toBe('unauthorized');
    expect(none.headers['www-authenticate']).toBe('Bearer realm="jira-hub"');
    await post().set('Authorization', 'Bearer nope').send(initialize).expect(401);
    expect((await post().set('Authorization', `Bearer ${TOKENS.HUB_AGENT_TOKEN}`).send(initialize).expect(403)).body.error).toBe('forbidden');
    expect((await post().set('Authorization', `Bearer ${TOKENS.HUB_CLIENT_TOKEN}`).send(initialize).expect(403)).body.error).toBe('forbidden');
    const ok = await post().set('Authorization', `Bearer ${TOKENS.HUB_ASSISTANT_TOKEN}`).send(initialize).expect(200);
    expect(ok.body.result.serverInfo.name).toBe('jira-hub');
  });

  it('is stateless: GET and DELETE answer 405', async () => {
    for (const method of ['get', 'delete'] as const) {
      const res = await hub.http[method]('/mcp').set('Authorization', `Bearer ${TOKENS.HUB_ASSISTANT_TOKEN}`).expect(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.body.error.message).toMatch(/POST/);
    }
  });
});

describe('jira-hub mcp (stdio) with a token the hub refuses', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(TOKENS);
  });
  afterAll(() => hub?.close());

  it.each([
    ['a wrong token', { HUB_ASSISTANT_TOKEN: 'nope' }],
    ['no token', {}],
  ])('%s: the answer says where the token is set and that a person sets it', async (_, env) => {
    const mcp = await connect('stdio', hub.url, env);
    try {
      const refused = await mcp.call('list_batches');
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ error: 'unauthorized', status: 401 });
      expect(mcp.text(refused)).toMatch(/; MCP-сервер передаёт хабу токен из переменной HUB_ASSISTANT_TOKEN .*попросите человека/);
    } finally {
      await mcp.close();
    }
  });
});
