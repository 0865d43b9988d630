import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Change } from '@jira-hub/contracts';
import type { ReportBody } from './types.js';

/** A POST /issue sent for a command whose answer (the key) was never recorded: Jira may or may not hold the issue. */
export interface CreateAttempt {
  summary: string;
  /** The project the issue was to be created in (absent in entries written before it was recorded). */
  project?: string;
  /** When the attempt was journaled (ISO time), kept as is through compaction. */
  at: string;
}

/** The command a created key or a create attempt belongs to: its summary (trimmed) and project. */
export interface CreateOrigin {
  summary: string;
  project: string;
}

/**
 * What executors need: the key an earlier delivery of the same command created (Jira search lags behind).
 * Command ids are the hub's: a new hub database hands out the same ids again, so a key and an attempt carry
 * the summary and project they were made for, and a lookup with `origin` ignores an entry made for another
 * command (an entry written without them, by an older agent, is taken as matching).
 */
export interface CreatedKeyJournal {
  createdKeyFor(commandId: number, origin?: CreateOrigin): string | undefined;
  /** Also clears the command's create attempt. */
  recordCreated(commandId: number, key: string, origin?: CreateOrigin): void;
  /** The create attempt journaled for the command and not yet cleared (by its key, or the final result's acknowledgement or drop; a release's keeps it). */
  createAttemptFor(commandId: number, origin?: CreateOrigin): CreateAttempt | undefined;
  /** Written (durably) just before POST /issue, so a lost answer is known to a retry or a re-delivery. */
  recordCreateAttempt(commandId: number, summary: string, project?: string): void;
  /**
   * What a write is about to change (SPEC 17.1), written (durably) just before it: a re-delivery after a
   * lost report finds Jira already as the command wants it, and reports these changes instead of none.
   * `command` is the command's type and params: an entry is used only for the same command. A change
   * already journaled keeps its `before` (the value before the command), and its `transitions` are
   * added to: a walk of statuses journals each transition just before it is sent, in one execution or
   * across re-deliveries (a re-delivery drops, with reviseIntent, one that Jira's status shows was never taken).
   */
  recordIntent(commandId: number, command: IntentCommand, changes: Change[]): void;
  /**
   * Replaces the changes journaled for the command by `changes`, as given (nothing kept, nothing added): a
   * re-delivery corrects an intent by what Jira shows, e.g. drops a transition journaled just before it was
   * sent that never reached Jira.
   */
  reviseIntent(commandId: number, command: IntentCommand, changes: Change[]): void;
  /**
   * The changes journaled for this very command (type and params) and not yet cleared by its final
   * acknowledgement or drop (a release's acknowledgement keeps them: the command comes back).
   */
  intentFor(commandId: number, command: IntentCommand): Change[] | undefined;
}

/** The command a journaled intent belongs to. */
export interface IntentCommand {
  type: string;
  params: Record<string, unknown>;
}

const intentOf = (command: IntentCommand): string => JSON.stringify([command.type, command.params]);

export interface PendingResult {
  command_id: number;
  report: ReportBody;
}

/**
 * What the agent loop needs on top: a finished result is written BEFORE it is reported and marked
 * acknowledged after the hub's 2xx; the loop claims only when no pending result is held.
 */
export interface AgentJournal extends CreatedKeyJournal {
  recordResult(commandId: number, report: ReportBody, lastJiraCallAt: string | null): void;
  markAcknowledged(commandId: number): void;
  /**
   * Forgets a result the hub refused outright (404/409…), with the command's created key and create attempt:
   * the hub does not know the command (e.g. a new hub database, which hands the same ids out again for other
   * commands), so nothing journaled for the id may be reused.
   */
  dropResult(commandId: number): void;
  /** Unacknowledged results, oldest first. */
  pendingResults(): PendingResult[];
  /** Time of the last Jira call recorded with a result (survives restarts, so pacing does too). */
  lastJiraCallAt(): string | null;
}

/** One line of the journal file. */
type Entry =
  | { command_id: number; created_key: string; summary?: string; project?: string; at: string }
  | { command_id: number; create_attempt: CreateAttempt; at: string }
  | { command_id: number; intent: { command: string; changes: Change[] }; at: string }
  | { command_id: number; state: 'pending'; report: ReportBody; last_jira_call_at: string | null; at: string }
  | { command_id: number; state: 'acknowledged'; last_jira_call_at: string | null; at: string }
  | { command_id: number; state: 'dropped'; at: string }
  /** written by compaction: the command was released and what it made is kept until it comes back (JournalState.released) */
  | { command_id: number; state: 'released'; at: string };

