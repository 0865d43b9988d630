import { describe, expect, it } from '@jest/globals';
import { DEFAULT_SETTINGS } from '../settings/index.js';
import { compare, translateType, type CompareInput } from './compare.js';
import type { LinkRow, NoteRow } from './package-reader.js';

const LINK_TYPES = DEFAULT_SETTINGS.link_types;

describe('translateType (SPEC 8)', () => {
  it.each([
    ['связанные', 'Relates'],
    ['Связанные', 'Relates'],
    ['БЛОКИРУЕТ', 'Blocks'],
    [' дублирует ', 'Duplicate'],
    ['Blocks', 'Blocks'],
    ['Clones', 'Clones'],
    ['зависит от', 'зависит от'],
  ])('%j → %j', (name, type) => {
    expect(translateType(name, LINK_TYPES)).toBe(type);
  });

  it('matches settings names written in another case', () => {
    expect(translateType('блокирует', { Блокирует: 'Blocks' })).toBe('Blocks');
  });

  it('follows the link_types given', () => {
    expect(translateType('связанные', { связанные: 'Relates to' })).toBe('Relates to');
    expect(translateType('связанные', {})).toBe('связанные');
  });
});

let rowNo = 1;
const linkRow = (from: string, type: string, to: string): LinkRow => ({ row: ++rowNo, from, type, to, note: null });
const noteRow = (key: string): NoteRow => ({ row: ++rowNo, key, fact_status: null, comment: null });

/** A compare input over a mirror of issues and links `source|target|type`. */
function input(over: { notes?: NoteRow[]; links?: LinkRow[]; tempKeys?: Record<string, string>; issues?: string[]; mirrorLinks?: string[] }): CompareInput {
  const issues = new Set(over.issues ?? []);
  const links = new Set(over.mirrorLinks ?? []);
  return {
    notes: over.notes ?? [],
    links: over.links ?? [],
    tempKeys: new Map(Object.entries(over.tempKeys ?? {})),
    linkTypes: LINK_TYPES,
    hasLink: (s, t, type) => links.has(`${s}|${t}|${type}`),
    hasIssue: (k) => issues.has(k),
  };
}

