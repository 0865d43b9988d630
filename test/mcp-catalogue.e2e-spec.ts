/** Issue 20 scope 2-3 through the MCP server: the lookups of the catalogue, and a plan's findings with their suggestions. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { agentOf, refreshResult, startHub, type TestHub } from './support/app.js';
import { reportCatalogue } from './support/catalogue.js';
import { connect, type McpUnderTest } from './support/mcp.js';

describe('the catalogue through MCP', () => {
  let hub: TestHub;
  let mcp: McpUnderTest;
  beforeAll(async () => {
    hub = await startHub();
    mcp = await connect('http', hub.url);
  });
  afterAll(async () => {
    await mcp?.close();
    await hub?.close();
  });

  it('without a catalogue the lookups say so, and the age tool says how to get one', async () => {
    expect(mcp.text(await mcp.call('jira_catalogue'))).toContain('Каталога Jira в хабе ещё нет');
    const res = await mcp.call('jira_link_types');
    expect(res.isError).toBe(true);
    expect(mcp.text(res)).toContain('каталога Jira в хабе ещё нет');
  });

  it('the lookups answer in words, links in both words, and fence the names Jira gave', async () => {
    await reportCatalogue(hub);
    expect(mcp.text(await mcp.call('jira_link_types'))).toContain('блокирует (<jira-data>Blocks</jira-data>): source <jira-data>blocks</jira-data> target; обратно: <jira-data>is blocked by</jira-data>');
    expect(mcp.text(await mcp.call('jira_issue_types', { name: 'Epic' }))).toContain('<jira-data>Epic Name</jira-data> (customfield_10011) — обязательное');
    expect(mcp.text(await mcp.call('jira_statuses', { issue_type: 'Task', from: 'To Do', to: 'Done' }))).toContain('путь: <jira-data>To Do</jira-data> → <jira-data>In Progress</jira-data> → <jira-data>Review</jira-data> → <jira-data>Done</jira-data>');
    // The ends named in another letter case, as the plan's checks read a status: the route in Jira's names (it said «путь неизвестен»).
    const cased = await mcp.call('jira_statuses', { issue_type: 'task', from: 'to do', to: ' done ' });
    expect(mcp.text(cased)).toContain('путь: <jira-data>To Do</jira-data> → <jira-data>In Progress</jira-data> → <jira-data>Review</jira-data> → <jira-data>Done</jira-data>');
    expect(cased.structuredContent!.workflows).toEqual([expect.objectContaining({ route_from: 'To Do', route: ['In Progress', 'Review', 'Done'] })]);
    // A name that is no status of the type is said to be none, with those there are (not a route «unknown»).
    const none = await mcp.call('jira_statuses', { issue_type: 'Task', from: 'To Do', to: 'Donne' });
    expect(none.isError).toBe(true);
    expect(mcp.text(none)).toContain('статуса «Donne» нет в процессе типа Task; есть: To Do, In Progress, Review, Done, Rejected (может быть, Done?)');
    expect(mcp.text(await mcp.call('jira_sprints'))).toContain('<jira-data>Поддержка</jira-data>: <jira-data>Спринт 3</jira-data> (будущий; доска 2)');
    // A lookup that finds nothing lists what Jira has: that list is Jira's words, fenced too.
    const nope = await mcp.call('jira_sprints', { board: 'Nope' });
    expect(nope.isError).toBe(true);
    expect(mcp.text(nope)).toMatch(/^<jira-data>.*AURORA board.*<\/jira-data>/);
    expect(mcp.text(await mcp.call('jira_values', { what: 'priorities' }))).toBe('priorities: <jira-data>Highest</jira-data>, <jira-data>High</jira-data>, <jira-data>Medium</jira-data>, <jira-data>Low</jira-data>');
    expect(mcp.text(await mcp.call('jira_users', { q: 'пётр' }))).toContain('<jira-data>Пётр Петров</jira-data> — assignee: petrov');
    // a page of the matches counts them all and says how to see the rest (it said «Найдено: 1» of several)
    const page = mcp.text(await mcp.call('jira_users', { limit: 1 }));
    expect(page).toMatch(/^Найдено: ([2-9]|\d\d+)\. Показаны первые 1: уточните q или увеличьте limit \(до 100\)\./);
    expect(mcp.text(await mcp.call('jira_catalogue'))).toMatch(/^Каталог Jira проекта AURORA прочитан/);
  });

  it('plan_batch shows every finding with its suggestion and the verdicts; the stored link type with both words', async () => {
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1' }, { key: 'AURORA-2' }]));
    const text = mcp.text(
      await mcp.call('plan_batch', {
        title: 'План',
        commands: [
          { type: 'ensure_link', params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blokcs' } },
          { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 9' } },
          { type: 'ensure_link', params: { source: 'AURORA-2', target: 'AURORA-1', link_type: 'блокирует' } },
        ],
      }),
    );
    expect(text).toContain('  ✗ link_type: <jira-data>типа связи «Blokcs» в Jira нет');
    expect(text).toContain('→ <jira-data>может быть, Blocks?</jira-data>');
    expect(text).toMatch(/\(2\) ensure_sprint AURORA-1: sprint=<jira-data>Спринт 9<\/jira-data> — .*\[проверки: Jira откажет\]/);
    expect(text).toContain('  · <jira-data>тип связи «блокирует» записан как «Blocks»</jira-data>');
    expect(text).toContain('submit_batch с такими командами хаб отклонит');
  });

  it('a syntax error in one command hides no finding of the others: plan_batch and submit_batch name every one at once, by seq (SPEC 16.2)', async () => {
    const commands = [
      { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'task', summary: 'Новая' } },
      { type: 'ensure_comment', params: { key: 'AURORA-1', body: '   ' } },
      { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 9' } },
    ];
    const plan = await mcp.call('plan_batch', { title: 'План', commands });
    expect(plan.isError).toBeFalsy();
    expect((plan.structuredContent!.findings as { seq: number; param: string }[]).map((f) => [f.seq, f.param])).toEqual([
      [1, 'issue_type'],
      [2, 'body'],
      [3, 'sprint'],
    ]);
    const before = (await hub.http.get('/batches').expect(200)).body.length;
    const submit = await mcp.call('submit_batch', { title: 'План', commands });
    expect(submit.isError).toBe(true);
    expect(submit.structuredContent).toMatchObject({ error: 'plan_failed', status: 422 });
    expect(mcp.text(submit)).toMatch(/шаг 1: issue_type: .*шаг 2: body: .*шаг 3: sprint: /s);
    expect((await hub.http.get('/batches').expect(200)).body.length).toBe(before);
  });
});