/** Journal state, rebuilt by replaying entries. */
class JournalState {
  readonly created = new Map<number, { key: string; summary?: string; project?: string }>();
  readonly attempts = new Map<number, CreateAttempt>();
  readonly intents = new Map<number, { command: string; changes: Change[] }>();
  readonly pending = new Map<number, ReportBody>();
  /**
   * Commands released (a 401, SPEC 16.3) whose key, attempt and intent are kept: the hub hands a released
   * command out again first (it goes back to its place at the head of the queue). Once another command is
   * finished instead, it is not coming back (cancelled meanwhile), and what was kept for it goes.
   */
  readonly released = new Set<number>();
  lastCall: string | null = null;
  lastAcknowledged: number | null = null;

  apply(entry: Entry): void {
    if ('created_key' in entry) {
      this.created.set(entry.command_id, { key: entry.created_key, summary: entry.summary, project: entry.project });
      this.attempts.delete(entry.command_id);
    } else if ('create_attempt' in entry) {
      this.attempts.set(entry.command_id, entry.create_attempt);
    } else if ('intent' in entry) {
      this.intents.set(entry.command_id, entry.intent);
    } else if (entry.state === 'pending') {
      this.pending.set(entry.command_id, entry.report);
      this.lastCall = entry.last_jira_call_at ?? this.lastCall;
    } else if (entry.state === 'released') {
      this.released.add(entry.command_id);
    } else if (entry.state === 'dropped') {
      this.pending.delete(entry.command_id);
      this.forget(entry.command_id);
    } else {
      // A released command (a 401, SPEC 16.3) is not finished: it comes back, and what it created or
      // changed before the 401 (its key, its attempt, the transitions taken) must still be known then.
      const released = this.pending.get(entry.command_id)?.status === 'released';
      this.pending.delete(entry.command_id);
      if (released) this.released.add(entry.command_id);
      else for (const id of [entry.command_id, ...this.released]) this.forget(id);
      this.lastCall = entry.last_jira_call_at ?? this.lastCall;
      this.lastAcknowledged = entry.command_id;
    }
  }

  private forget(id: number): void {
    this.created.delete(id);
    this.attempts.delete(id);
    this.intents.delete(id);
    this.released.delete(id);
  }

  /** The fewest entries that rebuild this state. */
  compacted(at: string): Entry[] {
    const entries: Entry[] = [];
    if (this.lastAcknowledged !== null) entries.push({ command_id: this.lastAcknowledged, state: 'acknowledged', last_jira_call_at: this.lastCall, at });
    for (const [command_id, { key, summary, project }] of this.created) entries.push({ command_id, created_key: key, summary, project, at });
    for (const [command_id, create_attempt] of this.attempts) entries.push({ command_id, create_attempt, at });
    for (const [command_id, intent] of this.intents) entries.push({ command_id, intent, at });
    for (const command_id of this.released) entries.push({ command_id, state: 'released', at });
    for (const [command_id, report] of this.pending) entries.push({ command_id, state: 'pending', report, last_jira_call_at: this.lastCall, at });
    return entries;
  }
}

/** An entry made for `origin`'s command (fields the entry lacks, from an older agent, are not compared). */
function matches(entry: { summary?: string; project?: string }, origin: CreateOrigin | undefined): boolean {
  if (!origin) return true;
  if (entry.summary !== undefined && entry.summary.trim() !== origin.summary.trim()) return false;
  if (entry.project !== undefined && entry.project !== origin.project) return false;
  return true;
}

abstract class BaseJournal implements AgentJournal {
  protected readonly state = new JournalState();

  protected abstract append(entry: Entry): void;

  createdKeyFor(commandId: number, origin?: CreateOrigin): string | undefined {
    const created = this.state.created.get(commandId);
    return created && matches(created, origin) ? created.key : undefined;
  }

  recordCreated(commandId: number, key: string, origin?: CreateOrigin): void {
    this.write({ command_id: commandId, created_key: key, ...(origin ? { summary: origin.summary, project: origin.project } : {}), at: new Date().toISOString() });
  }

  createAttemptFor(commandId: number, origin?: CreateOrigin): CreateAttempt | undefined {
    const attempt = this.state.attempts.get(commandId);
    return attempt && matches(attempt, origin) ? attempt : undefined;
  }

