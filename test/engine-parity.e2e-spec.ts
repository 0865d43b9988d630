/**
 * The same answers whichever engine the hub runs on: what the REST API (and so MCP and the dashboard) shows
 * on SQLite it shows on PostgreSQL too. Runs on SQLite by `npm test` and on PostgreSQL by `npm run test:pg`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { agentOf, refreshResult, startHub, type TestHub } from './support/app.js';
import { MirrorTextParity1766016000000 } from '../migrations/1766016000000-MirrorTextParity.js';
import { SprintState1766102400000 } from '../migrations/1766102400000-SprintState.js';
import { SCHEMA_VERSION } from '../src/database/index.js';
import { dataSourceOn, freshSchema, icuDatabase, onPostgres, undoMigration } from './support/pg.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The text of a JSON value as the hub answered it: its keys in the order of the answer. */
const text = (value: unknown) => JSON.stringify(value);

describe('a command shows its params and result as they were written, on both engines (decision 1431)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  // Longer keys before shorter ones, nested objects, numbers, an empty string, null: jsonb gave its own order back.
  const params = {
    temp_key: 'new:1',
    summary: 'Отчёт «ёлка»',
    issue_type: 'Task',
    fields: { zeta_long_name: 1, alpha: { yy: [1.5, { bb: null, a: '' }], x: true }, ключ: 'значение', b: 1e21 },
  };
  const link = { target: 'A-2', source: 'new:1', link_type: 'Blocks' };
  const result = { key: 'A-7', created: true, transitions: ['In Progress', 'Done'], before: { summary: 'old', labels: [] }, id: '10042' };

  it('in the batch, the command, the claim, the report and the lists, their keys in the order submitted and reported', async () => {
    const agent = agentOf(hub);
    const created = (await hub.http.post('/batches').send({ title: 't', commands: [{ type: 'ensure_issue', params }, { type: 'ensure_link', params: link }] }).expect(201)).body;
    const [issueId, linkId] = created.commands.map((c: Json) => c.id as number);
    expect(text(created.commands[0].params)).toBe(text(params));
    expect(text((await hub.http.get(`/batches/${created.id}`).expect(200)).body.commands[0].params)).toBe(text(params));
    expect(text((await hub.http.get(`/commands/${issueId}`).expect(200)).body.params)).toBe(text(params));
    expect(text((await hub.http.get('/agent').expect(200)).body.next_command.params)).toBe(text(params));

    const claimed = (await agent.claim()).command;
    expect(claimed.id).toBe(issueId);
    expect(text(claimed.params)).toBe(text(params));
    const reported = await agent.done(issueId, result);
    expect(text(reported.params)).toBe(text(params));
    expect(text(reported.result)).toBe(text(result));
    expect(text((await hub.http.get(`/commands/${issueId}`).expect(200)).body.result)).toBe(text(result));

    // The temp key substituted at the claim: the params written again, in their order.
    const next = (await agent.claim()).command;
    expect(next.id).toBe(linkId);
    expect(text(next.params)).toBe(text({ ...link, source: 'A-7' }));
    const failure = { status: 400, body: { errors: { link_type_name: 'нет такого типа', b: '2' }, errorMessages: [] } };
    await agent.report(linkId, { status: 'failed', error: 'Jira ответила 400', result: failure }).expect(200);
    const failed = (await hub.http.get('/commands?status=failed').expect(200)).body as Json[];
    expect(failed.map((c) => [text(c.params), text(c.result)])).toEqual([[text({ ...link, source: 'A-7' }), text(failure)]]);
  });
});

/** A refresh of the whole project through the agent's calls, its result given. */
async function refreshOn(hub: TestHub, issues: Record<string, unknown>[]) {
  const agent = agentOf(hub);
  await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { jql: 'project = W' } }] }).expect(201);
  await agent.done((await agent.claim()).command.id, refreshResult(issues));
}

const keysOf = async (hub: TestHub, query: string) => ((await hub.http.get(`/issues?${query}`).expect(200)).body as Json[]).map((i) => i.key);

/**
 * Summaries whose words SQLite's FTS5 index (unicode61, the reference: decision 1419) splits otherwise than
 * PostgreSQL's locale would: Indic vowel signs and viramas end a word, «²», «½», «Ⅷ» belong to one, the
 * combining marks unicode61 drops are dropped, Turkish «İ» is folded to «i» whatever lower() makes of it, a word
 * longer than PostgreSQL's lexemes is kept.
 */
