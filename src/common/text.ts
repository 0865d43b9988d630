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
