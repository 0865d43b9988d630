import { describe, expect, it } from '@jest/globals';
import { nestsDeeperThan } from './request-body.js';

const nested = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('nestsDeeperThan', () => {
  it.each([
    [1, 0, false],
    [null, 0, false],
    [{}, 1, false],
    [{}, 0, true],
    [nested(3), 3, false],
    [nested(4), 3, true],
    [{ a: 1, b: [1, 2, { c: [] }] }, 4, false],
    [{ a: 1, b: [1, 2, { c: [] }] }, 3, true],
    [nested(100_000), 100, true],
  ])('case %#', (value, max, expected) => {
    expect(nestsDeeperThan(value, max as number)).toBe(expected);
  });
});
