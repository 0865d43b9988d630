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

/** A UTF-16 surrogate without its other half: UTF-8 cannot encode it (SQLite would store invalid UTF-8, PostgreSQL's driver a U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/** U+0000: neither PostgreSQL's text nor its jsonb can hold it (`command.params` is jsonb there). */
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
