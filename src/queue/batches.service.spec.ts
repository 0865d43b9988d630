/**
 * BatchesService's rules against mocked repositories (a fake unit of work, no database): idempotency of
 * a create (SPEC 15.4) and approval (15.2) — who waits for a person, what approving or rejecting a batch
 * that does not wait answers, and that nothing is written then. Each rule is a table of cases.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { fakeDb } from '../../test/support/unit-of-work.js';
import type { Caller } from '../common/index.js';
import { ConflictError, IdempotencyMismatchError } from '../common/index.js';
import { DEFAULT_SETTINGS } from '../settings/index.js';
import { approvedWhen, BatchesService } from './batches.service.js';
import type { CreateBatchDto } from './dto/create-batch.dto.js';
import { bodyHash } from './idempotency.repository.js';
import type { BatchRow } from './rows.js';

const NOW = '2026-12-02T10:00:00.000Z';
const DTO = { title: 'Сроки', commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20' } }] } as CreateBatchDto;
const caller = (source: Caller['source']): Caller => ({ source, name: source });

function batchRow(over: Partial<BatchRow> = {}): BatchRow {
  return {
    id: 12,
    title: 'Сроки',
    author: 'client',
    created_at: NOW,
    cancelled_at: null,
    source: 'client',
    awaiting_approval_since: null,
    approved_by: null,
    approved_at: null,
    rejected_reason: null,
    runnable_at: NOW,
    queue_pos: 1,
    checks: null,
    revert_of: null,
    ...over,
  } as BatchRow;
}

function make(known?: { body_hash: string; batch_id: number }, stored: BatchRow = batchRow()) {
  const { db, m, transactions } = fakeDb();
  const batches = {
    insert: jest.fn(async (..._: unknown[]) => 12),
    find: jest.fn(async (..._: unknown[]) => stored),
    approve: jest.fn(async (..._: unknown[]) => undefined),
    reject: jest.fn(async (..._: unknown[]) => undefined),
  };
  const idempotency = { find: jest.fn(async (..._: unknown[]) => known), remember: jest.fn(async (..._: unknown[]) => undefined) };
  const views = { batch: jest.fn(async (_m: unknown, b: BatchRow) => ({ id: b.id, title: b.title })) };
  const events = { afterCommit: jest.fn() };
  const issues = { lookup: jest.fn(async (..._: unknown[]) => ({ issue: () => undefined, hasLink: () => false })) };
  const catalogues = { get: jest.fn(async (..._: unknown[]) => null) };
  const commands = { resolvedKey: jest.fn(async (..._: unknown[]) => undefined) };
  const runs = { missingKeys: jest.fn(async (..._: unknown[]) => new Map()) };
  const service = new BatchesService(
    db,
    { get: () => DEFAULT_SETTINGS } as never,
    { iso: () => NOW, now: () => new Date(NOW) } as never,
    events as never,
    catalogues as never,
    batches as never,
    commands as never,
    idempotency as never,
    views as never,
    {} as never,
    runs as never,
    issues as never,
  );
  return { service, batches, idempotency, events, m, transactions };
}

describe('BatchesService.create: idempotency (SPEC 15.4)', () => {
  const hash = bodyHash({ title: DTO.title, author: null, commands: DTO.commands });

  it.each([
    { case: 'a new key', known: undefined, outcome: 'created' },
    { case: 'the same key and body again', known: { body_hash: hash, batch_id: 7 }, outcome: 'replayed' },
    { case: 'the same key with another body', known: { body_hash: 'other', batch_id: 7 }, outcome: 'refused' },
  ])('$case → $outcome', async ({ known, outcome }) => {
    const { service, batches, idempotency, m } = make(known, batchRow({ id: known?.batch_id ?? 12 }));
    const run = service.create(DTO, caller('client'), 'key-1');
    if (outcome === 'refused') {
      await expect(run).rejects.toBeInstanceOf(IdempotencyMismatchError);
    } else {
      const { view, replayed } = await run;
      expect(replayed).toBe(outcome === 'replayed');
      expect(view.id).toBe(known?.batch_id ?? 12);
    }
    expect(batches.insert).toHaveBeenCalledTimes(outcome === 'created' ? 1 : 0);
    expect(idempotency.remember).toHaveBeenCalledTimes(outcome === 'created' ? 1 : 0);
    if (outcome === 'created') expect(idempotency.remember).toHaveBeenCalledWith(m, 'key-1', hash, 12, new Date(NOW));
  });

  it('without a key nothing is looked up or remembered', async () => {
    const { service, idempotency } = make();
    await service.create(DTO, caller('client'));
    expect(idempotency.find).not.toHaveBeenCalled();
    expect(idempotency.remember).not.toHaveBeenCalled();
  });
});

describe('BatchesService: approval (SPEC 15.2)', () => {
  it.each([
    { source: 'client' as const, waits: DEFAULT_SETTINGS.approval.client },
    { source: 'assistant' as const, waits: DEFAULT_SETTINGS.approval.assistant },
  ])("a $source's batch waits for a person: $waits (the approval setting)", async ({ source, waits }) => {
    const { service, batches } = make();
    await service.create(DTO, caller(source));
    expect(batches.insert).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ source, awaitingApproval: waits }), NOW);
  });

  it.each([
    { case: 'waits', row: batchRow({ awaiting_approval_since: NOW, queue_pos: null }), approves: true },
    { case: 'was approved already', row: batchRow({ awaiting_approval_since: NOW, approved_at: NOW, approved_by: 'ivanov' }), approves: false },
    { case: 'was rejected', row: batchRow({ awaiting_approval_since: NOW, cancelled_at: NOW, rejected_reason: 'нет' }), approves: false },
    { case: 'never waited', row: batchRow(), approves: false },
  ])('approve and reject a batch that $case', async ({ row, approves }) => {
    for (const act of ['approve', 'reject'] as const) {
      const { service, batches, events } = make(undefined, row);
      const run = act === 'approve' ? service.approve(row.id, 'petrov') : service.reject(row.id, ' не тот спринт ');
      if (approves) {
        await run;
        if (act === 'approve') expect(batches.approve).toHaveBeenCalledWith(expect.anything(), row.id, 'petrov', NOW);
        else expect(batches.reject).toHaveBeenCalledWith(expect.anything(), row.id, 'не тот спринт', NOW);
        expect(events.afterCommit).toHaveBeenCalledTimes(1);
      } else {
        await expect(run).rejects.toBeInstanceOf(ConflictError);
        expect(batches.approve).not.toHaveBeenCalled();
        expect(batches.reject).not.toHaveBeenCalled();
        expect(events.afterCommit).not.toHaveBeenCalled();
      }
    }
  });
});

describe('approvedWhen: an approval time for a person', () => {
  it.each([
    ['2026-12-02T10:15:22.000Z', '2026-12-02T10:15:22.000Z', '0 с назад, 2026-12-02 10:15:22 UTC'],
    ['2026-12-02T10:15:22.999Z', '2026-12-02T10:16:00.000Z', '37 с назад, 2026-12-02 10:15:22 UTC'],
    ['2026-12-02T10:15:22.000Z', '2026-12-02T12:15:21.000Z', '1 ч назад, 2026-12-02 10:15:22 UTC'],
    ['2026-11-28T23:59:59.000Z', '2026-12-02T10:00:00.000Z', '3 дн назад, 2026-11-28 23:59:59 UTC'],
    // A clock that went back since: no negative age.
    ['2026-12-02T10:15:22.000Z', '2026-12-02T10:15:00.000Z', '0 с назад, 2026-12-02 10:15:22 UTC'],
  ])('approved %s, now %s → %s', (iso, now, expected) => {
    expect(approvedWhen(iso, new Date(now))).toBe(expected);
  });
});

