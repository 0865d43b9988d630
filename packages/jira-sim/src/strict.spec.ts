import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { JiraSimulator } from './simulator.js';

describe('strict', () => {
  let sim: JiraSimulator;
  let url: string;

  const BASIC = `Basic ${Buffer.from('bot@example.com:token').toString('base64')}`;

  async function call(method: string, path: string, body?: unknown, authorization: string | null = BASIC): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
    if (authorization) headers.Authorization = authorization;
    const response = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  const adf = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
  const create = (api: 2 | 3, fields: Record<string, unknown>) => call('POST', `/rest/api/${api}/issue`, { fields: { project: { key: 'AURORA' }, issuetype: { name: 'Task' }, summary: 'Строгая', ...fields } });

  beforeAll(async () => {
    sim = new JiraSimulator({
      seed: {
        projects: [{ id: '10000', key: 'AURORA', name: 'Aurora', priorities: ['High', 'Medium'] }],
        assignable: ['557058:f0000000-0000-0000-0000-000000000001'],
        screens: { Story: { create: ['summary', 'description'], edit: ['summary'] } },
      },
    });
    url = await sim.start();
  });

  afterAll(async () => {
    await sim.stop();
  });

  beforeEach(() => {
    sim.store.seed.deniedPermissions = [];
    sim.restoreCredentials();
  });

  describe('the simulator refuses what Jira refuses', () => {
    it('checks credentials: a revoked token answers 401 to everything until restored; a malformed Authorization too', async () => {
      expect((await call('GET', '/rest/api/3/myself')).status).toBe(200);
      sim.revokeCredentials();
      const refused = await call('GET', '/rest/api/3/myself');
      expect(refused).toEqual({ status: 401, body: { errorMessages: ['Client must be authenticated to access this resource.'], errors: {} } });
      expect((await call('GET', '/rest/api/2/field', undefined, 'Bearer pat')).status).toBe(401);
      sim.restoreCredentials();
      expect((await call('GET', '/rest/api/2/myself', undefined, 'Bearer pat')).status).toBe(200);
      expect((await call('GET', '/rest/api/3/myself', undefined, 'Token abc')).status).toBe(401);
    });

    it('enforces permissions on every write with a 403 and Jira\'s text', async () => {
      const key = (await create(3, {})).body.key as string;
      sim.store.seed.deniedPermissions = ['CREATE_ISSUES', 'EDIT_ISSUES', 'TRANSITION_ISSUES', 'LINK_ISSUES', 'ADD_COMMENTS', 'SCHEDULE_ISSUES'];
      expect(await create(3, {})).toEqual({ status: 403, body: { errorMessages: ['You do not have permission to create issues in this project.'], errors: {} } });
      expect((await call('PUT', `/rest/api/3/issue/${key}`, { fields: { summary: 'x' } })).status).toBe(403);
      expect((await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '11' } })).status).toBe(403);
      expect((await call('POST', '/rest/api/3/issueLink', { type: { name: 'Blocks' }, inwardIssue: { key }, outwardIssue: { key } })).body.errorMessages).toEqual([`No Link Issue Permission for issue '${key}'.`]);
      expect((await call('POST', `/rest/api/3/issue/${key}/comment`, { body: adf('x') })).status).toBe(403);
      expect((await call('POST', '/rest/agile/1.0/sprint/1/issue', { issues: [key] })).status).toBe(403);
      sim.store.seed.deniedPermissions = ['ASSIGN_ISSUES', 'RESOLVE_ISSUES'];
      expect((await call('PUT', `/rest/api/3/issue/${key}`, { fields: { assignee: null } })).body.errorMessages).toEqual(['You do not have permission to assign issues.']);
      await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '11' } });
      expect((await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '21' }, fields: { resolution: { name: 'Done' } } })).body.errorMessages).toEqual(['You do not have permission to resolve this issue.']);
    });

    it('refuses a field not on the create or edit screen, every one at once, with Jira\'s text', async () => {
      const refused = await create(3, { issuetype: { name: 'Story' }, duedate: '2026-12-01', labels: ['a'] });
      expect(refused).toEqual({
        status: 400,
        body: { errorMessages: [], errors: { duedate: "Field 'duedate' cannot be set. It is not on the appropriate screen, or unknown.", labels: "Field 'labels' cannot be set. It is not on the appropriate screen, or unknown." } },
      });
      const story = (await create(3, { issuetype: { name: 'Story' } })).body.key as string;
      expect((await call('PUT', `/rest/api/3/issue/${story}`, { fields: { description: adf('x') } })).body.errors).toEqual({ description: "Field 'description' cannot be set. It is not on the appropriate screen, or unknown." });
      const meta = await call('GET', `/rest/api/3/issue/${story}/editmeta`);
      expect(Object.keys(meta.body.fields)).toEqual(['summary']);
    });

    it('requires Epic Name when an Epic is created on Data Center; Cloud has no such field', async () => {
      const dc = await create(2, { issuetype: { name: 'Epic' } });
      expect(dc).toEqual({ status: 400, body: { errorMessages: [], errors: { customfield_10011: 'Epic Name is required.' } } });
      expect((await create(2, { issuetype: { name: 'Epic' }, customfield_10011: 'Эпик' })).status).toBe(201);
      expect((await create(3, { issuetype: { name: 'Epic' } })).status).toBe(201);
      expect((await create(3, { issuetype: { name: 'Epic' }, customfield_10011: 'x' })).body.errors.customfield_10011).toMatch(/not on the appropriate screen/);
    });

    it('keeps the size limits with Jira\'s texts', async () => {
      const long = 'я'.repeat(32_768);
      expect((await create(2, { description: long })).body.errors).toEqual({ description: 'The entered text is too long. It exceeds the allowed limit of 32767 characters.' });
      expect((await create(2, { customfield_10050: 'x'.repeat(256) })).body.errors).toEqual({ customfield_10050: 'The entered text is too long. It exceeds the allowed limit of 255 characters.' });
      expect((await create(2, { labels: ['a'.repeat(256)] })).body.errors.labels).toMatch(/255 characters/);
      expect((await create(2, { labels: ['две метки'] })).body.errors).toEqual({ labels: 'The label must not contain spaces.' });
      const key = (await create(2, {})).body.key as string;
      expect((await call('POST', `/rest/api/2/issue/${key}/comment`, { body: long })).body.errors).toEqual({ comment: 'The entered text is too long. It exceeds the allowed limit of 32767 characters.' });
      expect((await create(2, { description: 'я'.repeat(32_767) })).status).toBe(201);
    });

    it('validates ADF: version 1 and known node types only', async () => {
      expect((await create(3, { description: { ...adf('x'), version: 2 } })).body.errors.description).toMatch(/Atlassian Document/);
      expect((await create(3, { description: { type: 'doc', version: 1, content: [{ type: 'marquee', content: [] }] } })).status).toBe(400);
      expect((await create(3, { description: { type: 'doc', version: 1, content: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Заголовок' }] }] } })).status).toBe(201);
    });

    it('keeps the project\'s priority scheme and its assignable users', async () => {
      expect((await create(3, { priority: { name: 'Lowest' } })).body.errors).toEqual({ priority: "Specify a valid 'id' or 'name' for Priority" });
      expect((await create(3, { assignee: { accountId: '557058:f0000000-0000-0000-0000-000000000002' } })).body.errors).toEqual({ assignee: "User 'Иван Иванов' cannot be assigned issues." });
      const meta = await call('GET', '/rest/api/3/issue/createmeta/AURORA/issuetypes/1');
      expect(meta.body.fields.find((f: { fieldId: string }) => f.fieldId === 'priority').allowedValues.map((v: { name: string }) => v.name)).toEqual(['High', 'Medium']);
      const users = await call('GET', '/rest/api/3/user/assignable/search?project=AURORA');
      expect(users.body.map((u: { displayName: string }) => u.displayName)).toEqual(['Jira Bot']);
    });

    it('walks a workflow with an intermediate status and a validator', async () => {
      const key = (await create(3, { issuetype: { name: 'Bug' } })).body.key as string;
      const offered = async () => (await call('GET', `/rest/api/3/issue/${key}/transitions`)).body.transitions.map((t: { to: { name: string } }) => t.to.name);
      await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '11' } });
      expect(await offered()).toEqual(['In Review']); // a Bug cannot skip the review
      await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '51' } });
      const refused = await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '61' }, fields: { resolution: { name: 'Done' } } });
      expect(refused).toEqual({ status: 400, body: { errorMessages: ['Assignee is required.'], errors: {} } });
      const extra = await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '71' }, fields: { resolution: { name: 'Done' } } });
      expect(extra.body.errors).toEqual({ resolution: "Field 'resolution' cannot be set. It is not on the appropriate screen, or unknown." });
      await call('PUT', `/rest/api/3/issue/${key}`, { fields: { assignee: { accountId: '557058:f0000000-0000-0000-0000-000000000001' } } });
      expect((await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '61' }, fields: { resolution: { name: 'Done' } } })).status).toBe(204);
      expect(sim.getIssue(key)?.status).toBe('Done');
    });

    it('searches with OR and parentheses as Jira does', async () => {
      const bug = (await create(3, { issuetype: { name: 'Bug' }, summary: 'Фильтр ошибка' })).body.key as string;
      const task = (await create(3, { summary: 'Фильтр задача' })).body.key as string;
      const found = await call('POST', '/rest/api/3/search/jql', { jql: `project = AURORA AND (key = ${bug} OR key = ${task}) ORDER BY key ASC`, fields: ['summary'] });
      expect(found.body.issues.map((i: { key: string }) => i.key)).toEqual([bug, task]);
      const none = await call('POST', '/rest/api/3/search/jql', { jql: `key = ${bug} AND NOT issuetype = Bug`, fields: ['summary'] });
      expect(none.body.issues).toEqual([]);
    });

    it('answers the workflow routes with 403 unless the account may read workflows', async () => {
      expect((await call('GET', '/rest/api/3/workflowscheme/project?projectId=10000')).status).toBe(403);
      sim.store.seed.workflowsReadable = true;
      try {
        const scheme = await call('GET', '/rest/api/3/workflowscheme/project?projectId=10000');
        expect(scheme.body.values[0].workflowScheme.issueTypeMappings).toEqual({ 3: 'Bug workflow' });
      } finally {
        sim.store.seed.workflowsReadable = false;
      }
    });
  });
});
