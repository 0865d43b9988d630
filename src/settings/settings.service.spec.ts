/** SettingsService's rules against a mocked SettingRepository: what a PATCH stores, when the version moves, what a load merges. */
import { describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { fakeDb } from '../../test/support/unit-of-work.js';
import type { EventBus } from '../events/index.js';
import { SchemaNewerError } from '../common/index.js';
import { SCHEMA_VERSION } from '../database/index.js';
import { DEFAULT_SETTINGS, type Settings } from './defaults.js';
import type { SettingRepository } from './setting.repository.js';
import type { PatchSettingsDto } from './settings.dto.js';
import { SettingsService } from './settings.service.js';

/** The service over a repository holding `stored` (key → parsed value), on `engine`. */
async function make(stored: Record<string, unknown> = {}, engine: 'sqlite' | 'postgres' = 'sqlite') {
  const { db, m, transactions } = fakeDb(engine);
  const table = new Map(Object.entries(stored));
  const repository = {
    versionCheck: 'the version check',
    schemaCheck: 'the schema check',
    schemaOf: jest.fn((found: Record<string, unknown>[]) => Number(found[0]?.value ?? 0)),
    versionOf: jest.fn((found: Record<string, unknown>[], fallback: number) => (found[0] ? Number(found[0].value) : fallback)),
    all: jest.fn(async () => new Map(table)),
    put: jest.fn(async (_m: EntityManager, key: string, value: unknown) => void table.set(key, value)),
    schemaVersion: jest.fn(),
  };
  const events = { afterCommit: jest.fn() };
  const service = new SettingsService(db, events as unknown as EventBus, repository as unknown as SettingRepository);
  await service.onModuleInit();
  return { service, repository, events, db, m, transactions, table };
}

const patch = (p: Record<string, unknown>) => p as PatchSettingsDto;

type UnitCheck = { sql: string; apply(rows: Record<string, unknown>[], m: EntityManager): Promise<void> };
/** The checks the service asked `db` to run first in every unit of work, in their order. */
const unitChecks = (db: { onUnitStart: unknown }) => (db.onUnitStart as jest.Mock<(c: UnitCheck) => void>).mock.calls.map(([c]) => c);

describe('SettingsService.patch: a change bumps the version once, anything else does not', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['an empty body', {}, {}],
    ['an empty merged key', {}, { pacing: {} }],
    ['the values already stored', { backup_keep: 7 }, { backup_keep: 7 }],
    ['a merged entry equal to its default', {}, { approval: { assistant: true } }],
    ['a list equal to the stored one', { fields: ['Story Points'] }, { fields: ['Story Points'] }],
    ['a map equal to the stored one in another key order', { link_types: { a: 'Blocks', b: 'Relates' } }, { link_types: { b: 'Relates', a: 'Blocks' } }],
  ])('%s: no write, no event, same version', async (_, stored, body) => {
    const { service, repository, events } = await make({ ...stored, version: 4 });
    const answer = await service.patch(patch(body));
    expect(answer.version).toBe(4);
    expect(repository.put).not.toHaveBeenCalled();
    expect(events.afterCommit).not.toHaveBeenCalled();
  });

  it.each<[string, Record<string, unknown>, Partial<Settings>, string[]]>([
    ['one pause', { pacing: { ensure_issue: 60 } }, { pacing: { ...DEFAULT_SETTINGS.pacing, ensure_issue: 60 } }, ['pacing', 'version']],
    ['an approval entry (merged)', { approval: { client: true } }, { approval: { assistant: true, client: true, hub: false } }, ['approval', 'version']],
    ['auto_refresh jql set, interval kept', { auto_refresh: { jql: 'project = AURORA' } }, { auto_refresh: { interval_minutes: 0, jql: 'project = AURORA' } }, ['auto_refresh', 'version']],
    ['a replaced key', { fields: ['Story Points'] }, { fields: ['Story Points'] }, ['fields', 'version']],
    ['two keys', { backup_keep: 5, audit_retention_days: 30 }, { backup_keep: 5, audit_retention_days: 30 }, ['backup_keep', 'audit_retention_days', 'version']],
  ])('%s: stores the keys given and the version + 1', async (_, body, expected, written) => {
    const { service, repository, m } = await make({ version: 4 });
    const answer = await service.patch(patch(body));
    expect(answer).toMatchObject({ ...expected, version: 5 });
    expect(repository.put.mock.calls.map(([manager, key]) => [manager, key])).toEqual(written.map((k) => [m, k]));
    expect(repository.put).toHaveBeenLastCalledWith(m, 'version', 5);
  });

  it('a key given as undefined (left out of the DTO) is not part of the change', async () => {
    const { service, repository } = await make({ version: 1 });
    await service.patch(patch({ backup_keep: 3, fields: undefined }));
    expect(repository.put.mock.calls.map(([, key]) => key)).toEqual(['backup_keep', 'version']);
  });

  it('compares with the stored settings read in the same transaction, not with the kept copy', async () => {
    const { service, table, transactions } = await make({ version: 2, backup_keep: 9 });
    table.set('backup_keep', 20); // another replica put it back meanwhile
    table.set('version', 3);
    const answer = await service.patch(patch({ backup_keep: 20 }));
    expect(answer).toMatchObject({ backup_keep: 20, version: 3 });
    expect(transactions).toEqual({ opened: 1, committed: 1 });
  });

  it('publishes the new version after the commit, when the kept copy already holds it', async () => {
    const { service, events } = await make({ version: 1 });
    let seen: number | undefined;
    // as EventBus does: the events go out from the transaction's after-commit callbacks
    events.afterCommit.mockImplementation((tx) => (tx as { afterCommit(cb: () => void): void }).afterCommit(() => (seen = service.get().version)));
    await service.patch(patch({ backup_keep: 3 }));
    expect(events.afterCommit).toHaveBeenCalledWith(expect.anything(), [{ kind: 'settings', version: 2 }]);
    expect(seen).toBe(2);
    expect(service.get().backup_keep).toBe(3);
  });
});

