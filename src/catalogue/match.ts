/** Names as people type them against names as Jira has them: exact, other letter case, or close. Pure. */

/** Names compared without letter case (Russian rules: Ё and ё alike). */
export const lower = (s: string) => s.toLocaleLowerCase('ru');

/** Edit distance (Levenshtein), for «может быть, …?» suggestions. */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = up;
    }
  }
  return row[b.length]!;
}

export type Match<T> = { kind: 'exact'; item: T } | { kind: 'case'; item: T } | { kind: 'none'; close: T[] };

/**
 * Finds `wanted` among `items` by the names `namesOf` gives each: the same text, else the same text in
 * another letter case (one item only), else none with the closest items (a name containing the other,
 * or at most two letters or a third of them different), best first.
 */
export function match<T>(wanted: string, items: readonly T[], namesOf: (item: T) => readonly string[]): Match<T> {
  const exact = items.find((i) => namesOf(i).includes(wanted));
  if (exact !== undefined) return { kind: 'exact', item: exact };
  const w = lower(wanted.trim());
  const sameCase = items.filter((i) => namesOf(i).some((n) => lower(n) === w));
  if (sameCase.length === 1) return { kind: 'case', item: sameCase[0]! };
  const scored = items
    .map((item) => {
      const best = Math.min(...namesOf(item).map((n) => (lower(n).includes(w) || w.includes(lower(n)) ? 0.5 : distance(lower(n), w))));
      return { item, best };
    })
    .filter(({ best }) => best <= Math.max(2, Math.floor(w.length / 3)))
    .sort((a, b) => a.best - b.best);
  return { kind: 'none', close: scored.map((s) => s.item) };
}

/** «может быть, Blocks?» or «может быть, Blocks или Relates?»; undefined when nothing is close. */
export function maybe(names: readonly string[]): string | undefined {
  const unique = [...new Set(names)].slice(0, 3);
  return unique.length ? `может быть, ${unique.join(' или ')}?` : undefined;
}

/** «Task, Bug, Epic» — a list for a finding, cut at `max`. */
export function listed(names: readonly string[], max = 12): string {
  const unique = [...new Set(names)];
  return unique.length > max ? `${unique.slice(0, max).join(', ')} и ещё ${unique.length - max}` : unique.join(', ');
}
