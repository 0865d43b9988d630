/** Shared set-up for the agent's specs: a simulator on port 0 and a fast-retrying client of one flavor. */
import { JiraSimulator, type JiraSimulatorOptions } from '@jira-hub/jira-sim';
import { JiraClient, type JiraFlavor } from './jira-client.js';
import { MemoryJournal } from './journal.js';
import type { ExecutorContext } from './commands/context.js';
import type { CommandOutcome } from './types.js';

export interface SimHarness {
  sim: JiraSimulator;
  url: string;
  /** A client of the flavor; with `stopSignal`, a stop ends its request in flight (as the agent's main wires it). */
  client: (flavor: JiraFlavor, stopSignal?: AbortSignal) => JiraClient;
  ctx: (flavor: JiraFlavor, journal?: MemoryJournal) => ExecutorContext;
  sleeps: number[];
  /** The clients' clock: real time at start, moved on by every (fake) sleep, so no test waits for real. */
  clock: { now: number };
  /** Lines the clients logged (rate-limit waits). */
  logs: string[];
}

export async function startHarness(options: JiraSimulatorOptions = {}): Promise<SimHarness> {
  const sim = new JiraSimulator(options);
  const url = await sim.start();
  const sleeps: number[] = [];
  const clock = { now: Date.now() };
  const logs: string[] = [];
  const client = (flavor: JiraFlavor, stopSignal?: AbortSignal): JiraClient =>
    new JiraClient({
      baseUrl: url,
      flavor,
      auth: flavor === 'cloud' ? { kind: 'basic', email: 'bot@example.com', apiToken: 'token' } : { kind: 'bearer', token: 'pat' },
      minRetryAfterMs: 5000,
      now: () => clock.now,
      log: (line) => logs.push(line),
      random: () => 0.5,
      stopSignal,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.now += ms;
      },
    });
  return {
    sim,
    url,
    client,
    ctx: (flavor, journal = new MemoryJournal()) => ({ client: client(flavor), project: 'AURORA', journal }),
    sleeps,
    clock,
    logs,
  };
}

export const FLAVORS: JiraFlavor[] = ['cloud', 'dc'];
export const API_PREFIX: Record<JiraFlavor, string> = { cloud: '/rest/api/3', dc: '/rest/api/2' };

/** The result of a command that must have succeeded. */
export function resultOf<T = Record<string, unknown>>(out: CommandOutcome): T {
  if (out.status !== 'done') throw new Error(`expected done, got failed: ${out.error}`);
  return out.result as T;
}

/**
 * Lets the event loop turn until `done()` holds (a spec whose condition never comes runs into jest's
 * timeout): a few turns at once, where most conditions come, then a look every 2 ms. Turning without
 * pause kept a core busy for as long as the simulator's latency lasted.
 */
export async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; !done(); turn++) await new Promise((resolve) => (turn < 10 ? setImmediate(resolve) : setTimeout(resolve, 2)));
}

/** An outcome without its change record: the specs of what a command does in Jira (changes.spec.ts checks the record). */
export function withoutChanges(out: CommandOutcome): CommandOutcome {
  if (out.status !== 'done' || out.changes === undefined) return out;
  const { changes: _, ...rest } = out;
  return rest;
}
