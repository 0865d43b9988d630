/**
 * The folding of the PostgreSQL word search (issue 14): lower case, then these letters replaced, as
 * translate(lower(text), DIACRITICS_FROM, DIACRITICS_TO). The indexed column (hub_search_fold, migration v4)
 * and the query's words (mirror/postgres-issue-search.repository.ts) fold the same way.
 */
/** Lower-case letters folded: `ё` → `е` and the common Latin letters with diacritics. */
const DIACRITIC_PAIRS: [string, string][] = [
  ['ё', 'е'], ['àáâãäåāăą', 'a'], ['çćĉċč', 'c'], ['ďđ', 'd'], ['èéêëēĕėęě', 'e'], ['ĝğġģ', 'g'], ['ĥħ', 'h'],
  ['ìíîïĩīĭįı', 'i'], ['ĵ', 'j'], ['ķ', 'k'], ['ĺļľŀł', 'l'], ['ñńņňŉ', 'n'], ['òóôõöøōŏő', 'o'], ['ŕŗř', 'r'],
  ['śŝşšș', 's'], ['ţťŧț', 't'], ['ùúûüũūŭůűų', 'u'], ['ŵ', 'w'], ['ýÿŷ', 'y'], ['źżž', 'z'],
];
export const DIACRITICS_FROM = DIACRITIC_PAIRS.map(([from]) => from).join('');
export const DIACRITICS_TO = DIACRITIC_PAIRS.map(([from, to]) => to.repeat([...from].length)).join('');
