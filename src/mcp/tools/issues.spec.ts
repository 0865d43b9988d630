import { describe, expect, it } from '@jest/globals';
import type { HubApi } from '../hub-api.js';
import { ISSUE_TOOLS } from './issues.js';

/** A hub whose mirror holds no issue at all (a new hub, before its first refresh). */
const empty = { listIssues: async () => ({ items: [], total: 0 }), linkTypes: async () => ({}) } as unknown as HubApi;
const search = (args: Record<string, unknown>) =>
  ISSUE_TOOLS.find((t) => t.name === 'search_issues')!.run(empty, { limit: 20, offset: 0, ...args } as never, { canSubmit: true, dashboard: 'http://hub' });

describe('search_issues finding nothing', () => {
  it('without a filter says the mirror is empty and how to fill it, naming no filter it was not given', async () => {
    const { text } = await search({});
    expect(text).not.toMatch(/фильтр|keys/);
    expect(text).toMatch(/^В зеркале хаба нет ни одной задачи/);
    expect(text).toContain('refresh');
  });

  it('with a filter names the filter, and with keys alone advises a refresh of them', async () => {
    expect((await search({ status: 'В работе' })).text).toMatch(/не подходит под фильтр \(status «В работе»\)/);
    expect((await search({ keys: ['A-1'] })).text).toMatch(/^В зеркале таких задач нет/);
  });
});
