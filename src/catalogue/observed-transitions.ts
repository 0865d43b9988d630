/**
 * A catalogue read anew keeps what an earlier read observed (decision 1428). With transitions only observed
 * (SPEC 16.1: `/transitions` of the issues the agent met), a read sees the transitions out of the statuses
 * its sample issues are in, and nothing of the others: replacing the stored catalogue forgot routes it had
 * learned (no Task in «To Do» today, and To Do → In Progress was gone). Pure.
 */
import type { Catalogue, CatalogueTransition, SeenTransitions } from '@jira-hub/contracts';
import { sameStatus } from '@jira-hub/contracts/catalogue';

/** How long an observed transition is kept without being seen again: a workflow changed since drops it by then. */
export const OBSERVED_KEEP_DAYS = 30;

const fromOf = (t: CatalogueTransition) => t.from ?? '\u0000any';

/**
 * `next` with the transitions `previous` observed and `next` did not: per issue type, those out of a status
 * `next` observed nothing from (a status it did observe is read whole, so its old edges go), between statuses
 * the type still has, seen within OBSERVED_KEEP_DAYS of `now`. Another project, or a workflow read as such
 * (`transitions_source: workflow`, complete), is taken as it is.
 */
export function keepObserved(previous: Catalogue | null, next: Catalogue, now: Date): Catalogue {
  if (!previous || previous.project_key !== next.project_key || previous.transitions_source !== 'observed' || next.transitions_source !== 'observed') return next;
  const since = now.getTime() - OBSERVED_KEEP_DAYS * 86_400_000;
  const perType = Object.fromEntries(
    Object.entries(next.per_type).map(([typeId, config]) => {
      const earlier = previous.per_type[typeId]?.transitions ?? [];
      const statuses = new Set(config.statuses.map((s) => s.name));
      const readNow = new Set(config.transitions.map(fromOf));
      const kept = earlier.filter(
        (t) =>
          !readNow.has(fromOf(t)) &&
          (t.from === null || statuses.has(t.from)) &&
          statuses.has(t.to) &&
          t.observed_at !== undefined &&
          Date.parse(t.observed_at) >= since,
      );
      return [typeId, kept.length ? { ...config, transitions: [...config.transitions, ...kept] } : config];
    }),
  );
  return { ...next, per_type: perType };
}

/**
 * The catalogue with what an agent saw of one issue's transitions where a status walk stopped for want of one
 * (decision 1485): the edges out of `seen.status` for the issue's type become those Jira offered, each with
 * `observed_at` now, as a read of the catalogue would record them (a status observed is read whole, so its old
 * edges go). Only into a catalogue whose transitions are observed, of the issue's project, for a type and a
 * status it knows (an edge to a status the type does not list is left out). Null when it cannot learn from
 * it: no such catalogue, type or status, or no transition offered to a status the type has.
 */
export function learnSeenTransitions(catalogue: Catalogue | null, seen: SeenTransitions, now: Date): Catalogue | null {
  if (!catalogue || catalogue.transitions_source !== 'observed' || !seen.key.startsWith(`${catalogue.project_key}-`)) return null;
  const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  const type = catalogue.issue_types.find((t) => t.name === seen.issue_type) ?? catalogue.issue_types.find((t) => sameName(t.name, seen.issue_type));
  const config = type ? catalogue.per_type[type.id] : undefined;
  if (!type || !config) return null;
  const statusOf = (name: string) => config.statuses.find((s) => s.name === name) ?? config.statuses.find((s) => sameStatus(s.name, name));
  const from = statusOf(seen.status)?.name;
  if (from === undefined) return null;
  const observedAt = now.toISOString();
  const edges: CatalogueTransition[] = seen.transitions.flatMap((t) => {
    const to = statusOf(t.to)?.name;
    return to === undefined ? [] : [{ from, to, id: t.id, name: t.name, required_fields: [...t.required_fields], observed_at: observedAt }];
  });
  // Nothing offered at all teaches nothing the hub can route by (Jira hides transitions the account may not take).
  if (edges.length === 0) return null;
  const transitions = [...config.transitions.filter((t) => t.from !== from), ...edges];
  return { ...catalogue, per_type: { ...catalogue.per_type, [type.id]: { ...config, transitions } } };
}
