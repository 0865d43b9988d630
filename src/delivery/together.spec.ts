/**
 * The statements DeliveryRepository runs as one (issue 21.3): `withParts` renders named parts as one
 * PostgreSQL statement, and `together` runs independent parts as one unit through the real drivers —
 * SQLite always, PostgreSQL when the tests have one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { raw, rows, sql } from '../database/index.js';
import { together, withParts } from './delivery.repository.js';

describe('withParts', () => {
  it('withParts: one statement of named parts, each answered as a JSON array; a bad name is refused', () => {
    expect(withParts({ a: sql`SELECT ${1} AS x`, b: sql`SELECT ${2} AS y` }).render('postgres')).toEqual({
      text: `WITH a AS (SELECT $1 AS x), b AS (SELECT $2 AS y) SELECT (SELECT coalesce(json_agg(a), '[]'::json) FROM a) AS a, (SELECT coalesce(json_agg(b), '[]'::json) FROM b) AS b`,
      params: [1, 2],
    });
    expect(() => withParts({ 'a; DROP': raw('SELECT 1') })).toThrow(/bad part names/);
  });

});

const engines: [string, () => DataSource][] = [['sqlite', () => new DataSource({ type: 'better-sqlite3', database: ':memory:' })]];
if (process.env.HUB_TEST_DATABASE_URL) {
  engines.push(['postgres', () => new DataSource({ type: 'postgres', url: process.env.HUB_TEST_DATABASE_URL, extra: { max: 1 } })]);
}

describe.each(engines)('together on %s', (_engine, make) => {
  const ds = make();
  const table = `together_spec_${process.pid}`;
  beforeAll(async () => {
    await ds.initialize();
    await ds.query(`CREATE TEMPORARY TABLE ${table} (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`);
    await ds.query(`INSERT INTO ${table} (id, name) VALUES (1, 'a'), (2, 'c')`);
  });
  afterAll(() => ds.destroy());

  it('together: independent parts in one unit, each part\'s rows under its name; none sees another\'s write', async () => {
    const m = ds.manager;
    const t = raw(table);
    const found = await together(m, {
      added: sql`INSERT INTO ${t} (id, name) VALUES (${10}, ${'x'}) RETURNING id, name`,
      renamed: sql`UPDATE ${t} SET name = ${'d'} WHERE id = ${1} RETURNING id, name`,
      other: sql`SELECT name FROM ${t} WHERE id = ${2}`,
      none: sql`SELECT name FROM ${t} WHERE id = ${99}`,
    });
    expect(found).toEqual({ added: [{ id: 10, name: 'x' }], renamed: [{ id: 1, name: 'd' }], other: [{ name: 'c' }], none: [] });
    expect(await rows(m, sql`SELECT id, name FROM ${t} ORDER BY id`)).toEqual([
      { id: 1, name: 'd' },
      { id: 2, name: 'c' },
      { id: 10, name: 'x' },
    ]);
  });

});
