/**
 * The folding of the PostgreSQL word search (issue 14): lower case, then these letters replaced, as
 * translate(lower(text), DIACRITICS_FROM, DIACRITICS_TO). The indexed column (hub_search_fold, migration v4)
 * and the query's words (mirror/postgres-issue-search.repository.ts) fold the same way.
 */
/**
 * Lower-case letters folded as SQLite's FTS5 `unicode61 remove_diacritics 2` folds them, so that both engines
 * find the same issues (decision 1419): `ё` → `е` (the hub's own folding, foldForSearch), the Latin letters
 * whose diacritics unicode61 drops (Vietnamese included), and the Greek variant forms it folds (final `ς` → `σ`,
 * `ϐ` → `β`, …). A letter unicode61 keeps stays as it is, though it looks like a diacritic: `ø`, `ł`, `đ`, `ħ`,
 * `ŧ`, Turkish dotless `ı`, the Greek tonos (`ό`). Derived from the tokenizer itself for U+0080–U+052F and
 * U+1E00–U+1FFF (Latin, Greek, Cyrillic); test/issue-search.e2e-spec.ts holds both engines to it.
 */
const DIACRITIC_PAIRS: [string, string][] = [
  ['ё', 'е'],
  ['àáâãäåāăąǎǟǻȁȃȧḁạảấầẩẫậắằẳẵặ', 'a'], ['ḃḅḇ', 'b'], ['çćĉċčḉ', 'c'], ['ďḋḍḏḑḓ', 'd'],
  ['èéêëēĕėęěȅȇȩḕḗḙḛḝẹẻẽếềểễệ', 'e'], ['ḟ', 'f'], ['ĝğġģǧǵḡ', 'g'], ['ĥȟḣḥḧḩḫẖ', 'h'], ['ìíîïĩīĭįǐȉȋḭḯỉị', 'i'],
  ['ĵǰ', 'j'], ['ķǩḱḳḵ', 'k'], ['ĺļľḷḹḻḽ', 'l'], ['ḿṁṃ', 'm'], ['ñńņňǹṅṇṉṋ', 'n'],
  ['òóôõöōŏőơǒǫǭȍȏȫȭȯȱṍṏṑṓọỏốồổỗộớờởỡợ', 'o'], ['ṕṗ', 'p'], ['ŕŗřȑȓṙṛṝṟ', 'r'], ['śŝşšſșṡṣṥṧṩẛ', 's'],
  ['ţťțṫṭṯṱẗ', 't'], ['ùúûüũūŭůűųưǔǖǘǚǜȕȗṳṵṷṹṻụủứừửữự', 'u'], ['ṽṿ', 'v'], ['ŵẁẃẅẇẉẘ', 'w'], ['ẋẍ', 'x'],
  ['ýÿŷȳẏẙỳỵỷỹ', 'y'], ['źżžẑẓẕ', 'z'],
  ['ϐ', 'β'], ['ϵ', 'ε'], ['ϑ', 'θ'], ['ϰ', 'κ'], ['µ', 'μ'], ['ϖ', 'π'], ['ϱ', 'ρ'], ['ς', 'σ'], ['ϕ', 'φ'],
];
export const DIACRITICS_FROM = DIACRITIC_PAIRS.map(([from]) => from).join('');
export const DIACRITICS_TO = DIACRITIC_PAIRS.map(([from, to]) => to.repeat([...from].length)).join('');
