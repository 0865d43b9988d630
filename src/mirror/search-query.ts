/** What `q` of GET /issues matches (pure): the FTS5 query for the words of a search text. */

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
 * splits text) must start a word of the key or the summary — `отч` finds «Отчёт», `AURORA-15` finds
 * AURORA-15 and AURORA-150. Null when the text has no word (then `q` filters nothing).
 */
export function matchExpression(q: string): string | null {
  const words = foldForSearch(q).match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words
    .slice(0, MAX_QUERY_WORDS)
    .map((w) => `"${w}"*`)
    .join(' ');
}
