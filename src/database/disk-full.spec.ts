import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryFailedError } from 'typeorm';
import { UnavailableError } from '../common/index.js';
import { DATABASE_BUSY_DETAIL, DISK_FULL_DETAIL, unavailableFor, isDiskFull } from './disk-full.js';
import { sqliteRefusal } from './database-file.js';

/** An error of the driver as TypeORM passes it on (QueryFailedError keeps the driver's error and its code). */
const failed = (code: string) => new QueryFailedError('INSERT …', [], Object.assign(new Error(code), { code }));

describe('isDiskFull', () => {
  const roomy = mkdtempSync(join(tmpdir(), 'jira-hub-disk-'));
  afterAll(() => rmSync(roomy, { recursive: true, force: true }));
  it.each([
    ['SQLite: database or disk is full', failed('SQLITE_FULL'), undefined, true],
    ['the driver error itself', Object.assign(new Error('x'), { code: 'SQLITE_FULL' }), undefined, true],
    ['PostgreSQL: 53100 disk_full', failed('53100'), undefined, true],
    ['SQLite I/O error on a disk with room', failed('SQLITE_IOERR_SHMSIZE'), roomy, false],
    ['SQLite I/O error, no folder to look at', failed('SQLITE_IOERR_WRITE'), undefined, false],
    ['a constraint', failed('SQLITE_CONSTRAINT_UNIQUE'), roomy, false],
    ['PostgreSQL: another class 53 error (out of memory)', failed('53200'), undefined, false],
    ['no code', new Error('boom'), roomy, false],
    ['not an error', 'SQLITE_FULL', undefined, false],
  ])('%s', (_what, err, folder, full) => {
    expect(isDiskFull(err, folder)).toBe(full);
  });
});

describe('unavailableFor', () => {
  it('turns a full disk into 503 unavailable saying what to do, and passes anything else on as it came', () => {
    const out = unavailableFor(failed('SQLITE_FULL'));
    expect(out).toBeInstanceOf(UnavailableError);
    expect((out as UnavailableError).detail).toBe(DISK_FULL_DETAIL);
    const other = failed('SQLITE_CONSTRAINT_UNIQUE');
    expect(unavailableFor(other)).toBe(other);
  });
});

describe('a database file another process keeps locked (SQLITE_BUSY)', () => {
  it('at run time: 503 unavailable, on the error or its driver error', () => {
    for (const err of [Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), { driverError: { code: 'SQLITE_BUSY_SNAPSHOT' } }]) {
      expect(unavailableFor(err)).toEqual(new UnavailableError(DATABASE_BUSY_DETAIL));
    }
  });

  it('at the start: one line naming the file and what to do', () => {
    expect(sqliteRefusal('/srv/hub.sqlite', { code: 'SQLITE_BUSY' })?.message).toBe(
      'база данных /srv/hub.sqlite: база занята: другой процесс держит её заблокированной дольше 10 с; остановите его (или дождитесь, пока он закончит) и запустите снова',
    );
  });
});
