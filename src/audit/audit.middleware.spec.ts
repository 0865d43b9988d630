import { describe, expect, it } from '@jest/globals';
import { batchTouched } from './audit.middleware.js';
import { AUDIT_ARGUMENTS_CAP, auditArguments } from './audit.service.js';

describe('batchTouched: the batch a REST call of the assistant touched', () => {
  it.each<[string, unknown, number | null]>([
    ['/batches/12', { id: 12 }, 12],
    ['/batches/12/cancel', null, 12],
    ['/batches', { id: 7, title: 't' }, 7],
    ['/batches/plan', { title: 't' }, null],
    ['/commands/5/cancel', { id: 5, batch_id: 3 }, 3],
    ['/commands/5/retry', { id: 9, title: 'Повтор' }, 9],
    ['/issues', [], null],
    ['/notes/A-1', { key: 'A-1' }, null],
    // a call that made a batch touched that one: a revert (the reverted batch is in the path), a package's apply
    ['/batches/12/revert', { revert_of: 12, batch: { id: 15 } }, 15],
    ['/batches/12/revert', { revert_of: 12, batch: null }, 12],
    ['/packages/apply', { package: { id: 3 }, batch: { id: 21 } }, 21],
    ['/packages/apply', { package: { id: 3 }, batch: null }, null],
  ])('%s → %s', (path, answer, batch) => {
    expect(batchTouched(path, answer)).toBe(batch);
  });
});

describe('auditArguments', () => {
  it('keeps small arguments as JSON and cuts long ones with a note', () => {
    expect(auditArguments({ title: 'План' })).toBe('{"title":"План"}');
    expect(auditArguments(undefined)).toBe('{}');
    const long = auditArguments({ body: 'я'.repeat(10_000) });
    expect(long.length).toBeLessThan(AUDIT_ARGUMENTS_CAP + 40);
    expect(long).toMatch(/… \[обрезано: ещё \d+ символов\]$/);
  });
});
