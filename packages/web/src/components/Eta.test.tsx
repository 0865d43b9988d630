import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, renderWithHub } from '../test/support';
import { AgentProvider } from './AgentStrip';
import { Eta, timed } from './Eta';

afterEach(() => vi.unstubAllGlobals());

const agent = (online: boolean) => ({ online, last_seen_at: null, agent_version: null, settings_version: null, settings_stale: false, last_jira_call_at: null, current_command_id: null, rate_limited_24h: 0, redelivered: [], jira_auth: null, jira_auth_failed_since: null, warning: null, current_command: null, next_command: null });

describe('Eta', () => {
  it('a queued batch with no pauses left is stuck while the agent is away: said so, not «—»', async () => {
    fakeFetch({ 'GET /agent': agent(false) });
    renderWithHub(
      <AgentProvider>
        <Eta batch={timed({ status: 'queued', remaining_seconds: 0 })} />
      </AgentProvider>,
    );
    expect(await screen.findByText('стоит: агент не на связи')).toBeTruthy();
  });

  it('with the agent on line, no time left is «—»; a finished batch is «—» whatever the agent', async () => {
    fakeFetch({ 'GET /agent': agent(true) });
    const { container } = renderWithHub(
      <AgentProvider>
        <Eta batch={timed({ status: 'queued', remaining_seconds: 0 })} />
        <Eta batch={timed({ status: 'done', remaining_seconds: 0 })} />
      </AgentProvider>,
    );
    await vi.waitFor(() => expect(container.textContent).toBe('——'));
  });
});
