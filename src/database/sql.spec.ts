import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { join, list, one, prepared, raw, rows, run, sql } from './sql.js';

describe('sql templates render native parameters', () => {
  const q = sql`SELECT * FROM command WHERE batch_id = ${7} AND status IN (${list(['queued', 'claimed'])})${raw(' ORDER BY seq')}`;
  it.each([
    ['sqlite', 'SELECT * FROM command WHERE batch_id = ? AND status IN (?, ?) ORDER BY seq'],
    ['postgres', 'SELECT * FROM command WHERE batch_id = $1 AND status IN ($2, $3) ORDER BY seq'],
  ] as const)('%s', (engine, text) => {
    expect(q.render(engine)).toEqual({ text, params: [7, 'queued', 'claimed'] });
  });

  it('numbers the parameters of nested fragments in order, and an empty list matches nothing', () => {
    const where = join([sql`a = ${1}`, sql`b = ${2}`, sql`c IN (${list([])})`], ' AND ');
    expect(sql`SELECT ${0} WHERE ${where} AND d = ${3}`.render('postgres')).toEqual({
      text: 'SELECT $1 WHERE a = $2 AND b = $3 AND c IN (NULL) AND d = $4',
      params: [0, 1, 2, 3],
    });
    expect(join([], ', ').render('sqlite')).toEqual({ text: '', params: [] });
  });
});

/** The same statements through the real drivers: SQLite always, PostgreSQL when the tests have one. */
const engines: [string, () => DataSource][] = [['sqlite', () => new DataSource({ type: 'better-sqlite3', database: ':memory:' })]];
if (process.env.HUB_TEST_DATABASE_URL) {
  engines.push(['postgres', () => new DataSource({ type: 'postgres', url: process.env.HUB_TEST_DATABASE_URL })]);
}

describe.each(engines)('rows, one and run on %s', (engine, make) => {
  const ds = make();
  const table = `sql_spec_${process.pid}`;
  beforeAll(async () => {
    await ds.initialize();
    await ds.query(`CREATE TEMPORARY TABLE ${table} (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`);
  });
  afterAll(() => ds.destroy());

  it('inserts with RETURNING, counts changed rows, reads rows back', async () => {
    const m = ds.manager;
    const t = raw(table);
    const inserted = await rows<{ id: number }>(m, sql`INSERT INTO ${t} (id, name) VALUES (${1}, ${'a'}), (${2}, ${'b'}) RETURNING id`);
    expect(inserted.map((r) => Number(r.id))).toEqual([1, 2]);
    expect(await run(m, sql`UPDATE ${t} SET name = ${'c'} WHERE id IN (${list([1, 2, 3])})`)).toBe(2);
    expect(await run(m, sql`DELETE FROM ${t} WHERE id = ${9}`)).toBe(0);
    expect(await one<{ name: string }>(m, sql`SELECT name FROM ${t} WHERE id = ${2}`)).toEqual({ name: 'c' });
    expect(await one(m, sql`SELECT name FROM ${t} WHERE id = ${9}`)).toBeUndefined();
  });

  it('prepared: the same rows; on PostgreSQL the statement is prepared once on the connection and run again by its name', async () => {
    const q = ds.createQueryRunner();
    try {
      const statement = (id: number) => prepared(sql`SELECT name FROM ${raw(table)} WHERE id = ${id} /* prepared spec */`);
      expect(await rows(q.manager, statement(1))).toEqual([{ name: 'c' }]);
      expect(await rows(q.manager, statement(2))).toEqual([{ name: 'c' }]);
      expect(await rows(q.manager, statement(9))).toEqual([]);
      if (engine === 'postgres') {
        const found: { name: string }[] = await q.query(`SELECT name FROM pg_prepared_statements WHERE statement LIKE '%prepared spec%'`);
        expect(found).toEqual([{ name: expect.stringMatching(/^hub_\d+$/) }]);
      }
    } finally {
      await q.release();
    }
  });
});
