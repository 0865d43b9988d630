import { afterAll, describe, expect, it } from '@jest/globals';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileJournal, MemoryJournal } from './journal.js';

describe('journal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-journal-'));

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('FileJournal', () => {
    it('a dropped result is forgotten across restarts, with its created key and create attempt', () => {
      const path = join(dir, 'dropped.jsonl');
      const first = new FileJournal(path);
      first.recordCreated(9, 'AURORA-30', { summary: 'A', project: 'AURORA' });
      first.recordCreateAttempt(10, 'B', 'AURORA');
      first.recordResult(9, { status: 'done', result: { key: 'AURORA-30', created: true } }, null);
      first.dropResult(9);
      first.dropResult(10);
      expect([first.createdKeyFor(9), first.createAttemptFor(10)]).toEqual([undefined, undefined]);
      first.close();
      const second = new FileJournal(path);
      expect(second.pendingResults()).toEqual([]);
      expect([second.createdKeyFor(9), second.createAttemptFor(10)]).toEqual([undefined, undefined]);
      second.close();
    });

    it('an intent survives a restart for its own command only, keeps the first before, and goes with the acknowledgement', () => {
      const path = join(dir, 'intent.jsonl');
      const status = { type: 'ensure_status', params: { key: 'AURORA-2', path: ['In Progress', 'Done'] } };
      const first = new FileJournal(path);
      first.recordIntent(7, status, [{ key: 'AURORA-2', what: 'status', before: 'To Do', after: 'Done' }]);
      first.close();
      const second = new FileJournal(path);
      // The walk starts again midway: the intent keeps the status before the command.
      second.recordIntent(7, status, [{ key: 'AURORA-2', what: 'status', before: 'In Progress', after: 'Done' }]);
      expect(second.intentFor(7, status)).toEqual([{ key: 'AURORA-2', what: 'status', before: 'To Do', after: 'Done' }]);
      expect(second.intentFor(7, { ...status, params: { key: 'AURORA-3', path: ['Done'] } })).toBeUndefined();
      // Transitions journaled as they are taken add up, whichever execution took them.
      second.recordIntent(7, status, [{ key: 'AURORA-2', what: 'status', before: 'In Progress', after: 'Done', transitions: ['Start'] }]);
      second.recordIntent(7, status, [{ key: 'AURORA-2', what: 'status', before: 'In Progress', after: 'Done', transitions: ['Finish'] }]);
      expect(second.intentFor(7, status)).toEqual([{ key: 'AURORA-2', what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }]);
      second.markAcknowledged(7);
      expect(second.intentFor(7, status)).toBeUndefined();
      second.close();
      const third = new FileJournal(path);
      expect(third.intentFor(7, status)).toBeUndefined();
      third.close();
    });

    it("a released command's acknowledgement keeps its key, attempt and intent across restarts: it comes back; its final one clears them", () => {
      const path = join(dir, 'released.jsonl');
      const status = { type: 'ensure_status', params: { key: 'AURORA-4', path: ['In Progress', 'Done'] } };
      const first = new FileJournal(path);
      first.recordCreated(11, 'AURORA-40', { summary: 'C', project: 'AURORA' });
      first.recordCreateAttempt(12, 'D', 'AURORA');
      first.recordIntent(13, status, [{ key: 'AURORA-4', what: 'status', before: 'To Do', after: 'Done', transitions: ['Start'] }]);
      for (const id of [11, 12, 13]) {
        first.recordResult(id, { status: 'released', error: 'HTTP 401' }, null);
        first.markAcknowledged(id);
      }
      first.close();
      const second = new FileJournal(path); // replays, and compacts on open
      expect(second.pendingResults()).toEqual([]);
      expect(second.createdKeyFor(11, { summary: 'C', project: 'AURORA' })).toBe('AURORA-40');
      expect(second.createAttemptFor(12)).toEqual(expect.objectContaining({ summary: 'D' }));
      expect(second.intentFor(13, status)).toEqual([expect.objectContaining({ before: 'To Do', transitions: ['Start'] })]);
      second.close();
      const third = new FileJournal(path); // the kept entries survive a second compaction too
      expect(third.intentFor(13, status)).toEqual([expect.objectContaining({ before: 'To Do', transitions: ['Start'] })]);
      third.recordResult(13, { status: 'done', result: {} }, null);
      third.markAcknowledged(13);
      expect(third.intentFor(13, status)).toBeUndefined();
      third.close();
    });

    it('what a released command made is forgotten once another command is finished instead: it is not coming back (cancelled)', () => {
      const path = join(dir, 'released-cancelled.jsonl');
      const first = new FileJournal(path);
      first.recordCreated(15, 'AURORA-41', { summary: 'E', project: 'AURORA' });
      first.recordResult(15, { status: 'released', error: 'HTTP 401' }, null);
      first.markAcknowledged(15);
      first.close();
      const second = new FileJournal(path);
      expect(second.createdKeyFor(15, { summary: 'E', project: 'AURORA' })).toBe('AURORA-41');
      second.recordResult(16, { status: 'done', result: {} }, null);
      second.markAcknowledged(16);
      expect(second.createdKeyFor(15, { summary: 'E', project: 'AURORA' })).toBeUndefined();
      second.close();
      const third = new FileJournal(path);
      expect(third.createdKeyFor(15, { summary: 'E', project: 'AURORA' })).toBeUndefined();
      third.close();
    });

    it('a revised intent replaces the journaled changes as given, across a restart (a transition that never reached Jira dropped)', () => {
      const path = join(dir, 'revised.jsonl');
      const status = { type: 'ensure_status', params: { key: 'AURORA-2', path: ['In Progress', 'Done'] } };
      const first = new FileJournal(path);
      first.recordIntent(8, status, [{ key: 'AURORA-2', what: 'status', before: 'To Do', after: 'Done', transitions: ['Start'] }]);
      first.recordIntent(8, status, [{ key: 'AURORA-2', what: 'status', before: 'In Progress', after: 'Done', transitions: ['Finish'] }]);
      first.close();
      const second = new FileJournal(path);
      second.reviseIntent(8, status, [{ key: 'AURORA-2', what: 'status', before: 'To Do', after: 'Done', transitions: ['Start'] }]);
      second.close();
      const third = new FileJournal(path);
      expect(third.intentFor(8, status)).toEqual([{ key: 'AURORA-2', what: 'status', before: 'To Do', after: 'Done', transitions: ['Start'] }]);
      // Transitions journaled after it add up from there.
      third.recordIntent(8, status, [{ key: 'AURORA-2', what: 'status', before: 'In Progress', after: 'Done', transitions: ['Finish'] }]);
      expect(third.intentFor(8, status)).toEqual([{ key: 'AURORA-2', what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }]);
      third.close();
    });

    it('a created key or attempt made for another summary or project is ignored (ids are reused by a new hub)', () => {
      const path = join(dir, 'origin.jsonl');
      const first = new FileJournal(path);
      first.recordCreated(5, 'AURORA-5', { summary: 'Старая', project: 'AURORA' });
      first.recordCreateAttempt(6, 'Старая 6', 'AURORA');
      first.close();
      const second = new FileJournal(path);
      expect(second.createdKeyFor(5, { summary: 'Старая', project: 'AURORA' })).toBe('AURORA-5');
      expect(second.createdKeyFor(5, { summary: 'Новая', project: 'AURORA' })).toBeUndefined();
      expect(second.createdKeyFor(5, { summary: 'Старая', project: 'OTHER' })).toBeUndefined();
      expect(second.createAttemptFor(6, { summary: 'Старая 6', project: 'AURORA' })).toEqual({ summary: 'Старая 6', project: 'AURORA', at: expect.any(String) });
      expect(second.createAttemptFor(6, { summary: 'Новая 6', project: 'AURORA' })).toBeUndefined();
      expect(second.createAttemptFor(6, { summary: 'Старая 6', project: 'OTHER' })).toBeUndefined();
      second.close();
    });

    it('keeps created keys and pending results across restarts, until acknowledged', () => {
      const path = join(dir, 'nested', 'journal.jsonl');
      const first = new FileJournal(path);
      first.recordCreated(7, 'AURORA-12');
      first.recordResult(7, { status: 'done', result: { key: 'AURORA-12', created: true }, jira_calls: 2, rate_limited: 0 }, '2026-10-13T10:00:00.000Z');
      first.close();

      const second = new FileJournal(path);
      expect(second.createdKeyFor(7)).toBe('AURORA-12');
      expect(second.pendingResults()).toEqual([{ command_id: 7, report: { status: 'done', result: { key: 'AURORA-12', created: true }, jira_calls: 2, rate_limited: 0 } }]);
      expect(second.lastJiraCallAt()).toBe('2026-10-13T10:00:00.000Z');
      second.markAcknowledged(7);
      second.close();

      const third = new FileJournal(path);
      expect(third.pendingResults()).toEqual([]);
      expect(third.createdKeyFor(7)).toBeUndefined();
      expect(third.lastJiraCallAt()).toBe('2026-10-13T10:00:00.000Z');
      third.close();
      // Compacted on open: only the last acknowledgement (carrying the pacing time) remains.
      expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(1);
    });

    it('keeps a create attempt across restarts until its key is recorded', () => {
      const path = join(dir, 'attempt-key.jsonl');
      const first = new FileJournal(path);
      first.recordCreateAttempt(11, 'Задача');
      const attempt = first.createAttemptFor(11);
      expect(attempt).toEqual({ summary: 'Задача', at: expect.any(String) });
      first.close();

      const second = new FileJournal(path); // compacted on open: the attempt, with its original time, is kept
      expect(second.createAttemptFor(11)).toEqual(attempt);
      expect(second.createdKeyFor(11)).toBeUndefined();
      second.recordCreated(11, 'AURORA-40');
      expect(second.createAttemptFor(11)).toBeUndefined();
      second.close();

      const third = new FileJournal(path);
      expect([third.createAttemptFor(11), third.createdKeyFor(11)]).toEqual([undefined, 'AURORA-40']);
      third.close();
      expect(readFileSync(path, 'utf8')).not.toContain('create_attempt');
    });

    it('keeps a create attempt across restarts until the result is acknowledged', () => {
      const path = join(dir, 'attempt-ack.jsonl');
      const first = new FileJournal(path);
      first.recordCreateAttempt(12, 'Задача 12');
      first.recordResult(12, { status: 'failed', error: 'HTTP 400: x' }, null);
      first.close();

      const second = new FileJournal(path);
      expect(second.createAttemptFor(12)).toEqual({ summary: 'Задача 12', at: expect.any(String) });
      expect(second.pendingResults()).toHaveLength(1);
      second.markAcknowledged(12);
      expect(second.createAttemptFor(12)).toBeUndefined();
      second.close();

      const third = new FileJournal(path);
      expect(third.createAttemptFor(12)).toBeUndefined();
      third.close();
      expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(1); // only the acknowledgement
    });

    it('ignores a line torn by a crash and keeps appending cleanly', () => {
      const path = join(dir, 'torn.jsonl');
      const journal = new FileJournal(path);
      journal.recordCreated(1, 'AURORA-1');
      journal.close();
      appendFileSync(path, '{"command_id":2,"state":"pend');
      const reopened = new FileJournal(path);
      expect(reopened.createdKeyFor(1)).toBe('AURORA-1');
      reopened.recordCreated(3, 'AURORA-3');
      reopened.close();
      const last = new FileJournal(path);
      expect([last.createdKeyFor(1), last.createdKeyFor(3), last.pendingResults()]).toEqual(['AURORA-1', 'AURORA-3', []]);
      last.close();
    });
  });

  describe('MemoryJournal', () => {
    it('behaves like the file journal without a file', () => {
      const journal = new MemoryJournal();
      journal.recordCreated(1, 'A-1');
      journal.recordResult(1, { status: 'failed', error: 'HTTP 400: x' }, null);
      expect(journal.pendingResults()).toHaveLength(1);
      journal.markAcknowledged(1);
      expect(journal.pendingResults()).toEqual([]);
      expect(journal.entries).toHaveLength(3);
    });
  });
});
