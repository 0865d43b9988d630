/**
 * `npm run bench -- search` (issue 21): GET /issues?q=<one common word> on the simulator's generated
 * 200,000-issue project (its summaries reuse 24 words), on SQLite and on PostgreSQL; then the same
 * searches while a client creates 1,000-command batches one after another, against their idle latency.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { defaultSeed, generatedProject } from '@jira-hub/jira-sim';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/common/config.js';
import { Db } from '../src/database/db.service.js';
import { issueSearchSql } from '../src/mirror/issue-search.js';
import { applySlice } from '../src/mirror/mirror.store.js';
import type { IssueInput } from '../src/mirror/refresh-result.js';
import { RawClient } from './raw-client.js';
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
  for (let i = 0; i < issues.length; i += 5000) await db.transaction((m) => applySlice(m, { issues: issues.slice(i, i + 5000), links: [] }, 1, '2026-12-01T00:00:00.000Z'));
  console.log(`     ${issues.length.toLocaleString('en')} issues mirrored in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return { app, db, port, url: `http://127.0.0.1:${port}` };
}

async function latencies(client: RawClient, paths: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const path of paths) {
    const t = performance.now();
    const body = await client.get(path);
    times.push(performance.now() - t);
    if (!body.startsWith('[{')) throw new Error(`${path} → ${body.slice(0, 200)}`);
  }
  return times;
}

async function engine(name: string, env: Record<string, string>, data: ReturnType<typeof project>, report: Report): Promise<void> {
  const h = await searchHub(env, data.issues);
  try {
    const client = await RawClient.open(h.port);
    const paths = Array.from({ length: 300 }, (_, i) => `/issues?q=${encodeURIComponent(data.words[(i * 7) % data.words.length])}`);
    await latencies(client, paths.slice(0, 30)); // warm-up
    const idle = await latencies(client, paths);
    // The plan every search used before (every match gathered, joined and sorted by key), for comparison.
    const before: number[] = [];
    for (const word of data.words.slice(0, 10)) {
      const { sql, args } = issueSearchSql({ q: word }, h.db.engine);
      const t = performance.now();
      await h.db.read((m) => m.query(sql, args));
      before.push(performance.now() - t);
    }
    console.log(`     ${name}: ${data.words.length} words of 3–12 letters; the former plan (all matches sorted) took p50 ${percentile(before, 50).toFixed(1)} ms in the database alone`);
    report(`${name}: GET /issues?q=<one common word> at 200,000 generated issues, p50`, percentile(idle, 50), 'ms', true, 'printed');
    report(`${name}: GET /issues?q=<one common word> at 200,000 generated issues, p99`, percentile(idle, 99), 'ms', percentile(idle, 99) < 50, '< 50 ms');

    const poster = new Worker(new URL('./batch-poster.js', import.meta.url), { workerData: { url: h.url, clients: 1, size: 1000 } });
    const posted = new Promise<number>((resolve, reject) => {
      poster.once('message', resolve);
      poster.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, 500)); // the poster is running
    const loaded = await latencies(client, paths);
    poster.postMessage('stop');
    const batches = await posted;
    client.close();
    const [p50Idle, p50Loaded] = [percentile(idle, 50), percentile(loaded, 50)];
    console.log(`     ${name}: search p50 idle ${p50Idle.toFixed(1)} ms, while 1,000-command batches are created ${p50Loaded.toFixed(1)} ms (p99 ${percentile(loaded, 99).toFixed(1)} ms; ${batches} batches created meanwhile)`);
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
