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

describe('an issue with many links (an epic)', () => {
  const epic = {
    key: 'A-1', summary: 'Эпик', issue_type: 'Epic', synced_at: '2026-12-01T10:00:00.000Z',
    links_out: Array.from({ length: 1200 }, (_, i) => ({ target_key: `A-${i + 2}`, link_type: 'Relates' })),
    links_in: [],
    note: { key: 'A-1', fact_status: 'ждём финансы', comment: null, source: 'api', updated_at: '2026-12-01T10:00:00.000Z' },
  };
  const api = {
    getIssue: async () => epic,
    listIssues: async () => ({ items: [epic], total: 1 }),
    linkTypes: async () => ({ связанные: 'Relates' }),
  } as unknown as HubApi;
  const call = (name: string, args: Record<string, unknown>) => ISSUE_TOOLS.find((t) => t.name === name)!.run(api, args as never, { canSubmit: true, dashboard: 'http://hub' });

  it('get_issue names the first 100 links, how many there are and where all are, and keeps the note after them', async () => {
    const { text } = await call('get_issue', { key: 'A-1' });
    const lines = text.split('\n');
    expect(lines[2]).toMatch(/^Связи: <jira-data>A-1 связанные \(Relates\) A-2; .* A-1 связанные \(Relates\) A-101<\/jira-data> и ещё 1100 \(всего 1200; все — GET \/issues\/A-1 в REST хаба\)\.$/);
    expect(lines[3]).toBe('Заметка A-1: факт. статус <jira-data>ждём финансы</jira-data>; комментарий — (источник api, изменена 2026-12-01T10:00:00.000Z).');
  });

  it('search_issues names the first 10 links of each issue found', async () => {
    const { text } = await call('search_issues', { keys: ['A-1'], limit: 20, offset: 0 });
    expect(text.split('\n')[2]).toMatch(/; связи: <jira-data>(A-1 связанные \(Relates\) A-\d+; ){9}A-1 связанные \(Relates\) A-11<\/jira-data> и ещё 1190$/);
  });
});
