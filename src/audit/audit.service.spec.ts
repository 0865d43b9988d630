/** AuditService's rules against a mocked AuditRepository: retention, what is cut, one transaction per call. */
import { describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { fakeDb } from '../../test/support/unit-of-work.js';
import type { Clock } from '../common/index.js';
import { DEFAULT_SETTINGS } from '../settings/index.js';
import type { SettingsService } from '../settings/index.js';
import type { AuditQuery, AuditRecord, AuditRepository, AuditRow } from './audit.repository.js';
import { AUDIT_ARGUMENTS_CAP, AUDIT_DETAIL_CAP, auditArguments, AuditService, type AuditEntry } from './audit.service.js';

const NOW = '2026-12-02T12:00:00.000Z';

function make(retentionDays = 90) {
  const { db, m, transactions } = fakeDb();
  const repository = {
    insert: jest.fn(async (_m: EntityManager, _row: AuditRow) => undefined),
    deleteOlderThan: jest.fn(async (_m: EntityManager, _keepFrom: string) => 0),
    list: jest.fn(async (_m: EntityManager, _q: AuditQuery): Promise<AuditRecord[]> => []),
  };
  const settings = { get: () => ({ ...DEFAULT_SETTINGS, audit_retention_days: retentionDays }) };
  const clock = { now: () => new Date(NOW) };
  const service = new AuditService(db, repository as unknown as AuditRepository, settings as unknown as SettingsService, clock as unknown as Clock);
  return { service, repository, m, transactions };
}

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  channel: 'mcp',
  tool: 'create_batch',
  route: null,
  arguments: { title: 'x' },
  outcome: 'ok',
  status: null,
  detail: null,
  batch_id: 7,
  ...over,
});

describe('AuditService.record', () => {
  it.each<[number, string]>([
    [90, '2026-09-03T12:00:00.000Z'],
    [1, '2026-12-01T12:00:00.000Z'],
    [3650, '2016-12-04T12:00:00.000Z'],
  ])('retention %i days: drops the calls before %s, in the transaction that records this one', async (days, keepFrom) => {
    const { service, repository, m, transactions } = make(days);
    await service.record(entry());
    expect(repository.insert).toHaveBeenCalledWith(m, expect.objectContaining({ at: NOW, channel: 'mcp', batch_id: 7 }));
    expect(repository.deleteOlderThan).toHaveBeenCalledWith(m, keepFrom);
    expect(transactions).toEqual({ opened: 1, committed: 1 });
  });

  it.each<[string, unknown, string]>([
    ['an object', { title: 'Отчёт' }, '{"title":"Отчёт"}'],
    ['nothing', undefined, '{}'],
    ['null', null, '{}'],
    ['a value JSON cannot hold', { n: 1n }, '"(не JSON)"'],
    ['a function (JSON.stringify answers undefined)', () => 1, '{}'],
  ])('arguments: %s → %s', (_, value, stored) => {
    expect(auditArguments(value)).toBe(stored);
  });

  it.each<[string, number, boolean]>([
    ['at the cap', AUDIT_ARGUMENTS_CAP, false],
    ['one over the cap', AUDIT_ARGUMENTS_CAP + 1, true],
  ])('arguments %s are kept whole unless longer', (_, length, cut) => {
    const value = 'я'.repeat(length - 2); // JSON adds the quotes
    const stored = auditArguments(value);
    expect(stored.startsWith(JSON.stringify(value).slice(0, AUDIT_ARGUMENTS_CAP))).toBe(true);
    expect(stored.includes('… [обрезано: ещё 1 символов]')).toBe(cut);
  });

  it.each<[string | null, string | null]>([
    [null, null],
    ['короткая ошибка', 'короткая ошибка'],
    ['x'.repeat(AUDIT_DETAIL_CAP + 10), `${'x'.repeat(AUDIT_DETAIL_CAP)}… [обрезано: ещё 10 символов]`],
  ])('detail is cut to its cap: %#', async (detail, stored) => {
    const { service, repository } = make();
    await service.record(entry({ detail }));
    expect(repository.insert).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ detail: stored }));
  });

  it('a failed insert rolls the whole call back: nothing is dropped', async () => {
    const { service, repository, transactions } = make();
    repository.insert.mockRejectedValueOnce(new Error('disk full'));
    await expect(service.record(entry())).rejects.toThrow('disk full');
    expect(repository.deleteOlderThan).not.toHaveBeenCalled();
    expect(transactions).toEqual({ opened: 1, committed: 0 });
  });
});

describe('AuditService.list', () => {
  it('reads through the repository with the query as given', async () => {
    const { service, repository, m } = make();
    await service.list({ limit: 5, before_id: 10, batch_id: 3 });
    expect(repository.list).toHaveBeenCalledWith(m, { limit: 5, before_id: 10, batch_id: 3 });
  });
});