  recordCreateAttempt(commandId: number, summary: string, project?: string): void {
    const at = new Date().toISOString();
    this.write({ command_id: commandId, create_attempt: { summary, ...(project !== undefined ? { project } : {}), at }, at });
  }

  recordIntent(commandId: number, command: IntentCommand, changes: Change[]): void {
    if (changes.length === 0) return;
    // An earlier entry keeps its `before` (the value before the command: a walk of statuses cut short
    // starts again midway) and the transitions it has taken; this one's follow them.
    const earlier = this.intentFor(commandId, command) ?? [];
    const same = (a: Change, b: Change) => a.key === b.key && a.what === b.what;
    const merged = [
      ...changes.map((c) => {
        const e = earlier.find((x) => same(x, c));
        if (!e) return c;
        const transitions = [...(e.transitions ?? []), ...(c.transitions ?? [])];
        return { ...c, ...('before' in e ? { before: e.before } : {}), ...(transitions.length ? { transitions } : {}) };
      }),
      ...earlier.filter((e) => !changes.some((c) => same(c, e))),
    ];
    this.write({ command_id: commandId, intent: { command: intentOf(command), changes: merged }, at: new Date().toISOString() });
  }

  reviseIntent(commandId: number, command: IntentCommand, changes: Change[]): void {
    this.write({ command_id: commandId, intent: { command: intentOf(command), changes }, at: new Date().toISOString() });
  }

  intentFor(commandId: number, command: IntentCommand): Change[] | undefined {
    const intent = this.state.intents.get(commandId);
    return intent && intent.command === intentOf(command) ? intent.changes : undefined;
  }

  recordResult(commandId: number, report: ReportBody, lastJiraCallAt: string | null): void {
    this.write({ command_id: commandId, state: 'pending', report, last_jira_call_at: lastJiraCallAt, at: new Date().toISOString() });
  }

  markAcknowledged(commandId: number): void {
    this.write({ command_id: commandId, state: 'acknowledged', last_jira_call_at: null, at: new Date().toISOString() });
  }

  dropResult(commandId: number): void {
    this.write({ command_id: commandId, state: 'dropped', at: new Date().toISOString() });
  }

  pendingResults(): PendingResult[] {
    return [...this.state.pending].map(([command_id, report]) => ({ command_id, report }));
  }

  lastJiraCallAt(): string | null {
    return this.state.lastCall;
  }

  private write(entry: Entry): void {
    this.append(entry);
    this.state.apply(entry);
  }
}

/** In-memory journal for tests and throw-away runs. */
export class MemoryJournal extends BaseJournal {
  readonly entries: Entry[] = [];

  protected append(entry: Entry): void {
    this.entries.push(entry);
  }
}

/**
 * The journal's folder and its missing parents, a level at a time: Node's recursive mkdir spins for ever
 * under a file system that holds no folders (/proc). There a level fails with ENOENT (its parent exists),
 * which the agent refuses in words (main.ts).
 */
function makeFolders(folder: string): void {
  const parent = dirname(folder);
  if (parent !== folder && !existsSync(parent)) makeFolders(parent);
  try {
    mkdirSync(folder);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/**
 * JSON-lines journal file. Every entry is appended and fsync'ed before the call returns, so a result written
 * before a crash is re-sent after it. On open the file is replayed (a torn last line from a crash is dropped)
 * and rewritten compacted (temp file, fsync, rename), keeping only what is still needed.
 */
export class FileJournal extends BaseJournal {
  private fd: number;

  constructor(readonly path: string) {
    super();
    makeFolders(dirname(path));
    if (existsSync(path)) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          this.state.apply(JSON.parse(line) as Entry);
        } catch {
          // A line cut short by a crash: the write it belonged to never returned, so nothing depends on it.
        }
      }
    }
    this.rewrite();
    this.fd = openSync(path, 'a');
  }

  protected append(entry: Entry): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private rewrite(): void {
    const temp = `${this.path}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      for (const entry of this.state.compacted(new Date().toISOString())) writeSync(fd, `${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.path);
    try {
      const dirFd = openSync(dirname(this.path), 'r');
      fsyncSync(dirFd);
      closeSync(dirFd);
    } catch {
      // Directory fsync is not supported everywhere (e.g. Windows); the rename is still atomic.
    }
  }
}
