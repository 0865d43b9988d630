/** CatalogueService's rules against a mocked CatalogueRepository: the catalogue's age and staleness, and the lookups' matching. */
import { describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { fakeDb } from '../../test/support/unit-of-work.js';
import { NotFoundError, ValidationFailedError } from '../common/index.js';
import { DEFAULT_SETTINGS } from '../settings/index.js';
import type { CatalogueRepository, StoredCatalogue } from './catalogue.repository.js';
import { CatalogueService } from './catalogue.service.js';

const NOW = Date.parse('2026-12-02T12:00:00.000Z');
const WORKFLOW = {
  statuses: [
    { id: '1', name: 'To Do', category: 'new' },
    { id: '2', name: 'In Progress', category: 'indeterminate' },
    { id: '3', name: 'Done', category: 'done' },
  ],
  initial_status: 'To Do',
  transitions: [
    { from: 'To Do', to: 'In Progress', id: '11', name: 'Start', required_fields: [] },
    { from: 'In Progress', to: 'Done', id: '21', name: 'Finish', required_fields: ['resolution'] },
  ],
};

const stored = (over: Partial<StoredCatalogue> = {}): StoredCatalogue =>
  ({
    project_key: 'AURORA',
    flavor: 'cloud',
    issue_types: [
      { id: '10001', name: 'Task', subtask: false, hierarchy_level: 0 },
      { id: '10002', name: 'Задача', subtask: false, hierarchy_level: 0 },
    ],
    fields: [],
    per_type: { '10001': { create: [], edit: null, ...WORKFLOW } },
    transitions_source: 'workflow',
    link_types: [
      { id: '1', name: 'Blocks', outward: 'blocks', inward: 'is blocked by' },
      { id: '2', name: 'Relates', outward: 'relates to', inward: 'relates to' },
    ],
    boards: [
      { id: 1, name: 'AURORA board' },
      { id: 2, name: 'Поддержка' },
    ],
    sprints: [
      { id: 11, name: 'Спринт 2', state: 'active', board_id: 1 },
      { id: 21, name: 'Спринт 3', state: 'future', board_id: 2 },
    ],
    priorities: ['High', 'Low'],
    components: [],
    versions: [],
    permissions: {},
    assignable: [
      { id: 'ivanov', display_name: 'Иван Иванов' },
      { id: 'petrov', display_name: 'Пётр Петров' },
    ],
    assignable_truncated: true,
    synced_at: new Date(NOW - 90_000).toISOString(),
    stale_since: null,
    stale_reason: null,
    ...over,
  }) as StoredCatalogue;

function make(catalogue: StoredCatalogue | null, maxAgeMinutes = 1440) {
  const { db, m } = fakeDb();
  const repository = { get: jest.fn(async (_m: EntityManager, _project?: string) => catalogue) };
  const settings = { get: () => ({ ...DEFAULT_SETTINGS, catalogue_max_age_minutes: maxAgeMinutes, link_types: { блокирует: 'Blocks', 'связан с': 'relates to' } }) };
  const clock = { now: () => new Date(NOW) };
  return { service: new CatalogueService(db, repository as unknown as CatalogueRepository, settings as never, clock as never), repository, m };
}

describe('CatalogueService.state: age and staleness', () => {
  it.each<[string, Partial<StoredCatalogue>, number, boolean, RegExp]>([
    ['fresh', {}, 1440, false, /прочитан 1 мин назад\.$/],
    ['older than the setting', { synced_at: new Date(NOW - 3 * 3600_000).toISOString() }, 60, true, /прочитан 3 ч назад; старше 60 мин/],
    ['at the setting exactly: not yet stale', { synced_at: new Date(NOW - 3600_000).toISOString() }, 60, false, /прочитан 1 ч назад\.$/],
    ['marked stale by a refused command, however young', { stale_since: new Date(NOW).toISOString(), stale_reason: 'экран изменился' }, 1440, true, /устарел: экран изменился/],
    ['a clock behind the stamp: age 0', { synced_at: new Date(NOW + 5000).toISOString() }, 1440, false, /прочитан 0 с назад/],
  ])('%s', async (_, over, maxAge, stale, text) => {
    const { service } = make(stored(over), maxAge);
    const state = await service.state();
    expect(state).toMatchObject({ project_key: 'AURORA', stale, max_age_minutes: maxAge });
    expect(state.text).toMatch(text);
    expect(state.catalogue).not.toHaveProperty('stale_since');
  });

  it.each<[string | undefined, RegExp]>([
    [undefined, /ещё нет/],
    ['OTHER', /проекта OTHER в хабе нет/],
  ])('none stored (project %s): catalogue null, and why', async (project, text) => {
    const { service, repository, m } = make(null);
    const state = await service.state(project);
    expect(state).toMatchObject({ catalogue: null, stale: false, project_key: project ?? null });
    expect(state.text).toMatch(text);
    expect(repository.get).toHaveBeenCalledWith(m, project);
  });
});

describe('CatalogueService lookups', () => {
  it("link types: the settings' words that name each one (by name, outward or inward, any case); symmetric when both ways read alike", async () => {
    const { service } = make(stored());
    expect(await service.linkTypes()).toEqual([
      { name: 'Blocks', outward: 'blocks', inward: 'is blocked by', words: ['блокирует'], symmetric: false },
      { name: 'Relates', outward: 'relates to', inward: 'relates to', words: ['связан с'], symmetric: true },
    ]);
  });

  it.each<[string | undefined, number[]]>([
    [undefined, [11, 21]],
    ['1', [11]],
    [' поддержка ', [21]],
    ['AURORA BOARD', [11]],
  ])('sprints of board %p', async (board, ids) => {
    const { service } = make(stored());
    expect((await service.sprints(undefined, board)).map((s) => s.id)).toEqual(ids);
  });

  it('sprints of a board the catalogue lacks: 404 listing the boards', async () => {
    const { service } = make(stored());
    await expect(service.sprints(undefined, 'Нет такой')).rejects.toThrow(/AURORA board \(1\).*Поддержка \(2\)/);
  });

  it.each<[string, string, string]>([
    ['the exact name', 'Task', 'Task'],
    ['another case and spaces', ' задача ', 'Задача'],
  ])('issue type by %s', async (_, name, found) => {
    const { service } = make(stored());
    expect((await service.issueTypes(undefined, name)).map((t) => t.name)).toEqual([found]);
  });

  it('an issue type the project lacks: 404 listing the types', async () => {
    const { service } = make(stored());
    await expect(service.issueTypes(undefined, 'Bug')).rejects.toThrow(/«Bug».*Task/);
  });

  it.each<[string, Record<string, string>, string]>([
    ['from without to', { issue_type: 'Task', from: 'To Do' }, 'to'],
    ['to without from', { issue_type: 'Task', to: 'Done' }, 'from'],
    ['a route without issue_type', { from: 'To Do', to: 'Done' }, 'issue_type'],
  ])('statuses, %s: 422 naming the field', async (_, q, field) => {
    const { service } = make(stored());
    const refused = service.statuses(q);
    await expect(refused).rejects.toBeInstanceOf(ValidationFailedError);
    await expect(refused).rejects.toMatchObject({ errors: [{ field }] });
  });

  it('statuses with a route: the shortest one through the transitions', async () => {
    const { service } = make(stored());
    const [view] = await service.statuses({ issue_type: 'Task', from: 'To Do', to: 'Done' });
    expect(view).toMatchObject({ issue_type: 'Task', statuses: ['To Do', 'In Progress', 'Done'], initial_status: 'To Do' });
    expect(view.route).toBeDefined();
  });

  it.each<[string | undefined, number, string[]]>([
    [undefined, 10, ['ivanov', 'petrov']],
    ['ПЁТР', 10, ['petrov']],
    ['iva', 10, ['ivanov']],
    [undefined, 1, ['ivanov']],
  ])('users matching %p (limit %i)', async (q, limit, ids) => {
    const { service } = make(stored());
    const answer = await service.users(undefined, q, limit);
    expect(answer.users.map((u) => u.id)).toEqual(ids);
    expect(answer.truncated).toBe(true);
  });

  it('a lookup without a catalogue: 404 that says how to get one', async () => {
    const { service } = make(null);
    await expect(service.values('priorities')).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.values('priorities')).rejects.toThrow(/POST \/catalogue\/refresh/);
  });
});

