import { describe, expect, it } from '@jest/globals';
import { cutToCharacters } from './text.js';

describe('cutToCharacters', () => {
  const cases: [string, string, number, string][] = [
    ['empty', '', 3, ''],
    ['shorter than the limit', 'abc', 5, 'abc'],
    ['exactly the limit', 'abc', 3, 'abc'],
    ['ASCII over the limit', 'abcdef', 3, 'abc'],
    ['Cyrillic (one unit each)', 'жжжж', 2, 'жж'],
    ['an emoji as the last character is kept whole', 'ab😀cd', 3, 'ab😀'],
    ['an emoji just past the limit is dropped whole', 'abc😀', 3, 'abc'],
    ['emoji only', '😀😁😂', 2, '😀😁'],
    ['a zero limit', 'abc', 0, ''],
    ['a lone surrogate counts as one character', 'a\ud83db', 2, 'a\ud83d'],
  ];
  it.each(cases)('%s', (_, text, max, expected) => {
    expect(cutToCharacters(text, max)).toBe(expected);
  });

  it('never ends in half a surrogate pair', () => {
    const text = `${'a'.repeat(1499)}😀 и дальше`;
    const cut = cutToCharacters(text, 1500);
    expect(cut).toBe(`${'a'.repeat(1499)}😀`);
    expect(Array.from(cut)).toHaveLength(1500);
    expect(cut.length).toBe(1501);
  });
});
