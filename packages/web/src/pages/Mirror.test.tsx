import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useRoute } from '../router';
import { fakeFetch, renderWithHub } from '../test/support';
import { MirrorPage, sprintOf } from './Mirror';

describe("the mirror page's sprint (decision 1434)", () => {
  it.each([
    ['no sprint', { sprint: null, sprint_state: null }, null],
    ['an open sprint', { sprint: 'Спринт 2', sprint_state: 'active' as const }, 'Спринт 2'],
    ['a future sprint', { sprint: 'Спринт 3', sprint_state: 'future' as const }, 'Спринт 3'],
    ['a state an older agent did not report', { sprint: 'Спринт 2', sprint_state: null }, 'Спринт 2'],
    ['a closed sprint only: the issue is in the backlog', { sprint: 'Спринт 0', sprint_state: 'closed' as const }, 'Спринт 0 (закрыт)'],
  ])('%s', (_, issue, expected) => {
    expect(sprintOf(issue)).toBe(expected);
  });
});

describe('the mirror page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    window.location.hash = '';
  });

  it('keeps the filters of the address when an issue card opens and closes', async () => {
    window.location.hash = '#/mirror?status=done';
    const done = { key: 'AURORA-3', summary: 'Выгрузить данные', status: 'Done', sprint: null, sprint_state: null };
    const calls = fakeFetch({
      'GET /issues/facets': { total: 2, statuses: [{ value: 'Done', n: 1 }, { value: 'To Do', n: 1 }], sprints: [], last_synced_at: null },
      'GET /issues': (_: unknown, url: string) => ({ body: url.includes('status=Done') ? [done] : [done, { ...done, key: 'AURORA-1', status: 'To Do' }] }),
      'GET /issues/AURORA-3': { ...done, issue_type: 'Task', assignee: null, duedate: null, synced_at: null, links_out: [], links_in: [], note: null },
      'GET /issues/AURORA-3/changes': [],
    });
    const Page = () => {
      const route = useRoute();
      return <MirrorPage issueKey={route.id} />;
    };
    renderWithHub(<Page />);
    const link = await screen.findByRole('link', { name: 'AURORA-3' });
    expect(screen.queryByText('AURORA-1')).toBeNull();
    fireEvent.click(link.closest('tr')!);
    await screen.findByRole('article', { name: 'Задача AURORA-3' });
    expect(window.location.hash).toBe('#/mirror/AURORA-3?status=done');
    expect(screen.queryByText('AURORA-1')).toBeNull(); // the list beside the card is still the filtered one
    expect(within(screen.getByRole('article')).getByRole('link', { name: 'Закрыть' }).getAttribute('href')).toBe('#/mirror?status=done');
    expect(calls.filter((c) => c.url.startsWith('/issues?')).every((c) => c.url.includes('status=Done'))).toBe(true);
  });

  it('shows the card of the issue opened last when the answer for the one left comes after it', async () => {
    window.location.hash = '#/mirror/AURORA-1';
    const issue = (key: string) => ({ key, summary: `Тема ${key}`, status: 'To Do', sprint: null, sprint_state: null, issue_type: 'Task', assignee: null, duedate: null, synced_at: null, links_out: [], links_in: [], note: null });
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    let answerFirst: () => void = () => {};
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        if (url === '/issues/AURORA-1') return firstAnswered.then(() => json(issue('AURORA-1')));
        if (url === '/issues/AURORA-2') return json(issue('AURORA-2'));
        if (url === '/issues/facets') return json({ total: 2, statuses: [], sprints: [], last_synced_at: null });
        if (url.endsWith('/changes')) return json([]);
        return json([issue('AURORA-1'), issue('AURORA-2')]);
      }),
    );
    const Page = () => {
      const route = useRoute();
      return <MirrorPage issueKey={route.id} />;
    };
    renderWithHub(<Page />);
    fireEvent.click((await screen.findByRole('link', { name: 'AURORA-2' })).closest('tr')!); // before AURORA-1's card came
    await screen.findByRole('article', { name: 'Задача AURORA-2' });
    await act(async () => answerFirst());
    await waitFor(() => expect(screen.getByRole('article').getAttribute('aria-label')).toBe('Задача AURORA-2'));
    expect(screen.queryByText('Тема AURORA-1', { selector: 'h2 *' })).toBeNull();
  });

  it('shows the list of the search made last when the answer for an earlier one comes after it', async () => {
    window.location.hash = '#/mirror?q=first';
    const row = (key: string) => ({ key, summary: `Тема ${key}`, status: 'To Do', sprint: null, sprint_state: null });
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    let answerFirst: () => void = () => {};
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    let firstRead: Promise<unknown> | null = null; // the first answer's body, once the page reads it
    const first = () => {
      const res = json([row('AURORA-1')]);
      const read = res.json.bind(res);
      res.json = () => (firstRead = read());
      return res;
    };
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/issues/facets') return json({ total: 2, statuses: [], sprints: [], last_synced_at: null });
      if (url.includes('q=first')) return firstAnswered.then(first);
      return json([row('AURORA-2')]);
    });
    vi.stubGlobal('fetch', fetch);
    renderWithHub(<MirrorPage />);
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).includes('q=first'))).toBe(true));
    await act(async () => {
      window.location.hash = '#/mirror?q=second'; // Forward, before the first search answered
    });
    await screen.findByRole('link', { name: 'AURORA-2' });
    await act(async () => answerFirst());
    await waitFor(() => expect(firstRead).not.toBeNull());
    await act(async () => {
      await firstRead;
      await new Promise((resolve) => setTimeout(resolve, 0)); // the page's own awaits after the body are microtasks: all done by now
    });
    expect((screen.getByLabelText('Текст') as HTMLInputElement).value).toBe('second');
    expect(screen.queryByRole('link', { name: 'AURORA-1' })).toBeNull();
    expect(screen.getByRole('link', { name: 'AURORA-2' })).toBeTruthy();
  });

  it('says nothing of a key the mirror lacks about the next key while its card loads', async () => {
    window.location.hash = '#/mirror/AURORA-404';
    fakeFetch({
      'GET /issues/facets': { total: 1, statuses: [], sprints: [], last_synced_at: null },
      'GET /issues': [{ key: 'AURORA-1', summary: 'Эпик', status: 'To Do', sprint: null, sprint_state: null }],
      'GET /issues/AURORA-404': () => ({ status: 404, body: { error: 'not_found', detail: 'задачи AURORA-404 нет в зеркале' } }),
    });
    const Page = () => {
      const route = useRoute();
      return <MirrorPage issueKey={route.id} />;
    };
    renderWithHub(<Page />);
    await screen.findByText(/Задачи AURORA-404 нет в зеркале/);
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => {}))); // AURORA-1's card never comes
    fireEvent.click((await screen.findByRole('link', { name: 'AURORA-1' })).closest('tr')!);
    await waitFor(() => expect(window.location.hash).toBe('#/mirror/AURORA-1'));
    await waitFor(() => expect(screen.queryByText(/нет в зеркале/)).toBeNull());
  });

  it("names the card's assignee as the catalogue does, not by account id", async () => {
    window.location.hash = '#/mirror/AURORA-1';
    const anna = '557058:f0000000-0000-0000-0000-000000000003';
    fakeFetch({
      'GET /issues/facets': { total: 1, statuses: [], sprints: [], last_synced_at: null },
      'GET /issues': [],
      'GET /issues/AURORA-1': { key: 'AURORA-1', summary: 'Эпик', status: 'To Do', sprint: null, sprint_state: null, issue_type: 'Epic', assignee: anna, duedate: null, synced_at: null, links_out: [], links_in: [], note: null },
      'GET /issues/AURORA-1/changes': [],
      'GET /catalogue': { catalogue: { assignable: [{ id: anna, display_name: 'Анна Петрова' }] } },
    });
    renderWithHub(<MirrorPage issueKey="AURORA-1" />);
    const card = await screen.findByRole('article', { name: 'Задача AURORA-1' });
    expect(await within(card).findByText('Анна Петрова')).toBeTruthy();
  });

  it('a card of a key the mirror lacks says so in words and can be closed, keeping the filters', async () => {
    window.location.hash = '#/mirror/AURORA-404?status=done';
    fakeFetch({
      'GET /issues/facets': { total: 1, statuses: [{ value: 'Done', n: 1 }], sprints: [], last_synced_at: null },
      'GET /issues': [],
      'GET /issues/AURORA-404': () => ({ status: 404, body: { error: 'not_found', detail: 'задачи AURORA-404 нет в зеркале; её можно прочитать командой refresh' } }),
    });
    renderWithHub(<MirrorPage issueKey="AURORA-404" />);
    const card = await screen.findByRole('article', { name: 'Задача AURORA-404' });
    expect(await within(card).findByText(/Задачи AURORA-404 нет в зеркале/)).toBeTruthy();
    expect(card.textContent).not.toContain('refresh');
    expect(within(card).getByRole('link', { name: 'Закрыть' }).getAttribute('href')).toBe('#/mirror?status=done');
  });
});
