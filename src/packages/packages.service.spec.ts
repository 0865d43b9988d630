/**
 * PackagesService's decisions (SPEC 18) against mocked repositories and services: what an apply stores
 * and submits, which batch a repeated apply answers, when nothing is submitted, and drift's verdict. The
 * plan against the mirror is given (its rules have their own table tests in plan.spec.ts).
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { fakeDb } from '../../test/support/unit-of-work.js';
import { NotFoundError, ValidationFailedError } from '../common/index.js';
import type { BatchAlongside as Alongside } from '../queue/index.js';
import { DEFAULT_SETTINGS } from '../settings/index.js';
import { filesHash } from './package-reading.js';
import { PackagesService } from './packages.service.js';
import type { PackagePlan as Plan } from './plan.js';

const findKey = jest.fn<(m: EntityManager, key: string) => Promise<{ body_hash: string; batch_id: number } | undefined>>();

const NOW = '2026-12-02T12:00:00.000Z';
const CALLER = { name: 'ivanov', source: 'client' as const };
const ISSUES = Buffer.from('key,summary\nAURORA-1,Отчёт\n');
const FILES = { issues: ISSUES };
const NOTES = Buffer.from('key,fact_status,comment\nAURORA-1,в работе,ждём отчёт\n');
const HASH = filesHash({ issues: ISSUES.toString('utf8') });

const command = (key: string) => ({ type: 'ensure_fields' as const, params: { key, summary: 'Отчёт' }, from: { file: 'issues.csv', row: 2, key }, changes: [] });
const plan = (commands: number, over: Partial<Plan> = {}): Plan =>
  ({
    commands: Array.from({ length: commands }, (_, i) => command(`AURORA-${i + 1}`)),
    findings: [],
    differences: [],
    links: [],
    mirror: { keys: [], missing_keys: [], gone_keys: [], oldest_synced_at: null, age_seconds: null },
    refresh: null,
    resolved: [],
    ...over,
  }) as unknown as Plan;

const batch = (id: number, status: string) => ({ id, status, title: `Пакет планирования #${id}`, commands: [{ type: 'ensure_fields' }, { type: 'refresh' }] });

function make(planned: Plan) {
  findKey.mockReset();
  const { db, m, transactions } = fakeDb();
  const packages = {
    insert: jest.fn(async (_m: EntityManager, _p: unknown) => 41),
    setBatch: jest.fn(async (_m: EntityManager, _id: number, _batchId: number) => undefined),
    find: jest.fn(async (_m: EntityManager, _id: number): Promise<unknown> => undefined),
    ofBatch: jest.fn(async (_m: EntityManager, _batchId: number): Promise<unknown> => undefined),
    list: jest.fn(async () => []),
    line: jest.fn(async (_m: EntityManager, _id: number): Promise<{ id: number; batch_id: number | null; created_at: string }[]> => []),
  };
  const batchRows = { lastCreatedBy: jest.fn(async (_m: EntityManager, _at: string): Promise<number | null> => null) };
  const batches = {
    get: jest.fn(async (id: number) => batch(id, 'done')),
    /** as BatchesService.create does: `before`, the batch, `after`, in its transaction */
    create: jest.fn(async (_dto: unknown, _caller: unknown, _key: string, alongside: Alongside) => {
      const { title } = await alongside.before(m);
      await alongside.after(m, 12);
      return { view: { ...batch(12, 'queued'), title }, replayed: false };
    }),
  };
  const planner = { plan: jest.fn(async () => ({ commands: [] })) };
  const settings = { get: () => DEFAULT_SETTINGS };
  const clock = { now: () => new Date(NOW), iso: () => NOW };
  const catalogues = { get: jest.fn(async () => null) };
  const commands = { currentResolutions: jest.fn(async (_m: EntityManager) => new Map<string, string>()) };
  const notes = {
    keyOf: jest.fn(async (_m: EntityManager, key: string) => key),
    write: jest.fn(async (_m: EntityManager, _key: string, _values: unknown, _source: string, _now: string) => undefined),
  };
  const service = new PackagesService(db, batches as never, planner as never, settings as never, clock as never, catalogues as never, packages as never, { find: findKey } as never, commands as never, notes as never, {} as never, batchRows as never, {} as never, {} as never);
  jest.spyOn(service as unknown as { compute: () => Promise<Plan> }, 'compute').mockResolvedValue(planned);
  return { service, packages, batches, batchRows, planner, notes, m, transactions };
}

