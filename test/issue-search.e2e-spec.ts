/** Issue 14: GET /issues at scale — word search (FTS5), filters, cursor paging; links both ways from indexes. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { Db } from '../src/database/db.service.js';
import { sqliteOnly } from './support/pg.js';
import { issueSearchFor } from '../src/mirror/issue-search.provider.js';
import type { ListIssuesQuery } from '../src/mirror/mirror.dto.js';
import { agentOf, refreshResult, startHub, tempDir, type TestHub } from './support/app.js';
import { createV1Database } from './support/legacy.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const ISSUES = [
  { key: 'A-1', summary: 'Отчёт о продажах за квартал', status: 'In Progress', sprint: 'Спринт 2', assignee: 'ivanov', labels: ['finance', 'q4'] },
  { key: 'A-2', summary: 'ОТЧЕТ по складу', status: 'Done', sprint: 'Спринт 2', assignee: 'petrova', labels: ['warehouse'] },
  { key: 'A-3', summary: 'Export the café report', status: 'In Progress', sprint: 'Спринт 1', assignee: 'ivanov', labels: ['finance'] },
  { key: 'A-4', summary: 'Продажи: новая воронка', status: 'To Do', sprint: null, assignee: null, labels: [] },
  { key: 'B-15', summary: 'Ёлка для офиса', status: 'To Do', sprint: 'Спринт 2', assignee: 'ivanov', labels: [] },
  { key: 'A-15', summary: 'Доставка', status: 'To Do', sprint: null, assignee: null, labels: [] },
  { key: 'A-150', summary: 'Склад', status: 'To Do', sprint: null, assignee: null, labels: [] },
  { key: 'A-7', summary: 'Срок 15 марта', status: 'To Do', sprint: null, assignee: null, labels: [] },
];

/** A refresh of the whole project through the agent's calls, its result given. */
async function refreshOn(hub: TestHub, result: Record<string, unknown>) {
  const agent = agentOf(hub);
  await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { jql: 'project = A' } }] }).expect(201);
  await agent.done((await agent.claim()).command.id, result);
}

