import { describe, expect, it } from '@jest/globals';
import { storedLabels } from './stored-labels.js';

describe('storedLabels: an issue\'s labels as stored', () => {
  it.each<[unknown, string[]]>([
    ['["a","b"]', ['a', 'b']],
    [['a', 'b'], ['a', 'b']], // jsonb, parsed by the driver
    ['[]', []],
    [null, []],
    ['', []],
    ['a,b', []], // not JSON: a v1 value edited by hand
    ['{"a":1}', []],
    ['["a",1,null]', ['a']],
  ])('%j → %j', (stored, labels) => {
    expect(storedLabels(stored as string)).toEqual(labels);
  });
});
