import { describe, expect, it } from '@jest/globals';
import { goneRun } from './gone.js';

const missing = new Map([['A-3', { run: 7, at: '2026-11-30T12:00:00.000Z' }]]);

describe('goneRun', () => {
  it.each([
    ['a run after the mirror read it', 'A-3', '2026-11-30T11:00:00.000Z', 7],
    ['a later refresh found it again', 'A-3', '2026-11-30T12:05:00.000Z', undefined],
    ['never read (no copy to distrust)', 'A-3', null, undefined],
    ['no run missed it', 'A-4', '2026-11-30T11:00:00.000Z', undefined],
  ] as const)('%s', (_name, key, syncedAt, run) => {
    expect(goneRun(missing, key, syncedAt)).toBe(run);
  });
});
