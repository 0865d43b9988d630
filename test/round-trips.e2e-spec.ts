/**
 * Issue 21.3: the round trips to PostgreSQL of the agent's merged call (a report that claims the next
 * command), counted at the driver — what `npm run bench` prints beside pg-boss's fetch+complete (2).
 * PostgreSQL only.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { countRoundTrips } from '../bench/round-trips.js';
import { agentOf, clientOf, fields, startHub, type TestHub } from './support/app.js';
import { onPostgres } from './support/pg.js';

/** What one merged call takes today (issue 21.3's target: 4); a change that adds one fails here. */
const MERGED_CALL_ROUND_TRIPS = 15;

(onPostgres ? describe : describe.skip)('round trips of the merged call on PostgreSQL', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('one report + claim unit: BEGIN, the write lock and the unit check in one round trip, the unit, COMMIT, the live event', async () => {
    const agent = agentOf(hub);
    const b = await clientOf(hub).batch([fields('A-1'), fields('A-2'), fields('A-3')]);
    let id = (await agent.claim()).command.id as number;
    // The first merged call warms the connections and the statements up; the second is counted.
    id = (await agent.report(id, { status: 'done', result: {}, claim: {} }).expect(200)).body.next.command.id;
    const counted = await countRoundTrips(() => agent.report(id, { status: 'done', result: {}, claim: {} }).expect(200));
    expect(counted.result.body.next.command).toMatchObject({ id: b.commands[2].id });
    console.log(`the merged call on PostgreSQL: ${counted.roundTrips} round trips\n${counted.statements.map((s) => `  ${s.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')}`);
    expect(counted.statements[0]).toMatch(/^BEGIN; SELECT pg_advisory_xact_lock/);
    // After COMMIT only the live event for the other replicas (Notifier), if any.
    expect(counted.statements.slice(counted.statements.indexOf('COMMIT') + 1).every((s) => s.startsWith('SELECT pg_notify('))).toBe(true);
    expect(counted.roundTrips).toBeLessThanOrEqual(MERGED_CALL_ROUND_TRIPS);
  });
});
