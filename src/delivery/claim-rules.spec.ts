/**
 * The claim's rules (SPEC 6.1–6.4, 16.3) against mocked repositories, no database: re-delivery of the
 * oldest handed-out command first, the delivery limit, the queue order, temp keys (wait, skip, hand out),
 * and what the agent's status row is told. Each rule is a table of cases.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { commandRow } from '../../test/support/command-row.js';
import type { EntityManager } from 'typeorm';
import type { CommandRow, Resolution } from '../queue/index.js';
import { DEFAULT_SETTINGS } from '../settings/index.js';
import { ClaimRules, DELIVERY_LIMIT_ERROR, MAX_DELIVERIES, type ClaimNotes } from './claim-rules.js';

const NOW = new Date('2026-12-02T10:00:00.000Z');
const ISO = NOW.toISOString();
const m = { marker: 'claim' } as unknown as EntityManager;

const command = commandRow;

/**
 * Mocked repositories: `claimed` and `queued` are consumed in order as the rules ask for the next one —
 * the first of each by the claim's first look (`deliveries.look`, one statement), the others one by one.
 */
function make(claimed: CommandRow[], queued: CommandRow[], resolutions: Record<string, Resolution> = {}) {
  const commands = {
    claimLooks: jest.fn((..._: unknown[]) => ({ claimed: 'claimed?', next: 'next?', catalogue: 'catalogue?' })),
    oldestClaimed: jest.fn(async (..._: unknown[]) => claimed.shift()),
    nextRunnable: jest.fn(async (..._: unknown[]) => queued.shift()),
    redeliver: jest.fn(async (..._: unknown[]) => undefined),
    handOutSql: jest.fn((..._: unknown[]) => 'hand out'),
    firstWriteSql: jest.fn((..._: unknown[]) => 'first write?'),
    end: jest.fn(async (..._: unknown[]) => undefined),
    isFirstWriteOfBatch: jest.fn(async (..._: unknown[]) => false),
    idle: jest.fn(async (..._: unknown[]) => true),
    lastCatalogueCommand: jest.fn(async (..._: unknown[]) => undefined),
    resolveFor: jest.fn(async (_m: EntityManager, _batch: number, t: string): Promise<Resolution> => resolutions[t] ?? { state: 'pending' }),
  };
  const deliveries = {
    look: jest.fn(async (..._: unknown[]) => ({ claimed: claimed.shift() ?? null, next: queued.shift() ?? null, catalogue: null })),
    handOut: jest.fn(async (..._: unknown[]) => false),
    start: jest.fn(async (..._: unknown[]) => undefined),
    close: jest.fn(async (..._: unknown[]) => undefined),
  };
  const agents = { touch: jest.fn(async (..._: unknown[]) => undefined) };
  const batches = { insert: jest.fn(async (..._: unknown[]) => 99) };
  const refreshes = { queue: jest.fn(async (..._: unknown[]) => 98) };
  const catalogues = { freshness: jest.fn(async (..._: unknown[]) => null) };
  const runs = { fail: jest.fn(async (..._: unknown[]) => undefined), open: jest.fn(async (..._: unknown[]) => 7), lastStart: jest.fn(async (..._: unknown[]) => null) };
  const rules = new ClaimRules(
    commands as never,
    deliveries as never,
    agents as never,
    batches as never,
    refreshes as never,
    catalogues as never,
    runs as never,
  );
  return { rules, commands, deliveries, agents, batches, runs };
}

/** The command the agent's status row was last told it holds: by the handout's writes, else by `touch`. */
function toldAgent({ deliveries, agents }: Pick<ReturnType<typeof make>, 'deliveries' | 'agents'>): number | null | undefined {
  const handOut = deliveries.handOut.mock.calls.at(-1) as [EntityManager, { id: number }] | undefined;
  const touch = agents.touch.mock.calls.at(-1) as [EntityManager, unknown, string, number | null] | undefined;
  return handOut ? handOut[1].id : touch?.[3];
}

