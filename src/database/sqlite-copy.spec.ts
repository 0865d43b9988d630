import { describe, expect, it } from '@jest/globals';
import { stamp } from './sqlite-copy.js';

describe('stamp (SPEC 3.1, 3.2): YYYYMMDD-HHMMSS in UTC', () => {
  it.each([
    ['2026-11-30T08:55:22.000Z', '20261130-085522'],
    ['2026-01-02T03:04:05.999Z', '20260102-030405'],
    ['2026-12-31T23:59:59.999Z', '20261231-235959'],
    ['2026-10-13T10:00:00.000+03:00', '20261013-070000'],
    ['2026-03-01T01:30:00.000+05:00', '20260228-203000'],
    ['2000-02-29T00:00:00.000Z', '20000229-000000'],
  ])('%s → %s', (iso, expected) => {
    expect(stamp(new Date(iso))).toBe(expected);
  });

  it('has the shape of a backup file name prefix', () => {
    expect(stamp(new Date())).toMatch(/^\d{8}-\d{6}$/);
  });
});
