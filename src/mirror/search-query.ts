/** What `q` of GET /issues matches (pure): the FTS5 query (SQLite) or tsquery (PostgreSQL) for the words of a search text. */
import { REMOVED_MARKS } from '../database/index.js';

/** The most words of `q` that count; more would only slow the search down. */
export const MAX_QUERY_WORDS = 16;

/**
 * Text as the search index holds it, apart from what FTS5's unicode61 tokenizer does itself (case
 * folding for every script, Latin diacritics): `ё` is `е`, as Russian writing treats them. The
 * migration's triggers fold the indexed text the same way.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFC').replace(/ё/g, 'е').replace(/Ё/g, 'Е');
}

/**
 * The FTS5 MATCH expression for a search text: every word (a run of letters and digits, as unicode61
 * splits text, with the combining marks it drops: WORD) must start a word of the key or the summary —
 * `отч` finds «Отчёт». A key typed in (`AURORA-15`) is one term whose words follow each other, its last a
 * prefix: it finds AURORA-15 and AURORA-150, not every AURORA issue whose summary has a word starting with
 * 15. Null when the text has no word (then `q` filters nothing).
 */
export function matchExpression(q: string): string | null {
  const terms = searchTerms(q);
  return terms.length === 0 ? null : terms.map((t) => `"${t.join(' ')}"*`).join(' ');
}

/**
 * The same on PostgreSQL: the terms of the search text, each its words joined by a space, for
 * hub_search_query (database/postgres.ts), which folds and splits them as the index's words are and makes
 * the tsquery (`'aurora' <-> '15':* & 'отчет':*`: a term's words follow each other, its last one a prefix).
 * Null when the text has no word.
 */
export function searchTermTexts(q: string): string[] | null {
  const terms = searchTerms(q);
  return terms.length === 0 ? null : terms.map((t) => t.join(' '));
}

/**
 * The combining marks SQLite's index keeps inside a word and then drops (REMOVED_MARKS: the stress of «ме́сто»,
 * no precomposed letter to become in NFC): a word of `q` goes on across them, as the indexed word does, or the
 * word as written would be split into terms that each must start a word («ме», «сто») and find nothing.
 */
const MARK = `${REMOVED_MARKS.map((cp) => `\\u{${cp.toString(16)}}`).join('')}`;
/** A word of `q`: letters, digits and private use, with the dropped marks among them (not a mark alone). */
const WORD = new RegExp(`[\\p{L}\\p{N}\\p{Co}${MARK}]*[\\p{L}\\p{N}\\p{Co}][\\p{L}\\p{N}\\p{Co}${MARK}]*`, 'gu');

/** A word of `q` shaped as a Jira key (letters, a hyphen, digits): its parts are searched as they stand in the key. */
const KEY_SHAPED = /^\p{L}[\p{L}\p{N}_]*-\p{N}+$/u;

/**
 * The terms of a search text: each a list of words that must follow each other — a key typed in (AURORA-15)
 * is one term of two words, any other word a term of its own; at most MAX_QUERY_WORDS words in all.
 */
function searchTerms(q: string): string[][] {
  const terms: string[][] = [];
  let words = 0;
  for (const chunk of foldForSearch(q).split(/\s+/)) {
    const parts = chunk.match(WORD) ?? [];
    const grouped = KEY_SHAPED.test(chunk.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')) ? [parts] : parts.map((w) => [w]);
    for (const term of grouped) {
      if (words + term.length > MAX_QUERY_WORDS) return terms;
      terms.push(term);
      words += term.length;
    }
  }
  return terms;
}
