import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { executeCommand } from './executors.js';
import { currentSprintName, toIsoUtc } from './issue-mapper.js';
import { FLAVORS, resultOf, startHarness, type SimHarness } from './test-support.js';
import type { HubIssue, HubLink } from './types.js';

let h: SimHarness;
let keys: string[];

beforeAll(async () => {
  // Pages of 2 make every search and comment list span several pages.
  h = await startHarness({ maxPageSize: 2 });
  const store = h.sim.store;
  const user = store.seed.users[1]!;
  const mk = (summary: string, extra = {}) => store.createIssue('AURORA', { summary, issueType: 'Task', ...extra }, user.accountId).key;
  keys = [
    mk('Первая', { assignee: user.accountId, priority: 'High', duedate: '2026-10-13', labels: ['x'], description: 'Описание', custom: { customfield_10016: 8 } }),
    mk('Вторая'),
    mk('Третья'),
    mk('Четвёртая'),
    mk('Пятая'),
  ];
  store.moveToSprint(1, [keys[0]!]);
  store.createLink('Blocks', keys[0]!, keys[1]!); // K1 blocks K2
  store.createLink('Relates', keys[2]!, keys[0]!); // K3 relates to K1
  store.createLink('Duplicate', keys[3]!, keys[4]!); // K4 duplicates K5 (not refreshed by keys below)
  store.transition(keys[0]!, '11');
});

afterAll(async () => {
  await h.sim.stop();
});

beforeEach(() => {
  h.sim.clearRequests();
  h.sim.setSearchLagMs(0);
});

describe.each(FLAVORS)('refresh on %s', (flavor) => {
  it('by keys: Issue shape, sprint name, links once with source = outward side, missing_keys', async () => {
    const ctx = { ...h.ctx(flavor), customFields: ['Story Points'] };
    const out = await executeCommand({ id: 1, type: 'refresh', params: { keys: [keys[0], keys[1], keys[2], 'AURORA-999'] } }, ctx);
    expect(out.status).toBe('done');
    const result = resultOf<{ issues: HubIssue[]; links: HubLink[]; missing_keys: string[] }>(out);
    expect(result.issues.map((i) => i.key)).toEqual(keys.slice(0, 3));
    const user = h.sim.store.seed.users[1]!;
    const stored = h.sim.getIssue(keys[0]!)!;
    expect(result.issues[0]).toEqual({
      key: keys[0],
      summary: 'Первая',
      issue_type: 'Task',
      status: 'In Progress',
      sprint: 'Спринт 1',
      assignee: flavor === 'cloud' ? user.accountId : user.name,
      priority: 'High',
      duedate: '2026-10-13',
      labels: ['x'],
      created: new Date(stored.createdAtMs).toISOString(),
      updated: new Date(stored.updatedAtMs).toISOString(),
      fields: { description: 'Описание', parent: null, 'Story Points': 8 },
    });
    expect(result.issues[1]).toMatchObject({ sprint: null, assignee: null, priority: 'Medium', duedate: null, labels: [] });
    expect(result.links).toEqual([
      { source_key: keys[0], target_key: keys[1], link_type: 'Blocks' },
      { source_key: keys[2], target_key: keys[0], link_type: 'Relates' },
    ]);
    expect(result.missing_keys).toEqual(['AURORA-999']);
  });

  it('by keys finds issues the search has not indexed yet (GET fallback)', async () => {
    h.sim.setSearchLagMs(60_000);
    const fresh = h.sim.store.createIssue('AURORA', { summary: 'Свежая', issueType: 'Bug' }, 'x').key;
    const out = await executeCommand({ id: 2, type: 'refresh', params: { keys: [fresh] } }, h.ctx(flavor));
    expect(out).toMatchObject({ status: 'done', result: { issues: [{ key: fresh, issue_type: 'Bug' }], links: [], missing_keys: [] } });
  });

  it('by JQL pages through every result', async () => {
    const out = await executeCommand({ id: 3, type: 'refresh', params: { jql: 'project = AURORA ORDER BY key ASC' } }, h.ctx(flavor));
    const result = resultOf<{ issues: HubIssue[]; links: HubLink[] }>(out);
    expect(result.issues.map((i) => i.key)).toEqual(h.sim.listIssues().map((i) => i.key));
    expect(result).not.toHaveProperty('missing_keys');
    const searches = h.sim.requests.filter((r) => r.path.includes('/search'));
    expect(searches.length).toBe(Math.ceil(h.sim.listIssues().length / 2));
    if (flavor === 'cloud') {
      expect(searches[1]!.body).toMatchObject({ nextPageToken: expect.any(String) });
    } else {
      expect(searches.map((s) => (s.body as { startAt: number }).startAt)).toEqual(searches.map((_, i) => i * 2));
    }
    expect(result.links).toHaveLength(3);
    expect(result.links).toContainEqual({ source_key: keys[3], target_key: keys[4], link_type: 'Duplicate' });
  });

  it('fails with Jira\'s JQL error', async () => {
    const out = await executeCommand({ id: 4, type: 'refresh', params: { jql: 'project = AURORA OR project = X' } }, h.ctx(flavor));
    expect(out).toEqual({ status: 'failed', error: expect.stringMatching(/^HTTP 400: Error in the JQL Query/) });
  });
});

describe('issue mapping helpers', () => {
  it('converts Jira timestamps to ISO UTC', () => {
    expect(toIsoUtc('2026-10-13T10:00:00.000+0300')).toBe('2026-10-13T07:00:00.000Z');
    expect(toIsoUtc(null)).toBeNull();
  });

  it('takes the active sprint, else a future one, from objects or DC strings', () => {
    expect(currentSprintName([{ name: 'Old', state: 'closed' }, { name: 'Now', state: 'active' }])).toBe('Now');
    expect(
      currentSprintName([
        'com.atlassian.greenhopper.service.sprint.Sprint@1[id=1,rapidViewId=1,state=CLOSED,name=Спринт 0,startDate=<null>,endDate=<null>,completeDate=<null>,sequence=1,goal=]',
        'com.atlassian.greenhopper.service.sprint.Sprint@2[id=2,rapidViewId=1,state=FUTURE,name=Спринт, с запятой,startDate=<null>,endDate=<null>,completeDate=<null>,sequence=2,goal=]',
      ]),
    ).toBe('Спринт, с запятой');
    expect(currentSprintName(null)).toBeNull();
  });
});
