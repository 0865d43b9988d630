/** CatalogueSettingsCheck against a mocked repository: which catalogue it trusts, and what it names. */
import { describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { CATALOGUE } from '../../test/support/catalogue.js';
import { CatalogueSettingsCheck } from './settings-check.js';

const m = { marker: 'unit of work' } as unknown as EntityManager;
const check = (stored: unknown) => new CatalogueSettingsCheck({ get: jest.fn(async () => stored) } as never);

describe('CatalogueSettingsCheck', () => {
  it.each([
    ['no catalogue', null],
    ['a stale catalogue', { ...CATALOGUE, stale_since: '2026-12-01T00:00:00.000Z' }],
  ])('%s: nothing refused, the hub cannot tell', async (_, stored) => {
    expect(await check(stored).problems(m, { link_types: { x: 'Nope' }, fields: ['Nope'] })).toEqual([]);
  });

  it('a fresh one: only what Jira lacks, each under its own path; nothing asked of it when neither key changes', async () => {
    const c = check({ ...CATALOGUE, stale_since: null });
    expect((await c.problems(m, { link_types: { блокирует: 'BLOCKS', x: 'Nope' }, fields: ['Team', 'customfield_10011', 'Nope'] })).map((p) => p.field)).toEqual(['link_types.x', 'fields.2']);
    const untouched = new CatalogueSettingsCheck({ get: jest.fn(async () => { throw new Error('read'); }) } as never);
    expect(await untouched.problems(m, {})).toEqual([]);
  });
});
