/**
 * Issue 14 / SPEC 15.5: a refresh reported in parts. The mirror after the parts equals the mirror after
 * the same result reported whole; one sync run with counts over all parts; confirmation once, at done.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Db } from '../src/database/db.service.js';
import { run as runSql, sql as statement } from '../src/database/sql.js';
import { agentOf, refreshResult, startHub, type TestHub } from './support/app.js';

type Link = { source_key: string; target_key: string; link_type: string };
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const key = (n: number) => `A-${n}`;
const ISSUES = Array.from({ length: 50 }, (_, i) => ({
  key: key(i + 1),
  summary: `Задача ${i + 1}`,
  status: i % 2 ? 'Done' : 'To Do',
  sprint: i === 6 ? 'Спринт 2' : 'Спринт 1',
  labels: [`l${i % 3}`],
}));
/** A chain A-1 → A-2 → … → A-50, and two links across parts. */
const LINKS: Link[] = [
  ...Array.from({ length: 49 }, (_, i) => ({ source_key: key(i + 1), target_key: key(i + 2), link_type: 'Blocks' })),
  { source_key: 'A-3', target_key: 'A-45', link_type: 'Relates' },
  { source_key: 'A-12', target_key: 'A-33', link_type: 'Duplicate' },
];
const touches = (l: Link, keys: Set<string>) => keys.has(l.source_key) || keys.has(l.target_key);

/**
 * Slice `i` (0-based) of 10 issues and links, as the reference agent reports them: every link of an
 * issue of the slice — except the links across parts, which only their first slice reports, as a
 * hub must not rely on seeing a link twice.
 */
function slice(i: number, summarySuffix = '') {
  const issues = ISSUES.slice(i * 10, i * 10 + 10).map((x) => ({ ...x, summary: x.summary + summarySuffix }));
  const keys = new Set(issues.map((x) => x.key));
  const earlier = new Set(ISSUES.slice(0, i * 10).map((x) => x.key));
  const links = LINKS.filter((l) => touches(l, keys) && !(l.link_type !== 'Blocks' && touches(l, earlier)));
  return refreshResult(issues, links);
}

/** Links and issues that were in the mirror before: one Jira no longer has, and one between issues not refreshed. */
const BEFORE = refreshResult(
  [{ key: 'A-5' }, { key: 'A-30' }, { key: 'Z-1' }, { key: 'Z-2' }],
  [
    { source_key: 'A-5', target_key: 'A-30', link_type: 'Relates' },
    { source_key: 'Z-1', target_key: 'Z-2', link_type: 'Blocks' },
  ],
);

