import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { executeCommand } from './executors.js';
import { JiraHttpError } from './jira-client.js';
import { API_PREFIX, FLAVORS, resultOf, startHarness, withoutChanges, type SimHarness } from './test-support.js';
import type { JiraFlavor } from './jira-client.js';
import type { HubIssue } from './types.js';

describe('custom-fields', () => {
  /** Custom fields by type (seeded in src/jira-sim/seed.ts): ensure_fields sends Jira's shape, refresh reads the plain form. */
  let h: SimHarness;
  let nextId = 1;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.sim.stop();
  });

  beforeEach(() => {
    h.sim.clearRequests();
  });

  const SETTINGS = ['Severity', 'Platforms', 'Reviewer', 'Story Points', 'Team', 'Release date', 'Notes', 'Approvers', 'Components', 'Fix versions', 'Environment'];
  const LISTS = ['Platforms', 'Approvers', 'Components', 'Fix versions'];
  const issue = (summary: string): string => h.sim.store.createIssue('AURORA', { summary, issueType: 'Task' }, h.sim.store.seed.users[0]!.accountId).key;
  const run = async (flavor: JiraFlavor, type: string, params: Record<string, unknown>) =>
    withoutChanges(await executeCommand({ id: nextId++, type, params }, { ...h.ctx(flavor), customFields: SETTINGS }));
  const puts = () => h.sim.requests.filter((r) => r.method === 'PUT');
  const adf = (...lines: string[]) => ({ type: 'doc', version: 1, content: lines.map((line) => ({ type: 'paragraph', content: [{ type: 'text', text: line }] })) });

  describe.each(FLAVORS)('custom fields by type on %s', (flavor) => {
    it('a repeat given in Jira\'s shape ({id} options, an ADF text area) changes nothing', async () => {
      const key = issue(`Jira shape ${flavor}`);
      const params = { key, Severity: 'High', Platforms: ['web', 'ios'], Notes: 'Строка 1\nСтрока 2' };
      expect(await run(flavor, 'ensure_fields', params)).toEqual({ status: 'done', result: { changed: ['Severity', 'Platforms', 'Notes'] } });
      h.sim.clearRequests();
      const again = { key, Severity: { id: '100700' }, Platforms: [{ id: '100711' }, { value: 'web' }], Notes: adf('Строка 1', 'Строка 2') };
      expect(await run(flavor, 'ensure_fields', again)).toEqual({ status: 'done', result: { changed: [] } });
      expect(puts()).toEqual([]);
    });

    // users are read inside the tests, once the simulator has started
    const reviewer = () => (flavor === 'cloud' ? h.sim.store.seed.users[1]!.accountId : h.sim.store.seed.users[1]!.name);

    // [settings name, field id, hub value, what Jira gets, stored in the simulator, an equal value in another form]
    const cases: Array<[string, string, () => unknown, () => unknown, () => unknown, () => unknown]> = [
      ['Severity', 'customfield_10070', () => 'High', () => ({ value: 'High' }), () => ({ id: '100700', value: 'High' }), () => ({ value: 'High' })],
      ['Platforms', 'customfield_10071', () => ['web', 'ios'], () => [{ value: 'web' }, { value: 'ios' }], () => [{ id: '100710', value: 'web' }, { id: '100711', value: 'ios' }], () => ['ios', 'web']],
      ['Reviewer', 'customfield_10072', reviewer, () => (flavor === 'cloud' ? { accountId: reviewer() } : { name: reviewer() }), () => h.sim.store.seed.users[1]!.accountId, reviewer],
      ['Story Points', 'customfield_10016', () => 5, () => 5, () => 5, () => 5],
      ['Team', 'customfield_10050', () => 'Альфа', () => 'Альфа', () => 'Альфа', () => 'Альфа'],
      ['Release date', 'customfield_10073', () => '2026-10-13', () => '2026-10-13', () => '2026-10-13', () => '2026-10-13'],
      ['Notes', 'customfield_10074', () => 'Строка 1\nСтрока 2', () => (flavor === 'cloud' ? adf('Строка 1', 'Строка 2') : 'Строка 1\nСтрока 2'), () => 'Строка 1\nСтрока 2', () => 'Строка 1\r\nСтрока 2\n'],
      // a multi user picker takes plain user ids
      ['Approvers', 'customfield_10075', () => [reviewer()], () => [flavor === 'cloud' ? { accountId: reviewer() } : { name: reviewer() }], () => [h.sim.store.seed.users[1]!.accountId], () => [reviewer()]],
      // components and versions take plain names (system fields, by their schema)
      ['Components', 'components', () => ['Backend', 'Frontend'], () => [{ name: 'Backend' }, { name: 'Frontend' }], () => ['Backend', 'Frontend'], () => [{ name: 'Frontend' }, 'Backend']],
      ['Fix versions', 'fixVersions', () => ['2.0'], () => [{ name: '2.0' }], () => ['2.0'], () => '2.0'],
      // every rich-text field by its schema is ADF on Cloud, the system field environment too
      ['Environment', 'environment', () => 'Прод', () => (flavor === 'cloud' ? adf('Прод') : 'Прод'), () => 'Прод', () => 'Прод\n'],
    ];

    it.each(cases)('%s: ensure_fields sends Jira\'s shape, refresh returns the plain value, a repeat changes nothing', async (name, id, hub, sent, stored, equal) => {
      const key = issue(`${name} ${flavor}`);
      expect(await run(flavor, 'ensure_fields', { key, [name]: hub() })).toEqual({ status: 'done', result: { changed: [name] } });
      expect(puts().map((r) => [r.path, r.body])).toEqual([[`${API_PREFIX[flavor]}/issue/${key}`, { fields: { [id]: sent() } }]]);
      expect(h.sim.getIssue(key)!.custom[id]).toEqual(stored());

      const refreshed = resultOf<{ issues: HubIssue[] }>(await run(flavor, 'refresh', { keys: [key] }));
      expect(refreshed.issues[0]!.fields![name]).toEqual(hub());

      h.sim.clearRequests();
      expect(await run(flavor, 'ensure_fields', { key, [name]: hub() })).toEqual({ status: 'done', result: { changed: [] } });
      expect(await run(flavor, 'ensure_fields', { key, [name]: equal() })).toEqual({ status: 'done', result: { changed: [] } });
      expect(puts()).toEqual([]);

      // cleared with null, and reported as empty
      expect(await run(flavor, 'ensure_fields', { key, [name]: null })).toEqual({ status: 'done', result: { changed: [name] } });
      const cleared = resultOf<{ issues: HubIssue[] }>(await run(flavor, 'refresh', { keys: [key] }));
      expect(cleared.issues[0]!.fields![name]).toEqual(LISTS.includes(name) ? [] : null);
    });

    it('a refresh reports every type in its plain form; ensure_issue converts its fields too', async () => {
      const out = await run(flavor, 'ensure_issue', {
        temp_key: 'new:1',
        issue_type: 'Task',
        summary: `Все типы ${flavor}`,
        fields: { Severity: 'Low', Platforms: ['android'], Reviewer: reviewer(), Notes: 'Заметка' },
      });
      const key = resultOf<{ key: string }>(out).key;
      const refreshed = resultOf<{ issues: HubIssue[] }>(await run(flavor, 'refresh', { keys: [key] }));
      expect(refreshed.issues[0]!.fields).toEqual({
        description: null,
        parent: null,
        Severity: 'Low',
        Platforms: ['android'],
        Reviewer: reviewer(),
        'Story Points': null,
        Team: null,
        'Release date': null,
        Notes: 'Заметка',
        Approvers: [],
        Components: [],
        'Fix versions': [],
        Environment: null,
      });
    });

    it('an option value given as an object is sent as given', async () => {
      const key = issue(`Объект ${flavor}`);
      expect(await run(flavor, 'ensure_fields', { key, Severity: { id: '100701' } })).toEqual({ status: 'done', result: { changed: ['Severity'] } });
      expect(puts()[0]!.body).toEqual({ fields: { customfield_10070: { id: '100701' } } });
      expect(h.sim.getIssue(key)!.custom.customfield_10070).toEqual({ id: '100701', value: 'Medium' });
    });

    it('an unknown option is Jira\'s 400', async () => {
      const key = issue(`Нет такого ${flavor}`);
      expect(await run(flavor, 'ensure_fields', { key, Severity: 'Critical' })).toEqual({
        status: 'failed',
        error: `Jira: не приняла значения (поле «customfield_10070») для задачи ${key} — исправьте их в команде или в пакете и повторите (HTTP 400: customfield_10070: Option value 'Critical' is not valid)`,
      });
    });

    it('the simulator answers a plain string in a select field with 400, like Jira', async () => {
      const key = issue(`Строка ${flavor}`);
      const client = h.client(flavor);
      const attempt = client.api('PUT', `/issue/${key}`, { body: { fields: { customfield_10070: 'High' } } });
      await expect(attempt).rejects.toBeInstanceOf(JiraHttpError);
      await expect(attempt).rejects.toMatchObject({ status: 400 });
      const multi = client.api('PUT', `/issue/${key}`, { body: { fields: { customfield_10071: ['web'] } } });
      await expect(multi).rejects.toMatchObject({ status: 400 });
      if (flavor === 'cloud') {
        const text = client.api('PUT', `/issue/${key}`, { body: { fields: { customfield_10074: 'plain' } } });
        await expect(text).rejects.toMatchObject({ status: 400 });
      }
      const field = (await client.api<Array<{ id: string; schema?: unknown }>>('GET', '/field')).find((f) => f.id === 'customfield_10071');
      expect(field?.schema).toMatchObject({ type: 'array', items: 'option', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:multiselect' });
    });
  });

  describe.each(FLAVORS)('fields sharing a display name on %s', (flavor) => {
    let twin: SimHarness;

    beforeAll(async () => {
      const base = (await import('@jira-hub/jira-sim')).defaultSeed();
      twin = await startHarness({
        seed: { customFields: [...base.customFields, { id: 'customfield_10090', name: 'team', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:textfield', type: 'string' }] },
      });
    });

    afterAll(async () => {
      await twin.sim.stop();
    });

    it('an ambiguous name fails the command naming the candidates\' ids, nothing written; customfield_N always works', async () => {
      const key = twin.sim.store.createIssue('AURORA', { summary: 'Двойник', issueType: 'Task' }, 'x').key;
      const ctx = { ...twin.ctx(flavor), customFields: ['Team', 'customfield_10090'] };
      expect(await executeCommand({ id: 1, type: 'ensure_fields', params: { key, Team: 'Альфа' } }, ctx)).toEqual({
        status: 'failed',
        error: 'поле «Team» неоднозначно: в Jira несколько полей с таким названием (customfield_10050, customfield_10090); укажите в настройках id нужного поля вида customfield_N',
      });
      expect(await executeCommand({ id: 2, type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Двойник 2', fields: { Team: 'x' } } }, ctx)).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('поле «Team» неоднозначно'),
      });
      expect(twin.sim.requests.filter((r) => r.method !== 'GET' && !r.path.includes('/search'))).toEqual([]);
      expect(await executeCommand({ id: 3, type: 'ensure_fields', params: { key, customfield_10090: 'Бета' } }, ctx)).toEqual({
        status: 'done',
        result: { changed: ['customfield_10090'] },
        changes: [{ key, what: 'field:customfield_10090', before: null, after: 'Бета' }],
      });
      expect(twin.sim.getIssue(key)!.custom.customfield_10090).toBe('Бета');
    });
  });
});
