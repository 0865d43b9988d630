import { describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { REMOVED_MARKS, SEPARATOR_RANGES, SEPARATORS } from './search-fold.js';

/**
 * How SQLite's FTS5 tokenizer (the one of issue_fts, migration v4) takes each code point of `codePoints`:
 * a separator, a mark it drops, or a word character. Each is written between two letters (`xCx`).
 */
function unicode61(codePoints: number[]): { separators: number[]; removed: number[] } {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE f USING fts5(s, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')`);
    const insert = db.prepare('INSERT INTO f (rowid, s) VALUES (?, ?)');
    const CHUNK = 4096;
    db.transaction(() => {
      for (let i = 0; i < codePoints.length; i += CHUNK) insert.run(i / CHUNK + 1, codePoints.slice(i, i + CHUNK).map((cp) => `x${String.fromCodePoint(cp)}x`).join(' '));
    })();
    const terms = new Map<number, string[]>();
    for (const r of db.prepare('SELECT term, doc FROM v ORDER BY doc, offset').iterate() as Iterable<{ term: string; doc: number }>) {
      const words = terms.get(r.doc);
      if (words) words.push(r.term);
      else terms.set(r.doc, [r.term]);
    }
    const separators: number[] = [];
    const removed: number[] = [];
    for (let i = 0; i < codePoints.length; i += CHUNK) {
      const words = terms.get(i / CHUNK + 1)!;
      let w = 0;
      for (const cp of codePoints.slice(i, i + CHUNK)) {
        const word = words[w++];
        if (word === 'x') {
          if (words[w++] !== 'x') throw new Error(`U+${cp.toString(16)}: a separator, then not the second word`);
          separators.push(cp);
        } else if (word === 'xx') removed.push(cp);
      }
    }
    return { separators, removed };
  } finally {
    db.close();
  }
}

describe('the word separators of PostgreSQL\'s search are unicode61\'s (decision 1431)', () => {
  // Every code point of the planes where Unicode assigns characters, and a sample of the others (unassigned, private use).
  const sampled = (cp: number) => cp <= 0x3ffff || (cp >= 0xe0000 && cp <= 0xe0fff) || cp % 251 === 0;
  const codePoints = Array.from({ length: 0x10ffff - 0x7f }, (_, i) => i + 0x80).filter((cp) => (cp < 0xd800 || cp > 0xdfff) && sampled(cp));

  it('SEPARATOR_RANGES and REMOVED_MARKS are what the tokenizer does past ASCII', () => {
    const table = new Set(SEPARATOR_RANGES.flatMap((r) => (typeof r === 'number' ? [r] : Array.from({ length: r[1] - r[0] + 1 }, (_, i) => r[0] + i))));
    const found = unicode61(codePoints);
    expect(found.removed).toEqual(REMOVED_MARKS);
    expect(found.separators).toEqual(codePoints.filter((cp) => table.has(cp)));
  });

  it('ASCII: letters and digits make words, everything else separates them, as SEPARATORS says', () => {
    const ascii = Array.from({ length: 0x7f }, (_, i) => i + 1);
    expect(unicode61(ascii).separators).toEqual(ascii.filter((c) => !/[0-9A-Za-z]/.test(String.fromCharCode(c))));
    expect(SEPARATORS.startsWith('[\\u0001-\\u002f\\u003a-\\u0040\\u005b-\\u0060\\u007b-\\u007f\\u0080-')).toBe(true);
  });
});