describe('GET /issues: search, filters, cursor (issue 14)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());
  const refresh = (result: Record<string, unknown>) => refreshOn(hub, result);

  const keys = async (query: string) => ((await hub.http.get(`/issues?${query}`).expect(200)).body as Json[]).map((i) => i.key);

  it('the index follows the mirror: a changed summary or label set is found by its new words only', async () => {
    await refresh(refreshResult(ISSUES));
    await refresh(refreshResult([{ ...ISSUES[0], summary: 'План закупок', labels: ['procurement'] }]));
    expect(await keys('q=отчёт')).toEqual(['A-2']);
    expect(await keys('q=закуп')).toEqual(['A-1']);
    expect(await keys('label=finance')).toEqual(['A-3']);
    expect(await keys('label=procurement')).toEqual(['A-1']);
  });

  // Both engines fold as SQLite's FTS5 unicode61 does (decision 1419): Greek final sigma and the diacritics
  // it drops (Vietnamese too) are folded; the letters it keeps (ł, ø, Turkish ı) stay letters of their own.
  it.each([
    ['λόγοσ', ['L-1']],
    ['ΛΌΓΟΣ', ['L-1']],
    ['λογος', []],
    ['łodz', ['L-2']],
    ['lodz', []],
    ['ıstanbul', ['L-3']],
    ['istanbul', []],
    ['pho', ['L-4']],
    ['nguyen', ['L-5']],
    ['søren', ['L-6']],
    ['soren', []],
    ['a', ['L-7']],
  ])('folds letters as the SQLite index does, on both engines: q=%s', async (q, expected) => {
    const summaries = ['Λόγος', 'Łódź', 'ıstanbul', 'Phở bò', 'Nguyễn Văn', 'Søren', 'Ǎ ȁ'];
    await refresh(refreshResult(summaries.map((summary, i) => ({ key: `L-${i + 1}`, summary, status: 'To Do' }))));
    expect(await keys(`q=${encodeURIComponent(q)}`)).toEqual(expected);
  });

  // A summary Jira holds decomposed (е + U+0308, и + U+0306) is kept composed: both engines index the same words.
  it.each([
    ['ёлка', ['N-1']],
    ['елка', ['N-1']],
    ['новый', ['N-2']],
    ['новыи', []],
  ])('a decomposed summary is found as the composed one, on both engines: q=%s', async (q, expected) => {
    await refresh(refreshResult([
      { key: 'N-1', summary: 'Е\u0308лка во дворе', status: 'To Do' },
      { key: 'N-2', summary: 'Новыи\u0306 отчёт', status: 'To Do' },
    ]));
    expect(await keys(`q=${encodeURIComponent(q)}`)).toEqual(expected);
    expect((await hub.http.get('/issues/N-2').expect(200)).body.summary).toBe('Новый отчёт');
  });

  it('pages by cursor: X-Next-Cursor on a full page, every issue once, the old offset still works', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ key: `C-${i + 1}`, summary: `Работа ${i + 1}`, status: 'To Do' }));
    await refresh(refreshResult(many));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await hub.http.get(`/issues?status=To Do&q=работа&limit=10${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      seen.push(...res.body.map((i: Json) => i.key));
      cursor = res.headers['x-next-cursor'];
      if (!cursor) break;
    }
    expect(seen).toEqual(many.map((i) => i.key).sort());
    expect(await keys('limit=3&offset=2')).toEqual(['C-11', 'C-12', 'C-13']);
    const view = (await hub.http.get('/issues?limit=1').expect(200)).body[0];
    expect(Object.keys(view).sort()).toEqual(['assignee', 'created', 'duedate', 'fields', 'issue_type', 'key', 'labels', 'priority', 'sprint', 'sprint_board_id', 'sprint_id', 'sprint_state', 'status', 'summary', 'synced_at', 'updated']);
  });

  it('bad query parameters → 422', async () => {
    expect((await hub.http.get('/issues?limit=0').expect(422)).body).toMatchObject({ error: 'validation_failed', detail: expect.any(String) });
    await hub.http.get(`/issues?q=${'x'.repeat(501)}`).expect(422);
    // keys: Jira keys as the mirror holds them, as the MCP tool search_issues takes them (a lower-case or other word found nothing, silently)
    for (const keys of ['a-1', 'A-1,x', 'A1', 'A-0', ',']) {
      expect((await hub.http.get(`/issues?keys=${encodeURIComponent(keys)}`).expect(422)).body).toEqual({
        error: 'validation_failed',
        detail: 'keys: нужны ключи Jira через запятую, например AURORA-1,AURORA-2',
        errors: [{ field: 'keys', detail: 'нужны ключи Jira через запятую, например AURORA-1,AURORA-2' }],
      });
    }
    await hub.http.get('/issues?keys=A-2,%20A-4,').expect(200);
    expect((await hub.http.get('/issues?keys=').expect(200)).body).toEqual((await hub.http.get('/issues').expect(200)).body); // empty: no filter, as before
    // Long runs of spaces are tested part by part, not backtracked through.
    await hub.http.get(`/issues?keys=A-1${'+'.repeat(8000)}x`).expect(422);
  });

  // SQLite's EXPLAIN QUERY PLAN; on PostgreSQL the planner picks scans of tables this small whatever the indexes.
  sqliteOnly(it, it.skip)('searches, filters and both sides of links are index probes, not scans of the issue or link table', async () => {
    const plan = (sql: string, args: unknown[]) =>
      hub.app.get(Db).read(async (m) => ((await m.query(`EXPLAIN QUERY PLAN ${sql}`, args)) as { detail: string }[]).map((r) => r.detail).join('\n'));
    const planOf = (q: ListIssuesQuery) => {
      const { text, params } = issueSearchFor('sqlite').plainStatement(q).render('sqlite');
      return plan(text, params);
    };
    const noScan = /SCAN (i|issue|issue_link)\b(?! USING)/;
    expect(await planOf({ q: 'отчёт' })).toMatch(/VIRTUAL TABLE INDEX/);
    expect(await planOf({ q: 'отчёт' })).not.toMatch(noScan);
    for (const q of [{ status: 'Done', sprint: 'Спринт 2' }, { status: 'Done' }, { assignee: 'ivanov' }, { label: 'finance' }, { sprint: 'Спринт 2' }] as ListIssuesQuery[]) {
      expect(await planOf(q)).not.toMatch(noScan);
    }
    expect(await plan('SELECT target_key FROM issue_link WHERE source_key = ?', ['A-1'])).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_issue_link_1/);
    expect(await plan('SELECT source_key FROM issue_link WHERE target_key = ?', ['A-1'])).toMatch(/USING INDEX idx_issue_link_target/);
  });
});

// The table only reads: one hub and one refresh serve every query.
describe('GET /issues: one mirror, many queries (issue 14)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
    await refreshOn(hub, refreshResult(ISSUES));
  });
  afterAll(() => hub.close());

  it.each([
    ['q=отчёт', ['A-1', 'A-2']],
    ['q=ОТЧЕТ', ['A-1', 'A-2']],
    ['q=отч', ['A-1', 'A-2']],
    ['q=продаж', ['A-1', 'A-4']],
    ['q=отчёт продаж', ['A-1']],
    ['q=REPORT', ['A-3']],
    ['q=cafe', ['A-3']],
    ['q=елка', ['B-15']],
    ['q=b-15', ['B-15']],
    // a key typed in: its parts as they stand in a key, not «A» in one key and «15» in some summary
    ['q=A-15', ['A-15', 'A-150']],
    ['q=' + encodeURIComponent('«A-15»'), ['A-15', 'A-150']],
    ['q=ажах', []],
    ['q=' + encodeURIComponent('—'), ['A-1', 'A-15', 'A-150', 'A-2', 'A-3', 'A-4', 'A-7', 'B-15']],
    ['q=отчёт&status=Done', ['A-2']],
    ['status=In Progress', ['A-1', 'A-3']],
    ['status=In Progress&sprint=Спринт 2', ['A-1']],
    ['sprint=Спринт 2', ['A-1', 'A-2', 'B-15']],
    ['assignee=ivanov', ['A-1', 'A-3', 'B-15']],
    ['label=finance', ['A-1', 'A-3']],
    ['label=finance&q=export', ['A-3']],
    ['label=Finance', []],
    ['keys=A-2,A-4,Z-1&q=продажи', ['A-4']],
  ])('%s', async (query, expected) => {
    expect(((await hub.http.get(`/issues?${query}`).expect(200)).body as Json[]).map((i) => i.key)).toEqual(expected);
  });
});

// A v1 SQLite file migrated in place; on PostgreSQL a database only ever starts empty (from-sqlite migrates a SQLite copy first).
sqliteOnly(describe, describe.skip)('the search index of a migrated database (schema v4)', () => {
  it('is built from the issues already mirrored', async () => {
    const dir = tempDir();
    const file = join(dir, 'v1.sqlite');
    createV1Database(file, (db) => {
      const insert = db.prepare('INSERT INTO issue (key, summary, status, labels) VALUES (?, ?, ?, ?)');
      insert.run('OLD-1', 'Старый отчёт', 'Done', '["legacy"]');
      insert.run('OLD-2', 'Другое', 'Done', '[1, "x"]');
    });
    const hub = await startHub({ HUB_DB_PATH: file });
    try {
      expect((await hub.http.get('/issues?q=отчет').expect(200)).body.map((i: Json) => i.key)).toEqual(['OLD-1']);
      expect((await hub.http.get('/issues?label=legacy').expect(200)).body.map((i: Json) => i.key)).toEqual(['OLD-1']);
      expect((await hub.http.get('/issues?q=другое').expect(200)).body.map((i: Json) => i.key)).toEqual(['OLD-2']);
      expect((await hub.http.get('/issues?label=x').expect(200)).body.map((i: Json) => i.key)).toEqual(['OLD-2']);
    } finally {
      await hub.close();
    }
  });
});
