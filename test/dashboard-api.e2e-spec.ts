/**
 * What the dashboard reads of the hub (issue 23): the agent strip (GET /agent and the live `agent` event: the
 * command in hand and its pause, the next command and when it starts), the Queue's counts and failed commands,
 * the mirror's filter choices, and the metrics that alert right (defect 13).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { agentOf, fields, refreshResult, startHub, type TestHub } from './support/app.js';

function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
const scrape = async (hub: TestHub) => (await hub.http.get('/metrics').expect(200)).text;
const T0 = Date.parse('2026-11-30T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

describe('GET /agent: the command in hand, its pause, the next command', () => {
  let hub: TestHub;
  afterEach(() => hub.close());

  it('nothing in hand and nothing queued: both null', async () => {
    hub = await startHub();
    const body = (await hub.http.get('/agent').expect(200)).body;
    expect(body).toMatchObject({ current_command: null, next_command: null });
  });

  it('the pause runs from the last Jira call the claim reported; the next command starts after it plus its own pacing', async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    const batch = (await hub.http.post('/batches').send({ title: 'b', commands: [fields('A-1'), fields('A-2')] }).expect(201)).body;
    // Before any claim the agent was never seen: the next command is known, its start is not.
    expect((await hub.http.get('/agent').expect(200)).body.next_command).toMatchObject({ id: batch.commands[0].id, seq: 1, type: 'ensure_fields', starts_at: null });

    // The agent's last Jira call was 30 s ago; ensure_fields paces 120 s: it sleeps 90 s more.
    const { command } = await agent.claim({ last_jira_call_at: at(-30_000) });
    const body = (await hub.http.get('/agent').expect(200)).body;
    expect(body.current_command).toMatchObject({
      id: command.id,
      batch_id: batch.id,
      seq: 1,
      params: { key: 'A-1', duedate: '2026-12-01' },
      claimed_at: at(0),
      pause_seconds: 120,
      pause_until: at(90_000),
    });
    expect(body.next_command).toMatchObject({ id: batch.commands[1].id, seq: 2, starts_at: at(90_000 + 120_000) });
  });

  it('a claim whose pause has passed has no pause_until; a cancelled batch has no next command', async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    const batch = (await hub.http.post('/batches').send({ title: 'b', commands: [fields('A-1'), fields('A-2')] }).expect(201)).body;
    await agent.claim({ last_jira_call_at: at(-600_000) });
    let body = (await hub.http.get('/agent').expect(200)).body;
    expect(body.current_command.pause_until).toBeNull();
    expect(body.next_command.starts_at).toBe(at(120_000));
    await hub.http.post(`/batches/${batch.id}/cancel`).expect(200);
    body = (await hub.http.get('/agent').expect(200)).body;
    expect(body.next_command).toBeNull();
    expect(body.current_command).not.toBeNull(); // the claimed one stays with the agent
  });

  it('offline: the warning says how long in words, never a raw UTC timestamp', async () => {
    hub = await startHub();
    await hub.http.post('/batches').send({ title: 'b', commands: [fields('A-1'), fields('A-2')] }).expect(201);
    const { command } = await agentOf(hub).claim();
    await hub.http.post(`/agent/commands/${command.id}/result`).send({ status: 'done', result: {} }).expect(200);
    hub.clock.advance(20 * 60_000);
    const body = (await hub.http.get('/agent').expect(200)).body;
    expect(body.online).toBe(false);
    expect(body.warning).toContain('Агент не выходил на связь уже 20 мин');
    expect(body.warning).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(body.next_command.starts_at).toBeNull();
  });
});

describe('GET /metrics: what the agent can take vs what waits for a person', () => {
  let hub: TestHub;
  afterEach(() => hub.close());

  it('commands of a batch awaiting approval are not counted as queued; batches awaiting, agent online and the oldest runnable age', async () => {
    hub = await startHub();
    let text = await scrape(hub);
    expect(sample(text, 'jira_hub_queue_commands', 'status="queued"')).toBe(0);
    expect(sample(text, 'jira_hub_queue_commands', 'status="awaiting_approval"')).toBe(0);
    expect(sample(text, 'jira_hub_batches_awaiting_approval')).toBe(0);
    expect(sample(text, 'jira_hub_agent_online')).toBe(0);
    expect(sample(text, 'jira_hub_oldest_runnable_command_age_seconds')).toBe(0);

    const waiting = (await hub.http.post('/batches').set('X-Hub-Source', 'assistant').send({ title: 'a', commands: [fields('A-1')] }).expect(201)).body;
    expect(waiting.status).toBe('awaiting_approval');
    hub.clock.advance(60_000);
    text = await scrape(hub);
    expect(sample(text, 'jira_hub_queue_commands', 'status="queued"')).toBe(0);
    expect(sample(text, 'jira_hub_queue_commands', 'status="awaiting_approval"')).toBe(2); // with the tail refresh
    expect(sample(text, 'jira_hub_batches_awaiting_approval')).toBe(1);
    expect(sample(text, 'jira_hub_oldest_runnable_command_age_seconds')).toBe(0);

    await hub.http.post('/batches').send({ title: 'b', commands: [fields('A-2')] }).expect(201);
    hub.clock.advance(45_000);
    text = await scrape(hub);
    expect(sample(text, 'jira_hub_queue_commands', 'status="queued"')).toBe(2);
    expect(sample(text, 'jira_hub_oldest_runnable_command_age_seconds')).toBe(45);

    await agentOf(hub).claim();
    text = await scrape(hub);
    expect(sample(text, 'jira_hub_agent_online')).toBe(1);
    expect(sample(text, 'jira_hub_queue_commands', 'status="claimed"')).toBe(1);

    await hub.http.post(`/batches/${waiting.id}/approve`).send({ by: 'Анна' }).expect(200);
    text = await scrape(hub);
    expect(sample(text, 'jira_hub_batches_awaiting_approval')).toBe(0);
    expect(sample(text, 'jira_hub_queue_commands', 'status="awaiting_approval"')).toBe(0);
    expect(sample(text, 'jira_hub_queue_commands', 'status="queued"')).toBe(3);

    hub.clock.advance(10 * 60_000);
    expect(sample(await scrape(hub), 'jira_hub_agent_online')).toBe(0);
  });

  it('the sample alert rules and the Grafana dashboard name only series the hub exposes', async () => {
    hub = await startHub();
    await agentOf(hub).claim(); // every series has a sample
    const text = await scrape(hub);
    const exposed = new Set([...text.matchAll(/^# TYPE (\w+) (\w+)/gm)].flatMap(([, name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name])));
    for (const file of ['docs/monitoring/alerts.yml', 'docs/grafana-dashboard.json']) {
      const named = [...new Set([...readFileSync(file, 'utf8').matchAll(/\b(jira_hub_\w+|process_\w+)/g)].map((m) => m[1]))];
      expect(named.length).toBeGreaterThan(3);
      expect([file, named.filter((n) => !exposed.has(n))]).toEqual([file, []]);
    }
  });
});

describe('the Queue overview: counts per state and failed commands across batches', () => {
  let hub: TestHub;
  afterEach(() => hub.close());

  it('GET /batches/counts and GET /commands?status=failed', async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    expect((await hub.http.get('/batches/counts').expect(200)).body).toEqual({
      all: 0, awaiting_approval: 0, queued: 0, running: 0, done: 0, done_with_errors: 0, cancelled: 0, failed_commands: 0,
    });
    const broken = (await hub.http.post('/batches').send({ title: 'сломанный', commands: [fields('A-1')] }).expect(201)).body;
    const first = (await agent.claim()).command;
    await agent.report(first.id, { status: 'failed', error: 'HTTP 400: нет поля' }).expect(200);
    const tail = (await agent.claim()).command;
    await agent.done(tail.id, { issues: [] });
    await hub.http.post('/batches').set('X-Hub-Source', 'assistant').send({ title: 'ждёт', commands: [fields('A-2')] }).expect(201);
    const cancelled = (await hub.http.post('/batches').send({ title: 'отменённый', commands: [fields('A-3')] }).expect(201)).body;
    await hub.http.post(`/batches/${cancelled.id}/cancel`).expect(200);
    const queued = (await hub.http.post('/batches').send({ title: 'в очереди', commands: [fields('A-4')] }).expect(201)).body;

    expect((await hub.http.get('/batches/counts').expect(200)).body).toEqual({
      all: 4, awaiting_approval: 1, queued: 1, running: 0, done: 1, done_with_errors: 1, cancelled: 1, failed_commands: 1,
    });
    const failed = (await hub.http.get('/commands?status=failed').expect(200)).body;
    expect(failed).toEqual([expect.objectContaining({ id: first.id, batch_id: broken.id, batch_title: 'сломанный', status: 'failed', error: 'HTTP 400: нет поля' })]);
    expect((await hub.http.get(`/commands?status=failed&before_id=${first.id}`).expect(200)).body).toEqual([]);

    // The batches behind a count: done_with_errors lists the done batches with a failed or skipped command, as counted.
    const work = (await agent.claim()).command;
    await agent.done(work.id);
    await agent.done((await agent.claim()).command.id, { issues: [] }); // its tail refresh
    const ids = async (status: string) => (await hub.http.get(`/batches?status=${status}`).expect(200)).body.map((b: { id: number }) => b.id);
    expect(await ids('done')).toEqual([queued.id, broken.id]);
    expect(await ids('done_with_errors')).toEqual([broken.id]);
    expect((await hub.http.get('/batches/counts').expect(200)).body).toMatchObject({ done: 2, done_with_errors: 1 });
  });

  it('GET /batches/counts tells queued, running and done apart from the unfinished commands alone (schema v14)', async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    const counts = async () => (await hub.http.get('/batches/counts').expect(200)).body;
    await hub.http.post('/batches').send({ title: 'первый', commands: [fields('A-1'), fields('A-2')] }).expect(201);
    await hub.http.post('/batches').send({ title: 'второй', commands: [fields('A-3')] }).expect(201);
    expect(await counts()).toMatchObject({ all: 2, queued: 2, running: 0, done: 0 });
    await agent.done((await agent.claim()).command.id);
    expect(await counts()).toMatchObject({ queued: 1, running: 1, done: 0 });
    const second = (await agent.claim()).command; // claimed, none of the first queued but its tail
    expect(await counts()).toMatchObject({ queued: 1, running: 1, done: 0 });
    await agent.done(second.id);
    await agent.done((await agent.claim()).command.id, { issues: [] }); // the first's tail refresh
    expect(await counts()).toMatchObject({ all: 2, queued: 1, running: 0, done: 1, done_with_errors: 0, failed_commands: 0 });
    const third = (await agent.claim()).command;
    await agent.report(third.id, { status: 'failed', error: 'HTTP 400' }).expect(200);
    expect(await counts()).toMatchObject({ queued: 0, running: 1, done: 1, failed_commands: 1 });
    await agent.done((await agent.claim()).command.id, { issues: [] });
    expect(await counts()).toMatchObject({ all: 2, queued: 0, running: 0, done: 2, done_with_errors: 1, failed_commands: 1 });
  });

  it('GET /commands without status=failed → 422 with a Russian detail', async () => {
    hub = await startHub();
    const res = await hub.http.get('/commands?status=done').expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed' });
    expect(res.body.detail).toContain('status=failed');
    await hub.http.get('/commands').expect(422);
  });
});

describe('GET /issues/facets: the mirror filter choices', () => {
  let hub: TestHub;
  afterEach(() => hub.close());

  it('an empty mirror says so; then the statuses and sprints present, with counts and the last refresh', async () => {
    hub = await startHub();
    expect((await hub.http.get('/issues/facets').expect(200)).body).toEqual({ total: 0, statuses: [], sprints: [], last_synced_at: null });
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-1', 'A-2', 'A-3'] } }] }).expect(201);
    const agent = agentOf(hub);
    const { command } = await agent.claim();
    await agent.done(
      command.id,
      refreshResult([
        { key: 'A-1', status: 'In Progress', sprint: 'Спринт 2' },
        { key: 'A-2', status: 'In Progress', sprint: null },
        { key: 'A-3', status: 'To Do', sprint: 'Спринт 2' },
      ]),
    );
    expect((await hub.http.get('/issues/facets').expect(200)).body).toEqual({
      total: 3,
      statuses: [{ value: 'In Progress', n: 2 }, { value: 'To Do', n: 1 }],
      sprints: [{ value: 'Спринт 2', n: 2 }],
      last_synced_at: '2026-11-30T10:00:00.000Z',
    });
    await hub.http.get('/issues/A-1').expect(200); // the key route still answers
  });
});

describe('the dashboard the hub serves', () => {
  let hub: TestHub;
  afterEach(() => hub.close());

  it("is React's production build, whatever NODE_ENV built it (jest, which built it for this run, sets `test`)", async () => {
    hub = await startHub();
    const page = (await hub.http.get('/').expect(200)).text;
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const code = (await hub.http.get(script!).expect(200)).text;
    expect(code.length).toBeGreaterThan(100_000); // the whole app, not an error page
    // What only React's development build carries: the JSX dev runtime and its warnings.
    expect(code).not.toContain('jsxDEV');
    expect(code).not.toContain('Each child in a list should have a unique');
  });
});
