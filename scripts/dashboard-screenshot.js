#!/usr/bin/env node
/**
 * `node scripts/dashboard-screenshot.js` (after `npm run build`): docs/images/dashboard.png, the README's
 * picture of the Queue page. Starts a hub on a temporary database, the Jira simulator with
 * examples/jira-sim-seed.json and the reference agent, leaves a few batches in every state (done, one
 * running at a human pace, one waiting for approval), and shoots the page in Debian's Chromium
 * (/usr/bin/chromium, or CHROMIUM_PATH).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { runAgent, HubClient, JiraClient, MemoryJournal } from '@jira-hub/agent';
import { JiraSimulator } from '@jira-hub/jira-sim';
import { serve } from '../dist/src/cli.js';

const root = new URL('..', import.meta.url);
const seed = JSON.parse(readFileSync(new URL('examples/jira-sim-seed.json', root), 'utf8'));
const pacing = (seconds) => Object.fromEntries(['ensure_issue', 'ensure_fields', 'ensure_status', 'ensure_link', 'ensure_sprint', 'ensure_comment', 'refresh'].map((t) => [t, seconds]));

const dir = mkdtempSync(join(tmpdir(), 'jira-hub-screenshot-'));
const hub = await serve({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: '0', HUB_LOG_LEVEL: 'error' });
const sim = new JiraSimulator({ projectKey: 'AURORA', seed });
const stop = new AbortController();
let agent;
try {
  const simUrl = await sim.start();
  const call = async (method, path, body, headers = {}) => {
    const res = await fetch(hub.url + path, { method, headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers }, body: body && JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → HTTP ${res.status}: ${text}`);
    return JSON.parse(text);
  };
  const done = async (id) => {
    while ((await call('GET', `/batches/${id}`)).status !== 'done') await new Promise((r) => setTimeout(r, 100));
  };
  await call('PATCH', '/settings', { pacing: pacing(0) });
  agent = runAgent({
    hub: new HubClient({ baseUrl: hub.url, retryBaseMs: 200, retryMaxMs: 2000 }),
    jira: new JiraClient({ baseUrl: simUrl, flavor: 'cloud', auth: { kind: 'basic', email: 'bot@example.com', apiToken: 'demo' }, minRetryAfterMs: 200 }),
    journal: new MemoryJournal(),
    project: 'AURORA',
    stopSignal: stop.signal,
    waitSeconds: 1,
    log: () => undefined,
  });
  await done((await call('POST', '/batches', { title: 'Прочитать Jira', author: 'ivanov', commands: [{ type: 'refresh', params: { jql: 'project = AURORA' } }] })).id);
  await done(
    (
      await call('POST', '/batches', {
        title: 'Отчётность за квартал',
        author: 'ivanov',
        commands: [
          { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Сверить данные продаж с финансами' } },
          { type: 'ensure_fields', params: { key: 'new:1', duedate: '2026-12-18', labels: ['отчёт'] } },
          { type: 'ensure_link', params: { source: 'new:1', target: 'AURORA-2', link_type: 'Blocks' } },
          { type: 'ensure_comment', params: { key: 'AURORA-2', body: 'Сверка добавлена в план', marker: '[hub:plan-1]' } },
        ],
      })
    ).id,
  );
  // From here on the agent keeps a human pace: the next batch stays running, the assistant's waits.
  await call('PATCH', '/settings', { pacing: pacing(60) });
  await call('POST', '/batches', {
    title: 'Планирование спринта 2',
    author: 'petrova',
    commands: [
      { type: 'ensure_issue', params: { temp_key: 'new:2', issue_type: 'Task', summary: 'Отчёт по продажам' } },
      { type: 'ensure_fields', params: { key: 'new:2', duedate: '2026-12-20', labels: ['отчёты'] } },
      { type: 'ensure_link', params: { source: 'AURORA-1', target: 'new:2', link_type: 'Relates' } },
      { type: 'ensure_sprint', params: { key: 'new:2', sprint: 'Спринт 2' } },
    ],
  });
  await call(
    'POST',
    '/batches',
    {
      title: 'Сроки задач отчётности',
      commands: [
        { type: 'ensure_fields', params: { key: 'AURORA-3', duedate: '2026-12-12' } },
        { type: 'ensure_fields', params: { key: 'AURORA-4', duedate: '2026-12-16' } },
      ],
    },
    { 'X-Hub-Source': 'assistant' },
  );
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 640 } });
    await page.goto(`${hub.url}/#/queue`);
    await page.getByText('Сроки задач отчётности').first().waitFor();
    await new Promise((r) => setTimeout(r, 1000)); // the live stream never idles: let the rows settle
    const file = new URL('docs/images/dashboard.png', root);
    await page.screenshot({ path: file.pathname });
    console.log(`written: ${file.pathname}`);
  } finally {
    await browser.close();
  }
} finally {
  stop.abort();
  await agent?.catch(() => undefined);
  await sim.stop();
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
}
