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
import type { PlainFinish } from './delivery.repository.js';
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

/**
 * Mocked repositories. `plain`: what DeliveryRepository.finishPlain answers — by default the row alone,
 * as on SQLite or for a report that is not plain (nothing written, the general path goes on).
 */
function make(row: CommandRow, claimed: CommandRow[] = [], mirror: Record<string, MirrorIssue> = {}, plain?: (row: CommandRow) => PlainFinish) {
  const commands = {
    findSql: jest.fn((..._: unknown[]) => 'find'),
    finishSql: jest.fn((..._: unknown[]) => 'finish'),
    claimLooks: jest.fn((..._: unknown[]) => ({ claimed: 'claimed?', next: 'next?', catalogue: 'catalogue?' })),
    find: jest.fn(async (..._: unknown[]) => row),
    markDone: jest.fn(async (..._: unknown[]) => ({ ...row, status: 'done' })),
    markFailed: jest.fn(async (..._: unknown[]) => ({ ...row, status: 'failed' })),
    release: jest.fn(async (..._: unknown[]) => ({ ...row, status: 'queued', deliveries: row.deliveries - 1 })),
    keepLateResult: jest.fn(async (..._: unknown[]) => row),
    claimed: jest.fn(async (..._: unknown[]) => claimed),
    confirmByState: jest.fn(async (..._: unknown[]) => true),
  };
  const deliveries = {
    finishPlain: jest.fn(async (..._: unknown[]): Promise<PlainFinish> => (plain ? plain(row) : { before: row })),
    close: jest.fn(async (..._: unknown[]) => undefined),
    latest: jest.fn(async (..._: unknown[]) => ({ id: 5, agent_version: '1.2.0' })),
  };
  const agents = { releaseCurrent: jest.fn(async (..._: unknown[]) => undefined) };
  const changes = { record: jest.fn(async (..._: unknown[]) => undefined), recordSql: jest.fn((..._: unknown[]) => ['record']), ofCommandSql: jest.fn((..._: unknown[]) => 'changes') };
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
  return { rules, commands, deliveries, agents, runs, notes, refreshes, changes };
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
      expect(commands.release).toHaveBeenCalledWith(m, row.id, 1, NOW);
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

  it.each([
    { case: 'a failed with its changes', row: {}, report: { status: 'failed', error: 'HTTP 400' } },
    { case: 'a late failed with its changes', row: { status: 'cancelled' as const }, report: { status: 'failed', error: 'HTTP 400' } },
    { case: 'a late done with its changes', row: { status: 'cancelled' as const }, report: { status: 'done', result: {} } },
  ])('$case: its changes go to the change record (decision 1413)', async ({ row: fields, report }) => {
    const row = command(fields);
    const { rules, changes } = make(row);
    const made = [{ key: 'AURORA-1', what: 'status', before: 'To Do', after: 'In Review', transitions: ['Start', 'Review'] }];
    await rules.report(m, row.id, { ...report, changes: made } as Report, NOW);
    expect(changes.record).toHaveBeenCalledWith(m, row.id, expect.anything(), made, NOW);
  });

  it.each([{ status: 'partial' as const, part: 1, result: { issues: [] } }, { status: 'released' as const }])('$status records no changes', async (report) => {
    const row = command();
    const { rules, changes } = make(row);
    await rules.report(m, row.id, { ...report, changes: [{ key: 'AURORA-1', what: 'status', before: 'A', after: 'B' }] } as Report, NOW).catch(() => undefined);
    expect(changes.record).not.toHaveBeenCalled();
  });

  it('a queued command was never handed out: 409 not_claimed, nothing written', async () => {
    const row = command({ status: 'queued', deliveries: 0, claimed_at: null });
    const { rules, commands, deliveries } = make(row);
    await expect(rules.report(m, row.id, { status: 'done' } as Report, NOW)).rejects.toBeInstanceOf(NotClaimedError);
    expect(commands.markDone).not.toHaveBeenCalled();
    expect(deliveries.close).not.toHaveBeenCalled();
  });
});

