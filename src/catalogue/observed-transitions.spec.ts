import { describe, expect, it } from '@jest/globals';
import type { Catalogue, CatalogueTransition, CatalogueTypeConfig } from '@jira-hub/contracts';
import { CATALOGUE } from '../../test/support/catalogue.js';
import { keepObserved } from './observed-transitions.js';

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
