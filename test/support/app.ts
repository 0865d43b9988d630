import { expect } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp, type AppOptions } from '../../src/app.js';
import { Clock } from '../../src/common/clock.js';
import { loadConfig, type HubConfig } from '../../src/common/config.js';
import { Db } from '../../src/database/db.service.js';
import { onPostgres, testDatabaseEnv } from './pg.js';
import { copyOfMigratedDatabase } from './template.js';

/** A clock that tests move by hand: its timers (the long poll's deadline) fire as it passes them. */
export class TestClock extends Clock {
  private timers: { at: number; fn: () => void }[] = [];

  constructor(private t = Date.parse('2026-11-30T10:00:00.000Z')) {
    super();
  }
  override now(): Date {
    return new Date(this.t);
  }
  override after(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((x) => x !== timer));
  }
  /** Timers waiting on this clock. */
  get pending(): number {
    return this.timers.length;
  }
  advance(ms: number): void {
    this.t += ms;
    const due = this.timers.filter((x) => x.at <= this.t).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const x of due) x.fn();
  }
}

export interface TestHub {
  app: NestExpressApplication;
  /** Where it listens: http://127.0.0.1:<port>. */
  url: string;
  port: number;
  /** supertest on the listening server: requests share kept-alive connections. */
  http: ReturnType<typeof request>;
  clock: TestClock;
  config: HubConfig;
  dir: string;
  close(): Promise<void>;
}

/**
 * A new folder for a test's files: inside the run's folder (jest's globalSetup makes it and its
 * globalTeardown removes it, so a folder a test leaves behind goes with the run), else in the system's.
 */
export function tempDir(): string {
  return mkdtempSync(join(process.env.HUB_TEST_TEMPLATES ?? tmpdir(), 'jira-hub-test-'));
}

/**
 * supertest on `server` whose requests reuse the connections of `connections` (keep-alive), as an agent
 * and a browser do: superagent opens and closes a connection for every request by default, which cost
 * each request a third of its CPU on both ends.
 */
function keptAlive(server: Server, connections: Agent): ReturnType<typeof request> {
  const plain = request(server) as unknown as Record<string, (url: string) => { agent(a: Agent): unknown }>;
  const kept: Record<string, (url: string) => unknown> = {};
  for (const [method, make] of Object.entries(plain)) kept[method] = (url) => make(url).agent(connections);
  return kept as unknown as ReturnType<typeof request>;
}

/**
 * A real hub (real migrations, real better-sqlite3) on a temp-file database unless HUB_DB_PATH says
 * otherwise (the temp file starts as a copy of a freshly migrated one: support/template.ts), listening
 * on loopback (`port`, default a free one); supertest drives it over HTTP. With HUB_TEST_DATABASE_URL
 * set, on a PostgreSQL schema that stands for that file (support/pg.ts). `options.drainMs`: how long its
 * close lets the requests in flight finish (src/drain.ts).
 */
export async function startHub(env: Record<string, string> = {}, clock = new TestClock(), port = 0, options: Pick<AppOptions, 'drainMs'> = {}): Promise<TestHub> {
  const dir = tempDir();
  let config: HubConfig;
  let app: NestExpressApplication;
  try {
    const own = 'HUB_DB_PATH' in env || 'HUB_DATABASE_URL' in env;
    if (!own && !onPostgres) await copyOfMigratedDatabase(join(dir, 'hub.sqlite'));
    // The hub's own refresh_catalogue (SPEC 16.1) would join every test's queue: on only where a test asks.
    config = loadConfig(await testDatabaseEnv({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_CATALOGUE_AUTO_REFRESH: 'off', ...env }));
    app = await createApp(config, { clock, logger: process.env.HUB_TEST_LOGS === '1', ...options });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true }); // a refused start leaves no folder behind
    throw err;
  }
  try {
    // Listening once: supertest on a server that does not listen opens and closes one for every request.
    await app.listen(port, '127.0.0.1');
  } catch (err) {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const server = app.getHttpServer();
  const connections = new Agent({ keepAlive: true });
  const http = keptAlive(server, connections);
  const bound = (server.address() as AddressInfo).port;
  return {
    app,
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    http,
    clock,
    config,
    dir,
    close: async () => {
      await app.close();
      connections.destroy();
      rmSync(dir, { recursive: true, force: true }); // the database's folder only when HUB_DB_PATH was not given
    },
  };
}

export const fields = (key: string, extra: Record<string, unknown> = { duedate: '2026-12-01' }) => ({ type: 'ensure_fields', params: { key, ...extra } });
export const issue = (tempKey: string, summary: string, extra: Record<string, unknown> = {}) => ({
  type: 'ensure_issue',
  params: { temp_key: tempKey, issue_type: 'Task', summary, ...extra },
});
export const comment = (key: string, body = 'text') => ({ type: 'ensure_comment', params: { key, body } });

/**
 * The number of rows in each of `tables`, read on the hub's reader: what a test compares before and
 * after a call that must write nothing. One query after another (a PostgreSQL client runs one at a time).
 */
export function rowCounts(hub: TestHub, tables: readonly string[]): Promise<Record<string, number>> {
  return hub.app.get(Db).read(async (m) => {
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table] = Number((await m.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
    return counts;
  });
}

/**
 * A 422 `validation_failed` that names one field: the detail names `<field>: ` and says `detail`, and
 * `errors` holds that one field with its detail.
 */
export function expectFieldRefused(res: { status: number; body: { error?: unknown; detail?: unknown; errors?: unknown } }, field: string, detail: string): void {
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ error: 'validation_failed', detail: expect.stringContaining(`${field}: `) });
  expect(res.body.detail).toContain(detail);
  expect(res.body.errors).toEqual([{ field, detail: expect.stringContaining(detail) }]);
}

/** The agent's two calls, as a test drives them. */
export function agentOf(hub: TestHub) {
  return {
    claim: async (body: Record<string, unknown> = {}) => (await hub.http.post('/agent/claim').send(body).expect(200)).body,
    report: (id: number, body: Record<string, unknown>) => hub.http.post(`/agent/commands/${id}/result`).send(body),
    done: async (id: number, result: Record<string, unknown> = {}) =>
      (await hub.http.post(`/agent/commands/${id}/result`).send({ status: 'done', result }).expect(200)).body,
  };
}

/** The client's side of a test hub: a batch created (201) and a command read (200), their bodies. */
export function clientOf(hub: TestHub) {
  return {
    batch: async (commands: object[], title = 't') => (await hub.http.post('/batches').send({ title, commands }).expect(201)).body,
    command: async (id: number) => (await hub.http.get(`/commands/${id}`).expect(200)).body,
  };
}

/** A refresh result in SPEC 4's shape. */
export function refreshResult(issues: Record<string, unknown>[], links: { source_key: string; target_key: string; link_type: string }[] = []) {
  return {
    issues: issues.map((i) => ({
      summary: 's',
      issue_type: 'Task',
      status: 'To Do',
      sprint: null,
      assignee: null,
      priority: null,
      duedate: null,
      labels: [],
      created: null,
      updated: null,
      ...i,
    })),
    links,
  };
}
