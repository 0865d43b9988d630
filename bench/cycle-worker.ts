/**
 * Worker thread of the benchmark: one sequential keep-alive client doing claim + report cycles, for
 * `cycles` cycles or until `seconds` have passed. Answers with the rate and each claim's latency.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RawClient } from './raw-client.js';

interface Claim {
  command: { id: number; type: string } | null;
}

interface Report {
  next?: Claim;
}

export interface CycleRun {
  rate: number;
  cycles: number;
  claimMs: number[];
}

/** `merged`: each report also claims the next command (the merged call); a claim runs only when it gave none. */
const { port, cycles, seconds, merged } = workerData as { port: number; cycles: number; seconds?: number; merged?: boolean };
const client = await RawClient.open(port);
const claimMs: number[] = [];
const started = performance.now();
const until = seconds ? started + seconds * 1000 : Infinity;
let done = 0;
let next: Claim['command'] = null;
while (done < cycles && performance.now() < until) {
  let command: Claim['command'] = next;
  if (!command) {
    const t = performance.now();
    command = (await client.post<Claim>('/agent/claim', {})).command;
    claimMs.push(performance.now() - t);
  }
  if (!command) throw new Error('the queue ran dry during the benchmark');
  const t = performance.now();
  const body: Record<string, unknown> = { status: 'done', result: command.type === 'refresh' ? { issues: [], links: [] } : {}, ...(merged ? { claim: {} } : {}) };
  next = (await client.post<Report>(`/agent/commands/${command.id}/result`, body)).next?.command ?? null;
  if (merged) claimMs.push(performance.now() - t); // the claim is this call
  done++;
}
parentPort!.postMessage({ rate: done / ((performance.now() - started) / 1000), cycles: done, claimMs } satisfies CycleRun);
client.close();
