import { describe, expect, it } from '@jest/globals';
import { clip, clipWithin, cutToCharacters, escapeUnstorable, illFormedStrings, nulStrings, numberRanges, withUnstorableEscaped } from './text.js';

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

describe('clip and clipWithin: cut at a character, saying how many were left out', () => {
  const note = (n: number) => `… [обрезано: ещё ${n} символов]`;
  it.each<[string, string, number, string]>([
    ['no longer than the cap', 'abc', 3, 'abc'],
    ['ASCII over the cap', 'abcdef', 3, `abc${note(3)}`],
    ['an emoji straddling the cap is kept whole', 'ab😀cd', 3, `ab😀${note(2)}`],
    ['more units than the cap but no more characters', '😀😁😂', 3, '😀😁😂'],
    ['emoji counted as one character each', '😀😁😂😃', 2, `😀😁${note(2)}`],
  ])('clip: %s', (_, text, max, expected) => {
    expect(clip(text, max)).toBe(expected);
  });

  it('clipWithin keeps the note inside the cap, and never splits a surrogate pair', () => {
    expect(clipWithin('x'.repeat(100), 100)).toBe('x'.repeat(100));
    const long = clipWithin('x'.repeat(100_000), 100);
    expect(long).toBe(`${'x'.repeat(68)}${note(99_932)}`);
    expect(Array.from(long)).toHaveLength(100);
    for (let at = 60; at < 75; at++) {
      const clipped = clipWithin(`${'x'.repeat(at)}😀${'y'.repeat(200)}`, 100);
      expect(Array.from(clipped).length).toBeLessThanOrEqual(100);
      expect(illFormedStrings(clipped)).toEqual([]);
      expect(clipped).toMatch(/^x*(?:😀y*)?… \[обрезано: ещё \d+ символов\]$/);
    }
  });
});

describe('illFormedStrings (issue 21.8: text UTF-8 cannot hold)', () => {
  it.each<[string, unknown, string[]]>([
    ['a lone low surrogate in a top-level string', { title: '\udc00x' }, ['title']],
    ['a lone high surrogate at the end', { title: 'x\ud83d' }, ['title']],
    ['a high surrogate followed by a non-surrogate', { title: '\ud83dx' }, ['title']],
    ['two high surrogates in a row', { title: '\ud83d\ud83d\ude00' }, ['title']],
    ['reversed halves', { title: '\ude00\ud83d' }, ['title']],
    ['deep inside arrays and objects', { commands: [{ params: { summary: 'ok' } }, { params: { labels: ['a', 'b\udfff'] } }] }, ['commands.1.params.labels.1']],
    ['in a key: the path shows it escaped', { params: { 'x\udc00': 1 } }, ['params.x\\udc00']],
    ['a bare string', '\udc00', ['']],
    ['several, sorted', { b: '\udc00', a: '\ud800' }, ['a', 'b']],
    ['a surrogate pair (an emoji) is well formed', { title: '\ud83d\ude00 😀 ok' }, []],
    ['Cyrillic, numbers, null, booleans', { title: 'Отчёт', n: 1, x: null, t: true, list: [] }, []],
  ])('%s', (_, value, paths) => {
    expect(illFormedStrings(value)).toEqual(paths);
  });
});

describe('nulStrings (U+0000: PostgreSQL holds it in neither text nor jsonb)', () => {
  it.each<[string, unknown, string[]]>([
    ['in a param deep inside', { commands: [{ params: { body: 'a\u0000b' } }] }, ['commands.0.params.body']],
    ['in a key: the path shows it escaped', { params: { 'x\u0000': 1 } }, ['params.x\\u0000']],
    ['none: text, numbers, an escaped backslash-zero as text', { title: 'a\\u0000', n: 0 }, []],
  ])('%s', (_, value, paths) => {
    expect(nulStrings(value)).toEqual(paths);
  });
});

describe('escapeUnstorable and withUnstorableEscaped (decision 0110: what the audit records of a refused call)', () => {
  it.each<[string, string, string]>([
    ['a lone low surrogate', 'a\udc00b', 'a\\udc00b'],
    ['a lone high surrogate at the end', 'x\ud83d', 'x\\ud83d'],
    ['U+0000', 'ив\u0000ан', 'ив\\u0000ан'],
    ['reversed halves are two lone surrogates', '\ude00\ud83d', '\\ude00\\ud83d'],
    ['a surrogate pair, Cyrillic, quotes and backslashes stay as they are', '😀 «Отчёт» "a\\b"', '😀 «Отчёт» "a\\b"'],
  ])('%s', (_, text, expected) => {
    expect(escapeUnstorable(text)).toBe(expected);
    expect(illFormedStrings(escapeUnstorable(text))).toEqual([]);
    expect(nulStrings(escapeUnstorable(text))).toEqual([]);
  });

  it('copies a value with every string escaped, keys too, in their order; the value itself is left alone', () => {
    const value = { title: 'П\u0000', commands: [{ params: { summary: 's\ud800', n: 1, ok: true, none: null } }, 'x'], ['k\udc00']: ['\udfff'], last: 'ok' };
    const copy = withUnstorableEscaped(value);
    expect(copy).toEqual({ title: 'П\\u0000', commands: [{ params: { summary: 's\\ud800', n: 1, ok: true, none: null } }, 'x'], ['k\\udc00']: ['\\udfff'], last: 'ok' });
    expect(Object.keys(copy as object)).toEqual(['title', 'commands', 'k\\udc00', 'last']);
    expect(value.title).toBe('П\u0000');
    expect(withUnstorableEscaped('\u0000')).toBe('\\u0000');
    expect(withUnstorableEscaped(5)).toBe(5);
  });

  it('a key named __proto__ stays a key; a value nested deeper than the stack is copied', () => {
    const parsed = JSON.parse('{"__proto__": {"x": "\\u0000"}}') as object;
    expect(JSON.stringify(withUnstorableEscaped(parsed))).toBe('{"__proto__":{"x":"\\\\u0000"}}');
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let copy = withUnstorableEscaped(deep);
    for (let i = 0; i < 100_000; i++) copy = (copy as unknown[])[0];
    expect(copy).toBe('end\\u0000');
  });
});

describe('numberRanges: whole numbers in short', () => {
  it.each([
    [[], ''],
    [[4], '4'],
    [[1, 2], '1, 2'],
    [[1, 2, 3], '1–3'],
    [[7, 1, 3, 2, 5, 8], '1–3, 5, 7, 8'],
    [[1, 1, 2, 3, 10, 11, 12, 13], '1–3, 10–13'],
  ])('%j → «%s»', (ns, text) => expect(numberRanges(ns)).toBe(text));
});
