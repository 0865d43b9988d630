/**
 * SPEC 16.3 end to end over real HTTP: a real hub, the Jira simulator and the reference agent. The token is
 * revoked in the simulator mid-batch: no command fails, the command Jira refused goes back to the queue
 * (its delivery `released`, not counted), the agent pauses and GET /agent warns; once the token is restored
 * the agent goes on by itself and the batch completes.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileJournal, HubClient, JiraClient, runAgent } from '@jira-hub/agent';
import { JiraSimulator } from '@jira-hub/jira-sim';
import { hubCalls, quietServe } from './support/served.js';
import { refreshResult } from './support/app.js';
import { waitFor } from './support/wait.js';

describe('jira-auth', () => {
  type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

  let dir: string;
  let hub: { url: string; close: () => Promise<void> };
  let sim: JiraSimulator;

  const { call } = hubCalls(() => hub.url);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jira-hub-auth-e2e-'));
    hub = await quietServe(dir);
    sim = new JiraSimulator({ seed: { issues: [{ summary: 'Задача для комментариев', issueType: 'Task' }] } }); // AURORA-1
    await sim.start();
  });

  afterEach(async () => {
    await sim.stop();
    await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('the agent when Jira refuses its credentials (SPEC 16.3)', () => {
    it('a token revoked mid-batch fails no command: released, the agent pauses, GET /agent warns; restored, the batch completes', async () => {
      // One second between comments, so that the token is revoked while the batch runs.
      await call('PATCH', '/settings', { pacing: { ensure_comment: 1, refresh: 0 } });
      const commands = Array.from({ length: 5 }, (_, i) => ({ type: 'ensure_comment', params: { key: 'AURORA-1', body: `Комментарий ${i + 1}`, marker: `[hub:auth-${i + 1}]` } }));
      const batch = await call('POST', '/batches', { title: 'Отзыв токена', author: 'e2e', commands });

      const stop = new AbortController();
      const lines: string[] = [];
      const journal = new FileJournal(join(dir, 'journal.jsonl'));
      const agent = runAgent({
        hub: new HubClient({ baseUrl: hub.url, stopSignal: stop.signal, retryBaseMs: 20, retryMaxMs: 200 }),
        jira: new JiraClient({ baseUrl: sim.url, flavor: 'cloud', auth: { kind: 'basic', email: 'bot@example.com', apiToken: 'token' }, minRetryAfterMs: 5, maxRetryAfterMs: 50 }),
        journal,
        project: 'AURORA',
        log: (line) => void lines.push(line),
        stopSignal: stop.signal,
        waitSeconds: 30,
        authRetryBaseMs: 50,
        authRetryMaxMs: 200,
      }).finally(() => journal.close());

      try {
        await waitFor('two comments done', async () => ((await call('GET', `/batches/${batch.id}`)).counts.done >= 2 ? true : undefined));
        sim.revokeCredentials();
        const status = await waitFor('GET /agent warns', async () => {
          const view = await call('GET', '/agent');
          return view.jira_auth === 'failed' ? view : undefined;
        });
        expect(status.warning).toMatch(/^Jira не принимает учётные данные агента с \d{4}-\d{2}-\d{2}T.+ \(HTTP 401\): команды не выполняются и ждут в очереди/);
        expect(status.jira_auth_failed_since).toEqual(expect.any(String));
        const paused = await call('GET', `/batches/${batch.id}`);
        expect(paused.counts.failed ?? 0).toBe(0);
        const released = paused.commands.find((c: Json) => c.history.some((d: Json) => d.outcome === 'released'));
        expect(released).toEqual(expect.objectContaining({ status: 'queued', deliveries: 0 }));
        // Paused: the agent keeps checking /myself and hands itself nothing.
        await waitFor('two failed checks of /myself', () => (sim.requests.filter((r) => r.path === '/rest/api/3/myself' && r.status === 401).length >= 2 ? true : undefined));
        expect((await call('GET', `/batches/${batch.id}`)).counts.queued).toBeGreaterThanOrEqual(1);

        sim.restoreCredentials();
        const done = await waitFor('batch done', async () => {
          const view = await call('GET', `/batches/${batch.id}`);
          return view.status === 'done' ? view : undefined;
        });
        expect(done.commands.map((c: Json) => c.status)).toEqual(['done', 'done', 'done', 'done', 'done', 'done']); // the tail refresh too
        const again = done.commands.find((c: Json) => c.id === released.id);
        expect(again.history.map((d: Json) => [d.n, d.outcome])).toEqual([[1, 'released'], [2, 'reported_done']]);
        expect(again.deliveries).toBe(1);
        expect(sim.comments('AURORA-1')).toHaveLength(5);
        const after = await call('GET', '/agent');
        expect(after.jira_auth).toBe('ok');
        expect(after.warning ?? '').not.toContain('Jira не принимает');
        expect(lines).toContain('Jira accepts the credentials again; going on');
      } finally {
        stop.abort();
        await agent.catch(() => undefined);
      }
    });

    it('a command released after its batch was cancelled is cancelled, never handed out again (SPEC 6.7)', async () => {
      const batch = await call('POST', '/batches', { title: 'r', commands: [{ type: 'ensure_comment', params: { key: 'AURORA-1', body: 'x' } }, { type: 'ensure_comment', params: { key: 'AURORA-2', body: 'y' } }] });
      const claimed = await call('POST', '/agent/claim', {});
      await call('POST', `/batches/${batch.id}/cancel`, {});
      const view = await call('POST', `/agent/commands/${claimed.command.id}/result`, { status: 'released', error: 'HTTP 401: Client must be authenticated' });
      expect(view).toEqual(expect.objectContaining({ status: 'cancelled', deliveries: 0, finished_at: expect.any(String) }));
      const after = await call('GET', `/batches/${batch.id}`);
      expect(after).toMatchObject({ status: 'cancelled', counts: { queued: 0, claimed: 0, cancelled: 3 } });
      // (the hub's own catalogue read may come next; nothing of the cancelled batch does)
      expect((await call('POST', '/agent/claim', { jira_auth: 'ok' })).command?.batch_id).not.toBe(batch.id);
    });

    it('the report route takes released only for a claimed command; claim is refused with it', async () => {
      await call('POST', '/batches', { title: 'r', commands: [{ type: 'ensure_comment', params: { key: 'AURORA-1', body: 'x' } }] });
      const claimed = await call('POST', '/agent/claim', {});
      const refused = await fetch(`${hub.url}/agent/commands/${claimed.command.id}/result`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ status: 'released', error: 'HTTP 401', claim: {} }),
      });
      expect(refused.status).toBe(422);
      expect(await refused.json()).toEqual(expect.objectContaining({ error: 'validation_failed', detail: expect.stringContaining('claim бывает только при status: done или failed') }));
      const view = await call('POST', `/agent/commands/${claimed.command.id}/result`, { status: 'released', error: 'HTTP 401: Client must be authenticated' });
      expect(view).toEqual(expect.objectContaining({ status: 'queued', deliveries: 0 }));
      const again = await fetch(`${hub.url}/agent/commands/${claimed.command.id}/result`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status: 'released' }) });
      expect(again.status).toBe(409); // queued again: not claimed
      // A claim telling jira_auth failed hands out nothing, even with work queued; ok takes it.
      expect((await call('POST', '/agent/claim', { jira_auth: 'failed', jira_auth_failed_since: '2026-12-02T05:00:00Z' })).command).toBeNull();
      expect((await call('GET', '/agent')).jira_auth_failed_since).toBe('2026-12-02T05:00:00Z');
      const next = await call('POST', '/agent/claim', { jira_auth: 'ok' });
      expect(next.command).toEqual(expect.objectContaining({ id: claimed.command.id, deliveries: 1 }));
      const bad = await fetch(`${hub.url}/agent/claim`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jira_auth: 'maybe' }) });
      expect(bad.status).toBe(422);
    });

    it('GET /agent/queued-statuses names the statuses the unfinished ensure_status commands walk to, with the issue types walked there (for --check)', async () => {
      // The mirror knows AURORA-1, a Task; AURORA-2 it does not know.
      await call('POST', '/batches', { title: 'r', commands: [{ type: 'refresh', params: { keys: ['AURORA-1'] } }] });
      const { command } = await call('POST', '/agent/claim', {});
      await call('POST', `/agent/commands/${command.id}/result`, { status: 'done', result: refreshResult([{ key: 'AURORA-1', issue_type: 'Task' }]) });
      await call('POST', '/batches', {
        title: 's',
        commands: [
          { type: 'ensure_status', params: { key: 'AURORA-1', path: ['In Progress', 'Done'] } },
          { type: 'ensure_status', params: { key: 'AURORA-2', to: 'Done' } },
          { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Bug', summary: 'Ошибка' } },
          { type: 'ensure_status', params: { key: 'new:1', path: ['In Progress', 'In Review'] } },
          { type: 'ensure_comment', params: { key: 'AURORA-1', body: 'x' } },
        ],
      });
      // AURORA-1's type from the mirror; AURORA-2's is unknown; new:1 is the Bug its ensure_issue creates.
      expect(await call('GET', '/agent/queued-statuses')).toEqual({
        statuses: ['Done', 'In Progress', 'In Review'],
        targets: [
          { status: 'Done', issue_types: ['Task'], unknown_type: true },
          { status: 'In Progress', issue_types: ['Bug', 'Task'], unknown_type: false },
          { status: 'In Review', issue_types: ['Bug'], unknown_type: false },
        ],
      });
    });
  });
});
