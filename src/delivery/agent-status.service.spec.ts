/**
 * AgentStatusService.queuedStatuses (GET /agent/queued-statuses) against mocked repositories: each status
 * the unfinished ensure_status commands walk to, with the issue types walked there — from the mirror, or
 * from the ensure_issue defining a temp key, read once per batch and temp key.
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { fakeDb } from '../../test/support/unit-of-work.js';
import { AgentStatusService } from './agent-status.service.js';

const row = (batch_id: number, params: object) => ({ batch_id, params: JSON.stringify(params) });

function make(commands: { batch_id: number; params: string }[], mirror: Record<string, string>, defined: Record<string, string>) {
  const { db, m } = fakeDb();
  const repo = {
    unfinishedStatusCommands: jest.fn(async (_m: EntityManager) => commands),
    definerParams: jest.fn(async (_m: EntityManager, batchId: number, tempKey: string) => {
      const type = defined[`${batchId}/${tempKey}`];
      return type === undefined ? undefined : JSON.stringify({ temp_key: tempKey, issue_type: type, summary: 's' });
    }),
  };
  const issues = { lookup: jest.fn(async (_m: EntityManager, _keys: readonly string[]) => ({ issue: (k: string) => (mirror[k] ? { issue_type: mirror[k] } : undefined) })) };
  const service = new AgentStatusService(db, {} as never, {} as never, {} as never, {} as never, {} as never, {} as never, repo as never, issues as never);
  return { service, repo, m };
}

describe('AgentStatusService.queuedStatuses', () => {
  it('types from the mirror and from temp keys; a temp key read once per batch however many commands walk it', async () => {
    const { service, repo, m } = make(
      [
        row(1, { key: 'A-1', to: 'Done' }),
        row(2, { key: 'new:1', path: ['In Progress'], to: 'In Review' }),
        row(2, { key: 'new:1', to: 'Done' }),
        row(2, { key: 'new:1', to: ' Done ' }),
        row(3, { key: 'new:1', to: 'Done' }),
        row(3, { key: 'A-9', to: 'Blocked' }),
      ],
      { 'A-1': 'Task' },
      { '2/new:1': 'Bug', '3/new:1': 'Story' },
    );
    expect(await service.queuedStatuses()).toEqual([
      { status: 'Blocked', issue_types: [], unknown_type: true },
      { status: 'Done', issue_types: ['Bug', 'Story', 'Task'], unknown_type: false },
      { status: 'In Progress', issue_types: ['Bug'], unknown_type: false },
      { status: 'In Review', issue_types: ['Bug'], unknown_type: false },
    ]);
    expect(repo.definerParams.mock.calls.map(([, batchId, key]) => [batchId, key])).toEqual([
      [2, 'new:1'],
      [3, 'new:1'],
    ]);
    expect(repo.definerParams.mock.calls.every(([given]) => given === m)).toBe(true);
  });
});
