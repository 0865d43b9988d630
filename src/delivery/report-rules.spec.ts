/**
 * The report's rules (SPEC 6.5, 6.6, 16.3) against mocked repositories, no database: confirmation by
 * state after a refresh, the idempotent repeat, the release that does not count, the 409 of a command
 * never handed out. Each rule is a table of cases.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { commandRow } from '../../test/support/command-row.js';
import type { EntityManager } from 'typeorm';
import { NotClaimedError } from '../common/index.js';
import type { MirrorIssue, MirrorLookup } from '../mirror/index.js';
import type { CommandRow } from '../queue/index.js';
import { ReportRules, type Report } from './report-rules.js';

const NOW = '2026-12-02T10:00:00.000Z';
const m = { marker: 'report' } as unknown as EntityManager;

const command = (over: Partial<CommandRow> = {}): CommandRow => commandRow({ status: 'claimed', deliveries: 1, pause_seconds: 0, claimed_at: '2026-12-02T09:00:00.000Z', ...over });

const issue = (over: Partial<MirrorIssue>): MirrorIssue => ({
  status: 'To Do',
  sprint: null,
  summary: 'a',
  duedate: null,
  labels: [],
  assignee: null,
  priority: null,
  fields: {},
  ...over,
});

function make(row: CommandRow, claimed: CommandRow[] = [], mirror: Record<string, MirrorIssue> = {}) {
  const commands = {
    find: jest.fn(async (..._: unknown[]) => row),
    markDone: jest.fn(async (..._: unknown[]) => ({ ...row, status: 'done' })),
    markFailed: jest.fn(async (..._: unknown[]) => ({ ...row, status: 'failed' })),
    release: jest.fn(async (..._: unknown[]) => ({ ...row, status: 'queued', deliveries: row.deliveries - 1 })),
    keepLateResult: jest.fn(async (..._: unknown[]) => row),
    claimed: jest.fn(async (..._: unknown[]) => claimed),
    confirmByState: jest.fn(async (..._: unknown[]) => true),
  };
  const deliveries = { close: jest.fn(async (..._: unknown[]) => undefined), latest: jest.fn(async (..._: unknown[]) => ({ id: 5, agent_version: '1.2.0' })) };
  const agents = { releaseCurrent: jest.fn(async (..._: unknown[]) => undefined) };
  const changes = { record: jest.fn(async (..._: unknown[]) => undefined) };
  const refreshes = { store: jest.fn(async (..._: unknown[]) => undefined), noteFailure: jest.fn(async (..._: unknown[]) => undefined) };
  const lookup: MirrorLookup = { issue: (key) => mirror[key], hasLink: () => false };
  const issues = {
    applySlice: jest.fn(async (..._: unknown[]) => ({ issues: 0, links: 0 })),
    reportedKeys: jest.fn(async (..._: unknown[]) => new Set<string>()),
    lookup: jest.fn(async (..._: unknown[]) => lookup),
  };
  const notes = { move: jest.fn(async (..._: unknown[]) => undefined) };
  const state = { id: 7, delivery: null, parts: 0, issues: 0, links: 0, missing: [] };
  const runs = {
    of: jest.fn(async (..._: unknown[]) => state),
    startDelivery: jest.fn(async (..._: unknown[]) => ({ ...state, delivery: row.deliveries })),
    recordSlice: jest.fn(async (..._: unknown[]) => state),
    finish: jest.fn(async (..._: unknown[]) => undefined),
    fail: jest.fn(async (..._: unknown[]) => undefined),
  };
  const rules = new ReportRules(
    commands as never,
    deliveries as never,
    agents as never,
    changes as never,
    refreshes as never,
    issues as never,
    notes as never,
    runs as never,
  );
  return { rules, commands, deliveries, agents, runs };
}

describe('ReportRules: confirmation by state (SPEC 6.6)', () => {
  const refresh = () => command({ type: 'refresh', params: JSON.stringify({ keys: ['AURORA-1'] }) });

  it.each([
    { case: 'the mirror shows the due date asked', mirror: { 'AURORA-1': issue({ duedate: '2026-12-20' }) }, confirmed: true },
    { case: 'the mirror shows another due date', mirror: { 'AURORA-1': issue({ duedate: '2026-12-01' }) }, confirmed: false },
    { case: 'the issue is not in the mirror', mirror: {} as Record<string, MirrorIssue>, confirmed: false },
  ])('a claimed ensure_fields when $case → confirmed: $confirmed', async ({ mirror, confirmed }) => {
    const reported = refresh();
    const other = command();
    const { rules, commands, deliveries, agents } = make(reported, [other], mirror);
    const found: CommandRow[] = [];
    await rules.report(m, reported.id, { status: 'done', result: { issues: [], links: [] } } as Report, NOW, found);
    expect(found.map((c) => c.id)).toEqual(confirmed ? [other.id] : []);
    expect(commands.confirmByState).toHaveBeenCalledTimes(confirmed ? 1 : 0);
    if (confirmed) {
      expect(commands.confirmByState).toHaveBeenCalledWith(m, other.id, NOW, JSON.stringify({ confirmed_by_sync_run: 7 }));
      expect(deliveries.close).toHaveBeenCalledWith(m, other.id, 'confirmed_by_state');
      expect(agents.releaseCurrent).toHaveBeenCalledWith(m, other.id);
    }
  });
});

describe('ReportRules: what a report changes (SPEC 6.5, 16.3)', () => {
  it.each([
    { case: 'done', report: { status: 'done', jira_calls: 2 }, outcome: 'reported_done' },
    { case: 'failed', report: { status: 'failed', error: 'HTTP 500', jira_calls: 1 }, outcome: 'reported_failed' },
    { case: 'released (not counted)', report: { status: 'released', jira_calls: 1 }, outcome: 'released' },
  ])('$case: the handout closes as $outcome and the agent holds the command no more', async ({ report, outcome }) => {
    const row = command();
    const { rules, commands, deliveries, agents } = make(row);
    const { after } = await rules.report(m, row.id, report as Report, NOW);
    expect(deliveries.close).toHaveBeenCalledWith(m, row.id, outcome, { at: NOW, jiraCalls: report.jira_calls });
    expect(agents.releaseCurrent).toHaveBeenCalledWith(m, row.id);
    if (outcome === 'released') {
      expect(commands.release).toHaveBeenCalledWith(m, row.id, 1);
      expect(after).toMatchObject({ status: 'queued', deliveries: 0 });
    }
  });

  it.each([{ status: 'done' as const }, { status: 'failed' as const }])('a command already finished answers as it is: a repeated $status changes nothing', async ({ status }) => {
    const row = command({ status: 'done', result: JSON.stringify({}) });
    const { rules, commands, deliveries } = make(row);
    const { before, after } = await rules.report(m, row.id, { status } as Report, NOW);
    expect(after).toBe(before);
    expect(commands.markDone).not.toHaveBeenCalled();
    expect(commands.markFailed).not.toHaveBeenCalled();
    expect(deliveries.close).not.toHaveBeenCalled();
  });

  it('a queued command was never handed out: 409 not_claimed, nothing written', async () => {
    const row = command({ status: 'queued', deliveries: 0, claimed_at: null });
    const { rules, commands, deliveries } = make(row);
    await expect(rules.report(m, row.id, { status: 'done' } as Report, NOW)).rejects.toBeInstanceOf(NotClaimedError);
    expect(commands.markDone).not.toHaveBeenCalled();
    expect(deliveries.close).not.toHaveBeenCalled();
  });
});
