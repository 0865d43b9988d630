/** What `q` of GET /issues matches (pure): the FTS5 query (SQLite) or tsquery (PostgreSQL) for the words of a search text. */

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
  const words = searchWords(q);
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ');
}

/**
 * The same on PostgreSQL: the text of `to_tsquery('simple', …)` whose every word is a prefix
 * (`отчет:* & 15:*`); the index side folds case and Latin diacritics in SQL (hub_search_text, migration
 * v4), and the query goes through the same folding (postgres-issue-search.repository.ts). Null when
 * the text has no word.
 */
export function tsQueryExpression(q: string): string | null {
  const words = searchWords(q);
  return words.length === 0 ? null : words.map((w) => `${w}:*`).join(' & ');
}

function searchWords(q: string): string[] {
  return (foldForSearch(q).match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []).slice(0, MAX_QUERY_WORDS);
}
