/** Plain text helpers. */

/**
 * The first `max` characters of `text`, counting code points rather than UTF-16 units, so a surrogate
 * pair (an emoji) is never split and the result never ends in half a character.
 */
export function cutToCharacters(text: string, max: number): string {
  let units = 0;
  for (let chars = 0; chars < max && units < text.length; chars++) units += text.codePointAt(units)! > 0xffff ? 2 : 1;
  return text.slice(0, units);
}

/** How many characters (code points: an emoji is one) `text` holds. */
function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const clippedNote = (rest: number) => `… [обрезано: ещё ${rest} символов]`;

/**
 * `text` cut to `max` characters, counted as cutToCharacters counts them (an emoji is never split), with a
 * note of how many were left out; as it is when it is no longer.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = cutToCharacters(text, max);
  return kept.length === text.length ? text : `${kept}${clippedNote(characters(text) - max)}`;
}

/**
 * The most characters of a value a person gave that an error or a finding quotes (decisions 1462, 1463): a
 * 20,000-character cell, assignee or header is named by its start, not echoed whole.
 */
export const SHOWN_CHARACTERS = 100;

/** A value a person gave as an error or a finding quotes it: its first SHOWN_CHARACTERS characters, with a note of how many more it has. */
export const shownText = (value: string): string => clip(value, SHOWN_CHARACTERS);

/** Like clip, but the note included: the result is at most `max` characters (for a field of that size). */
export function clipWithin(text: string, max: number): string {
  const total = characters(text);
  if (total <= max) return text;
  let kept = max;
  while (kept > 0 && kept + clippedNote(total - kept).length > max) kept--;
  return `${cutToCharacters(text, kept)}${clippedNote(total - kept)}`;
}

/** A UTF-16 surrogate without its other half: UTF-8 cannot encode it (SQLite would store invalid UTF-8, PostgreSQL's driver a U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/** U+0000: PostgreSQL's text cannot hold it, nor read it out of JSON (`command.params` is json there). */
export const hasNul = (text: string): boolean => text.includes('\u0000');

/** Why a text with U+0000 is refused, wherever it comes from (a JSON field, a CSV cell); refused on both engines alike. */
export const NUL_DETAIL = 'текст содержит нулевой символ (U+0000, \\u0000) — такой текст нельзя сохранить; уберите его';

/**
 * The paths (`commands.0.params.summary`, as the validation pipe names fields) of the strings in a
 * parsed JSON value — values and keys alike — that hold a lone surrogate (a JSON escape such as
 * `"\udc00x"` makes one); iterative, sorted.
 */
export function illFormedStrings(value: unknown): string[] {
  return stringsWhere(value, hasLoneSurrogate);
}

/** A lone surrogate or U+0000: a character no engine here stores. */
const UNSTORABLE = new RegExp(`${LONE_SURROGATE.source}|\\u0000`, 'g');

/**
 * `text` with each lone surrogate and U+0000 written as JSON escapes it (`\udc00`, `\u0000`): text every
 * engine stores, the character still named. Everything else is left as it is (decision 0110).
 */
export function escapeUnstorable(text: string): string {
  return text.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A copy of a parsed JSON value with escapeUnstorable applied to every string, keys too; iterative (a
 * value may nest deeper than the stack), keys in their order.
 */
export function withUnstorableEscaped(value: unknown): unknown {
  const root: Record<string, unknown> = {};
  const set = (into: object, key: string, v: unknown) => Object.defineProperty(into, key, { value: v, enumerable: true, writable: true, configurable: true });
  const stack: [object, string, unknown][] = [[root, 'value', value]];
  while (stack.length > 0) {
    const [into, key, current] = stack.pop()!;
    if (typeof current === 'string') set(into, key, escapeUnstorable(current));
    else if (current === null || typeof current !== 'object') set(into, key, current);
    else {
      const copy: object = Array.isArray(current) ? [] : {};
      set(into, key, copy);
      for (const [k, child] of Object.entries(current)) {
        const name = Array.isArray(current) ? k : escapeUnstorable(k);
        set(copy, name, undefined); // the key's place, in order; its value comes when the stack reaches it
        stack.push([copy, name, child]);
      }
    }
  }
  return root.value;
}

/** The paths, as illFormedStrings names them, of the strings (values and keys) that hold U+0000. */
export function nulStrings(value: unknown): string[] {
  return stringsWhere(value, hasNul);
}

function stringsWhere(value: unknown, bad: (text: string) => boolean): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (bad(current)) found.push(path);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    for (const [key, child] of Object.entries(current)) {
      const name = bad(key) ? JSON.stringify(key).slice(1, -1) : key;
      const at = path ? `${path}.${name}` : name;
      if (name !== key) found.push(at);
      else stack.push([child, at]);
    }
  }
  return found.sort();
}

/** A summary as compared: one Unicode spelling (NFC, as the mirror keeps it), no spaces at its ends (the contracts' rule, the agent's too). */
export { comparableText } from '@jira-hub/contracts/catalogue';

/** Ascending whole numbers in short: [1, 2, 3, 5, 7, 8] → «1–3, 5, 7, 8» (a run of three or more as a range). */
export function numberRanges(ns: readonly number[]): string {
  const sorted = [...new Set(ns)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    if (j - i >= 2) parts.push(`${sorted[i]}–${sorted[j]}`);
    else parts.push(...sorted.slice(i, j + 1).map(String));
    i = j + 1;
  }
  return parts.join(', ');
}
