/** CatalogueSettingsCheck against a mocked repository: which catalogue it trusts, and what it names. */
import { describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { CATALOGUE } from '../../test/support/catalogue.js';
import { CatalogueSettingsCheck } from './settings-check.js';

const m = { marker: 'unit of work' } as unknown as EntityManager;
const NOW = new Date('2026-12-02T12:00:00.000Z');
const clock = { now: () => NOW };
const check = (stored: unknown) => new CatalogueSettingsCheck({ get: jest.fn(async () => stored) } as never, clock as never);
const DAY = 1440;

describe('CatalogueSettingsCheck', () => {
  it.each([
    ['no catalogue', null],
    ['a catalogue marked stale', { ...CATALOGUE, synced_at: '2026-12-02T11:00:00.000Z', stale_since: '2026-12-01T00:00:00.000Z' }],
    ['a catalogue older than catalogue_max_age_minutes', { ...CATALOGUE, synced_at: '2026-11-30T11:00:00.000Z', stale_since: null }],
  ])('%s: nothing refused, the hub cannot tell', async (_, stored) => {
    expect(await check(stored).problems(m, { link_types: { x: 'Nope' }, fields: ['Nope'] }, DAY)).toEqual([]);
  });

  it('a fresh one: only what Jira lacks, each under its own path; nothing asked of it when neither key changes', async () => {
    const c = check({ ...CATALOGUE, synced_at: '2026-12-02T11:00:00.000Z', stale_since: null });
    expect((await c.problems(m, { link_types: { блокирует: 'BLOCKS', x: 'Nope' }, fields: ['Team', 'customfield_10011', 'Nope'] }, DAY)).map((p) => p.field)).toEqual(['link_types.x', 'fields.2']);
    const untouched = new CatalogueSettingsCheck({ get: jest.fn(async () => { throw new Error('read'); }) } as never, clock as never);
    expect(await untouched.problems(m, {}, DAY)).toEqual([]);
  });

  it('a field name two Jira fields share is refused as the agent refuses it (it will not choose), naming both ids; either id passes', async () => {
    const fields = [...CATALOGUE.fields, { id: 'customfield_10099', name: 'team ' }];
    const c = check({ ...CATALOGUE, fields, synced_at: '2026-12-02T11:00:00.000Z', stale_since: null });
    expect(await c.problems(m, { fields: ['Story Points', 'Team'] }, DAY)).toEqual([
      { field: 'fields.1', detail: 'поле «Team» неоднозначно: в Jira несколько полей с таким названием (customfield_10030, customfield_10099), с ним агент не запустится — укажите id нужного поля: customfield_10030 или customfield_10099' },
    ]);
    expect(await c.problems(m, { fields: ['customfield_10030', 'customfield_10099'] }, DAY)).toEqual([]);
  });
});
