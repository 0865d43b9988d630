/**
 * Issue 21.3: the round trips to PostgreSQL of the agent's merged call (a report that claims the next
 * command), counted at the driver — what `npm run bench` prints beside pg-boss's fetch+complete (2).
 * PostgreSQL only.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { countRoundTrips } from '../bench/round-trips.js';
import { agentOf, clientOf, fields, startHub, type TestHub } from './support/app.js';
import { onPostgres } from './support/pg.js';

/** Issue 21.3: a merged call in at most 4 round trips; a change that adds one fails here. */
const MERGED_CALL_ROUND_TRIPS = 4;

(onPostgres ? describe : describe.skip)('round trips of the merged call on PostgreSQL', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('one report + claim unit: BEGIN with the write lock and the unit check, the report, the handout, the live event with COMMIT', async () => {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('A-1'), fields('A-2'), fields('A-3'), fields('A-4')]);
    let id = (await agent.claim()).command.id as number;
    // The first merged call warms the connections and the statements up; the others are counted.
    id = (await agent.report(id, { status: 'done', result: {}, claim: {} }).expect(200)).body.next.command.id;
    const counted = await countRoundTrips(() => agent.report(id, { status: 'done', result: {}, claim: {} }).expect(200));
    expect(counted.result.body.next.command).toMatchObject({ id: b.commands[2].id });
    // A passing run stays quiet; a failing one lists the statements of each round trip.
    const listing = counted.statements.map((s) => `  ${s.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n');
    if (counted.roundTrips > MERGED_CALL_ROUND_TRIPS) throw new Error(`the merged call took ${counted.roundTrips} round trips, at most ${MERGED_CALL_ROUND_TRIPS} allowed:\n${listing}`);
    expect(counted.statements[0]).toMatch(/^BEGIN; SELECT pg_advisory_xact_lock/);
    // The live event for the other replicas (Notifier) rides on COMMIT's round trip; nothing after it.
    expect(counted.statements.at(-1)).toMatch(/^(SELECT pg_notify\(.*; )?COMMIT$/s);
    expect(counted.roundTrips).toBeLessThanOrEqual(MERGED_CALL_ROUND_TRIPS);

    // A `done` that carries its changes records them in the same statement; the answer's view shows them.
    const changes = [{ key: 'A-3', what: 'field:summary', before: 'a', after: 'b' }];
    const withChanges = await countRoundTrips(() => agent.report(b.commands[2].id, { status: 'done', result: {}, changes, claim: {} }).expect(200));
    expect(withChanges.roundTrips).toBeLessThanOrEqual(MERGED_CALL_ROUND_TRIPS);
    expect(withChanges.result.body.changes).toEqual([expect.objectContaining({ key: 'A-3', what: 'field:summary', before: 'a', after: 'b', delivery_n: 1 })]);
    expect(withChanges.result.body.history).toEqual([expect.objectContaining({ n: 1, outcome: 'reported_done' })]);
    expect(withChanges.result.body.next.command).toMatchObject({ id: b.commands[3].id });
  });
});