const claim = (rules: ClaimRules, notes: ClaimNotes = { expired: [], skipped: [] }, info = { agent_version: '1.2.0' }) =>
  rules.claim(m, info, DEFAULT_SETTINGS, NOW, notes, false);

describe('ClaimRules: re-delivery and the delivery limit (SPEC 6.2, 6.4)', () => {
  it.each([
    { deliveries: 1, handedOutAgain: true },
    { deliveries: MAX_DELIVERIES - 1, handedOutAgain: true },
    { deliveries: MAX_DELIVERIES, handedOutAgain: false },
  ])('a claimed command delivered $deliveries time(s): handed out again = $handedOutAgain', async ({ deliveries, handedOutAgain }) => {
    const out = command({ status: 'claimed', deliveries, claimed_at: '2026-12-02T09:00:00.000Z' });
    const next = command();
    const { rules, commands, deliveries: history, agents } = make([out], [next]);
    const notes: ClaimNotes = { expired: [], skipped: [] };
    const claimed = await claim(rules, notes);
    if (handedOutAgain) {
      expect(claimed?.command).toMatchObject({ id: out.id, deliveries: deliveries + 1, claimed_at: ISO });
      expect(commands.redeliver).toHaveBeenCalledWith(m, out.id, ISO, DEFAULT_SETTINGS.pacing.ensure_fields);
      expect(history.close).toHaveBeenCalledWith(m, out.id, 'lost');
      expect(history.start).toHaveBeenCalledWith(m, out.id, '1.2.0', ISO);
      expect(commands.nextRunnable).not.toHaveBeenCalled();
      expect(notes.expired).toEqual([]);
    } else {
      expect(commands.end).toHaveBeenCalledWith(m, out.id, 'failed', DELIVERY_LIMIT_ERROR, ISO);
      expect(history.close).toHaveBeenCalledWith(m, out.id, 'expired');
      expect(notes.expired).toEqual([{ id: out.id, batch_id: out.batch_id }]);
      expect(claimed?.command.id).toBe(next.id); // the limit frees the agent for the queue
    }
    expect(toldAgent({ deliveries: history, agents })).toBe(claimed?.command.id ?? null);
  });

  it('a refresh failed at the limit closes its sync run with the reason', async () => {
    const out = command({ type: 'refresh', status: 'claimed', deliveries: MAX_DELIVERIES, params: JSON.stringify({ jql: 'project = A' }) });
    const { rules, runs } = make([out], []);
    expect(await claim(rules)).toBeNull();
    expect(runs.fail).toHaveBeenCalledWith(m, out.id, ISO, DELIVERY_LIMIT_ERROR);
  });
});

describe('ClaimRules: the queue and the agent row (SPEC 6.1, 6.2, 16.3)', () => {
  it.each([
    { case: 'nothing queued', queued: 0, jiraAuth: undefined, handedOut: false },
    { case: 'a runnable command', queued: 1, jiraAuth: undefined, handedOut: true },
    { case: 'Jira refuses the agent', queued: 1, jiraAuth: 'failed' as const, handedOut: false },
  ])('$case → handed out: $handedOut; the agent row says so', async ({ queued, jiraAuth, handedOut }) => {
    const next = command();
    const { rules, commands, deliveries, agents } = make([], queued ? [next] : []);
    const info = { agent_version: '1.2.0', ...(jiraAuth ? { jira_auth: jiraAuth } : {}) };
    const claimed = await rules.claim(m, info, DEFAULT_SETTINGS, NOW, { expired: [], skipped: [] }, false);
    expect(claimed?.command.id ?? null).toBe(handedOut ? next.id : null);
    // A handout writes the command, its delivery row and the agent's row together; else the agent's row alone.
    expect(deliveries.handOut).toHaveBeenCalledTimes(handedOut ? 1 : 0);
    if (handedOut) expect(deliveries.handOut).toHaveBeenCalledWith(m, { id: next.id, handOut: 'hand out', firstWrite: 'first write?' }, info, ISO);
    if (jiraAuth) expect(deliveries.look).not.toHaveBeenCalled();
    expect(agents.touch).toHaveBeenCalledTimes(handedOut ? 0 : 1);
    if (!handedOut) expect(agents.touch).toHaveBeenCalledWith(m, info, ISO, null);
  });

  it('a handed-out command is claimed with its pause and counted as a delivery', async () => {
    const next = command({ deliveries: 1 }); // released once (SPEC 16.3): its counted deliveries stay
    const { rules, commands } = make([], [next]);
    const claimed = await claim(rules);
    expect(claimed?.command).toMatchObject({ status: 'claimed', deliveries: 2, pause_seconds: DEFAULT_SETTINGS.pacing.ensure_fields, claimed_at: ISO });
    expect(commands.handOutSql).toHaveBeenCalledWith(next.id, ISO, DEFAULT_SETTINGS.pacing.ensure_fields, next.params);
  });
});

