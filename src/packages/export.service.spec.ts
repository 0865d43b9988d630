/**
 * ExportService against mocked repositories: an export whose issues.csv or links.csv would hold more rows
 * than plan and apply read is refused before anything is written; one row fewer is written.
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { fakeDb } from '../../test/support/unit-of-work.js';
import { ValidationFailedError } from '../common/index.js';
import { MAX_PACKAGE_RECORDS } from '../import/index.js';
import { ExportService } from './export.service.js';

const issue = (n: number) => ({ key: `A-${n}`, summary: 's', issue_type: 'Task', status: 'To Do', sprint: null, assignee: null, priority: null, duedate: null, labels: [], parent: null, board: null });

function make(issues: number, links: number) {
  const { db } = fakeDb();
  const mirror = {
    exportIssues: jest.fn(async (_m: EntityManager, _filter: unknown) => Array.from({ length: issues }, (_, i) => issue(i + 1))),
    linksFrom: jest.fn(async (_m: EntityManager, _keys: string[]) => Array.from({ length: links }, (_, i) => ({ source_key: 'A-1', target_key: `B-${i + 1}`, link_type: 'Blocks' }))),
    notesOf: jest.fn(async () => new Map()),
  };
  const catalogues = { get: jest.fn(async () => null) };
  return { service: new ExportService(db, mirror as never, catalogues as never), mirror };
}

describe('ExportService.export: no file longer than plan and apply read', () => {
  const most = MAX_PACKAGE_RECORDS - 1; // the header is a record too

  it.each([
    ['issues', most + 1, 0, `Задач по JQL «project = A» в зеркале — ${most + 1}, а в issues.csv пакета их может быть не больше ${most}`],
    ['links', 1, most + 1, `Связей по JQL «project = A» в зеркале — ${most + 1}, а в links.csv пакета их может быть не больше ${most}`],
  ])('too many %s → 422 saying how many and what to do', async (_, issues, links, words) => {
    const { service } = make(issues, links);
    const refused = service.export('project = A');
    await expect(refused).rejects.toBeInstanceOf(ValidationFailedError);
    await expect(refused).rejects.toThrow(words);
    await expect(refused).rejects.toThrow('сузьте JQL');
  });

  it('exactly as many rows as a file may hold: written', async () => {
    const { service } = make(2, most);
    const out = await service.export('project = A');
    expect(out).toMatchObject({ issues: 2, links: most });
    expect(out.files['links.csv'].split('\r\n').filter(Boolean)).toHaveLength(MAX_PACKAGE_RECORDS);
  });
});