describe('PackagesService.apply', () => {
  it('no file at all: 422, nothing read or written', async () => {
    const { service, packages, batches } = make(plan(1));
    await expect(service.apply({}, CALLER)).rejects.toBeInstanceOf(ValidationFailedError);
    expect(findKey).not.toHaveBeenCalled();
    expect(packages.insert).not.toHaveBeenCalled();
    expect(batches.create).not.toHaveBeenCalled();
  });

  it('Jira already matches: the package is stored (with its notes) in one transaction, nothing is submitted', async () => {
    const { service, packages, batches, notes, m, transactions } = make(plan(0));
    const answer = await service.apply({ ...FILES, notes: NOTES }, CALLER, 'спринт 5');
    expect(answer).toMatchObject({ package: { id: 41, name: 'спринт 5', created_at: NOW, batch_id: null }, batch: null, replayed: false });
    expect(answer.plan?.empty).toBe(true);
    expect(packages.insert).toHaveBeenCalledWith(m, { name: 'спринт 5', files: { issues: ISSUES.toString('utf8'), notes: NOTES.toString('utf8') }, createdAt: NOW, appliedFrom: null });
    expect(notes.write).toHaveBeenCalledWith(m, 'AURORA-1', { fact_status: 'в работе', comment: 'ждём отчёт' }, 'import', NOW);
    expect(batches.create).not.toHaveBeenCalled();
    expect(transactions).toEqual({ opened: 1, committed: 1 });
  });

  it('a plan: package and batch in the create transaction, titled with the package id, under the files\' idempotency key', async () => {
    const { service, packages, batches, m } = make(plan(2));
    const answer = await service.apply(FILES, CALLER, 'спринт 5');
    const [dto, caller, key] = batches.create.mock.calls[0];
    expect(dto).toEqual({ title: 'Пакет планирования «спринт 5»', commands: [command('AURORA-1'), command('AURORA-2')].map(({ type, params }) => ({ type, params })) });
    expect(caller).toBe(CALLER);
    expect(key).toBe(`package:${HASH}`);
    expect(packages.setBatch).toHaveBeenCalledWith(m, 41, 12);
    expect(answer).toMatchObject({ package: { id: 41, batch_id: 12 }, batch: { id: 12, title: 'Пакет планирования #41 «спринт 5»' }, replayed: false });
  });

  it.each<[string, number, number]>([
    ['at the limit', 1000, 1],
    ['over the limit', 1001, 0],
  ])('a plan of %s (%i commands): submitted %i times', async (_, commands, submitted) => {
    const { service, batches, packages } = make(plan(commands));
    const applying = service.apply(FILES, CALLER);
    if (submitted) await applying;
    else await expect(applying).rejects.toThrow(/1001 команд.*не больше 1000/);
    expect(batches.create).toHaveBeenCalledTimes(submitted);
    expect(packages.insert).toHaveBeenCalledTimes(submitted);
  });

  /** [what the key chain holds: key suffix → batch id, the batches' statuses, the key the create gets, or the batch answered] */
  it.each<[string, Record<string, number>, Record<number, string>, { key: string } | { answered: number }]>([
    ['never applied', {}, {}, { key: '' }],
    ['its batch still queued: that batch answered', { '': 5 }, { 5: 'queued' }, { answered: 5 }],
    ['its batch awaiting approval: answered', { '': 5 }, { 5: 'awaiting_approval' }, { answered: 5 }],
    ['its batch done: a new key after it', { '': 5 }, { 5: 'done' }, { key: ':5' }],
    ['its batch cancelled: a new key after it', { '': 5 }, { 5: 'cancelled' }, { key: ':5' }],
    ['applied twice, the second still running: answered', { '': 5, ':5': 9 }, { 5: 'done', 9: 'running' }, { answered: 9 }],
    ['applied twice, both finished: the chain goes on', { '': 5, ':5': 9 }, { 5: 'done', 9: 'done' }, { key: ':9' }],
  ])('idempotency chain — %s', async (_, chain, statuses, expected) => {
    const { service, batches, packages } = make(plan(1));
    findKey.mockImplementation(async (_m, key) => {
      const suffix = key.slice(`package:${HASH}`.length);
      return chain[suffix] === undefined ? undefined : { body_hash: 'h', batch_id: chain[suffix] };
    });
    batches.get.mockImplementation(async (id) => batch(id, statuses[id]));
    packages.ofBatch.mockImplementation(async (_m, id) => ({ id: 30 + id, name: 'прежний', files: {}, created_at: NOW, batch_id: id }));
    const answer = await service.apply(FILES, CALLER);
    if ('answered' in expected) {
      expect(answer).toMatchObject({ replayed: true, batch: { id: expected.answered }, package: { id: 30 + expected.answered } });
      expect(batches.create).not.toHaveBeenCalled();
    } else {
      expect(batches.create.mock.calls[0][2]).toBe(`package:${HASH}${expected.key}`);
    }
  });

  it('another apply of the same files won the race: its package and batch are answered', async () => {
    const { service, batches, packages } = make(plan(1));
    batches.create.mockResolvedValueOnce({ view: batch(77, 'queued'), replayed: true });
    packages.ofBatch.mockResolvedValueOnce({ id: 70, name: 'тот же', files: {}, created_at: NOW, batch_id: 77 });
    const answer = await service.apply(FILES, CALLER);
    expect(answer).toMatchObject({ replayed: true, package: { id: 70, batch_id: 77 }, batch: { id: 77 }, plan: null });
  });
});