const WORDS = [
  { key: 'W-1', summary: 'हिन्दी भाषा परियोजना' },
  { key: 'W-2', summary: 'தமிழ் மொழி বাংলা ভাষা' },
  { key: 'W-3', summary: 'Площадь 50 м² и ½ ставки, этап Ⅷ' },
  { key: 'W-4', summary: 'İstanbul ofisi İZMİR' },
  { key: 'W-5', summary: 'Ме\u0301сто встре\u0301чи' },
  // a word longer than a tsvector's lexeme (2047 bytes): found by its start as in SQLite's index
  { key: 'W-6', summary: `${'ж'.repeat(1100)}ик конец` },
];
const SEARCHES: [string, string[]][] = [
  ['हिन्दी', ['W-1']],
  ['भाषा', ['W-1']],
  ['परियोजना', ['W-1']],
  ['மொழி', ['W-2']],
  ['বাংলা', ['W-2']],
  ['м²', ['W-3']],
  ['½', ['W-3']],
  ['ⅷ', ['W-3']],
  ['istanbul', ['W-4']],
  ['İZMİR', ['W-4']],
  ['izmir ofisi', ['W-4']],
  ['место', ['W-5']],
  ['встречи', ['W-5']],
  // the words as written, with the stress unicode61 drops: one word each, not «ме» and «сто»
  ['Ме\u0301сто', ['W-5']],
  ['встре\u0301чи ме\u0301', ['W-5']],
  ['\u0301 конец', ['W-6']],
  ['жжжж', ['W-6']],
  ['конец', ['W-6']],
];

/** Values of the fields the filters compare, in several letter cases. */
const FOLDED = [
  { key: 'F-1', status: 'İptal', sprint: 'ΟΔΟΣ', labels: ['ΟΔΟΣ'] },
  { key: 'F-2', status: 'iptal', sprint: 'οδος', labels: ['οδος'] },
  { key: 'F-3', status: 'IPTAL', sprint: 'Οδοσ', labels: ['Οδοσ'] },
  { key: 'F-4', status: 'Ёлка', sprint: 'Οδός', labels: ['Οδός'] },
];
/** «İ» is «i» with a dot above, as the word search folds it, and final «ς» is «σ»: each value finds itself and its other cases. */
const FOLD_FILTERS: [string, string[]][] = [
  ['status=İptal', ['F-1', 'F-2', 'F-3']],
  ['status=IPTAL', ['F-1', 'F-2', 'F-3']],
  ['status=елка', ['F-4']],
  ['sprint=ΟΔΟΣ', ['F-1', 'F-2', 'F-3']],
  ['sprint=οδος', ['F-1', 'F-2', 'F-3']],
  ['sprint=ΟΔΌΣ', ['F-4']],
  ['label=ΟΔΟΣ', ['F-1', 'F-2', 'F-3']],
  ['label=οδοσ', ['F-1', 'F-2', 'F-3']],
];
/** `name=value` with the value URI-encoded. */
const encoded = (filter: string) => filter.replace(/=(.*)$/, (_, v: string) => `=${encodeURIComponent(v)}`);

describe('the word search splits and folds words as SQLite does, on both engines (decision 1431)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
    await refreshOn(hub, WORDS);
  });
  afterAll(() => hub.close());

  it.each(SEARCHES)('q=%s', async (q, expected) => {
    expect(await keysOf(hub, `q=${encodeURIComponent(q)}`)).toEqual(expected);
  });
});

(onPostgres ? describe : describe.skip)('the word search on a PostgreSQL database of ICU collation (decision 1431)', () => {
  let hub: TestHub | undefined;
  let icu: string | null = null;
  beforeAll(async () => {
    icu = await icuDatabase();
    if (icu === null) return;
    hub = await startHub({ HUB_DATABASE_URL: icu });
    await refreshOn(hub, [...WORDS, ...FOLDED]);
  });
  afterAll(() => hub?.close());

  it.each(SEARCHES)('q=%s', async (q, expected) => {
    if (!hub) return; // the test server has no ICU: no such database to compare
    expect(await keysOf(hub, `q=${encodeURIComponent(q)}`)).toEqual(expected);
  });

  it.each(FOLD_FILTERS)('fold=true&%s', async (filter, expected) => {
    if (!hub) return;
    expect(await keysOf(hub, `fold=true&${encoded(filter)}`)).toEqual(expected);
  });
});

