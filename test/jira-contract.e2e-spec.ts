/**
 * Contract test (issue 12): a run of the agent on Cloud covering every command type, plus the pre-flight check,
 * records every request the agent sends and every answer the simulator gives, and validates each exchange against
 * Atlassian's OpenAPI descriptions (../shared/jira-openapi or JIRA_OPENAPI_DIR). Any mismatch fails the test; the
 * test also shows the check failing on deliberately wrong bodies, both an answer and a request.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMMAND_TYPES } from '@jira-hub/contracts/catalogue';
import { executeCommand, JiraClient, MemoryJournal, preflight, type CommandOutcome } from '@jira-hub/agent';
import { JiraSimulator, type RecordedRequest } from '@jira-hub/jira-sim';
import { OpenApiContract, type Exchange } from './support/openapi-contract.js';

describe('jira-contract', () => {
  let sim: JiraSimulator;
  let contract: OpenApiContract;
  const outcomes: Array<{ type: string; outcome: CommandOutcome }> = [];

  const exchange = (r: RecordedRequest): Exchange => ({ method: r.method, path: r.path, query: r.query, body: r.body, status: r.status, response: r.response });

  beforeAll(async () => {
    contract = new OpenApiContract();
    sim = new JiraSimulator();
    await sim.start();
    const client = new JiraClient({ baseUrl: sim.url, flavor: 'cloud', auth: { kind: 'basic', email: 'bot@example.com', apiToken: 'token' }, sleep: async () => undefined });
    const journal = new MemoryJournal();
    const customFields = ['Story Points', 'Severity', 'Platforms', 'Reviewer', 'Notes', 'Approvers', 'Components', 'Environment'];
    const ctx = { client, project: 'AURORA', journal, customFields, createRecheckDelaysMs: [] };
    let id = 1;
    const run = async (type: string, params: Record<string, unknown>): Promise<CommandOutcome> => {
      const outcome = await executeCommand({ id: id++, type, params }, ctx);
      outcomes.push({ type, outcome });
      return outcome;
    };
    const key = (out: CommandOutcome): string => (out.status === 'done' ? String(out.result.key) : '');

    const settings = { version: 1, pacing: {}, link_types: { блокирует: 'Blocks' }, fields: customFields };
    expect((await preflight({ jira: client, project: 'AURORA', settings })).filter((l) => !l.ok)).toEqual([]);

    const epic = key(await run('ensure_issue', { temp_key: 'new:1', issue_type: 'Epic', summary: 'Контракт: эпик' }));
    const story = key(
      await run('ensure_issue', {
        temp_key: 'new:2',
        issue_type: 'Story',
        summary: 'Контракт: история (C++)',
        description: 'Строка 1\nСтрока 2',
        parent: epic,
        fields: { 'Story Points': 3, Severity: 'High', Platforms: ['web'], Components: ['Backend'], Environment: 'Прод' },
      }),
    );
    await run('ensure_issue', { temp_key: 'new:2', issue_type: 'Story', summary: 'Контракт: история (C++)' }); // found by search
    await run('ensure_fields', { key: story, summary: 'Контракт: история (C++)', duedate: '2026-12-01', labels: ['контракт'], priority: 'High', Reviewer: sim.store.seed.users[1]!.accountId, Approvers: [sim.store.seed.users[2]!.accountId], Notes: 'Заметка' });
    await run('ensure_status', { key: story, path: ['In Progress', 'Done'] });
    await run('ensure_link', { source: epic, target: story, link_type: 'Blocks' });
    await run('ensure_link', { source: story, target: epic, link_type: 'Relates' });
    await run('ensure_sprint', { key: story, sprint: 'Спринт 2', board: 'AURORA board' });
    await run('ensure_sprint', { key: epic, sprint: null }); // the backlog (SPEC 16.2)
    await run('ensure_comment', { key: story, body: 'Готово', marker: '[hub:contract]' });
    await run('ensure_comment', { key: story, body: 'Готово', marker: '[hub:contract]' });
    // SPEC 17: what a revert sends — the backlog, a link and a comment removed, an issue deleted (and each again: nothing left to do)
    const comment = await run('ensure_comment', { key: epic, body: 'Удалить потом' });
    const commentId = comment.status === 'done' ? String((comment.changes?.[0]?.after as { id: string }).id) : '';
    await run('ensure_sprint', { key: story, sprint: null });
    await run('remove_link', { source: story, target: epic, link_type: 'Relates' });
    await run('remove_link', { source: story, target: epic, link_type: 'Relates' });
    await run('remove_comment', { key: epic, comment_id: commentId });
    await run('remove_comment', { key: epic, comment_id: commentId });
    const doomed = key(await run('ensure_issue', { temp_key: 'new:3', issue_type: 'Task', summary: 'Контракт: удалить' }));
    await run('delete_issue', { key: doomed, summary: 'Контракт: удалить' });
    await run('delete_issue', { key: doomed, summary: 'Контракт: удалить' });
    await run('refresh', { keys: [epic, story, 'AURORA-999'] });
    await run('refresh', { jql: 'project = AURORA ORDER BY key ASC' });
    await run('refresh_catalogue', {}); // workflows not readable: transitions observed, the 403 of the workflow API fits too
    sim.store.seed.workflowsReadable = true;
    await run('refresh_catalogue', {});
    sim.store.seed.workflowsReadable = false;
    // refusals: Jira's error bodies must fit too
    await run('ensure_fields', { key: 'AURORA-999', summary: 'нет такой' });
    await run('ensure_link', { source: epic, target: story, link_type: 'Depends' });
  });

  afterAll(async () => {
    await sim.stop();
  });

  describe('contract with Atlassian\'s OpenAPI descriptions (Cloud)', () => {
    it('the run covers every command type, and fails only where it was meant to', () => {
      expect([...new Set(outcomes.map((o) => o.type))]).toEqual(expect.arrayContaining([...COMMAND_TYPES, 'refresh_catalogue']));
      const failed = outcomes.filter((o) => o.outcome.status === 'failed').map((o) => (o.outcome.status === 'failed' ? o.outcome.error : ''));
      expect(failed).toEqual([
        'Jira: задачи AURORA-999 нет или у агента нет прав её видеть — возможно, её удалили или перенесли в другой проект; обновите её в зеркале (HTTP 404: Issue does not exist or you do not have permission to see it.)',
        expect.stringMatching(/^Jira: не нашла то, о чём запрос \(AURORA-\d+ → AURORA-\d+\), .+ \(HTTP 404: No issue link type with name 'Depends' found\.\)$/),
      ]);
    });

    it('every request the agent sent and every answer it got fits the descriptions', () => {
      expect(sim.requests.length).toBeGreaterThan(30);
      const operations = new Set(sim.requests.map((r) => `${r.method} ${r.path.replace(/AURORA-\d+/g, '{key}').replace(/\/(board|sprint)\/\d+/g, '/$1/{id}')}`));
      expect([...operations]).toEqual(
        expect.arrayContaining([
          'GET /rest/api/3/myself',
          'GET /rest/api/3/mypermissions',
          'GET /rest/api/3/project/AURORA',
          'GET /rest/api/3/field',
          'GET /rest/api/3/issueLinkType',
          'POST /rest/api/3/search/jql',
          'POST /rest/api/3/issue',
          'PUT /rest/api/3/issue/{key}',
          'GET /rest/api/3/issue/{key}',
          'GET /rest/api/3/issue/{key}/transitions',
          'POST /rest/api/3/issue/{key}/transitions',
          'POST /rest/api/3/issueLink',
          'GET /rest/api/3/issue/{key}/comment',
          'POST /rest/api/3/issue/{key}/comment',
          'POST /rest/api/3/issue/bulkfetch',
          'GET /rest/agile/1.0/board',
          'GET /rest/agile/1.0/board/{id}/sprint',
          // refresh_catalogue (SPEC 16.1)
          'GET /rest/api/3/issue/createmeta/AURORA/issuetypes',
          'GET /rest/api/3/issue/createmeta/AURORA/issuetypes/1',
          'GET /rest/api/3/issue/{key}/editmeta',
          'GET /rest/api/3/project/AURORA/statuses',
          'GET /rest/api/3/project/AURORA/components',
          'GET /rest/api/3/project/AURORA/versions',
          'GET /rest/api/3/user/assignable/search',
          'GET /rest/api/3/workflowscheme/project',
          'GET /rest/api/3/workflows/search',
          // a revert's commands (SPEC 17.2)
          'POST /rest/agile/1.0/backlog/issue',
          'GET /rest/api/3/issue/{key}/comment/30002',
          'DELETE /rest/api/3/issue/{key}/comment/30002',
          'DELETE /rest/api/3/issue/{key}',
        ]),
      );
      expect(sim.requests.some((r) => r.path === '/rest/api/3/workflowscheme/project' && r.status === 403)).toBe(true);
      expect(sim.requests.some((r) => r.method === 'DELETE' && /^\/rest\/api\/3\/issueLink\/\d+$/.test(r.path) && r.status === 204)).toBe(true);
      expect(sim.requests.some((r) => r.method === 'POST' && /^\/rest\/agile\/1\.0\/sprint\/\d+\/issue$/.test(r.path))).toBe(true);
      expect(sim.requests.some((r) => r.method === 'POST' && r.path === '/rest/agile/1.0/backlog/issue' && r.status === 204)).toBe(true);
      expect(sim.requests.some((r) => r.status >= 400)).toBe(true);
      const problems = sim.requests.flatMap((r) => contract.check(exchange(r)));
      expect(problems).toEqual([]);
    });

    it('fails on a deliberately wrong answer: bulkfetch with an `expand` the description does not allow', () => {
      const fetched = sim.requests.find((r) => r.path === '/rest/api/3/issue/bulkfetch')!;
      const wrong = { ...exchange(fetched), response: { expand: 'schema,names', ...(fetched.response as object) } };
      expect(contract.check(wrong)).toEqual(['POST /rest/api/3/issue/bulkfetch 200 response: (root) must NOT have additional properties "expand"']);
      // deeper: a transition's target status given as a bare string
      const transitions = sim.requests.find((r) => r.method === 'GET' && r.path.endsWith('/transitions'))!;
      const answer = transitions.response as { transitions: Array<Record<string, unknown>> };
      const broken = { ...answer, transitions: answer.transitions.map((t, i) => (i === 0 ? { ...t, to: 'In Progress' } : t)) };
      expect(contract.check({ ...exchange(transitions), response: broken })).toEqual([
        'GET /rest/api/3/issue/{issueIdOrKey}/transitions 200 response: /transitions/0/to must be object',
      ]);
    });

    it('fails on a deliberately wrong request: /search/jql paged with startAt, an undeclared query parameter, an unknown path', () => {
      const search = sim.requests.find((r) => r.path === '/rest/api/3/search/jql')!;
      expect(contract.check({ ...exchange(search), body: { ...(search.body as object), startAt: 50 } })).toEqual([
        'POST /rest/api/3/search/jql request: (root) must NOT have additional properties "startAt"',
      ]);
      const read = sim.requests.find((r) => r.method === 'GET' && /^\/rest\/api\/3\/issue\/AURORA-\d+$/.test(r.path))!;
      expect(contract.check({ ...exchange(read), query: { ...read.query, fieldz: 'summary' } })).toEqual(['GET /rest/api/3/issue/{issueIdOrKey}: query parameter "fieldz" is not declared']);
      expect(contract.check({ method: 'POST', path: '/rest/api/3/issue/AURORA-1/bulkfetch', query: {}, status: 200 })).toEqual([
        'POST /rest/api/3/issue/AURORA-1/bulkfetch: no such operation in the descriptions',
      ]);
    });

    it('fails on an error body that is not Jira\'s {errorMessages, errors}', () => {
      const refused = sim.requests.find((r) => r.status === 404)!;
      expect(contract.check({ ...exchange(refused), response: { message: 'not found' } })).toEqual([
        expect.stringContaining('error body: (root) must NOT have additional properties "message"'),
        expect.stringContaining("error body: (root) must have required property 'errorMessages'"),
        expect.stringContaining("error body: (root) must have required property 'errors'"),
      ]);
    });
  });
});