describe('PackagesService.drift and the stored package', () => {
  const stored = (batchId: number | null) => ({ id: 3, name: 'спринт', files: { issues: ISSUES.toString('utf8') }, created_at: NOW, batch_id: batchId });
  const difference = { key: 'AURORA-1', jira_key: 'AURORA-1', row: 2, field: 'duedate', wanted: '2026-12-01', actual: '2026-12-20' };

  it.each<[string, Partial<Plan>, number | null, boolean, string | null]>([
    ['nothing differs, never submitted', {}, null, true, null],
    ['nothing differs, its batch done', {}, 5, true, 'done'],
    ['a field moved away', { differences: [difference] } as unknown as Partial<Plan>, 5, false, 'done'],
    ['a link is missing', { links: [{ row: 2, source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks', state: 'missing' }] } as unknown as Partial<Plan>, 5, false, 'done'],
  ])('%s', async (_, over, batchId, matches, batchStatus) => {
    const { service, packages } = make(plan(0, over));
    packages.find.mockResolvedValueOnce(stored(batchId));
    const answer = await service.drift(3);
    expect(answer).toMatchObject({ package: { id: 3, batch_id: batchId }, matches, batch_status: batchStatus });
  });

  it('applied again: the new package names the stored one it applies again, with and without a batch', async () => {
    for (const commands of [1, 0]) {
      const { service, packages } = make(plan(commands));
      packages.find.mockResolvedValueOnce(stored(5));
      const answer = await service.applyStored(3, CALLER);
      expect(packages.insert).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ name: 'спринт', appliedFrom: 3 }));
      expect(answer.package).toMatchObject({ id: 41, applied_from: 3, batch_id: commands ? 12 : null });
    }
  });

  const T1 = '2026-12-01T09:00:00.000Z';
  it.each<[string, [number | null, string][], number | null, { upTo: number; own: number[] }]>([
    ['applied from files, with a batch: up to it, and it', [[5, T1]], null, { upTo: 5, own: [5] }],
    ['applied from files when Jira matched: up to the newest batch then', [[null, T1]], 4, { upTo: 4, own: [] }],
    ['… and no batch at all then', [[null, T1]], null, { upTo: 0, own: [] }],
    ['applied again twice: up to the first batch, and every batch of the line', [[5, T1], [null, NOW], [9, NOW]], null, { upTo: 5, own: [5, 9] }],
    ['applied again from one Jira matched: up to the newest batch when the first was stored', [[null, T1], [9, NOW]], 4, { upTo: 4, own: [9] }],
  ])("a stored package's temp keys mean its line's batches (decision 1422): %s", async (_, line, newest, expected) => {
    const { service, packages, batchRows, m } = make(plan(0));
    packages.line.mockResolvedValueOnce(line.map(([batch_id, created_at], i) => ({ id: i + 1, batch_id, created_at })));
    batchRows.lastCreatedBy.mockResolvedValueOnce(newest);
    const lineOf = (service as unknown as { lineOf: (m: EntityManager, s: unknown) => Promise<unknown> }).lineOf.bind(service);
    expect(await lineOf(m, { ...stored(line.at(-1)![0]), id: line.length })).toEqual(expected);
    expect(packages.line).toHaveBeenCalledWith(m, line.length);
    if (line[0][0] === null) expect(batchRows.lastCreatedBy).toHaveBeenCalledWith(m, T1);
    else expect(batchRows.lastCreatedBy).not.toHaveBeenCalled();
  });

  it.each([['drift'], ['get'], ['planStored'], ['applyStored']] as const)('%s of a package that is not there: 404', async (method) => {
    const { service } = make(plan(0));
    await expect((service[method] as (id: number, caller?: unknown) => Promise<unknown>)(99, CALLER)).rejects.toBeInstanceOf(NotFoundError);
  });
});
