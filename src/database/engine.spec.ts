import { describe, expect, it } from '@jest/globals';
import { positional } from './engine.js';
import { describeConnectFailure, isUnavailable, redactUrl } from './postgres.js';
import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';

describe('positional (? → $n for PostgreSQL)', () => {
  it.each([
    ['SELECT 1', 'SELECT 1'],
    ['SELECT * FROM batch WHERE id = ?', 'SELECT * FROM batch WHERE id = $1'],
    ['UPDATE command SET a = ?, b = ? WHERE id IN (?, ?)', 'UPDATE command SET a = $1, b = $2 WHERE id IN ($3, $4)'],
    [`SELECT json_extract(params, '$.temp_key') FROM command WHERE x = ?`, `SELECT json_extract(params, '$.temp_key') FROM command WHERE x = $1`],
    [`SELECT 'what?' AS q, ? AS a`, `SELECT 'what?' AS q, $1 AS a`],
    [`SELECT 'it''s ?' AS q, ?`, `SELECT 'it''s ?' AS q, $1`],
    [`SELECT "odd?name" FROM t WHERE a = ?`, `SELECT "odd?name" FROM t WHERE a = $1`],
    ['SELECT a -- why?\nFROM t WHERE b = ?', 'SELECT a -- why?\nFROM t WHERE b = $1'],
    ['INSERT INTO t (a) VALUES ($1)', 'INSERT INTO t (a) VALUES ($1)'],
  ])('%s', (sql, expected) => {
    expect(positional(sql)).toBe(expected);
  });
});

describe('isUnavailable (the server cannot be used right now → 503)', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, true],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, true],
    [{ code: '57P03', message: 'the database system is starting up' }, true],
    [{ code: '08006' }, true],
    [{ message: 'Connection terminated unexpectedly' }, true],
    [{ driverError: { code: 'ECONNRESET' } }, true],
    // TypeORM released the unit's runner because its connection emitted an error (issue 21.9)
    [new QueryRunnerAlreadyReleasedError(), true],
    [new QueryRunnerProviderAlreadyReleasedError(), true],
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }, false],
    [{ code: '42P01', message: 'relation "x" does not exist' }, false],
    [new Error('something else'), false],
    [null, false],
  ])('%j → %s', (err, expected) => {
    expect(isUnavailable(err)).toBe(expected);
  });
});

describe('start-up connection failures: one line, password hidden', () => {
  it.each([
    [{ code: '28P01' }, 'postgres://hub:secret@db:5432/hub', 'cannot connect to PostgreSQL at postgres://hub:***@db:5432/hub: the server refused the user or password'],
    [{ code: '3D000' }, 'postgres://hub@db/hub', 'cannot connect to PostgreSQL at postgres://hub@db/hub: the database does not exist'],
    [{ code: 'ENOTFOUND' }, 'postgres://hub@nowhere/hub', 'cannot connect to PostgreSQL at postgres://hub@nowhere/hub: the host name does not resolve'],
    [{ code: 'ECONNREFUSED' }, 'postgres://hub@db:1/hub', 'cannot connect to PostgreSQL at postgres://hub@db:1/hub: nothing listens at that host and port'],
  ])('%j', (err, url, line) => {
    expect(describeConnectFailure(url, err)).toBe(line);
  });

  it('hides the password of a string that is not a URL too', () => {
    expect(redactUrl('postgres://hub:se cret@db/hub')).not.toContain('se cret');
  });
});
