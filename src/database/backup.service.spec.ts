import { describe, expect, it } from '@jest/globals';
import { byAge } from './backup.service.js';

describe('byAge (backup rotation order)', () => {
  it.each([
    [['20261130-100001-batch-1.sqlite', '20261130-100000-batch-2.sqlite'], ['20261130-100000-batch-2.sqlite', '20261130-100001-batch-1.sqlite']],
    [['20261130-100000-batch-10.sqlite', '20261130-100000-batch-9.sqlite'], ['20261130-100000-batch-9.sqlite', '20261130-100000-batch-10.sqlite']],
    [['20261201-000000-batch-3.sqlite', '20261130-235959-batch-40.sqlite'], ['20261130-235959-batch-40.sqlite', '20261201-000000-batch-3.sqlite']],
  ])('%j → %j', (names, oldestFirst) => {
    expect([...names].sort(byAge)).toEqual(oldestFirst);
  });
});
