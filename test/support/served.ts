/**
 * A hub started as `jira-hub serve` starts it, for the tests that run the real agent and the simulator
 * beside it, and JSON calls to it over fetch.
 */
import { join } from 'node:path';
import { FileJournal, HubClient, JiraClient, runAgent } from '@jira-hub/agent';
import { serve } from '../../src/cli.js';
import { testDatabaseEnv } from './pg.js';
import { waitFor } from './wait.js';

export interface ServedHub {
  url: string;
  close: () => Promise<void>;
}

/**
 * `serve()` on a new database in `dir` (SQLite; a PostgreSQL schema of its own under `npm run test:pg`) on a
 * free port of 127.0.0.1, the lines it prints about where it listens kept off the test's output.
 */
export async function quietServe(dir: string): Promise<ServedHub> {
  const log = console.log;
  console.log = () => undefined;
  try {
    return await serve(await testDatabaseEnv({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: '0', HUB_HOST: '127.0.0.1', HUB_LOG_LEVEL: 'error' }));
  } finally {
    console.log = log;
  }
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Calls to the hub at `url()` (read at each call: a test starts its hub later): `send` answers the Response;
 * `call` the parsed body of a 2xx and throws naming the status and the body otherwise. A FormData body goes
 * as multipart, anything else as JSON.
 */
export function hubCalls(url: () => string) {
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const form = body instanceof FormData;
    return fetch(url() + path, {
      method,
      headers: body === undefined || form ? headers : { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
  };
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> => {
    const response = await send(method, path, body, headers);
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → HTTP ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return { send, call };
}

/** The reference agent running against the hub and a Jira (the simulator), until `stop()`. */
export interface RunningAgent {
  /** the agent's and its hub client's log lines */
  lines: string[];
  stop: () => Promise<void>;
}

/**
 * The reference agent on the hub at `hubUrl` and the Jira at `jiraUrl` (Cloud with basic auth unless `flavor`
 * says `dc`, then a personal token), its journal at `journalPath`, short retries; `waitSeconds` its long poll.
 */
export function startAgent(hubUrl: string, jiraUrl: string, journalPath: string, options: { project?: string; flavor?: 'cloud' | 'dc'; waitSeconds?: number } = {}): RunningAgent {
  const { project = 'AURORA', flavor = 'cloud', waitSeconds = 30 } = options;
  const stop = new AbortController();
  const lines: string[] = [];
  const journal = new FileJournal(journalPath);
  const auth = flavor === 'cloud' ? ({ kind: 'basic', email: 'bot@example.com', apiToken: 'token' } as const) : ({ kind: 'bearer', token: 'pat' } as const);
  const finished = runAgent({
    journal,
    hub: new HubClient({ baseUrl: hubUrl, stopSignal: stop.signal, retryBaseMs: 20, retryMaxMs: 200, log: (l) => void lines.push(l) }),
    jira: new JiraClient({ baseUrl: jiraUrl, flavor, auth, minRetryAfterMs: 5, maxRetryAfterMs: 50 }),
    project,
    log: (l) => void lines.push(l),
    stopSignal: stop.signal,
    waitSeconds,
  }).finally(() => journal.close());
  return {
    lines,
    stop: async () => {
      stop.abort();
      await finished.catch(() => undefined);
    },
  };
}

/**
 * Runs the reference agent (Jira Cloud at `jiraUrl`, the journal at `journalPath`) until batch `batchId` is
 * done, then stops it; answers the batch. A batch that does not finish in a minute fails with the agent's log.
 */
export async function agentUntilDone(hubUrl: string, jiraUrl: string, project: string, journalPath: string, batchId: number): Promise<Json> {
  const { call } = hubCalls(() => hubUrl);
  const agent = startAgent(hubUrl, jiraUrl, journalPath, { project });
  try {
    return await waitFor(`batch ${batchId} done`, async () => {
      const view = await call('GET', `/batches/${batchId}`);
      return view.status === 'done' ? view : undefined;
    }, 60_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nagent log:\n${agent.lines.join('\n')}`);
  } finally {
    await agent.stop();
  }
}
