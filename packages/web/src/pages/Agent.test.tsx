import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentProvider } from '../components/AgentStrip';
import { fakeFetch, renderWithHub } from '../test/support';
import { AgentPage } from './Agent';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const quiet = {
  online: false,
  last_seen_at: '2026-11-30T10:00:00.000Z',
  agent_version: '1.0.0',
  settings_version: 2,
  settings_stale: true,
  last_jira_call_at: null,
  current_command_id: null,
  rate_limited_24h: 0,
  redelivered: [],
  jira_auth: null,
  jira_auth_failed_since: null,
  // As the hub answered at 10:05; every later GET /agent of this test answers the same.
  warning: 'Агент не выходил на связь уже 5 мин, а в очереди есть команды. Агент работает с настройками версии 2, а текущая версия — 3.',
  current_command: null,
  next_command: null,
};

describe('AgentPage', () => {
  it('«не выходил на связь уже …» counts up on the page’s clock while the page stays open, as «последний раз … назад» does', async () => {
    // The page's clock (setInterval) and Date are fake; setTimeout stays real for findBy.
    vi.useFakeTimers({ now: Date.parse('2026-11-30T10:05:00.000Z'), toFake: ['setInterval', 'clearInterval', 'Date'] });
    fakeFetch({ 'GET /agent': quiet });
    renderWithHub(
      <AgentProvider>
        <AgentPage />
      </AgentProvider>,
    );
    const warning = await screen.findByText(/не выходил на связь/);
    expect(warning.textContent).toBe('Агент не выходил на связь уже 5 мин, а в очереди есть команды. Агент работает с настройками версии 2, а текущая версия — 3.');
    expect(screen.getByText(/^последний раз/).textContent).toMatch(/^последний раз 5 мин назад/);

    act(() => vi.advanceTimersByTime(60_000));
    expect(warning.textContent).toBe('Агент не выходил на связь уже 6 мин, а в очереди есть команды. Агент работает с настройками версии 2, а текущая версия — 3.');
    expect(screen.getByText(/^последний раз/).textContent).toMatch(/^последний раз 6 мин назад/);

    act(() => vi.advanceTimersByTime(55 * 60_000));
    expect(warning.textContent).toMatch(/^Агент не выходил на связь уже 1 ч 1 мин, а в очереди есть команды\./);
  });

  it('an agent that never came shows the hub’s words as they are', async () => {
    fakeFetch({ 'GET /agent': { ...quiet, last_seen_at: null, warning: 'Агент ещё ни разу не выходил на связь, а в очереди есть команды.' } });
    renderWithHub(
      <AgentProvider>
        <AgentPage />
      </AgentProvider>,
    );
    expect(await screen.findByText('Агент ещё ни разу не выходил на связь, а в очереди есть команды.')).toBeTruthy();
  });
});