describe('SettingsService: loading what is stored', () => {
  it.each<[string, Record<string, unknown>, Partial<Settings>]>([
    ['nothing stored: the defaults, version 1', {}, DEFAULT_SETTINGS],
    ['a stored key replaces its default', { backup_keep: 3, version: 8 }, { backup_keep: 3, version: 8 }],
    ['a merged key keeps the default entries an older hub did not store', { approval: { assistant: false } }, { approval: { assistant: false, client: false, hub: false } }],
    ['a stored pacing without the newer types keeps their defaults', { pacing: { ensure_issue: 1 } }, { pacing: { ...DEFAULT_SETTINGS.pacing, ensure_issue: 1 } }],
    ['an unknown stored key is ignored', { colour: 'red' }, DEFAULT_SETTINGS],
  ])('%s', async (_, stored, expected) => {
    const { service } = await make(stored);
    expect(service.get()).toMatchObject(expected);
    expect(service.get()).not.toHaveProperty('colour');
  });

  it('SQLite: the kept copy answers without a query after start-up', async () => {
    const { service, repository, db } = await make({ version: 2 });
    expect(await service.fresh()).toMatchObject({ version: 2 });
    expect(repository.all).toHaveBeenCalledTimes(1);
    expect(db.onUnitStart).not.toHaveBeenCalled();
  });

  it.each<[string, number, number]>([
    ['the same version: no reload', 2, 1],
    ['another version (another replica changed them): reloaded', 3, 2],
  ])('PostgreSQL, every unit of work checks the stored version first — %s', async (_, storedVersion, loads) => {
    const { service, repository, db, m, table } = await make({ version: 2 }, 'postgres');
    table.set('version', storedVersion);
    const check = unitChecks(db).find((c) => c.sql === 'the version check')!;
    await check.apply([{ value: String(storedVersion) }], m);
    expect(repository.all).toHaveBeenCalledTimes(loads);
    expect(service.get().version).toBe(storedVersion);
  });

  it('PostgreSQL: every unit of work checks the schema version first, and refuses 503 once a newer hub migrated the database (decision 1432)', async () => {
    const { db, m, repository } = await make({ version: 2 }, 'postgres');
    const checks = unitChecks(db);
    expect(checks.map((c) => c.sql)).toEqual(['the schema check', 'the version check']);
    await checks[0].apply([{ value: String(SCHEMA_VERSION) }], m);
    await checks[0].apply([{ value: String(SCHEMA_VERSION - 1) }], m);
    const refused = checks[0].apply([{ value: String(SCHEMA_VERSION + 1) }], m);
    await expect(refused).rejects.toBeInstanceOf(SchemaNewerError);
    await expect(refused).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining(`схема v${SCHEMA_VERSION + 1}, эта реплика знает схемы до v${SCHEMA_VERSION}`) });
    expect(repository.schemaOf).toHaveBeenCalledTimes(3);
  });
});