describe('ReportRules: a plain final report in one statement (issue 21.3)', () => {
  it.each([
    { case: 'done with its changes', report: { status: 'done', result: { key: 'AURORA-1' }, changes: [{ what: 'status', before: 'A', after: 'B' }] }, notPlain: ['refresh', 'refresh_catalogue'] },
    { case: 'done without a key', report: { status: 'done', result: {} }, notPlain: ['refresh', 'refresh_catalogue', 'ensure_issue'] },
    { case: 'failed', report: { status: 'failed', error: 'HTTP 500' }, notPlain: ['refresh', 'refresh_catalogue'] },
    // Decision 1413: what a failed command changed before it failed is recorded as a done's changes are.
    { case: 'failed with its changes', report: { status: 'failed', error: 'HTTP 500', changes: [{ what: 'status', before: 'A', after: 'B' }] }, notPlain: ['refresh', 'refresh_catalogue'] },
  ])('$case: asked of finishPlain with the types it may not finish ($notPlain)', async ({ report, notPlain }) => {
    const row = command();
    const { rules, commands, deliveries, changes } = make(row);
    await rules.report(m, row.id, report as Report, NOW, [], true);
    const status = report.status as 'done' | 'failed';
    expect(commands.finishSql).toHaveBeenCalledWith(row.id, expect.objectContaining({ status, now: NOW, ...(status === 'failed' ? { error: 'HTTP 500' } : {}) }), notPlain);
    expect(commands.claimLooks).toHaveBeenCalledWith(row.id); // the merged call's claim looks with it, past the command reported
    const asked = deliveries.finishPlain.mock.calls[0] as unknown as [EntityManager, number, { record?: unknown }, { outcome: string }];
    expect(asked[3]).toEqual({ outcome: `reported_${status}`, at: NOW, jiraCalls: 0 });
    expect(Boolean(asked[2].record)).toBe(Boolean((report as { changes?: unknown[] }).changes));
    expect(changes.recordSql).not.toHaveBeenCalled(); // built inside finishPlain, with the delivery's id
  });

  it.each([
    { case: 'ensure_issue done', type: 'ensure_issue' as const, report: { status: 'done', result: { key: 'AURORA-9' } }, moved: true, noted: false },
    { case: 'ensure_fields failed', type: 'ensure_fields' as const, report: { status: 'failed', error: 'поле не на экране' }, moved: false, noted: true },
    { case: 'ensure_fields done', type: 'ensure_fields' as const, report: { status: 'done', result: {} }, moved: false, noted: false },
  ])('finished plainly, $case: only what the row alone cannot carry follows (note moved: $moved, catalogue told: $noted)', async ({ type, report, moved, noted }) => {
    const row = command({ type, params: JSON.stringify({ temp_key: 'new:1', summary: 'a', project: 'AURORA', issue_type: 'Task' }) });
    const after = { ...row, status: report.status as CommandRow['status'], error: report.status === 'failed' ? 'поле не на экране' : null };
    const looked = { claimed: null, next: command({ id: 99 }), catalogue: null };
    const { rules, commands, deliveries, notes, refreshes } = make(row, [], {}, (r) => ({ before: r, after, history: [], changes: [], looked }));
    const reported = await rules.report(m, row.id, report as Report, NOW, [], true);
    expect(reported).toMatchObject({ before: row, after, read: { history: [], changes: [] }, looked });
    expect(commands.find).not.toHaveBeenCalled();
    expect(commands.markDone).not.toHaveBeenCalled();
    expect(commands.markFailed).not.toHaveBeenCalled();
    expect(deliveries.close).not.toHaveBeenCalled();
    expect(notes.move).toHaveBeenCalledTimes(moved ? 1 : 0);
    if (moved) expect(notes.move).toHaveBeenCalledWith(m, 'new:1', 'AURORA-9', NOW);
    expect(refreshes.noteFailure).toHaveBeenCalledTimes(noted ? 1 : 0);
  });

  it('not plain (SQLite, or a row finishPlain would not write): the general path goes on from the row it read, without reading it again', async () => {
    const row = command();
    const { rules, commands, deliveries } = make(row);
    await rules.report(m, row.id, { status: 'done', result: {} } as Report, NOW);
    expect(commands.find).not.toHaveBeenCalled();
    expect(commands.markDone).toHaveBeenCalledTimes(1);
    expect(deliveries.close).toHaveBeenCalledWith(m, row.id, 'reported_done', { at: NOW, jiraCalls: 0 });
  });
});
