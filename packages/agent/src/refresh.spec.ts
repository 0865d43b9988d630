import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CommandFailure, CommandStopped } from './command-failure.js';
import { partSender } from './commands/refresh.js';
import { executeCommand } from './executors.js';
import { HubHttpError, HubStoppedError, type HubClient } from './hub-client.js';
import { currentSprint, toIsoUtc } from './issue-mapper.js';
import { JiraApi } from './jira-api.js';
import { JiraClient } from './jira-client.js';
import { MemoryJournal } from './journal.js';
import { FLAVORS, resultOf, startHarness, type SimHarness } from './test-support.js';
import type { HubIssue, HubLink } from './types.js';

describe('refresh', () => {
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
        // which «Спринт 1» (decision 1430): its id and board, from Cloud's sprint object or DC's string alike
        sprint_id: 1,
        sprint_board_id: 1,
        sprint_state: 'active',
        assignee: flavor === 'cloud' ? user.accountId : user.name,
        priority: 'High',
        duedate: '2026-10-13',
        labels: ['x'],
        created: new Date(stored.createdAtMs).toISOString(),
        updated: new Date(stored.updatedAtMs).toISOString(),
        fields: { description: 'Описание', parent: null, 'Story Points': 8 },
      });
      expect(result.issues[1]).toMatchObject({ sprint: null, sprint_id: null, sprint_board_id: null, sprint_state: null, assignee: null, priority: 'Medium', duedate: null, labels: [] });
      expect(result.links).toEqual([
        { source_key: keys[0], target_key: keys[1], link_type: 'Blocks' },
        { source_key: keys[2], target_key: keys[0], link_type: 'Relates' },
      ]);
      expect(result.missing_keys).toEqual(['AURORA-999']);
      // Cloud reads keys from the database (bulkfetch, one call), DC through the search
      const reads = h.sim.requests.map((r) => `${r.method} ${r.path}`);
      if (flavor === 'cloud') {
        expect(reads.filter((r) => r.includes('bulkfetch') || r.includes('/search'))).toEqual(['POST /rest/api/3/issue/bulkfetch']);
        expect(h.sim.requests.find((r) => r.path.endsWith('/bulkfetch'))!.body).toEqual({
          issueIdsOrKeys: [keys[0], keys[1], keys[2], 'AURORA-999'],
          fields: expect.arrayContaining(['status', 'issuelinks', 'customfield_10020', 'customfield_10016']),
        });
      } else {
        expect(reads.some((r) => r.includes('/search'))).toBe(true);
      }
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
        // the issues themselves are read with bulkfetch, in chunks of at most 100 ids
        const fetches = h.sim.requests.filter((r) => r.path.endsWith('/issue/bulkfetch'));
        expect(fetches.length).toBe(Math.ceil(h.sim.listIssues().length / 100));
      } else {
        expect(searches.map((s) => (s.body as { startAt: number }).startAt)).toEqual(searches.map((_, i) => i * 2));
      }
      expect(result.links).toHaveLength(3);
      expect(result.links).toContainEqual({ source_key: keys[3], target_key: keys[4], link_type: 'Duplicate' });
    });

    it('fails with Jira\'s JQL error', async () => {
      const out = await executeCommand({ id: 4, type: 'refresh', params: { jql: 'project = AURORA AND (status = Done' } }, h.ctx(flavor));
      expect(out).toEqual({ status: 'failed', error: expect.stringMatching(/^Jira: не приняла запрос — исправьте значения в команде или в пакете и повторите \(HTTP 400: Error in the JQL Query/) });
    });
  });

  describe.each(FLAVORS)('refresh in parts on %s (SPEC 15.5)', (flavor) => {
    type Slice = { issues: HubIssue[]; links: HubLink[] };
    const run = async (params: Record<string, unknown>, partIssues: number) => {
      const parts: Slice[] = [];
      const ctx = { ...h.ctx(flavor), refreshPartIssues: partIssues, reportPart: async (s: Slice) => void parts.push(s) };
      const last = resultOf<Slice & { missing_keys?: string[] }>(await executeCommand({ id: 40, type: 'refresh', params }, ctx));
      return { parts, last };
    };

    it('by JQL: full parts of at most N issues go out as they are read, the last slice comes with done', async () => {
      const all = h.sim.listIssues().map((i) => i.key);
      const { parts, last } = await run({ jql: 'project = AURORA ORDER BY key ASC' }, 2);
      expect(parts.map((p) => p.issues.length)).toEqual(Array(Math.ceil(all.length / 2) - 1).fill(2));
      expect([...parts.flatMap((p) => p.issues), ...last.issues].map((i) => i.key)).toEqual(all);
      // every link of an issue is in the slice of that issue
      for (const slice of [...parts, last]) {
        const keys = new Set(slice.issues.map((i) => i.key));
        for (const l of h.sim.store.links.filter((l) => keys.has(l.sourceKey) || keys.has(l.targetKey))) {
          expect(slice.links).toContainEqual({ source_key: l.sourceKey, target_key: l.targetKey, link_type: l.typeName });
        }
      }
    });

    it('a result that fits one part is reported whole', async () => {
      const { parts, last } = await run({ jql: 'project = AURORA' }, h.sim.listIssues().length);
      expect(parts).toEqual([]);
      expect(last.issues).toHaveLength(h.sim.listIssues().length);
    });

    it('by keys: parts, and missing keys in the final report', async () => {
      const { parts, last } = await run({ keys: [...keys, 'AURORA-999'] }, 2);
      expect(parts.length).toBeGreaterThan(0);
      expect([...parts.flatMap((p) => p.issues), ...last.issues].map((i) => i.key).sort()).toEqual([...keys].sort());
      expect(last.missing_keys).toEqual(['AURORA-999']);
    });
  });

  describe('partSender', () => {
    const hubAnswering = (answer: (part: number) => Promise<{ status?: string }>) => {
      const sent: number[] = [];
      const hub = { reportPart: async (_id: number, part: number) => (sent.push(part), answer(part)) } as unknown as HubClient;
      return { hub, sent };
    };
    const slice = { issues: [], links: [] };

    it('numbers parts from 1 for as long as it lives (a run again after an outage goes on numbering)', async () => {
      const { hub, sent } = hubAnswering(async () => ({ status: 'claimed' }));
      const send = partSender(hub, 7);
      for (let i = 0; i < 3; i++) await send(slice);
      expect(sent).toEqual([1, 2, 3]);
    });

    it('a refused part fails the refresh with the hub reason; a finished command stops it; the stop signal stops it silently', async () => {
      await expect(partSender(hubAnswering(async () => Promise.reject(new HubHttpError(413, { error: 'payload_too_large', detail: 'слишком большое' }))).hub, 7)(slice)).rejects.toThrow(
        new CommandFailure('хаб не принял часть 1 результата: хаб ответил HTTP 413: слишком большое'),
      );
      await expect(partSender(hubAnswering(async () => ({ status: 'cancelled' })).hub, 7)(slice)).rejects.toBeInstanceOf(CommandFailure);
      await expect(partSender(hubAnswering(async () => Promise.reject(new HubStoppedError())).hub, 7)(slice)).rejects.toBeInstanceOf(CommandStopped);
    });
  });

  describe.each(FLAVORS)('refresh with settings fields Jira does not know, on %s', (flavor) => {
    it('leaves an unknown field out with one log line, and finds it once Jira has it (no restart)', async () => {
      const lines: string[] = [];
      const ctx = { ...h.ctx(flavor), customFields: ['Story Points', 'Риск'], log: (l: string) => lines.push(l) };
      const first = resultOf<{ issues: HubIssue[] }>(await executeCommand({ id: 20, type: 'refresh', params: { keys: [keys[0]] } }, ctx));
      expect(first.issues[0]!.fields).toEqual({ description: 'Описание', parent: null, 'Story Points': 8 });
      expect(lines).toEqual(['refresh: field «Риск» from settings is not in Jira; left out']);

      const seed = h.sim.store.seed;
      seed.customFields.push({ id: 'customfield_10060', name: 'Риск', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:textfield', type: 'string' });
      try {
        h.sim.getIssue(keys[0]!)!.custom.customfield_10060 = 'высокий';
        const second = resultOf<{ issues: HubIssue[] }>(await executeCommand({ id: 21, type: 'refresh', params: { keys: [keys[0]] } }, ctx));
        expect(second.issues[0]!.fields).toMatchObject({ 'Story Points': 8, Риск: 'высокий' });
        expect(lines).toHaveLength(1);
        // the field list was read again once, then kept
        const third = await executeCommand({ id: 22, type: 'refresh', params: { keys: [keys[0]] } }, ctx);
        expect(third.status).toBe('done');
        expect(h.sim.requests.filter((r) => r.path.endsWith('/field'))).toHaveLength(2);
      } finally {
        seed.customFields.pop();
        delete h.sim.getIssue(keys[0]!)!.custom.customfield_10060;
      }
    });
  });

  describe.each(FLAVORS)('refresh with a settings field Jira never gets, on %s', (flavor) => {
    it('reads the field list again at most once per settings version, not on every refresh', async () => {
      const ctx = { ...h.ctx(flavor), customFields: ['Никогда'], log: () => undefined };
      h.sim.clearRequests();
      const fieldReads = () => h.sim.requests.filter((r) => r.path.endsWith('/field')).length;
      for (let id = 30; id < 34; id++) expect((await executeCommand({ id, type: 'refresh', params: { keys: [keys[0]] } }, ctx)).status).toBe('done');
      expect(fieldReads()).toBe(2); // the first read, then one re-read for the missing name
      JiraApi.for(ctx.client).clearFieldCache(); // a new settings version
      for (let id = 34; id < 37; id++) expect((await executeCommand({ id, type: 'refresh', params: { keys: [keys[0]] } }, ctx)).status).toBe('done');
      expect(fieldReads()).toBe(4);
    });
  });

  describe('refresh on cloud while search is stale (no read-after-write consistency)', () => {
    it('a refresh by keys right after ensure_status and ensure_fields reports the new state', async () => {
      const key = h.sim.store.createIssue('AURORA', { summary: 'Давняя', issueType: 'Task' }, 'x').key;
      h.sim.getIssue(key)!.createdAtMs = Date.now() - 600_000; // long indexed: only its changes lag
      h.sim.setSearchLagMs(60_000, { stale: true });
      const ctx = h.ctx('cloud');
      expect(await executeCommand({ id: 10, type: 'ensure_status', params: { key, path: ['In Progress', 'Done'] } }, ctx)).toMatchObject({ status: 'done' });
      expect(await executeCommand({ id: 11, type: 'ensure_fields', params: { key, labels: ['свежая'] } }, ctx)).toMatchObject({ status: 'done' });

      const byKeys = resultOf<{ issues: HubIssue[] }>(await executeCommand({ id: 12, type: 'refresh', params: { keys: [key] } }, ctx));
      expect(byKeys.issues).toEqual([expect.objectContaining({ key, status: 'Done', labels: ['свежая'] })]);
      // the search itself is stale, but a JQL refresh only takes the ids from it and reads the issues with bulkfetch
      h.sim.clearRequests();
      const byJql = resultOf<{ issues: HubIssue[] }>(await executeCommand({ id: 13, type: 'refresh', params: { jql: `key = ${key}` } }, ctx));
      expect(byJql.issues).toEqual([expect.objectContaining({ key, status: 'Done', labels: ['свежая'] })]);
      expect(h.sim.requests.filter((r) => r.path.endsWith('/search/jql')).map((r) => (r.body as { fields: string[] }).fields)).toEqual([['id']]);
      expect(h.sim.requests.filter((r) => r.path.endsWith('/issue/bulkfetch'))).toHaveLength(1);
    });
  });

  describe('refresh on cloud when bulkfetch lists retriable issueErrors', () => {
    it('reads the left-out keys with GET /issue; only a 404 makes a key missing', async () => {
      // Jira left keys[1] out with a retriable error (issueErrors name issue ids, not keys)
      const dropping = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
        const response = await fetch(input, init);
        if (!String(input).endsWith('/issue/bulkfetch')) return response;
        const body = (await response.json()) as { issues: Array<{ id: string; key: string }> };
        const left = body.issues.find((i) => i.key === keys[1])!;
        const answer = { issues: body.issues.filter((i) => i !== left), issueErrors: [{ id: left.id, errorMessage: 'Retry later' }] };
        return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }) as typeof fetch;
      const client = new JiraClient({ baseUrl: h.url, flavor: 'cloud', auth: { kind: 'none' }, fetch: dropping });
      const out = await executeCommand({ id: 30, type: 'refresh', params: { keys: [keys[0], keys[1], 'AURORA-999'] } }, { client, project: 'AURORA', journal: new MemoryJournal() });
      const result = resultOf<{ issues: HubIssue[]; missing_keys: string[] }>(out);
      expect(result.issues.map((i) => i.key)).toEqual([keys[0], keys[1]]);
      expect(result.missing_keys).toEqual(['AURORA-999']);
      expect(h.sim.requests.filter((r) => r.method === 'GET' && /\/issue\/[^/]+$/.test(r.path)).map((r) => r.path)).toEqual([
        `/rest/api/3/issue/${keys[1]}`,
        '/rest/api/3/issue/AURORA-999',
      ]);
    });
  });

  describe('issue mapping helpers', () => {
    it('converts Jira timestamps to ISO UTC', () => {
      expect(toIsoUtc('2026-10-13T10:00:00.000+0300')).toBe('2026-10-13T07:00:00.000Z');
      expect(toIsoUtc(null)).toBeNull();
    });

    it('takes the active sprint, else a future one, from objects or DC strings', () => {
      expect(currentSprint([{ name: 'Old', state: 'closed' }, { name: 'Now', state: 'active' }])?.name).toBe('Now');
      expect(
        currentSprint([
          'com.atlassian.greenhopper.service.sprint.Sprint@1[id=1,rapidViewId=1,state=CLOSED,name=Спринт 0,startDate=<null>,endDate=<null>,completeDate=<null>,sequence=1,goal=]',
          'com.atlassian.greenhopper.service.sprint.Sprint@2[id=2,rapidViewId=1,state=FUTURE,name=Спринт, с запятой,startDate=<null>,endDate=<null>,completeDate=<null>,sequence=2,goal=]',
        ])?.name,
      ).toBe('Спринт, с запятой');
      expect(currentSprint(null)).toBeNull();
    });

    it('reads the sprint id and its board: Cloud objects (boardId, or originBoardId), DC strings (rapidViewId); a value without them keeps the name', () => {
      expect(currentSprint([{ id: 7, name: 'Спринт 2', state: 'future', boardId: 2 }])).toEqual({ id: 7, name: 'Спринт 2', state: 'future', boardId: 2 });
      expect(currentSprint([{ id: 7, name: 'Спринт 2', state: 'active', originBoardId: 3 }])).toMatchObject({ id: 7, boardId: 3 });
      expect(
        currentSprint(['com.atlassian.greenhopper.service.sprint.Sprint@2[id=12,rapidViewId=4,state=ACTIVE,name=Спринт, с запятой,startDate=<null>,endDate=<null>,completeDate=<null>,sequence=12,goal=]']),
      ).toEqual({ id: 12, name: 'Спринт, с запятой', state: 'active', boardId: 4 });
      expect(currentSprint([{ name: 'Без id', state: 'active' }])).toEqual({ id: null, name: 'Без id', state: 'active', boardId: null });
      expect(currentSprint(['…Sprint@1[state=ACTIVE,name=Старый DC,startDate=<null>]'])).toEqual({ id: null, name: 'Старый DC', state: 'active', boardId: null });
      // JIRA Agile 6 wrote the id last
      expect(
        currentSprint([
          'com.atlassian.greenhopper.service.sprint.Sprint@a29f07[rapidViewId=<null>,state=CLOSED,name=NORD - Sprint 42,startDate=2013-07-29T06:47:00.000+02:00,endDate=2013-08-11T20:47:00.000+02:00,completeDate=2013-08-14T15:31:33.157+02:00,id=107]',
          'com.atlassian.greenhopper.service.sprint.Sprint@769133[rapidViewId=3,state=ACTIVE,name=NORD - Sprint 43,startDate=2013-08-14T15:32:47.322+02:00,endDate=2013-08-23T15:32:47.322+02:00,completeDate=<null>,id=117]',
        ]),
      ).toEqual({ id: 117, name: 'NORD - Sprint 43', state: 'active', boardId: 3 });
    });
  });
});
