/** Worker thread of the benchmark: one sequential keep-alive client doing claim + report cycles. */
import { parentPort, workerData } from 'node:worker_threads';
import { RawClient } from './raw-client.js';

interface Claim {
  command: { id: number; type: string } | null;
}

const { port, cycles } = workerData as { port: number; cycles: number };
const client = await RawClient.open(port);
const started = performance.now();
for (let i = 0; i < cycles; i++) {
  const { command } = await client.post<Claim>('/agent/claim', {});
  if (!command) throw new Error('the queue ran dry during the benchmark');
  await client.post(`/agent/commands/${command.id}/result`, { status: 'done', result: command.type === 'refresh' ? { issues: [], links: [] } : {} });
}
parentPort!.postMessage(cycles / ((performance.now() - started) / 1000));
client.close();
