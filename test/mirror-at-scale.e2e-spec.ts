/**
 * Issue 14 acceptance, end to end over real HTTP: the simulator seeded with a generated project of 20,000
 * issues, a real hub (`serve`, temp-file SQLite) and the reference agent, which reports the refresh in parts.
 * The everyday run mirrors 4,000 (several parts all the same, a fifth of the time); CI sets HUB_TEST_FULL=1
 * for the full 20,000.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../src/cli.js';
import { runAgent, HubClient, JiraClient, type JiraFlavor, MemoryJournal } from '@jira-hub/agent';
import { JiraSimulator } from '@jira-hub/jira-sim';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const ZERO_PACING = { ensure_issue: 0, ensure_fields: 0, ensure_status: 0, ensure_link: 0, ensure_sprint: 0, ensure_comment: 0, refresh: 0 };

describe.each([
  ['cloud', process.env.HUB_TEST_FULL ? 20_000 : 4_000, undefined],
  ['dc', 2_500, 400],
] as [JiraFlavor, number, number | undefined][])('mirroring a generated project through the agent in parts (%s, %d issues)', (flavor, n, partIssues) => {
  let dir: string;
  let hub: { url: string; close: () => Promise<void> };
  let sim: JiraSimulator;
  let simUrl: string;
  const call = async (path: string, init: RequestInit = {}): Promise<{ body: Json; headers: Headers }> => {
    const res = await fetch(hub.url + path, { ...init, headers: init.body ? { 'Content-Type': 'application/json' } : {} });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path} → HTTP ${res.status}: ${text}`);
    return { body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jira-hub-scale-'));
    const log = console.log;
    console.log = () => undefined;
    try {
      hub = await serve({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_LOG_LEVEL: 'error' });
    } finally {
      console.log = log;
    }
    sim = new JiraSimulator({ projectKey: 'AURORA', generate: n });
    simUrl = await sim.start();
    await call('/settings', { method: 'PATCH', body: JSON.stringify({ pacing: ZERO_PACING }) });
  });

  afterAll(async () => {
    await sim?.stop();
    await hub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('one refresh {jql} mirrors every issue and link; the sync run counts them; searches find them', async () => {
    expect(sim.store.issues.size).toBe(n);
    const batch = (await call('/batches', { method: 'POST', body: JSON.stringify({ title: 'весь проект', commands: [{ type: 'refresh', params: { jql: 'project = AURORA ORDER BY key ASC' } }] }) })).body;
    const lines: string[] = [];
    const jira = new JiraClient({
      baseUrl: simUrl,
      flavor,
      auth: flavor === 'dc' ? { kind: 'bearer', token: 'pat' } : { kind: 'basic', email: 'bot@example.com', apiToken: 'token' },
    });
    const summary = await runAgent({
      hub: new HubClient({ baseUrl: hub.url, retryBaseMs: 20, retryMaxMs: 200 }),
      jira,
      journal: new MemoryJournal(),
      project: 'AURORA',
      log: (line) => void lines.push(line),
      once: true,
      waitSeconds: 0,
      refreshPartIssues: partIssues,
    });
    expect(summary).toMatchObject({ executed: 1, reported: 1 });
    const command = (await call(`/batches/${batch.id}`)).body.commands[0];
    const parts = Math.ceil(n / (partIssues ?? 1000)) - 1;
    expect(command).toMatchObject({ status: 'done', result: { parts, missing_keys: [] } });
    const [run] = (await call('/sync-runs')).body;
    expect(run).toMatchObject({ command_id: command.id, issues: n, links: sim.store.links.length, parts, missing: [], error: null });

    // Every issue once, page by page through the cursor.
    let count = 0;
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { body: Json; headers: Headers } = await call(`/issues?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
      count += page.body.length;
      cursor = page.headers.get('x-next-cursor');
    }
    expect(count).toBe(n);
    // Links of one issue both ways, as Jira has them.
    const probe = sim.store.links[sim.store.links.length - 1]!;
    const detail = (await call(`/issues/${probe.sourceKey}`)).body;
    const outInJira = sim.store.links.filter((l) => l.sourceKey === probe.sourceKey).map((l) => ({ target_key: l.targetKey, link_type: l.typeName }));
    const inInJira = sim.store.links.filter((l) => l.targetKey === probe.sourceKey).map((l) => ({ source_key: l.sourceKey, link_type: l.typeName }));
    expect(detail.links_out).toEqual(expect.arrayContaining(outInJira));
    expect(detail.links_out).toHaveLength(outInJira.length);
    expect(detail.links_in).toEqual(expect.arrayContaining(inInJira));
    expect(detail.links_in).toHaveLength(inInJira.length);
    // The word search finds a generated summary by its last word (the issue's number).
    const last = sim.store.findIssue(`AURORA-${n}`)!;
    const found = (await call(`/issues?q=${encodeURIComponent(last.summary)}`)).body.map((i: Json) => i.key);
    expect(found).toEqual([`AURORA-${n}`]);
  }, 240_000);
});
