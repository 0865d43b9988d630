/**
 * Worker thread of the benchmark: one sequential keep-alive client doing claim + report cycles, for
 * `cycles` cycles or until `seconds` have passed. Answers with the rate and each claim's latency.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RawClient } from './raw-client.js';

interface Claim {
  command: { id: number; type: string } | null;
}

export interface CycleRun {
  rate: number;
  cycles: number;
  claimMs: number[];
}

const { port, cycles, seconds } = workerData as { port: number; cycles: number; seconds?: number };
const client = await RawClient.open(port);
const claimMs: number[] = [];
const started = performance.now();
const until = seconds ? started + seconds * 1000 : Infinity;
let done = 0;
while (done < cycles && performance.now() < until) {
  const t = performance.now();
  const { command } = await client.post<Claim>('/agent/claim', {});
  claimMs.push(performance.now() - t);
  if (!command) throw new Error('the queue ran dry during the benchmark');
  await client.post(`/agent/commands/${command.id}/result`, { status: 'done', result: command.type === 'refresh' ? { issues: [], links: [] } : {} });
  done++;
}
parentPort!.postMessage({ rate: done / ((performance.now() - started) / 1000), cycles: done, claimMs } satisfies CycleRun);
client.close();