describe('refresh in parts (SPEC 15.5)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  const sql = (query: string, args: unknown[] = []): Promise<Json[]> => hub.app.get(Db).read((m) => m.query(query, args));
  const part = (id: number, n: unknown, result: unknown) => agent.report(id, { status: 'partial', part: n, result });
  const command = async (id: number) => (await hub.http.get(`/commands/${id}`).expect(200)).body;
  const runsOf = async (id: number) => ((await hub.http.get('/sync-runs').expect(200)).body as Json[]).filter((r) => r.command_id === id);

  async function refreshCommand(params: Record<string, unknown> = { jql: 'project = A' }) {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params }] }).expect(201);
    return (await agent.claim()).command;
  }

  /** The mirror as rows: issues without synced_at, links as sorted triples. */
  async function mirror() {
    const issues = await sql('SELECT key, summary, issue_type, status, sprint, assignee, priority, duedate, labels, fields FROM issue ORDER BY key');
    const links = await sql('SELECT source_key, target_key, link_type FROM issue_link ORDER BY source_key, target_key, link_type');
    const labels = await sql('SELECT label, issue_key FROM issue_label ORDER BY label, issue_key');
    return { issues, links, labels };
  }

  /** A claimed ensure_sprint whose report was lost: confirmation by state may close it. */
  async function lostEnsureSprint(): Promise<number> {
    const b = (await hub.http.post('/batches').send({ title: 's', commands: [{ type: 'ensure_sprint', params: { key: 'A-7', sprint: 'Спринт 2' } }] }).expect(201)).body;
    const id = b.commands[0].id;
    await hub.app.get(Db).transaction((m) => runSql(m, statement`UPDATE command SET status = 'claimed', claimed_at = ${hub.clock.iso()}, deliveries = 1 WHERE id = ${id}`));
    return id;
  }

  it('5 parts, a repeated part 3 and a re-delivery after part 4 end as one whole refresh; one sync run; confirmation once, at done', async () => {
    // The same result reported whole, on a second hub, is the reference.
    const whole = await startHub();
    try {
      const wholeAgent = agentOf(whole);
      for (const [h, a] of [[whole, wholeAgent], [hub, agent]] as const) {
        await h.http.post('/batches').send({ title: 'before', commands: [{ type: 'refresh', params: { keys: ['A-5'] } }] }).expect(201);
        await a.done((await a.claim()).command.id, BEFORE);
      }
      await whole.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { jql: 'project = A' } }] }).expect(201);
      await wholeAgent.done((await wholeAgent.claim()).command.id, { ...refreshResult(ISSUES, LINKS), missing_keys: ['A-99'] });
      const expected = await whole.app.get(Db).read(async (m) => ({
        issues: await m.query('SELECT key, summary, issue_type, status, sprint, assignee, priority, duedate, labels, fields FROM issue ORDER BY key'),
        links: await m.query('SELECT source_key, target_key, link_type FROM issue_link ORDER BY source_key, target_key, link_type'),
        labels: await m.query('SELECT label, issue_key FROM issue_label ORDER BY label, issue_key'),
      }));
      const wholeRun = (await whole.http.get('/sync-runs').expect(200)).body[0];

      const c = await refreshCommand();
      const sprint = await lostEnsureSprint();
      for (const n of [1, 2, 3]) expect((await part(c.id, n, slice(n - 1)).expect(200)).body).toMatchObject({ id: c.id, status: 'claimed', result: null });
      expect((await command(sprint)).status).toBe('claimed'); // A-7 is in «Спринт 2» since part 1, but confirmation waits for done
      // The answer to part 3 was lost: the agent sends it again (here even with other content): nothing changes.
      const before = await mirror();
      await part(c.id, 3, slice(2, ' (повтор)')).expect(200);
      expect(await mirror()).toEqual(before);
      await part(c.id, 4, slice(3)).expect(200);
      expect(await runsOf(c.id)).toEqual([expect.objectContaining({ parts: 4, delivery: 1, issues: 40, finished_at: null })]);

      // The agent lost the command: the next claim hands it out again, and the parts start from 1.
      const again = (await agent.claim()).command;
      expect(again).toMatchObject({ id: c.id, deliveries: 2 });
      await part(c.id, 2, slice(1)).expect(409); // a new delivery starts at part 1
      for (const n of [1, 2, 3, 4, 5]) await part(c.id, n, slice(n - 1)).expect(200);
      expect((await command(sprint)).status).toBe('claimed');
      const done = (await agent.report(c.id, { status: 'done', result: { missing_keys: ['A-99'] }, jira_calls: 120 }).expect(200)).body;

      const runs = await runsOf(c.id);
      expect(runs).toHaveLength(1);
      // A jql refresh asks for no keys: none is missing, whatever the agent listed (SPEC 3: keys asked for and not returned)
      expect(runs[0]).toMatchObject({ parts: 5, delivery: 2, issues: 50, links: LINKS.length, missing: [], error: null, finished_at: hub.clock.iso() });
      expect(runs[0]).toMatchObject({ issues: wholeRun.issues, links: wholeRun.links, missing: wholeRun.missing });
      expect(done).toMatchObject({ status: 'done', jira_calls: 120, result: { parts: 5, sync_run_id: runs[0].id, missing_keys: [] } });
      expect(await command(sprint)).toMatchObject({ status: 'confirmed_by_state', result: { confirmed_by_sync_run: runs[0].id } });

      expect(await mirror()).toEqual(expected);
      // What the reference keeps: the cross-part links, no stale A-5 → A-30, the untouched Z-1 → Z-2.
      expect(expected.links).toEqual(expect.arrayContaining([LINKS[49], LINKS[50], BEFORE.links[1]]));
      expect(expected.links).not.toContainEqual(BEFORE.links[0]);
      expect((await hub.http.get('/issues?q=задача 45').expect(200)).body.map((i: Json) => i.key)).toEqual(['A-45']);
    } finally {
      await whole.close();
    }
  });

  it('missing holds only keys asked for and not returned, whatever the agent lists (a key it returned, one never asked, a blank)', async () => {
    const c = await refreshCommand({ keys: ['A-1', 'A-2'] });
    await part(c.id, 1, { ...refreshResult([{ key: 'A-1' }]), missing_keys: ['A-1', 'не ключ', ''] }).expect(200);
    await agent.report(c.id, { status: 'done', result: { ...refreshResult([]), missing_keys: ['A-1', 'Z-9', ''] } }).expect(200);
    const [run] = await runsOf(c.id);
    expect(run).toMatchObject({ parts: 1, issues: 1, missing: ['A-2'] });
  });

  it('the final done may carry the last slice; missing keys of a keys refresh cover every part', async () => {
    const c = await refreshCommand({ keys: ['A-1', 'A-2', 'A-3', 'A-4'] });
    await part(c.id, 1, { ...refreshResult([{ key: 'A-1' }], [{ source_key: 'A-1', target_key: 'A-2', link_type: 'Blocks' }]), missing_keys: ['A-4'] }).expect(200);
    await agent.report(c.id, { status: 'done', result: refreshResult([{ key: 'A-2' }], [{ source_key: 'A-1', target_key: 'A-2', link_type: 'Blocks' }]) }).expect(200);
    const [run] = await runsOf(c.id);
    expect(run).toMatchObject({ parts: 1, issues: 2, links: 1, missing: ['A-3', 'A-4'] });
    expect((await hub.http.get('/issues/A-1').expect(200)).body.links_out).toEqual([{ target_key: 'A-2', link_type: 'Blocks' }]);
  });

  it.each(['done', 'partial'] as const)('a %s report naming the same link twice stores it once and counts it once (PostgreSQL refused the upsert: 500)', async (status) => {
    const c = await refreshCommand({ keys: ['A-1', 'A-2'] });
    const L = { source_key: 'A-1', target_key: 'A-2', link_type: 'Blocks' };
    const result = { issues: [{ key: 'A-1' }, { key: 'A-2' }], links: [L, { ...L }, { ...L, link_type: 'Relates' }, L] };
    await agent.report(c.id, status === 'partial' ? { status, part: 1, result } : { status, result }).expect(200);
    expect(await sql('SELECT source_key, target_key, link_type FROM issue_link ORDER BY link_type')).toEqual([L, { ...L, link_type: 'Relates' }]);
    expect((await runsOf(c.id))[0]).toMatchObject({ issues: 2, links: 2 });
  });

  it('a failed refresh after parts keeps what the parts wrote and closes its sync run with the error', async () => {
    const c = await refreshCommand();
    await part(c.id, 1, slice(0)).expect(200);
    await agent.report(c.id, { status: 'failed', error: 'HTTP 503: Jira недоступна' }).expect(200);
    expect((await runsOf(c.id))[0]).toMatchObject({ parts: 1, issues: 10, error: 'HTTP 503: Jira недоступна', finished_at: hub.clock.iso() });
    await hub.http.get('/issues/A-10').expect(200);
  });

  it('parts for unknown, queued and finished commands get the answers of a report', async () => {
    await part(99999, 1, slice(0)).expect(404);
    const b = (await hub.http.post('/batches').send({ title: 'q', commands: [{ type: 'refresh', params: { jql: 'project = A' } }] }).expect(201)).body;
    const queued = await part(b.commands[0].id, 1, slice(0)).expect(409);
    expect(queued.body).toMatchObject({ error: 'not_claimed', detail: expect.any(String) });
    const c = (await agent.claim()).command;
    const done = await agent.done(c.id, refreshResult([{ key: 'A-1' }]));
    const late = await part(c.id, 1, slice(1)).expect(200);
    expect(late.body).toEqual(done);
    await hub.http.get('/issues/A-11').expect(404);
  });

  describe('bad parts → 4xx {error, detail}, nothing changed', () => {
    let id: number;
    beforeEach(async () => {
      id = (await refreshCommand()).id;
      await part(id, 1, slice(0)).expect(200);
    });

    async function unchanged(): Promise<void> {
      expect(await runsOf(id)).toEqual([expect.objectContaining({ parts: 1, issues: 10, finished_at: null })]);
      expect((await command(id)).status).toBe('claimed');
      await hub.http.get('/issues/A-11').expect(404);
    }

    it.each([
      ['a part that skips ahead', 3, slice(1), 409, 'conflict'],
      ['part 0', 0, slice(1), 422, 'validation_failed'],
      ['a fractional part', 1.5, slice(1), 422, 'validation_failed'],
      ['a part that is text', '2', slice(1), 422, 'validation_failed'],
      ['no result', 2, undefined, 422, 'validation_failed'],
      ['a result without issues', 2, { links: [] }, 422, 'validation_failed'],
      ['an issue without a key', 2, { issues: [{ summary: 'x' }] }, 422, 'validation_failed'],
    ])('%s', async (_name, n, result, status, error) => {
      const res = await part(id, n, result).expect(status as number);
      expect(res.body).toMatchObject({ error, detail: expect.any(String) });
      await unchanged();
    });

    it('a partial without a part number, or a part number on done', async () => {
      expect((await agent.report(id, { status: 'partial', result: slice(1) }).expect(422)).body).toMatchObject({ error: 'validation_failed', detail: expect.stringContaining('part') });
      expect((await agent.report(id, { status: 'done', part: 2, result: slice(1) }).expect(422)).body.detail).toContain('partial');
      await unchanged();
    });

    it('a body over the 10 MB limit', async () => {
      const big = refreshResult(Array.from({ length: 30_000 }, (_, i) => ({ key: `A-${i + 11}`, summary: 'x'.repeat(400) })));
      // the answer says the way out: parts under the limit (SPEC 15.5), for a part as for a whole result
      const hint = 'тело запроса больше 10 МБ: хаб такие не принимает; большой результат refresh присылайте частями меньше 10 МБ: отчёты со status «partial» и part 1, 2, … (в result — issues и links части), затем done';
      expect((await part(id, 2, big).expect(413)).body).toEqual({ error: 'payload_too_large', detail: hint });
      expect((await agent.report(id, { status: 'done', result: big }).expect(413)).body).toEqual({ error: 'payload_too_large', detail: hint });
      await unchanged();
    });

    it('a part of a command that is not a refresh', async () => {
      await agent.report(id, { status: 'done', result: { missing_keys: [] } }).expect(200);
      await hub.http.post('/batches').send({ title: 'f', commands: [{ type: 'ensure_fields', params: { key: 'A-1', duedate: '2026-12-01' } }] }).expect(201);
      const f = (await agent.claim()).command;
      expect(f.type).toBe('ensure_fields');
      const res = await part(f.id, 1, slice(1)).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', detail: expect.stringContaining('refresh') });
      expect((await command(f.id)).status).toBe('claimed');
    });
  });
});
