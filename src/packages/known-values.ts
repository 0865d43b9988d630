/** The values a package's columns may take, from the catalogue of Jira's configuration (SPEC 16.1). Pure. */
import type { Catalogue } from '@jira-hub/contracts';
import type { KnownValues } from './plan.js';

const names = (xs: readonly string[]) => (xs.length ? [...new Set(xs)] : undefined);

export function knownValues(c: Catalogue | null): KnownValues | undefined {
  if (!c) return undefined;
  return {
    issue_types: names(c.issue_types.map((t) => t.name)),
    statuses: names(Object.values(c.per_type).flatMap((t) => t.statuses.map((s) => s.name))),
    priorities: names(c.priorities),
    sprints: names(c.sprints.filter((s) => s.state !== 'closed').map((s) => s.name)),
  };
}
