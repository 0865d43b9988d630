/**
 * A catalogue read anew keeps what an earlier read observed (decision 1428). With transitions only observed
 * (SPEC 16.1: `/transitions` of the issues the agent met), a read sees the transitions out of the statuses
 * its sample issues are in, and nothing of the others: replacing the stored catalogue forgot routes it had
 * learned (no Task in «To Do» today, and To Do → In Progress was gone). Pure.
 */
import type { Catalogue, CatalogueTransition } from '@jira-hub/contracts';

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
