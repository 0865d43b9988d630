/**
 * How long the hub's event loop is held while 1,000-command batches are created (issue 21: a search
 * under a running batch creation ≤ 2 × its idle latency; decision 1320). A client in a worker thread
 * (bench/batch-poster.ts) posts batches one after another for a few seconds; in the hub's thread a 1 ms
 * timer notes every turn of the loop, and each gap between two turns is a stretch the loop was held
 * (a wall-clock figure: on a loaded machine it includes time the thread waited for a core). With
 * `--profile`, a CPU profile names what the longest stretches ran.
 *
 * `npm run build && node dist/bench/loop-stall.js [seconds] [--profile]`; not a section of `npm run bench`.
 */
import { Session } from 'node:inspector';
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/common/config.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const seconds = Number(process.argv.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 3);
const profiling = process.argv.includes('--profile');
const dir = mkdtempSync(join(tmpdir(), 'loop-stall-'));
const app = await createApp(loadConfig({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_LOG_LEVEL: 'error' }), { logger: false });
await app.listen(0, '127.0.0.1');
const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

/** Batches of 1,000 commands posted one after another for `ms`; how many. */
function post(ms: number): Promise<number> {
  const worker = new Worker(new URL('./batch-poster.js', import.meta.url), { workerData: { url, clients: 1, size: 1000 } });
  const done = new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  setTimeout(() => worker.postMessage('stop'), ms);
  return done;
}

await post(1000); // warm-up
const session = new Session();
session.connect();
const call = <T>(method: string, params?: object) => new Promise<T>((resolve, reject) => session.post(method, params, (err, r) => (err ? reject(err) : resolve(r as T))));
if (profiling) {
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: 250 });
  await call('Profiler.start');
}
// The turns of the loop, on process.hrtime's clock (the profiler's).
const ticks: bigint[] = [];
const probe = setInterval(() => ticks.push(process.hrtime.bigint()), 1);
const batches = await post(seconds * 1000);
clearInterval(probe);
const profile = profiling ? (await call<{ profile: Profile }>('Profiler.stop')).profile : undefined;
session.disconnect();
await app.close();
rmSync(dir, { recursive: true, force: true });

const gaps = ticks.slice(1).map((t, i) => ({ from: Number(ticks[i]! / 1000n), ms: Number(t - ticks[i]!) / 1e6 }));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;
const held = gaps.map((g) => g.ms).filter((ms) => ms >= 2);
console.log(`${batches} batches of 1,000 commands created in ${seconds} s`);
console.log(
  `stretches of ≥ 2 ms: ${held.length}; p50 ${pct(held, 50).toFixed(1)} ms, p90 ${pct(held, 90).toFixed(1)} ms, p99 ${pct(held, 99).toFixed(1)} ms, ` +
    `longest ${[...held].sort((a, b) => b - a).slice(0, 5).map((ms) => ms.toFixed(1)).join(', ')} ms`,
);

if (profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
  };
  const at: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) at.push((t += d));
  for (const g of [...gaps].sort((a, b) => b.ms - a.ms).slice(0, 5)) {
    // Each sample of the stretch by the hub's frame nearest to its top and the library frame it ran in.
    const where = new Map<string, number>();
    let n = 0;
    at.forEach((time, i) => {
      if (time < g.from || time > g.from + g.ms * 1000) return;
      n++;
      const frames: number[] = [];
      for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) frames.push(id);
      const own = frames.find((f) => /\/(src|bench)\//.test(byId.get(f)!.callFrame.url));
      const lib = frames.find((f) => /node_modules\//.test(byId.get(f)!.callFrame.url)) ?? frames[0]!;
      const key = `${own !== undefined ? label(own) : '-'}  ← ${label(lib)}`;
      where.set(key, (where.get(key) ?? 0) + 1);
    });
    console.log(`-- ${g.ms.toFixed(1)} ms (${n} samples):`);
    for (const [k, c] of [...where].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`   ${((100 * c) / n).toFixed(0).padStart(3)} % ${k}`);
  }
}
