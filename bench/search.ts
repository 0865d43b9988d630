/**
 * `npm run bench -- search` (issue 21): GET /issues?q=<one common word> on the simulator's generated
 * 200,000-issue project (its summaries reuse 24 words), on SQLite and on PostgreSQL — p99 < 50 ms, and
 * every page the same as the former plan's (every match sorted by key); then the same searches while a
 * client creates 1,000-command batches one after another, against their idle latency (≤ 2 ×). The
 * clients run in worker threads (as other processes would), so that the figures are the hub's.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { defaultSeed, generatedProject } from '@jira-hub/jira-sim';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/common/config.js';
import { Db } from '../src/database/db.service.js';
import { ISSUE_VIEW_COLUMNS } from '../src/mirror/issue-search.repository.js';
import { matchExpression, searchTermTexts } from '../src/mirror/search-query.js';
import { IssueRepository } from '../src/mirror/issue.repository.js';
import type { IssueInput } from '../src/mirror/refresh-result.js';
import type { SearchRun } from './search-client.js';
import { benchSchema } from './postgres.js';
import type { Report } from './mirror.js';

const ISSUES = 200_000;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** The generated project as a refresh reports it. */
function project(): { issues: IssueInput[]; words: string[] } {
  const seed = defaultSeed('BIG');
  const { issues } = generatedProject(ISSUES, seed);
  const rows = issues.map((x, i) => ({
    key: `BIG-${i + 1}`,
    summary: x.summary,
    issue_type: x.issueType ?? 'Task',
    status: x.status ?? 'To Do',
    sprint: null,
    assignee: x.assignee ?? null,
    priority: 'Medium',
    duedate: null,
    labels: x.labels ?? [],
    fields: {},
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-11-01T00:00:00.000Z',
  })) as unknown as IssueInput[];
  const vocabulary = [...new Set(issues.slice(0, 2000).flatMap((x) => x.summary.split(' ').filter((w) => !/\d/.test(w))))];
  // One word of 3–12 letters: each word of the vocabulary, and its prefixes from 3 letters.
  const words = vocabulary.flatMap((w) => Array.from({ length: Math.min(w.length, 12) - 2 }, (_, n) => w.slice(0, n + 3)));
  return { issues: rows, words };
}

async function searchHub(env: Record<string, string>, issues: IssueInput[]) {
  // RawClient names its host `bench`.
  const config = loadConfig({ ...env, HUB_LOG_LEVEL: 'error', HUB_ALLOWED_HOSTS: 'bench' });
  const app = await createApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  const db = app.get(Db);
  const t = performance.now();
  for (let i = 0; i < issues.length; i += 5000) await db.transaction((m) => new IssueRepository().applySlice(m, { issues: issues.slice(i, i + 5000), links: [] }, 1, '2026-12-01T00:00:00.000Z'));
  console.log(`     ${issues.length.toLocaleString('en')} issues mirrored in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return { app, db, port, url: `http://127.0.0.1:${port}` };
}

/** The searches of `paths` by one client in a worker thread. */
function searches(port: number, paths: string[]): Promise<SearchRun> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./search-client.js', import.meta.url), { workerData: { port, paths } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/** The plan every search used before (every match gathered, joined and sorted by key): the order every page must keep. */
function formerPlan(engine: string, word: string): { text: string; params: unknown[] } {
  return engine === 'postgres'
    ? { text: `SELECT ${ISSUE_VIEW_COLUMNS} FROM issue i WHERE i.search @@ hub_search_query($1::text[]) ORDER BY i.key LIMIT 100`, params: [searchTermTexts(word)] }
    : { text: `SELECT ${ISSUE_VIEW_COLUMNS} FROM issue_fts f JOIN issue i ON i.search_id = f.rowid WHERE issue_fts MATCH ? ORDER BY i.key LIMIT 100`, params: [matchExpression(word)] };
}

async function engine(name: string, env: Record<string, string>, data: ReturnType<typeof project>, report: Report): Promise<void> {
  const h = await searchHub(env, data.issues);
  try {
    const words = Array.from({ length: 300 }, (_, i) => data.words[(i * 7) % data.words.length]);
    const paths = words.map((w) => `/issues?q=${encodeURIComponent(w)}`);
    await searches(h.port, paths.slice(0, 30)); // warm-up
    const idle = await searches(h.port, paths);
    // The former plan, for comparison, and the order of every page (the words are lower case: the tsquery needs no folding).
    const before: number[] = [];
    let differ = 0;
    for (const [i, word] of words.entries()) {
      const { text, params } = formerPlan(h.db.engine, word);
      const t = performance.now();
      const rows: { key: string }[] = await h.db.read((m) => m.query(text, params));
      before.push(performance.now() - t);
      if (rows.map((r) => r.key).join() !== idle.keys[i].join()) differ++;
    }
    console.log(`     ${name}: ${data.words.length} words of 3–12 letters; the former plan (all matches sorted) took p50 ${percentile(before, 50).toFixed(1)} ms in the database alone`);
    report(`${name}: GET /issues?q=<one common word> at 200,000 generated issues, p50`, percentile(idle.ms, 50), 'ms', true, 'printed');
    report(`${name}: GET /issues?q=<one common word> at 200,000 generated issues, p99`, percentile(idle.ms, 99), 'ms', percentile(idle.ms, 99) < 50, '< 50 ms');
    report(`${name}: pages of the one-word searches that differ from the former plan's (all matches sorted by key)`, differ, 'pages', differ === 0, '0 pages');

    const poster = new Worker(new URL('./batch-poster.js', import.meta.url), { workerData: { url: h.url, clients: 1, size: 1000 } });
    const posted = new Promise<number>((resolve, reject) => {
      poster.once('message', resolve);
      poster.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, 500)); // the poster is running
    const loaded = await searches(h.port, paths);
    poster.postMessage('stop');
    const batches = await posted;
    const [p50Idle, p50Loaded] = [percentile(idle.ms, 50), percentile(loaded.ms, 50)];
    console.log(`     ${name}: search p50 idle ${p50Idle.toFixed(1)} ms, while 1,000-command batches are created ${p50Loaded.toFixed(1)} ms (p99 ${percentile(loaded.ms, 99).toFixed(1)} ms; ${batches} batches created meanwhile)`);
    report(`${name}: search p50 while 1,000-command batches are created, ÷ idle p50`, p50Loaded / p50Idle, '×', p50Loaded <= 2 * p50Idle, '<= 2.0 ×');
  } finally {
    await h.app.close();
  }
}

export async function searchBench(dir: string, report: Report): Promise<void> {
  const data = project();
  await engine('SQLite', { HUB_DB_PATH: join(dir, 'search.sqlite') }, data, report);
  const { url, drop } = await benchSchema('bench_search');
  try {
    await engine('PostgreSQL', { HUB_DATABASE_URL: url }, data, report);
  } finally {
    await drop();
  }
}
