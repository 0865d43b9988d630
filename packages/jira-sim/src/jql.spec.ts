import { describe, expect, it } from '@jest/globals';
import { holds, JqlError, parseJql, parseJqlDate, textMatches } from './jql.js';

describe('JQL subset', () => {
  it('parses clauses joined by AND and ORDER BY', () => {
    const q = parseJql('project = AURORA AND key in (AURORA-1, "AURORA-2") AND summary ~ "\\"Отчёт за март\\"" ORDER BY created DESC, key');
    expect(q.clauses).toEqual([
      { kind: 'cmp', field: 'project', op: '=', value: 'AURORA' },
      { kind: 'in', field: 'key', negated: false, values: ['AURORA-1', 'AURORA-2'] },
      { kind: 'cmp', field: 'summary', op: '~', value: '"Отчёт за март"' },
    ]);
    expect(q.orderBy).toEqual([
      { field: 'created', desc: true },
      { field: 'key', desc: false },
    ]);
  });

  it('accepts updated >= with absolute and relative dates', () => {
    expect(parseJql('updated >= "2026-10-13 10:00"').clauses).toHaveLength(1);
    expect(parseJqlDate('2026/10/13', 0)).toBe(Date.UTC(2026, 9, 13));
    expect(parseJqlDate('-5m', 600_000)).toBe(300_000);
  });

  it('joins with OR and AND (AND binds tighter), groups with parentheses, negates with NOT', () => {
    const q = parseJql('project = A AND (status = "To Do" OR status = Done) OR NOT key = A-1');
    expect(q.where).toEqual({
      kind: 'or',
      items: [
        { kind: 'and', items: [{ kind: 'cmp', field: 'project', op: '=', value: 'A' }, { kind: 'or', items: [{ kind: 'cmp', field: 'status', op: '=', value: 'To Do' }, { kind: 'cmp', field: 'status', op: '=', value: 'Done' }] }] },
        { kind: 'not', item: { kind: 'cmp', field: 'key', op: '=', value: 'A-1' } },
      ],
    });
    expect(q.clauses).toHaveLength(4);
    expect(holds(q.where, (c) => c.kind === 'cmp' && c.field === 'key')).toBe(false);
    expect(() => parseJql('(project = A')).toThrow(JqlError);
    expect(() => parseJql('project = A status = B')).toThrow("Expecting either 'OR' or 'AND' but got 'status'");
  });

  it('rejects what it does not understand', () => {
    expect(() => parseJql('summary ~ "open')).toThrow(JqlError);
    expect(() => parseJql('updated >= yesterday')).toThrow(JqlError);
  });

  it('matches phrases and words case-insensitively', () => {
    expect(textMatches('Отчёт за март', '"отчёт за"')).toBe(true);
    expect(textMatches('Отчёт за март', '"за отчёт"')).toBe(false);
    expect(textMatches('Отчёт за март', 'март отчёт')).toBe(true);
  });

  it('matches text only in the Unicode spelling it is stored in, as Jira\'s index does not normalize', () => {
    const decomposed = 'Отче\u0308т за март';
    expect(textMatches(decomposed, '"отчёт за март"')).toBe(false);
    expect(textMatches('Отчёт за март', `"${decomposed}"`)).toBe(false);
    expect(textMatches(decomposed, `"${decomposed}"`)).toBe(true);
    // the mark stays in its word: the decomposed «Отчёт» is one word, not «отче» and «т»
    expect(textMatches(decomposed, '"отче т"')).toBe(false);
  });
});
