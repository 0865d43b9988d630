/**
 * PostgreSQL only (issue 21.3, decision 1202): the write locks of replicas on one database. The agent's
 * units and every other write take the one writer's advisory lock; a batch's creation takes only the
 * queue-order lock, under which every queue place is numbered. Another replica's unit is stood for by a
 * connection of the test that holds one of the locks: what must wait waits on the server (seen in
 * pg_locks), and what need not, answers.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import pg from 'pg';
import { QUEUE_LOCK_KEY, WRITE_LOCK_KEY } from '../src/database/postgres.js';
import { agentOf, clientOf, fields, startHub, tempDir, type TestHub } from './support/app.js';
import { onPostgres } from './support/pg.js';
import { waitFor } from './support/wait.js';

/** A connection that holds `key` in an open transaction, as a unit of another replica would, until `release`. */
async function holding(url: string, key: number): Promise<{ release: () => Promise<void>; waiters: () => Promise<number> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock($1)', [key]);
  return {
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
    // Keys below 2^32 are the lock's objid (classid 0): sessions waiting for it right now.
    waiters: async () => Number((await client.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = $1`, [key])).rows[0].n),
  };
}

/** Settles a promise's state into a flag, for a test to see that it has not answered yet. */
function watch<T>(p: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const promise = p.finally(() => (done = true));
  return { promise, settled: () => done };
}

(onPostgres ? describe : describe.skip)('write locks of replicas on one PostgreSQL database (decision 1202)', () => {
  let hubs: TestHub[] = [];
  let held: { release: () => Promise<void> } | undefined;
  beforeEach(() => {
    hubs = [];
  });
  afterEach(async () => {
    await held?.release().catch(() => undefined);
    held = undefined;
    for (const hub of hubs) await hub.close();
  });

  it("another replica's writer holds its lock: a batch is created at once; a claim waits for it, then hands the batch's command out", async () => {
    const hub = await startHub();
    hubs.push(hub);
    const lock = (held = await holding(hub.config.databaseUrl!, WRITE_LOCK_KEY));
    const batch = await clientOf(hub).batch([fields('A-1')]);
    const claim = watch(agentOf(hub).claim());
    await waitFor('the claim to wait for the writer lock', async () => ((await lock.waiters()) > 0 ? true : undefined));
    expect(claim.settled()).toBe(false);
    await lock.release();
    held = undefined;
    expect((await claim.promise).command).toMatchObject({ id: batch.commands[0].id });
  });

  it("another replica creates a batch (the queue-order lock): a claim answers at once; a creation here waits, then takes the next place", async () => {
    const hub = await startHub();
    hubs.push(hub);
    const first = await clientOf(hub).batch([fields('A-1')]);
    const lock = (held = await holding(hub.config.databaseUrl!, QUEUE_LOCK_KEY));
    expect((await agentOf(hub).claim()).command).toMatchObject({ id: first.commands[0].id });
    const second = watch(clientOf(hub).batch([fields('A-2')]));
    await waitFor('the creation to wait for the queue-order lock', async () => ((await lock.waiters()) > 0 ? true : undefined));
    expect(second.settled()).toBe(false);
    await lock.release();
    held = undefined;
    const created = await second.promise;
    // Behind the first batch (its command and its tail refresh), as a batch created after it.
    const agent = agentOf(hub);
    await agent.done(first.commands[0].id);
    expect((await agent.claim()).command).toMatchObject({ id: first.commands[1].id, type: 'refresh' });
    await agent.done(first.commands[1].id, { issues: [], links: [] });
    expect((await agent.claim()).command).toMatchObject({ id: created.commands[0].id });
  });

  it('batches created at once on two replicas take distinct queue places, in the order of their creation times', async () => {
    // One HUB_DB_PATH: one schema for both (support/pg.ts).
    const path = join(tempDir(), 'hub.sqlite');
    hubs.push(...(await Promise.all([startHub({ HUB_DB_PATH: path }), startHub({ HUB_DB_PATH: path })])));
    const url = hubs[0].config.databaseUrl!;
    await Promise.all(hubs.flatMap((hub, r) => Array.from({ length: 8 }, (_, i) => clientOf(hub).batch([fields(`A-${r * 10 + i + 1}`)], `r${r}-${i}`))));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ queue_pos: number; created_at: string }>('SELECT queue_pos, created_at FROM batch ORDER BY queue_pos');
      expect(rows.map((r) => r.queue_pos)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
      expect(rows.map((r) => r.created_at)).toEqual([...rows.map((r) => r.created_at)].sort());
    } finally {
      await client.end();
    }
  });
});