describe('ClaimRules: the first look made with the report of a merged call (issue 21.3)', () => {
  it('the looks given are the first ones: no look of its own; a loop past them asks again', async () => {
    const out = command({ status: 'claimed', deliveries: MAX_DELIVERIES });
    const next = command();
    const { rules, commands, deliveries } = make([], [next]);
    const looked = { claimed: out, next: null, catalogue: null };
    const claimed = await rules.claim(m, { agent_version: '1.2.0' }, DEFAULT_SETTINGS, NOW, { expired: [], skipped: [] }, false, looked);
    expect(deliveries.look).not.toHaveBeenCalled();
    expect(commands.end).toHaveBeenCalledWith(m, out.id, 'failed', DELIVERY_LIMIT_ERROR, ISO); // the given one, at the limit
    expect(commands.oldestClaimed).toHaveBeenCalledTimes(1); // the loop looked again
    expect(commands.nextRunnable).not.toHaveBeenCalled(); // `next: null` was looked at already: nothing runnable
    expect(claimed).toBeNull();
  });
});

describe('ClaimRules: temp keys (SPEC 6.3)', () => {
  const link = () => command({ type: 'ensure_link', params: JSON.stringify({ source: 'new:1', target: 'AURORA-2', link_type: 'Blocks' }) });

  it.each([
    { resolution: { state: 'pending' } as Resolution, outcome: 'wait' },
    { resolution: { state: 'failed' } as Resolution, outcome: 'skip' },
    { resolution: { state: 'resolved', key: 'AURORA-9' } as Resolution, outcome: 'hand out' },
  ])('its definer $resolution.state → $outcome', async ({ resolution, outcome }) => {
    const dependent = link();
    const after = command();
    const { rules, commands, deliveries } = make([], [dependent, after], { 'new:1': resolution });
    const notes: ClaimNotes = { expired: [], skipped: [] };
    const claimed = await claim(rules, notes);
    expect(commands.resolveFor).toHaveBeenCalledWith(m, dependent.batch_id, 'new:1');
    if (outcome === 'wait') {
      expect(claimed).toBeNull(); // the queue waits in order: nothing behind it is handed out
      expect(deliveries.handOut).not.toHaveBeenCalled();
      expect(commands.end).not.toHaveBeenCalled();
    } else if (outcome === 'skip') {
      expect(commands.end).toHaveBeenCalledWith(m, dependent.id, 'skipped', 'задача new:1 не создана', ISO);
      expect(notes.skipped).toEqual([{ id: dependent.id, batch_id: dependent.batch_id, error: 'задача new:1 не создана' }]);
      expect(claimed?.command.id).toBe(after.id);
    } else {
      expect(claimed?.command.id).toBe(dependent.id);
      expect(JSON.parse(String(claimed?.command.params))).toEqual({ source: 'AURORA-9', target: 'AURORA-2', link_type: 'Blocks' });
    }
  });
});
