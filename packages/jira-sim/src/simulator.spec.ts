import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JiraSimulator } from './simulator.js';

describe('simulator', () => {
  let sim: JiraSimulator;
  let url: string;

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
    const response = await fetch(url + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  const adf = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

  beforeAll(async () => {
    sim = new JiraSimulator({ maxPageSize: 2 });
    url = await sim.start();
  });

  afterAll(async () => {
    await sim.stop();
  });

  describe('JiraSimulator', () => {
    it('creates issues with ADF on Cloud and text on DC, and rejects the other body kind', async () => {
      const cloud = await call('POST', '/rest/api/3/issue', { fields: { project: { key: 'AURORA' }, issuetype: { name: 'Task' }, summary: 'Облако', description: adf('Описание') } });
      expect(cloud.status).toBe(201);
      expect(cloud.body.key).toMatch(/^AURORA-\d+$/);
      const wrong = await call('POST', '/rest/api/3/issue', { fields: { project: { key: 'AURORA' }, issuetype: { name: 'Task' }, summary: 'x', description: 'text' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors.description).toMatch(/Atlassian Document/);
      const dc = await call('POST', '/rest/api/2/issue', { fields: { project: { key: 'AURORA' }, issuetype: { name: 'Bug' }, summary: 'Сервер', description: 'Описание' } });
      expect(dc.status).toBe(201);
      expect(sim.getIssue(cloud.body.key)?.description).toBe('Описание');
      const read = await call('GET', `/rest/api/2/issue/${cloud.body.key}`);
      expect(read.body.fields.description).toBe('Описание');
      const read3 = await call('GET', `/rest/api/3/issue/${dc.body.key}?fields=description`);
      expect(read3.body.fields).toEqual({ description: adf('Описание') });
    });

    it('answers errors in Jira shape', async () => {
      const missing = await call('GET', '/rest/api/3/issue/AURORA-999');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} });
      const badJql = await call('GET', '/rest/api/2/search?jql=' + encodeURIComponent('project = A AND (status = B'));
      expect(badJql.status).toBe(400);
      expect(badJql.body.errorMessages[0]).toMatch(/JQL/);
      const unknownKey = await call('POST', '/rest/api/2/search', { jql: 'key in (AURORA-1, AURORA-999)' });
      expect(unknownKey.status).toBe(400);
      expect(unknownKey.body.errorMessages).toEqual(["An issue with key 'AURORA-999' does not exist for field 'key'."]);
      const lenient = await call('POST', '/rest/api/2/search', { jql: 'key in (AURORA-1, AURORA-999)', validateQuery: false });
      expect(lenient.status).toBe(200);
    });

    it('stores POST /issueLink inwardIssue as the source: "inward blocks outward"', async () => {
      const a = sim.store.createIssue('AURORA', { summary: 'A', issueType: 'Task' }, 'x').key;
      const b = sim.store.createIssue('AURORA', { summary: 'B', issueType: 'Task' }, 'x').key;
      const res = await call('POST', '/rest/api/2/issueLink', { type: { name: 'Blocks' }, inwardIssue: { key: a }, outwardIssue: { key: b } });
      expect(res.status).toBe(201);
      expect(sim.links()).toContainEqual({ source: a, target: b, type: 'Blocks' });
      const onA = (await call('GET', `/rest/api/3/issue/${a}?fields=issuelinks`)).body.fields.issuelinks;
      expect(onA).toHaveLength(1);
      expect(onA[0].outwardIssue.key).toBe(b);
      const onB = (await call('GET', `/rest/api/3/issue/${b}?fields=issuelinks`)).body.fields.issuelinks;
      expect(onB[0].inwardIssue.key).toBe(a);
      const unknown = await call('POST', '/rest/api/3/issueLink', { type: { name: 'Nope' }, inwardIssue: { key: a }, outwardIssue: { key: b } });
      expect(unknown.status).toBe(404);
    });

    it('answers 429 with Retry-After for the next N requests', async () => {
      sim.setRateLimit({ count: 2, retryAfterSeconds: 0 });
      const first = await call('GET', '/rest/api/3/myself');
      expect(first.status).toBe(429);
      expect(first.headers.get('retry-after')).toBe('0');
      expect((await call('GET', '/rest/api/3/myself')).status).toBe(429);
      expect((await call('GET', '/rest/api/3/myself')).status).toBe(200);
    });

    it('hides new issues from search while the lag lasts', async () => {
      sim.setSearchLagMs(60_000);
      const created = await call('POST', '/rest/api/3/issue', { fields: { project: { key: 'AURORA' }, issuetype: { name: 'Task' }, summary: 'Свежая задача' } });
      const search = await call('POST', '/rest/api/3/search/jql', { jql: 'summary ~ "Свежая"', fields: ['summary'] });
      expect(search.body.issues).toEqual([]);
      expect((await call('GET', `/rest/api/3/issue/${created.body.key}`)).status).toBe(200);
      sim.setSearchLagMs(0);
      const later = await call('POST', '/rest/api/3/search/jql', { jql: 'summary ~ "Свежая"', fields: ['summary'] });
      expect(later.body.issues.map((i: { key: string }) => i.key)).toEqual([created.body.key]);
    });

    it('stale search serves issues as they were lagMs ago, while GET and bulkfetch serve them as they are', async () => {
      const key = sim.store.createIssue('AURORA', { summary: 'Старая задача', issueType: 'Task' }, 'x').key;
      sim.getIssue(key)!.createdAtMs = Date.now() - 600_000; // indexed long ago
      sim.setSearchLagMs(60_000, { stale: true });
      try {
        sim.store.transition(key, '11');
        sim.store.updateIssue(key, { labels: ['новая'] });
        const fresh = sim.store.createIssue('AURORA', { summary: 'Старая задача 2', issueType: 'Task' }, 'x').key;
        const search = await call('POST', '/rest/api/3/search/jql', { jql: 'summary ~ "Старая"', fields: ['status', 'labels'] });
        expect(search.body.issues.map((i: any) => [i.key, i.fields.status.name, i.fields.labels])).toEqual([[key, 'To Do', []]]);
        const byStatus = await call('POST', '/rest/api/2/search', { jql: `key = ${key} AND status = "In Progress"` });
        expect(byStatus.body.issues).toEqual([]);
        const read = await call('GET', `/rest/api/3/issue/${key}?fields=status`);
        expect(read.body.fields.status.name).toBe('In Progress');
        const bulk = await call('POST', '/rest/api/3/issue/bulkfetch', { issueIdsOrKeys: [fresh, key.toLowerCase()], fields: ['status', 'labels'] });
        expect(bulk.body.issues.map((i: any) => [i.key, i.fields.status.name, i.fields.labels])).toEqual([[key, 'In Progress', ['новая']], [fresh, 'To Do', []]]);
      } finally {
        sim.setSearchLagMs(0);
      }
    });

    it('bulkfetch (Cloud only): issues in ascending id order, unknown ones in issueErrors, at most 100, no expand', async () => {
      const a = sim.store.createIssue('AURORA', { summary: 'BF A', issueType: 'Task' }, 'x');
      const b = sim.store.createIssue('AURORA', { summary: 'BF B', issueType: 'Bug' }, 'x');
      const res = await call('POST', '/rest/api/3/issue/bulkfetch', { issueIdsOrKeys: [b.key, 'AURORA-9999', a.id], fields: ['summary'] });
      expect(res.status).toBe(200);
      expect(res.body.issueErrors).toEqual([{ id: 'AURORA-9999', errorMessage: 'Issue does not exist or you do not have permission to see it.' }]);
      expect(Object.keys(res.body)).toEqual(['issues', 'issueErrors']);
      expect(res.body.issues.map((i: any) => [i.id, i.key, i.fields])).toEqual([
        [a.id, a.key, { summary: 'BF A' }],
        [b.id, b.key, { summary: 'BF B' }],
      ]);
      const tooMany = await call('POST', '/rest/api/3/issue/bulkfetch', { issueIdsOrKeys: Array.from({ length: 101 }, (_, i) => `AURORA-${i + 1}`) });
      expect(tooMany.status).toBe(400);
      expect((await call('POST', '/rest/api/3/issue/bulkfetch', {})).status).toBe(400);
      expect((await call('POST', '/rest/api/2/issue/bulkfetch', { issueIdsOrKeys: [a.key] })).status).toBe(405);
    });

    it('pages Cloud search by nextPageToken and DC search by startAt', async () => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await call('GET', `/rest/api/3/search/jql?jql=${encodeURIComponent('project = AURORA ORDER BY key ASC')}&fields=summary${token ? `&nextPageToken=${token}` : ''}`);
        expect(page.body.issues.length).toBeLessThanOrEqual(2);
        keys.push(...page.body.issues.map((i: { key: string }) => i.key));
        token = page.body.nextPageToken;
        if (token === undefined) expect(page.body.isLast).toBe(true);
      } while (token);
      expect(keys).toEqual(sim.listIssues().map((i) => i.key));
      const dc = await call('POST', '/rest/api/2/search', { jql: 'project = AURORA ORDER BY key ASC', startAt: 2, maxResults: 50 });
      expect(dc.body).toMatchObject({ startAt: 2, maxResults: 2, total: keys.length });
      expect(dc.body.issues.map((i: { key: string }) => i.key)).toEqual(keys.slice(2, 4));
    });

    it('serves boards, sprints and sprint moves with the sprint custom field', async () => {
      const key = sim.store.createIssue('AURORA', { summary: 'C', issueType: 'Task' }, 'x').key;
      const boards = await call('GET', '/rest/agile/1.0/board?projectKeyOrId=AURORA');
      expect(boards.body.values.map((b: { id: number }) => b.id)).toEqual([1]);
      const sprints = await call('GET', '/rest/agile/1.0/board/1/sprint?state=active,future');
      expect(sprints.body.values.map((s: { name: string }) => s.name)).toEqual(['Спринт 1', 'Спринт 2']);
      expect((await call('POST', '/rest/agile/1.0/sprint/2/issue', { issues: [key] })).status).toBe(204);
      const cloud = await call('GET', `/rest/api/3/issue/${key}?fields=customfield_10020`);
      expect(cloud.body.fields.customfield_10020).toEqual([{ id: 2, name: 'Спринт 2', state: 'future', boardId: 1, goal: '' }]);
      const dc = await call('GET', `/rest/api/2/issue/${key}?fields=customfield_10020`);
      expect(dc.body.fields.customfield_10020[0]).toMatch(/state=FUTURE,name=Спринт 2,startDate=/);
      // the backlog: out of every open sprint (SPEC 16.2, ensure_sprint with sprint null)
      expect((await call('POST', '/rest/agile/1.0/backlog/issue', { issues: [key] })).status).toBe(204);
      expect((await call('GET', `/rest/api/3/issue/${key}?fields=customfield_10020`)).body.fields.customfield_10020 ?? []).toEqual([]);
      expect((await call('POST', '/rest/agile/1.0/backlog/issue', { issues: [] })).status).toBe(400);
    });

    it('a sub-task is in its parent\'s sprint: it follows the parent in and out, and is not moved on its own', async () => {
      const parent = sim.store.createIssue('AURORA', { summary: 'Родитель', issueType: 'Story' }, 'x').key;
      const child = sim.store.createIssue('AURORA', { summary: 'Подзадача', issueType: 'Sub-task', parent }, 'x').key;
      expect((await call('POST', '/rest/agile/1.0/sprint/2/issue', { issues: [child] })).status).toBe(400);
      expect((await call('POST', '/rest/agile/1.0/sprint/2/issue', { issues: [parent] })).status).toBe(204);
      const field = async (key: string) => (await call('GET', `/rest/api/3/issue/${key}?fields=customfield_10020`)).body.fields.customfield_10020 ?? [];
      expect((await field(child)).map((s: { name: string }) => s.name)).toEqual(['Спринт 2']);
      expect(sim.sprintsOf(child)).toEqual(['Спринт 2']);
      const found = await call('POST', '/rest/api/2/search', { jql: 'sprint = 2 ORDER BY key ASC', fields: ['summary'], maxResults: 50 });
      expect(found.body.issues.map((i: { key: string }) => i.key)).toEqual(expect.arrayContaining([parent, child]));
      expect((await call('POST', '/rest/agile/1.0/backlog/issue', { issues: [parent] })).status).toBe(204);
      expect(await field(child)).toEqual([]);
    });

    it('offers transitions of the workflow and applies them', async () => {
      const key = sim.store.createIssue('AURORA', { summary: 'D', issueType: 'Task' }, 'x').key;
      const list = await call('GET', `/rest/api/3/issue/${key}/transitions`);
      expect(list.body.transitions.map((t: { name: string; to: { name: string } }) => `${t.name}->${t.to.name}`)).toEqual(['Start->In Progress']);
      expect((await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '21' } })).status).toBe(400);
      expect((await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '11' } })).status).toBe(204);
      expect(sim.getIssue(key)?.status).toBe('In Progress');
    });

    it('refuses unknown properties in a /search/jql or bulkfetch body with 400 «Invalid request payload»', async () => {
      const search = await call('POST', '/rest/api/3/search/jql', { jql: 'project = AURORA', startAt: 0 });
      expect(search.status).toBe(400);
      expect(search.body).toEqual({ errorMessages: ['Invalid request payload. Refer to the REST API documentation and try again.'], errors: {} });
      expect((await call('POST', '/rest/api/3/search/jql', { jql: 'project = AURORA', fields: ['summary'], maxResults: 1 })).status).toBe(200);
      expect((await call('POST', '/rest/api/3/issue/bulkfetch', { issueIdsOrKeys: ['AURORA-1'], validateQuery: false })).status).toBe(400);
    });

    it('refuses a summary over 255 characters, on create and on edit', async () => {
      const long = 'ж'.repeat(256);
      const created = await call('POST', '/rest/api/2/issue', { fields: { project: { key: 'AURORA' }, issuetype: { name: 'Task' }, summary: long } });
      expect(created.status).toBe(400);
      expect(created.body.errors.summary).toBe('Summary must be less than 255 characters.');
      const key = sim.store.createIssue('AURORA', { summary: 'короткая', issueType: 'Task' }, 'x').key;
      expect((await call('PUT', `/rest/api/2/issue/${key}`, { fields: { summary: long } })).status).toBe(400);
      expect((await call('PUT', `/rest/api/2/issue/${key}`, { fields: { summary: 'ж'.repeat(255) } })).status).toBe(204);
    });

    it('a transition whose screen requires Resolution answers 400 unless it is given, and lists it with expand', async () => {
      const key = sim.store.createIssue('AURORA', { summary: 'Резолюция', issueType: 'Task' }, 'x').key;
      sim.store.transition(key, '11');
      const plain = await call('GET', `/rest/api/3/issue/${key}/transitions`);
      expect(plain.body.transitions[0].fields).toBeUndefined();
      const expanded = await call('GET', `/rest/api/3/issue/${key}/transitions?expand=transitions.fields`);
      const finish = expanded.body.transitions.find((t: any) => t.id === '21');
      expect(finish.fields.resolution).toMatchObject({ required: true, hasDefaultValue: false, allowedValues: [{ name: 'Done' }, { name: "Won't Do" }] });
      const refused = await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '21' } });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ resolution: 'Resolution is required.' });
      expect((await call('POST', `/rest/api/3/issue/${key}/transitions`, { transition: { id: '21' }, fields: { resolution: { name: 'Done' } } })).status).toBe(204);
      expect((await call('GET', `/rest/api/3/issue/${key}?fields=resolution,status`)).body.fields).toMatchObject({ resolution: { name: 'Done' }, status: { name: 'Done' } });
    });

    it('sends X-RateLimit-* headers and a Retry-After as an HTTP date when asked', async () => {
      sim.setRateLimit({ count: 1, retryAfterSeconds: 30, retryAfterAsDate: true, resetAfterSeconds: 30 });
      const limited = await call('GET', '/rest/api/3/myself');
      expect(limited.status).toBe(429);
      expect(Date.parse(limited.headers.get('retry-after')!)).toBeGreaterThan(Date.now());
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(limited.headers.get('x-ratelimit-reset')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect((await call('GET', '/rest/api/3/myself')).status).toBe(200);
    });

    it('names system fields as Jira does and allows two fields of one name', async () => {
      const twin = new JiraSimulator({ seed: { customFields: [{ id: 'customfield_1', name: 'Team', custom: 'x:textfield', type: 'string' }, { id: 'customfield_2', name: 'Team', custom: 'x:textfield', type: 'string' }] } });
      const twinUrl = await twin.start();
      try {
        const fields = (await (await fetch(`${twinUrl}/rest/api/3/field`)).json()) as Array<{ id: string; name: string }>;
        expect(fields.find((f) => f.id === 'duedate')?.name).toBe('Due date');
        expect(fields.filter((f) => f.name === 'Team').map((f) => f.id)).toEqual(['customfield_1', 'customfield_2']);
      } finally {
        await twin.stop();
      }
    });

    it('anonymous access answered as Jira does: 401 for /myself and writes, 404 for issues, empty searches, no permissions', async () => {
      const key = sim.store.createIssue('AURORA', { summary: 'Аноним', issueType: 'Task' }, 'x').key;
      sim.setAnonymous('as-jira');
      try {
        expect((await call('GET', '/rest/api/3/myself')).status).toBe(401);
        expect((await call('GET', `/rest/api/3/issue/${key}`)).status).toBe(404);
        expect((await call('GET', '/rest/api/2/project/AURORA')).status).toBe(404);
        expect((await call('POST', '/rest/api/3/search/jql', { jql: 'project = AURORA' })).body).toEqual({ issues: [], isLast: true });
        expect((await call('POST', '/rest/api/2/search', { jql: 'project = AURORA' })).body.total).toBe(0);
        expect((await call('POST', '/rest/api/3/issue', { fields: {} })).status).toBe(401);
        const perms = await call('GET', '/rest/api/3/mypermissions?projectKey=AURORA&permissions=CREATE_ISSUES');
        expect(perms.body.permissions.CREATE_ISSUES.havePermission).toBe(false);
        expect((await call('GET', '/rest/agile/1.0/board?projectKeyOrId=AURORA')).body.values).toEqual([]);
        // with credentials everything is served
        const authed = await fetch(`${url}/rest/api/3/myself`, { headers: { Authorization: 'Bearer x' } });
        expect(authed.status).toBe(200);
      } finally {
        sim.setAnonymous('allow');
      }
    });

    it('answers GET /mypermissions for the asked keys, and GET /project with its issue types', async () => {
      const perms = await call('GET', '/rest/api/3/mypermissions?projectKey=AURORA&permissions=CREATE_ISSUES,LINK_ISSUES');
      expect(perms.body.permissions).toMatchObject({ CREATE_ISSUES: { havePermission: true }, LINK_ISSUES: { havePermission: true } });
      expect((await call('GET', '/rest/api/3/mypermissions?projectKey=NOPE&permissions=CREATE_ISSUES')).status).toBe(404);
      const project = await call('GET', '/rest/api/2/project/AURORA');
      expect(project.body.issueTypes.find((t: any) => t.name === 'Sub-task')).toMatchObject({ subtask: true });
    });
  });
});
