/** Routes through an issue type's workflow: the transitions the catalogue knows (SPEC 16.2). Pure. */
import type { CatalogueTransition, CatalogueTypeConfig } from '@jira-hub/contracts';

/** The transitions that lead out of a status: its own and the global ones (`from` null). */
export const transitionsFrom = (config: CatalogueTypeConfig, from: string): CatalogueTransition[] =>
  config.transitions.filter((t) => t.from === from || t.from === null);

/** The transition from one status to another, if the catalogue knows one (a status's own before a global one). */
export function transitionBetween(config: CatalogueTypeConfig, from: string, to: string): CatalogueTransition | undefined {
  const edges = transitionsFrom(config, from).filter((t) => t.to === to);
  return edges.find((t) => t.from === from) ?? edges[0];
}

/**
 * The shortest known route (fewest transitions) from one status to another: the statuses walked
 * through, `to` last; `[]` when already there; null when no known route leads there.
 */
export function shortestRoute(config: CatalogueTypeConfig, from: string, to: string): string[] | null {
  if (from === to) return [];
  const previous = new Map<string, string>([[from, '']]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const t of transitionsFrom(config, at)) {
      if (previous.has(t.to)) continue;
      previous.set(t.to, at);
      if (t.to === to) {
        const route = [to];
        for (let s = at; s !== from; s = previous.get(s)!) route.unshift(s);
        return route;
      }
      queue.push(t.to);
    }
  }
  return null;
}

/** The status a new issue of the type starts in: the catalogue's, else the first of category `new`. */
export const initialStatus = (config: CatalogueTypeConfig): string | null =>
  config.initial_status ?? config.statuses.find((s) => s.category === 'new')?.name ?? null;

/** Whether any transition out of a status is known (of its own; global ones say nothing of it). */
export const observedFrom = (config: CatalogueTypeConfig, status: string): boolean => config.transitions.some((t) => t.from === status);

/**
 * With transitions only observed (SPEC 16.1: `/transitions` of issues met in the mirror), the best guess
 * of a route to `to` when no known one leads there: the shortest known route to the nearest status whose
 * transitions were never observed, then `to`. Null when every reachable status was observed (then no
 * route exists).
 */
export function routeThroughUnobserved(config: CatalogueTypeConfig, from: string, to: string): string[] | null {
  const seen = new Set([from]);
  const queue: [string, string[]][] = [[from, []]];
  while (queue.length > 0) {
    const [at, route] = queue.shift()!;
    if (!observedFrom(config, at)) return [...route, to];
    for (const t of transitionsFrom(config, at)) {
      if (seen.has(t.to)) continue;
      seen.add(t.to);
      queue.push([t.to, [...route, t.to]]);
    }
  }
  return null;
}
