/**
 * Issue 21: a common word walks the key order and stops at the page (decision 0801). The page is the
 * plain plan's (every match gathered, sorted by key) for every word, page size, offset and cursor, on
 * the engine under test; the thresholds are lowered so that a few hundred issues reach each path.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Db } from '../src/database/db.service.js';
import type { SearchTuning } from '../src/mirror/issue-search.repository.js';
import { issueSearchFor } from '../src/mirror/issue-search.provider.js';
import type { ListIssuesQuery } from '../src/mirror/mirror.dto.js';
import { agentOf, refreshResult, startHub, type TestHub } from './support/app.js';

const WORDS = ['отчёт', 'продажи', 'склад', 'report', 'export', 'sync'];
const ISSUES = Array.from({ length: 400 }, (_, i) => ({
  key: `${['AB', 'B', 'ZED'][i % 3]}-${((i * 37) % 400) + 1}`,
  // Common words in every issue (the first), in a third (the second), rare ones (метка7 in four issues).
  summary: `${WORDS[0]} ${WORDS[1 + (i % 3)]} ${WORDS[3 + (i % 3)]} метка${i % 100} задача ${i}`,
}));

describe('a common word in GET /issues: the key-order walk pages as the plain plan (issue 21)', () => {
  let hub: TestHub;
  let db: Db;
  beforeAll(async () => {
    hub = await startHub();
    db = hub.app.get(Db);
    const agent = agentOf(hub);
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { jql: 'project = AB' } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult(ISSUES));
  });
  afterAll(() => hub.close());

  const keysOf = (rows: { key: string }[]) => rows.map((r) => r.key);
  const plain = (q: ListIssuesQuery) => db.read(async (m) => keysOf(await issueSearchFor(db.engine).plainPage(m, q)));
  const searched = (q: ListIssuesQuery, tuning: SearchTuning) => db.read(async (m) => keysOf(await issueSearchFor(db.engine, tuning).page(m, q)));

  const QUERIES: ListIssuesQuery[] = [
    { q: 'отч' },
    { q: 'отчет', limit: 7 },
    { q: 'прод', limit: 10, offset: 5 },
    { q: 'REPORT', limit: 50, offset: 60 },
    { q: 'sync', limit: 10, cursor: 'B-100' },
    { q: 'export', limit: 1000 },
    { q: 'метка7', limit: 3 },
    { q: 'nothing' },
    { q: 'ab', limit: 20, offset: 100 },
  ];
  const WALK_ALWAYS: SearchTuning = { commonWordMatches: 1, walkRowsPerMatch: 1_000 };
  const WALK_GIVES_WAY: SearchTuning = { commonWordMatches: 100_000, walkRowsPerMatch: 1 };

  it.each(QUERIES.map((q) => [JSON.stringify(q), q] as const))('%s: the same page by the walk, by the walk that gives way, and by default', async (_, q) => {
    const expected = await plain(q);
    expect(await searched(q, WALK_ALWAYS)).toEqual(expected);
    expect(await searched(q, WALK_GIVES_WAY)).toEqual(expected);
    expect(await searched(q, {})).toEqual(expected);
  });

  it('the page is the first matches in key order, and HTTP answers it with its cursor', async () => {
    const all = ISSUES.filter((i) => /(^| )sync/.test(i.summary)).map((i) => i.key).sort();
    expect(all.length).toBeGreaterThan(100);
    expect(await searched({ q: 'sync', limit: 25 }, WALK_ALWAYS)).toEqual(all.slice(0, 25));
    const res = await hub.http.get('/issues?q=sync&limit=25').expect(200);
    expect(res.body.map((i: { key: string }) => i.key)).toEqual(all.slice(0, 25));
    expect(res.headers['x-next-cursor']).toBe(all[24]);
  });
});
