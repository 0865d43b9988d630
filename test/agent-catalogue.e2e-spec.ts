/**
 * The catalogue end to end (SPEC 16.1): a real hub queues `refresh_catalogue` when the agent first claims,
 * the reference agent reads the simulator's configuration (Cloud and Data Center) and reports it, and the
 * hub serves it: `GET /catalogue` and the lookups show what Jira has, the screens and the workflows.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../src/cli.js';
import { FileJournal, HubClient, JiraClient, runAgent, type JiraFlavor } from '@jira-hub/agent';
import { JiraSimulator } from '@jira-hub/jira-sim';
import { testDatabaseEnv } from './support/pg.js';
import { waitFor } from './support/wait.js';

describe('agent-catalogue', () => {
  type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

  let dir: string;
  let hub: { url: string; close: () => Promise<void> };
  let sim: JiraSimulator;

  const get = async (path: string): Promise<Json> => {
    const response = await fetch(hub.url + path);
    if (!response.ok) throw new Error(`GET ${path} → HTTP ${response.status}: ${await response.text()}`);
    return response.json();
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jira-hub-catalogue-e2e-'));
    const log = console.log;
    console.log = () => undefined; // serve() announces where it listens
    try {
      hub = await serve(await testDatabaseEnv({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_LOG_LEVEL: 'error' }));
    } finally {
      console.log = log;
    }
    sim = new JiraSimulator({ seed: { issues: [{ summary: 'Задача', issueType: 'Task', status: 'In Progress' }, { summary: 'Ошибка', issueType: 'Bug', status: 'In Review' }] } });
    await sim.start();
  });

  afterEach(async () => {
    await sim.stop();
    await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe.each(['cloud', 'dc'] as JiraFlavor[])('the agent fills the hub\'s catalogue (%s)', (flavor) => {
    it('queued by the hub at the first claim, read from Jira, served by GET /catalogue and the lookups', async () => {
      const stop = new AbortController();
      const journal = new FileJournal(join(dir, 'journal.jsonl'));
      const agent = runAgent({
        hub: new HubClient({ baseUrl: hub.url, stopSignal: stop.signal, retryBaseMs: 20, retryMaxMs: 200 }),
        jira: new JiraClient({ baseUrl: sim.url, flavor, auth: flavor === 'cloud' ? { kind: 'basic', email: 'bot@example.com', apiToken: 'token' } : { kind: 'bearer', token: 'pat' } }),
        journal,
        project: 'AURORA',
        log: () => undefined,
        stopSignal: stop.signal,
        waitSeconds: 30,
        agentVersion: '3.1.4',
      }).finally(() => journal.close());
      try {
        const state = await waitFor('the catalogue', async () => {
          const view = await get('/catalogue');
          return view.catalogue ? view : undefined;
        });
        const catalogue = state.catalogue;
        expect(catalogue).toEqual(expect.objectContaining({ project_key: 'AURORA', flavor, agent_version: '3.1.4', transitions_source: 'observed' }));
        const bug = catalogue.per_type[catalogue.issue_types.find((t: Json) => t.name === 'Bug').id];
        expect(bug.transitions.map((t: Json) => `${t.from}→${t.to}`)).toEqual(['In Review→Done', 'In Review→In Progress']);
        const epic = catalogue.per_type[catalogue.issue_types.find((t: Json) => t.name === 'Epic').id];
        expect(epic.create.some((f: Json) => f.field_id === 'customfield_10011' && f.required)).toBe(flavor === 'dc');
        const linkTypes = await get('/catalogue/link-types');
        expect(linkTypes.map((t: Json) => t.name)).toEqual(expect.arrayContaining(['Blocks', 'Relates', 'Duplicate']));
        const sprints = await get('/catalogue/sprints');
        expect(JSON.stringify(sprints)).toContain('Спринт 2');
      } finally {
        stop.abort();
        await agent.catch(() => undefined);
      }
    });
  });
});
