import { describe, expect, it } from '@jest/globals';
import type { Catalogue, CatalogueTransition, CatalogueTypeConfig, SeenTransitions } from '@jira-hub/contracts';
import { CATALOGUE } from '../../test/support/catalogue.js';
import { keepObserved, learnSeenTransitions } from './observed-transitions.js';
import { routeThroughUnobserved, shortestRoute } from './routes.js';

const NOW = new Date('2026-12-06T12:00:00.000Z');
const edge = (from: string | null, to: string, observed_at: string | null = '2026-12-05T12:00:00.000Z'): CatalogueTransition => ({ from, to, id: `${from}>${to}`, name: to, required_fields: [], ...(observed_at ? { observed_at } : {}) });
const task = (transitions: CatalogueTransition[], statuses = ['To Do', 'In Progress', 'Review', 'Done', 'Rejected']): CatalogueTypeConfig => ({
  ...CATALOGUE.per_type['10001']!,
  statuses: statuses.map((name, i) => ({ id: String(i + 1), name, category: 'indeterminate' })),
  transitions,
});
const observed = (transitions: CatalogueTransition[], over: Partial<Catalogue> = {}, statuses?: string[]): Catalogue => ({ ...CATALOGUE, transitions_source: 'observed', per_type: { '10001': task(transitions, statuses) }, ...over });
const edges = (c: Catalogue) => c.per_type['10001']!.transitions.map((t) => t.id).sort();

describe('keepObserved: a catalogue read anew keeps the transitions it did not see again (decision 1428)', () => {
  const before = observed([edge('To Do', 'In Progress'), edge('In Progress', 'Review'), edge(null, 'To Do')]);

  it.each<[string, Catalogue | null, Catalogue, string[]]>([
    ['a status not observed this time keeps its edges', before, observed([edge('Review', 'Done')]), ['In Progress>Review', 'Review>Done', 'To Do>In Progress', 'null>To Do']],
    ['a status observed again is read whole: an edge gone from it is gone', before, observed([edge('To Do', 'Review')]), ['In Progress>Review', 'To Do>Review', 'null>To Do']],
    ['global edges (from any status) observed again replace the old ones', before, observed([edge(null, 'Done')]), ['In Progress>Review', 'To Do>In Progress', 'null>Done']],
    ['an edge to or from a status the type no longer has is dropped', before, observed([], {}, ['To Do', 'In Progress', 'Done']), ['To Do>In Progress', 'null>To Do']],
    ['an edge not seen for 30 days is dropped', observed([edge('To Do', 'In Progress', '2026-11-05T11:00:00.000Z'), edge('In Progress', 'Review', '2026-11-07T00:00:00.000Z')]), observed([]), ['In Progress>Review']],
    ['an edge without the time it was seen is dropped', observed([edge('To Do', 'In Progress', null)]), observed([]), []],
    ['nothing stored before: the new read as it is', null, observed([edge('Review', 'Done')]), ['Review>Done']],
    ['another project\'s catalogue is no earlier read', { ...before, project_key: 'OTHER' }, observed([]), []],
    ['a workflow read whole is taken as it is', before, observed([edge('Review', 'Done')], { transitions_source: 'workflow' }), ['Review>Done']],
  ])('%s', (_, previous, next, kept) => {
    expect(edges(keepObserved(previous, next, NOW))).toEqual(kept.sort());
  });

  it('keeps each edge as it was observed, its time included', () => {
    const merged = keepObserved(before, observed([]), NOW);
    expect(merged.per_type['10001']!.transitions).toEqual(before.per_type['10001']!.transitions);
  });
});

describe('learnSeenTransitions: a failed status walk teaches what Jira offered where it stopped (decision 1485)', () => {
  const type = CATALOGUE.issue_types.find((t) => t.id === '10001')!.name;
  const seen = (over: Partial<SeenTransitions> = {}): SeenTransitions => ({
    key: `${CATALOGUE.project_key}-7`,
    issue_type: type,
    status: 'In Progress',
    transitions: [
      { id: '51', name: 'Review', to: 'Review', required_fields: [] },
      { id: '99', name: 'Elsewhere', to: 'No such status', required_fields: [] },
    ],
    ...over,
  });
  const before = observed([edge('To Do', 'In Progress'), edge('In Progress', 'Done'), edge(null, 'To Do')]);

  it('replaces the type\'s edges out of that status by the offered ones, seen now; others stay; a status the type lacks is left out', () => {
    const learned = learnSeenTransitions(before, seen(), NOW)!;
    expect(edges(learned)).toEqual(['To Do>In Progress', 'null>To Do', '51'].sort());
    expect(learned.per_type['10001']!.transitions.find((t) => t.id === '51')).toEqual({ from: 'In Progress', to: 'Review', id: '51', name: 'Review', required_fields: [], observed_at: NOW.toISOString() });
  });

  it('reads the type and the statuses as Jira names them, in any letter case', () => {
    const learned = learnSeenTransitions(before, seen({ issue_type: ` ${type.toUpperCase()}`, status: 'in progress', transitions: [{ id: '51', name: 'Review', to: 'REVIEW', required_fields: ['resolution'] }] }), NOW)!;
    expect(learned.per_type['10001']!.transitions.find((t) => t.id === '51')).toMatchObject({ from: 'In Progress', to: 'Review', required_fields: ['resolution'] });
  });

  it('gives the route the checks could not find before: the guess that failed is not made again', () => {
    const fresh = observed([edge('To Do', 'In Progress')]);
    expect(routeThroughUnobserved(fresh.per_type['10001']!, 'To Do', 'Done')).toEqual(['In Progress', 'Done']);
    const learned = learnSeenTransitions(fresh, seen({ transitions: [{ id: '51', name: 'Review', to: 'Review', required_fields: [] }] }), NOW)!;
    expect(shortestRoute(learned.per_type['10001']!, 'To Do', 'Done')).toBeNull();
    expect(routeThroughUnobserved(learned.per_type['10001']!, 'To Do', 'Done')).toEqual(['In Progress', 'Review', 'Done']);
    const all = learnSeenTransitions(learned, seen({ status: 'Review', transitions: [{ id: '61', name: 'Approve', to: 'Done', required_fields: ['resolution'] }] }), NOW)!;
    expect(shortestRoute(all.per_type['10001']!, 'To Do', 'Done')).toEqual(['In Progress', 'Review', 'Done']);
  });

  it.each<[string, Catalogue | null, SeenTransitions]>([
    ['no catalogue', null, seen()],
    ['a catalogue read from the workflow API (complete: a missing edge means the workflow changed)', { ...before, transitions_source: 'workflow' }, seen()],
    ['an issue of another project', before, seen({ key: 'OTHER-1' })],
    ['a type the catalogue does not know', before, seen({ issue_type: 'Incident' })],
    ['a status the type does not have', before, seen({ status: 'Limbo' })],
    ['no transition offered to a status of the type', before, seen({ transitions: [{ id: '99', name: 'Elsewhere', to: 'No such status', required_fields: [] }] })],
    ['nothing offered at all', before, seen({ transitions: [] })],
  ])('learns nothing (the failure marks the catalogue stale instead): %s', (_, catalogue, what) => {
    expect(learnSeenTransitions(catalogue, what, NOW)).toBeNull();
  });
});