(onPostgres ? describe : describe.skip)('schema v20 on PostgreSQL: the words of issues already mirrored (decision 1431)', () => {
  it('are made again, split as SQLite splits them', async () => {
    const env = { HUB_DATABASE_URL: await freshSchema() };
    const first = await startHub(env);
    try {
      await refreshOn(first, WORDS);
    } finally {
      await first.close();
    }
    // The database as a v19 hub left it: the column of words the locale and the text search parser split.
    const ds = await dataSourceOn(env.HUB_DATABASE_URL);
    try {
      await ds.query(`CREATE OR REPLACE FUNCTION hub_search_text(key text, summary text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
                        $$ SELECT regexp_replace(hub_search_fold(key || ' ' || coalesce(summary, '')), '[^[:alnum:]]+', ' ', 'g') $$`);
      await undoMigration(ds, SprintState1766102400000);
      await undoMigration(ds, MirrorTextParity1766016000000);
    } finally {
      await ds.destroy();
    }
    const second = await startHub(env);
    try {
      expect((await second.http.get('/health').expect(200)).body.schema_version).toBe(SCHEMA_VERSION);
      for (const [q, expected] of SEARCHES) expect([q, await keysOf(second, `q=${encodeURIComponent(q)}`)]).toEqual([q, expected]);
    } finally {
      await second.close();
    }
  });
});

describe('filters that ignore letter case (fold=true) find the same issues on both engines (decision 1431)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
    await refreshOn(hub, FOLDED);
  });
  afterAll(() => hub.close());

  it.each(FOLD_FILTERS)('%s', async (filter, expected) => {
    expect(await keysOf(hub, `fold=true&${encoded(filter)}`)).toEqual(expected);
  });

  it('without fold=true a value matches as it is written', async () => {
    expect(await keysOf(hub, `status=${encodeURIComponent('İptal')}`)).toEqual(['F-1']);
    expect(await keysOf(hub, `sprint=${encodeURIComponent('οδος')}`)).toEqual(['F-2']);
    expect(await keysOf(hub, `label=${encodeURIComponent('Οδοσ')}`)).toEqual(['F-3']);
  });
});

/** Keys and values whose order a database's locale changes (en_US, ICU: `_` before `-`, letter case and `ё` ignored first). */
const ORDERED = [
  { key: 'A_B-1', status: 'done', sprint: 'Ёлка' },
  { key: 'Z-1', status: 'Done', sprint: 'Елка' },
  { key: 'A1-5', status: 'In Progress', sprint: 'Жук' },
  { key: 'A-15', status: 'a', sprint: 'елка' },
  { key: 'AB-1', status: 'B', sprint: 'Ёлка' },
  { key: 'A-1', status: 'Done', sprint: null },
  { key: 'A1-1', status: 'done', sprint: null },
];
const NOTE_KEYS = ['PROJ-1', 'new:5', 'A_B-1', 'A-1', 'new:12'];

/** What SQLite answers: text in BINARY order (code point order, for these values the order of JavaScript's sort). */
async function expectSqliteOrder(hub: TestHub): Promise<void> {
  const keys = ORDERED.map((i) => i.key).sort();
  expect(await keysOf(hub, 'limit=100')).toEqual(keys);
  const first = await hub.http.get('/issues?limit=3').expect(200);
  expect(first.header['x-next-cursor']).toBe(keys[2]);
  expect(await keysOf(hub, `limit=3&cursor=${first.header['x-next-cursor']}`)).toEqual(keys.slice(3, 6));
  expect(await keysOf(hub, 'q=1')).toEqual(keys.filter((k) => k.split(/[-_]/).some((w) => w.startsWith('1'))));
  const facets = (await hub.http.get('/issues/facets').expect(200)).body;
  expect(facets.statuses.map((s: Json) => s.value)).toEqual([...new Set(ORDERED.map((i) => i.status))].sort());
  expect(facets.sprints.map((s: Json) => s.value)).toEqual([...new Set(ORDERED.flatMap((i) => (i.sprint ? [i.sprint] : [])))].sort());
  for (const key of NOTE_KEYS) await hub.http.put(`/notes/${key}`).send({ comment: key }).expect(200);
  expect(((await hub.http.get('/notes').expect(200)).body as Json[]).map((n) => n.key)).toEqual([...NOTE_KEYS].sort());
}

describe('lists in SQLite\'s order, on both engines (decision 1431)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('issues, the cursor, the facets and the notes in bytewise order of their text', async () => {
    await refreshOn(hub, ORDERED);
    await expectSqliteOrder(hub);
  });
});

(onPostgres ? describe : describe.skip)('lists in SQLite\'s order on a PostgreSQL database of ICU collation (decision 1431)', () => {
  it('issues, the cursor, the facets and the notes in bytewise order of their text, not ICU\'s', async () => {
    const icu = await icuDatabase();
    if (icu === null) return; // the test server has no ICU: no such database to compare
    const hub = await startHub({ HUB_DATABASE_URL: icu });
    try {
      await refreshOn(hub, ORDERED);
      await expectSqliteOrder(hub);
    } finally {
      await hub.close();
    }
  });
});
