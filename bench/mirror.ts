/**
 * The mirror at scale (issue 14), `npm run bench -- mirror`: a hub in its own process (started as `npm start`
 * starts it, on a temp file) mirrors 200,000 issues and 400,000 links reported in parts of 1,000 issues over HTTP; then
 * searches at that size. Figures: total time, the hub's RSS growth over its idle RSS, p50/p99 of searches.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RawClient } from './raw-client.js';
import { npmStartFlags } from './start-flags.js';

export type Report = (name: string, value: number, unit: string, ok: boolean, target: string) => void;

const ISSUES = 200_000;
const LINKS_PER_ISSUE = 2;
const PART = 1000;
const STATUSES = ['To Do', 'In Progress', 'Review', 'Done', 'Closed'];
const SPRINTS = Array.from({ length: 50 }, (_, i) => `Спринт ${i + 1}`);
const WORDS = ['отчёт', 'продажи', 'склад', 'интеграция', 'платёж', 'клиент', 'report', 'export', 'billing', 'sync', 'invoice', 'audit'];
/** Each rare word is in ISSUES / RARE issues: `метка12345` finds 8 of 200,000. */
const RARE = 25_000;

function issue(i: number) {
  return {
    key: `BIG-${i}`,
    summary: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} метка${i % RARE} задача ${i}`,
    issue_type: i % 10 ? 'Task' : 'Bug',
    status: STATUSES[i % STATUSES.length],
    sprint: SPRINTS[(i * 13) % SPRINTS.length],
    assignee: `user${i % 40}`,
    priority: 'Medium',
    duedate: null,
    labels: i % 3 ? ['backend'] : ['finance', 'q4'],
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-11-01T00:00:00.000Z',
    fields: { description: `Описание задачи ${i}`, parent: null, 'Story Points': i % 8 },
  };
}

/** Part p (1-based): its issues, and the links whose source they are (their targets are anywhere). */
function part(p: number) {
  const issues = Array.from({ length: PART }, (_, j) => issue((p - 1) * PART + j + 1));
  const links = issues.flatMap((x, j) => {
    const i = (p - 1) * PART + j + 1;
    return Array.from({ length: LINKS_PER_ISSUE }, (_, k) => ({ source_key: x.key, target_key: `BIG-${((i * 7919 + k * 104729) % ISSUES) + 1}`, link_type: k ? 'Relates' : 'Blocks' }));
  });
  return { issues, links };
}

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function startHub(db: string): Promise<{ child: ChildProcess; port: number }> {
  const bin = new URL('../../bin/jira-hub.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [...npmStartFlags(), bin, 'serve'], { env: { ...process.env, HUB_DB_PATH: db, HUB_PORT: '0', HUB_LOG_LEVEL: 'error' } });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      const m = /слушает http:\/\/[^:]+:(\d+)/.exec(d);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`hub exited with ${code}: ${stderr}`)));
  });
  child.removeAllListeners('exit');
  return { child, port };
}

async function latencies(client: RawClient, paths: string[]): Promise<{ p50: number; p99: number }> {
  for (const path of paths.slice(0, 20)) await client.get(path); // warm-up
  const times: number[] = [];
  for (const path of paths) {
    const t = performance.now();
    const body = await client.get(path);
    times.push(performance.now() - t);
    if (!body.startsWith('[')) throw new Error(`${path} → ${body.slice(0, 200)}`);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function mirrorBench(dir: string, report: Report): Promise<void> {
  const { child, port } = await startHub(join(dir, 'mirror.sqlite'));
  try {
    const client = await RawClient.open(port);
    await client.get('/issues?limit=1');
    await new Promise((r) => setTimeout(r, 500));
    const idle = rssOf(child.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 50);

    const t = performance.now();
    await client.post('/batches', { title: 'bench', commands: [{ type: 'refresh', params: { jql: 'project = BIG' } }] });
    const { command } = await client.post<{ command: { id: number } }>('/agent/claim', {});
    const parts = ISSUES / PART;
    for (let p = 1; p < parts; p++) {
      const answer = await client.post<{ status?: string; error?: string }>(`/agent/commands/${command.id}/result`, { status: 'partial', part: p, result: part(p) });
      if (answer.status !== 'claimed') throw new Error(`part ${p}: ${JSON.stringify(answer).slice(0, 300)}`);
    }
    const done = await client.post<{ status?: string }>(`/agent/commands/${command.id}/result`, { status: 'done', result: part(parts) });
    if (done.status !== 'done') throw new Error(`done: ${JSON.stringify(done).slice(0, 300)}`);
    const seconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(child.pid!));
    const runs = JSON.parse(await client.get('/sync-runs?limit=1')) as { issues: number; links: number; parts: number }[];
    const counted = runs[0].issues === ISSUES && runs[0].links > 0.99 * ISSUES * LINKS_PER_ISSUE;
    report(
      `mirror ${ISSUES.toLocaleString('en')} issues + ${runs[0].links.toLocaleString('en')} links in ${runs[0].parts + 1} HTTP reports of ${PART} issues`,
      seconds,
      's',
      counted,
      'all counted (time: no target)',
    );
    report('hub RSS growth over idle while mirroring in parts', peak - idle, 'MB', peak - idle < 100, '< 100 MB');

    const rare = Array.from({ length: 300 }, (_, i) => `/issues?q=${encodeURIComponent(`метка${(i * 83) % RARE}`)}`);
    const q = await latencies(client, rare);
    report(`GET /issues?q=<rare word> at ${ISSUES.toLocaleString('en')} issues, p50`, q.p50, 'ms', q.p50 < 20, '< 20 ms');
    report(`GET /issues?q=<rare word> at ${ISSUES.toLocaleString('en')} issues, p99`, q.p99, 'ms', q.p99 < 50, '< 50 ms');
    const filters = Array.from({ length: 300 }, (_, i) => `/issues?status=${encodeURIComponent(STATUSES[i % STATUSES.length])}&sprint=${encodeURIComponent(SPRINTS[i % SPRINTS.length])}`);
    const f = await latencies(client, filters);
    report(`GET /issues?status=…&sprint=… (a page of 100) at ${ISSUES.toLocaleString('en')} issues, p50`, f.p50, 'ms', f.p50 < 20, '< 20 ms');
    report(`GET /issues?status=…&sprint=… (a page of 100) at ${ISSUES.toLocaleString('en')} issues, p99`, f.p99, 'ms', f.p99 < 50, '< 50 ms');
    client.close();
  } finally {
    child.kill();
    await new Promise((r) => child.once('exit', r));
  }
}
