/**
 * Worker thread of the benchmark: `clients` concurrent clients, each posting batches of `size`
 * commands one after another until told to stop. Answers with how many batches were created.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { url, clients, size } = workerData as { url: string; clients: number; size: number };
let stop = false;
parentPort!.once('message', () => (stop = true));
let posted = 0;
const body = (n: number) =>
  JSON.stringify({ title: `load ${n}`, commands: Array.from({ length: size }, (_, i) => ({ type: 'ensure_fields', params: { key: `A-${i + 1}`, duedate: '2026-12-01' } })) });
await Promise.all(
  Array.from({ length: clients }, async (_, c) => {
    while (!stop) {
      const res = await fetch(`${url}/batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(c) });
      if (res.status !== 201) throw new Error(`POST /batches → ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      posted++;
    }
  }),
);
parentPort!.postMessage(posted);