describe('compare (SPEC 8)', () => {
  it('an empty package gives the empty report', () => {
    expect(compare(input({}))).toEqual({ notes: 0, expected_links: [], missing_keys: [], missing_links: [], reversed_links: [] });
  });

  it('SPEC 13 scenario 13: reversed is not missing; a link absent both ways is missing', () => {
    const report = compare(
      input({
        links: [linkRow('AURORA-1533', 'связанные', 'AURORA-1586'), linkRow('AURORA-1533', 'блокирует', 'AURORA-1600')],
        issues: ['AURORA-1533', 'AURORA-1586', 'AURORA-1600'],
        mirrorLinks: ['AURORA-1586|AURORA-1533|Relates'],
      }),
    );
    const reversed = { source: 'AURORA-1533', target: 'AURORA-1586', link_type: 'Relates' };
    const absent = { source: 'AURORA-1533', target: 'AURORA-1600', link_type: 'Blocks' };
    expect(report.expected_links).toEqual([reversed, absent]);
    expect(report.reversed_links).toEqual([reversed]);
    expect(report.missing_links).toEqual([absent]);
  });

  it.each([
    ['present as expected', ['A-1|A-2|Blocks'], 'none'],
    ['present both ways', ['A-1|A-2|Blocks', 'A-2|A-1|Blocks'], 'none'],
    ['reversed of the same type', ['A-2|A-1|Blocks'], 'reversed'],
    ['reversed of another type only', ['A-2|A-1|Relates'], 'missing'],
    ['same direction, another type', ['A-1|A-2|Relates'], 'missing'],
    ['absent', [], 'missing'],
  ] as [string, string[], 'none' | 'missing' | 'reversed'][])('link A-1 блокирует A-2, mirror %s → %s', (_name, mirrorLinks, outcome) => {
    const report = compare(input({ links: [linkRow('A-1', 'блокирует', 'A-2')], issues: ['A-1', 'A-2'], mirrorLinks }));
    const l = { source: 'A-1', target: 'A-2', link_type: 'Blocks' };
    expect(report.expected_links).toEqual([l]);
    expect(report.missing_links).toEqual(outcome === 'missing' ? [l] : []);
    expect(report.reversed_links).toEqual(outcome === 'reversed' ? [l] : []);
  });

  it.each([
    ['unresolved temp key as source', linkRow('new:9', 'Blocks', 'A-1')],
    ['unresolved temp key as target', linkRow('A-1', 'Blocks', 'new:9')],
    ['empty source', linkRow('', 'Blocks', 'A-1')],
    ['empty target', linkRow('A-1', 'Blocks', '')],
  ])('skips a row with %s', (_name, row) => {
    const report = compare(input({ links: [row], tempKeys: { 'new:1': 'A-5' }, issues: ['A-1'] }));
    expect(report.expected_links).toEqual([]);
    expect(report.missing_links).toEqual([]);
    expect(report.reversed_links).toEqual([]);
  });

  it('uses the Jira key of a resolved temp key', () => {
    const report = compare(input({ links: [linkRow('new:1', 'связанные', 'A-2')], tempKeys: { 'new:1': 'A-5' }, issues: ['A-2', 'A-5'], mirrorLinks: ['A-5|A-2|Relates'] }));
    expect(report.expected_links).toEqual([{ source: 'A-5', target: 'A-2', link_type: 'Relates' }]);
    expect(report.missing_links).toEqual([]);
    expect(report.missing_keys).toEqual([]);
  });

  it('passes an untranslated type as given', () => {
    const report = compare(input({ links: [linkRow('A-1', 'Clones', 'A-2')], issues: ['A-1', 'A-2'] }));
    expect(report.expected_links).toEqual([{ source: 'A-1', target: 'A-2', link_type: 'Clones' }]);
  });

  it('removes duplicates from the expected links (also after translation and temp-key resolution)', () => {
    const report = compare(
      input({
        links: [
          linkRow('A-1', 'связанные', 'A-2'),
          linkRow('A-1', 'Связанные', 'A-2'),
          linkRow('A-1', 'Relates', 'A-2'),
          linkRow('new:1', 'связанные', 'A-2'),
          linkRow('A-2', 'связанные', 'A-1'),
        ],
        tempKeys: { 'new:1': 'A-1' },
        issues: ['A-1', 'A-2'],
      }),
    );
    expect(report.expected_links).toEqual([
      { source: 'A-1', target: 'A-2', link_type: 'Relates' },
      { source: 'A-2', target: 'A-1', link_type: 'Relates' },
    ]);
    expect(report.missing_links).toEqual(report.expected_links);
  });

  it('missing_keys: Jira keys the mirror lacks, sorted and unique, from notes and links', () => {
    const report = compare(
      input({
        notes: [noteRow('B-2'), noteRow('A-10'), noteRow('new:1'), noteRow('new:2'), noteRow('A-3')],
        links: [linkRow('A-10', 'блокирует', 'C-1'), linkRow('A-3', 'блокирует', 'B-2'), linkRow('C-1', 'связанные', 'A-2')],
        tempKeys: { 'new:1': 'D-1' },
        issues: ['A-3', 'A-2'],
      }),
    );
    expect(report.missing_keys).toEqual(['A-10', 'B-2', 'C-1', 'D-1']);
    expect(report.notes).toBe(5);
  });

  it('missing_keys includes the Jira end of a row skipped for its unresolved or empty other end', () => {
    const report = compare(input({ links: [linkRow('new:9', 'блокирует', 'E-1'), linkRow('', 'блокирует', 'E-2')], issues: [] }));
    expect(report.expected_links).toEqual([]);
    expect(report.missing_keys).toEqual(['E-1', 'E-2']);
  });

  it('missing_keys never lists temp keys, resolved or not', () => {
    const report = compare(input({ notes: [noteRow('new:1'), noteRow('new:2')], tempKeys: { 'new:1': 'A-1' }, issues: ['A-1'] }));
    expect(report.missing_keys).toEqual([]);
  });
});
