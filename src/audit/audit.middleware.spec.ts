import { describe, expect, it } from '@jest/globals';
import { batchTouched, commandInPath, readsOnly } from './audit.middleware.js';
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

describe('commandInPath: the command a refused call was about, whose batch the audit looks up', () => {
  it.each<[string, number | null]>([
    ['/commands/5/retry', 5],
    ['/commands/5/cancel', 5],
    ['/commands/5', 5],
    ['/commands/5/', 5],
    ['/COMMANDS/7/retry', 7],
    ['/commands', null],
    ['/commands/abc/retry', null],
    ['/commands/99999999999999999999/retry', null], // no safe integer: no command
    ['/batches/5/cancel', null],
    ['/agent/commands/5/result', null],
  ])('%s → %s', (path, command) => {
    expect(commandInPath(path)).toBe(command);
  });
});

describe('readsOnly: a call that changes nothing, left to the tool call\'s record when made for a tool', () => {
  it.each<[string, string, Record<string, unknown>, boolean]>([
    ['GET', '/batches/3', {}, true],
    ['POST', '/batches/plan', {}, true],
    ['POST', '/packages/plan', {}, true],
    ['POST', '/packages/4/plan', {}, true],
    ['POST', '/batches/3/revert', { dry_run: 'true' }, true],
    ['POST', '/batches/3/revert', {}, false],
    ['POST', '/batches/3/revert', { dry_run: 'false' }, false],
    ['POST', '/batches', {}, false],
    ['POST', '/packages/apply', {}, false],
    ['POST', '/import', {}, false],
    ['PUT', '/notes/A-1', {}, false],
  ])('%s %s %j → %s', (method, path, query, reads) => {
    expect(readsOnly(method, path, query)).toBe(reads);
  });

  it.each<[Record<string, unknown> | undefined, boolean]>([
    [{ links: [{}] }, true], // compare_package: links compared with the mirror, nothing written
    [{ notes: [{}] }, false],
    [{ notes: [{}], links: [{}] }, false],
    [undefined, false], // no multipart read (refused before): counted as the write it asked to be
  ])('POST /import with the files %j → %s', (files, reads) => {
    expect(readsOnly('POST', '/import', {}, files)).toBe(reads);
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
