/**
 * Worker thread of the search bench: one sequential keep-alive client sending GET `paths` in turn, so
 * that a latency is the hub's (a client in the hub's own thread would also wait for the hub's event
 * loop to read each answer). Answers each request's milliseconds and the keys of every page.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RawClient } from './raw-client.js';

export interface SearchRun {
  ms: number[];
  keys: string[][];
}

const { port, paths } = workerData as { port: number; paths: string[] };
const client = await RawClient.open(port);
const run: SearchRun = { ms: [], keys: [] };
for (const path of paths) {
  const t = performance.now();
  const body = await client.get(path);
  run.ms.push(performance.now() - t);
  if (!body.startsWith('[{')) throw new Error(`${path} → ${body.slice(0, 200)}`);
  run.keys.push((JSON.parse(body) as { key: string }[]).map((i) => i.key));
}
client.close();
parentPort!.postMessage(run);
