/** Decision 1438: every view writes a batch's or command's number «#12», as the hub's own texts and titles do — never «№12». */
import { fireEvent, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentProvider } from './components/AgentStrip';
import { AgentPage } from './pages/Agent';
import { AuditPage } from './pages/Audit';
import { BatchPage } from './pages/Batch';
import { PackagesPage } from './pages/Packages';
import { QueuePage } from './pages/Queue';
import { fakeFetch, renderWithHub, summary } from './test/support';

afterEach(() => vi.unstubAllGlobals());

const command = (id: number, extra: object = {}) => ({
  id,
  batch_id: 12,
  seq: 1,
  type: 'ensure_fields',
  params: { key: 'AURORA-1', fields: { duedate: '2026-12-02' } },
  status: 'failed',
  deliveries: 2,
  pause_seconds: null,
  claimed_at: '2026-11-30T10:00:00.000Z',
  finished_at: '2026-11-30T10:01:00.000Z',
  result: null,
  error: 'HTTP 400',
  jira_calls: 1,
  rate_limited: 0,
  retry_of: 40,
  history: [{ n: 1, handed_out_at: '2026-11-30T10:00:00.000Z', agent_version: '1.0.0', outcome: 'failed', reported_at: '2026-11-30T10:01:00.000Z', jira_calls: 1 }],
  ...extra,
});

const agent = {
  online: true,
  last_seen_at: '2026-11-30T10:00:00.000Z',
  agent_version: '1.0.0',
  settings_version: 3,
  settings_stale: false,
  last_jira_call_at: null,
  current_command_id: 41,
  rate_limited_24h: 0,
  redelivered: [{ id: 43, type: 'ensure_fields', claimed_at: '2026-11-30T10:00:00.000Z', deliveries: 3 }],
  jira_auth: null,
  jira_auth_failed_since: null,
  warning: null,
  current_command: { id: 41, batch_id: 12, seq: 1, type: 'refresh', params: { keys: ['AURORA-1'] }, claimed_at: '2026-11-30T10:00:00.000Z', deliveries: 1, pause_seconds: null, pause_until: null },
  next_command: { id: 42, batch_id: 13, seq: 2, type: 'refresh', params: { keys: ['AURORA-2'] }, starts_at: null },
};

/** Every text a person can read or hear on the page: its text, and the labels, titles and captions in attributes. */
function everything(container: HTMLElement): string {
  const attributes = [...container.querySelectorAll('*')].flatMap((e) => ['aria-label', 'title', 'data-label', 'placeholder'].map((a) => e.getAttribute(a) ?? ''));
  return [container.textContent ?? '', ...attributes].join('\n');
}

async function numbersOf(ui: ReactNode, shown: () => Promise<unknown>): Promise<string> {
  const { container } = renderWithHub(ui);
  await shown();
  return everything(container);
}

describe('numbers on the dashboard', () => {
  const views: [string, () => Promise<string>][] = [
    [
      'a batch page (a revert, with a retried command and its deliveries open)',
      async () => {
        fakeFetch({ 'GET /batches/12': { ...summary(12, { title: 'Откат пакета #5', status: 'done', revert_of: 5, counts: { failed: 1 } }), commands: [command(44)] } });
        const { container } = renderWithHub(
          <AgentProvider>
            <BatchPage id={12} />
          </AgentProvider>,
        );
        fireEvent.click(await screen.findByRole('button', { name: /^История выдач команды/ }));
        await screen.findByText('1.0.0');
        return everything(container);
      },
    ],
    [
      'the queue',
      () => {
        fakeFetch({ 'GET /batches': [summary(12, { title: 'Сроки' })] });
        return numbersOf(<QueuePage />, () => screen.findByText('Сроки'));
      },
    ],
    [
      'the queue’s failed commands',
      () => {
        window.location.hash = '#/queue?tab=failed';
        fakeFetch({ 'GET /commands': [{ ...command(44), batch_title: 'Сроки' }], 'GET /batches': [] });
        return numbersOf(<QueuePage />, () => screen.findByText('HTTP 400'));
      },
    ],
    [
      'the agent page',
      () => {
        fakeFetch({ 'GET /agent': agent });
        return numbersOf(
          <AgentProvider>
            <AgentPage />
          </AgentProvider>,
          () => screen.findByText('Выданы повторно'),
        );
      },
    ],
    [
      'the planning packages applied',
      () => {
        fakeFetch({ 'GET /packages': [{ id: 3, name: 'Спринт 2', created_at: '2026-11-30T10:00:00.000Z', batch_id: 12, applied_from: 2 }] });
        return numbersOf(<PackagesPage />, () => screen.findByText('Спринт 2'));
      },
    ],
    [
      'the assistant’s calls',
      () => {
        fakeFetch({ 'GET /audit': [{ id: 1, at: '2026-11-30T10:00:00.000Z', channel: 'mcp', tool: 'submit_batch', route: null, arguments: '{}', outcome: 'ok', status: null, detail: null, batch_id: 12 }] });
        return numbersOf(<AuditPage />, () => screen.findByRole('link', { name: '#12' }));
      },
    ],
  ];

  it.each(views)('%s writes them «#12», never «№12»', async (_, render) => {
    const text = await render();
    expect(text).toMatch(/#\d/);
    expect(text).not.toContain('№');
  });
});
