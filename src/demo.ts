/**
 * `npm run demo`: the whole loop on one machine. Starts a hub on a temporary database, the Jira simulator and
 * the reference agent (pacing 0), submits a sample batch that uses every command type, shows progress until
 * the batch is done, prints the final mirror and stops everything.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './cli.js';
import { runAgent, HubClient, JiraClient, FileJournal } from '@jira-hub/agent';
import { JiraSimulator } from '@jira-hub/jira-sim';

const PROJECT = 'AURORA';
const TIMEOUT_MS = 45_000;
const ZERO_PACING = { ensure_issue: 0, ensure_fields: 0, ensure_status: 0, ensure_link: 0, ensure_sprint: 0, ensure_comment: 0, refresh: 0 };
const IVANOV = '557058:f0000000-0000-0000-0000-000000000002';

/** A sample plan: every command type; the hub appends the tail refresh. */
const SAMPLE_BATCH = {
  title: 'Демо: отчётность за квартал',
  author: 'demo',
  commands: [
    { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Подготовить квартальный отчёт', description: 'Сводка продаж за квартал' } },
    { type: 'ensure_issue', params: { temp_key: 'new:2', issue_type: 'Story', summary: 'Выгрузить данные продаж' } },
    { type: 'ensure_fields', params: { key: 'new:1', duedate: '2026-12-15', labels: ['отчёт', 'квартал'], assignee: IVANOV, priority: 'High' } },
    { type: 'ensure_fields', params: { key: 'new:2', duedate: '2026-12-10' } },
    { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20' } },
    { type: 'ensure_status', params: { key: 'new:2', path: ['In Progress', 'Done'] } },
    { type: 'ensure_status', params: { key: 'new:1', path: ['In Progress'] } },
    { type: 'ensure_link', params: { source: 'new:2', target: 'new:1', link_type: 'Blocks' } },
    { type: 'ensure_link', params: { source: 'new:1', target: 'AURORA-1', link_type: 'Relates' } },
    { type: 'ensure_sprint', params: { key: 'new:1', sprint: 'Спринт 2' } },
    { type: 'ensure_sprint', params: { key: 'new:2', sprint: 'Спринт 2' } },
    { type: 'ensure_comment', params: { key: 'new:1', body: 'Данные выгружены, отчёт в работе.', marker: '[hub:demo-1]' } },
  ],
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function main(): Promise<number> {
  const started = Date.now();
  const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s`;
  const dir = mkdtempSync(join(tmpdir(), 'jira-hub-demo-'));
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    // 1. the hub, on a temporary database
    const hub = await serve({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_HOST: '127.0.0.1', HUB_PORT: '0', HUB_LOG_LEVEL: 'error' });
    cleanups.unshift(() => hub.close());
    const call = async (method: string, path: string, body?: unknown): Promise<Json> => {
      const response = await fetch(hub.url + path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} → HTTP ${response.status}: ${text}`);
      return text ? (JSON.parse(text) as Json) : {};
    };

    // 2. the Jira simulator, with one issue that already exists
    const sim = new JiraSimulator({ projectKey: PROJECT, seed: { issues: [{ summary: 'Квартальная отчётность (эпик)', issueType: 'Epic' }] } });
    const simUrl = await sim.start();
    cleanups.unshift(() => sim.stop());
    console.log(`Jira simulator on ${simUrl} (project ${PROJECT}, sprints «Спринт 1», «Спринт 2»)`);

    // 3. pacing 0 for every command type
    const settings = await call('PATCH', '/settings', { pacing: ZERO_PACING });
    console.log(`pacing set to 0 s for every command type (settings version ${settings.version})`);

    // 4. the agent
    const stop = new AbortController();
    const journal = new FileJournal(join(dir, 'agent', 'journal.jsonl'));
    const agentDone = runAgent({
      hub: new HubClient({ baseUrl: hub.url, retryBaseMs: 200, retryMaxMs: 2000 }),
      jira: new JiraClient({ baseUrl: simUrl, flavor: 'cloud', auth: { kind: 'basic', email: 'bot@example.com', apiToken: 'demo' }, minRetryAfterMs: 200 }),
      journal,
      project: PROJECT,
      stopSignal: stop.signal,
      waitSeconds: 1,
      log: (line) => console.log(`${elapsed()}   agent: ${line}`),
    }).finally(() => journal.close());
    cleanups.unshift(async () => {
      stop.abort();
      await agentDone.catch(() => undefined);
    });

    // 5. the batch
    const batch = await call('POST', '/batches', SAMPLE_BATCH);
    console.log(
      `\nbatch #${batch.id} «${batch.title}»: ${batch.commands.length} commands (${SAMPLE_BATCH.commands.length} + tail refresh), ` +
        `types: ${[...new Set(batch.commands.map((c: Json) => c.type))].join(', ')}\n`,
    );

    // 6. progress until done
    let last = '';
    let view: Json = batch;
    for (;;) {
      view = await call('GET', `/batches/${batch.id}`);
      const line = `${view.status}: ${Object.entries(view.counts as Record<string, number>)
        .filter(([, n]) => n > 0)
        .map(([status, n]) => `${status} ${n}`)
        .join(', ')}`;
      if (line !== last) console.log(`${elapsed()} batch #${batch.id} ${line}`);
      last = line;
      if (view.status === 'done') break;
      if (Date.now() - started > TIMEOUT_MS) throw new Error(`the batch is not done after ${TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stop.abort();
    const summary = await agentDone;
    console.log(`${elapsed()} agent stopped: executed ${summary.executed}, reported ${summary.reported}`);

    console.log(`\ncommands of batch #${batch.id}:`);
    printTable(
      ['#', 'type', 'status', 'result'],
      view.commands.map((c: Json) => [String(c.seq), c.type, c.status, c.error ?? brief(c.type, c.result)]),
    );

    // 7. the final mirror
    const issues = (await call('GET', '/issues?limit=1000')) as unknown as Json[];
    const rows: string[][] = [];
    for (const issue of issues.sort((a, b) => keyOrder(a.key, b.key))) {
      const detail = await call('GET', `/issues/${encodeURIComponent(issue.key)}`);
      const links = [
        ...detail.links_out.map((l: Json) => `${l.link_type} → ${l.target_key}`),
        ...detail.links_in.map((l: Json) => `${l.link_type} ← ${l.source_key}`),
      ];
      rows.push([issue.key, issue.issue_type ?? '', issue.status ?? '', issue.sprint ?? '—', issue.duedate ?? '—', issue.summary ?? '', links.join('; ') || '—']);
    }
    console.log(`\nmirror (${issues.length} issues):`);
    printTable(['key', 'type', 'status', 'sprint', 'due', 'summary', 'links'], rows);

    const failed = view.commands.filter((c: Json) => c.status !== 'done' && c.status !== 'confirmed_by_state');
    console.log(failed.length === 0 ? `\nall ${view.commands.length} commands done in ${elapsed().trim()}` : `\n${failed.length} commands not done`);
    return failed.length === 0 ? 0 : 1;
  } finally {
    for (const cleanup of cleanups) {
      try {
        await cleanup();
      } catch (error) {
        console.error(`cleanup failed: ${(error as Error).message}`);
      }
    }
  }
}

function brief(type: string, result: Json | null): string {
  if (!result) return '';
  if (type === 'refresh') return `issues ${result.issues?.length ?? 0}, links ${result.links?.length ?? 0}`;
  return JSON.stringify(result);
}

function keyOrder(a: string, b: string): number {
  const [pa, na] = [a.replace(/-\d+$/, ''), Number(a.replace(/^.*-/, ''))];
  const [pb, nb] = [b.replace(/-\d+$/, ''), Number(b.replace(/^.*-/, ''))];
  return pa === pb ? na - nb : pa.localeCompare(pb);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (c ?? '').padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
