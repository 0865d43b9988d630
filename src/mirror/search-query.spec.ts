import { describe, expect, it } from '@jest/globals';
import { foldForSearch, matchExpression, MAX_QUERY_WORDS, searchTermTexts } from './search-query.js';

describe('matchExpression', () => {
  it.each([
    ['отчёт', '"отчет"*'],
    ['ОТЧЁТ о продажах', '"ОТЧЕТ"* "о"* "продажах"*'],
    ['  Export,  café!  ', '"Export"* "café"*'],
    ['AURORA-15', '"AURORA 15"*'],
    ['«AURORA-15», отчёт', '"AURORA 15"* "отчет"*'],
    ['a-b', '"a"* "b"*'],
    ['"quoted" OR NOT *', '"quoted"* "OR"* "NOT"*'],
    ['v2.1', '"v2"* "1"*'],
    ['Ме\u0301сто встре\u0301чи', '"Ме\u0301сто"* "встре\u0301чи"*'],
    ['q\u0301q \u0301', '"q\u0301q"*'],
  ])('%j → %j', (q, expected) => {
    expect(matchExpression(q)).toBe(expected);
  });

  it.each(['', '   ', '—', '"*"', '+-()'])('no word in %j → null (no filter)', (q) => {
    expect(matchExpression(q)).toBeNull();
  });

  it('keeps a decomposed й one letter (NFC) and at most MAX_QUERY_WORDS words', () => {
    expect(matchExpression('и\u0306од')).toBe('"йод"*');
    const many = Array.from({ length: MAX_QUERY_WORDS + 5 }, (_, i) => `w${i}`).join(' ');
    expect(matchExpression(many)!.split(' ')).toHaveLength(MAX_QUERY_WORDS);
  });

  it.each([
    ['отчёт', ['отчет']],
    ['AURORA-15', ['AURORA 15']],
    ['AURORA-15 отчёт', ['AURORA 15', 'отчет']],
    ['"quoted" OR NOT * & | !', ['quoted', 'OR', 'NOT']],
    ['ме\u0301сто', ['ме\u0301сто']],
  ])('PostgreSQL: %j → the terms %j', (q, expected) => {
    expect(searchTermTexts(q)).toEqual(expected);
  });

  it('PostgreSQL: no word → null', () => {
    expect(searchTermTexts(' — ')).toBeNull();
  });

  it('folds ё/Ё only', () => {
    expect(foldForSearch('Ёлка ёж й')).toBe('Елка еж й');
  });
});
