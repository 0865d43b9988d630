import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulatorFromEnv, JiraSimulator } from '@jira-hub/jira-sim';
import { FakeHub } from './fake-hub.js';
import { until } from './test-support.js';
import { agentBin, jiraClientFromEnv, partIssuesFromEnv, runAgentFromEnv, shownAddress, waitSecondsFromEnv } from './main.js';

describe('main', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-main-'));
  let sim: JiraSimulator;
  let simUrl: string;

  beforeAll(async () => {
    sim = new JiraSimulator();
    simUrl = await sim.start();
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });

  afterAll(async () => {
    jest.restoreAllMocks(); // console.log is the next file's again (files may share a module registry: test/support/groups.ts)
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('runAgentFromEnv', () => {
    it('runs one claim against the hub and Jira named by the environment', async () => {
      const hub = new FakeHub('secret');
      const hubUrl = await hub.start();
      const key = sim.store.createIssue('AURORA', { summary: 'env', issueType: 'Task' }, 'x').key;
      hub.enqueue({ id: 1, type: 'ensure_comment', params: { key, body: 'из окружения' } });
      try {
        const summary = await runAgentFromEnv({
          HUB_URL: hubUrl,
          HUB_AGENT_TOKEN: 'secret',
          JIRA_URL: simUrl,
          JIRA_FLAVOR: 'dc',
          JIRA_PAT: 'pat',
          JIRA_PROJECT: 'AURORA',
          AGENT_JOURNAL: join(dir, 'j', 'journal.jsonl'),
          AGENT_ONCE: '1',
          AGENT_WAIT_SECONDS: '0',
        });
        expect(summary).toEqual({ executed: 1, reported: 1, stoppedBy: 'once' });
        expect(sim.comments(key).map((c) => c.body)).toEqual(['из окружения']);
        expect(sim.requests.at(-1)?.authorization).toBe('Bearer pat');
      } finally {
        await hub.stop();
      }
    });

    it('clamps AGENT_WAIT_SECONDS to a whole number of seconds 0..60 (the hub refuses more than 60); not a number is refused', () => {
      expect(waitSecondsFromEnv({})).toBe(30);
      expect(waitSecondsFromEnv({ AGENT_WAIT_SECONDS: '' })).toBe(30);
      expect(() => waitSecondsFromEnv({ AGENT_WAIT_SECONDS: 'abc' })).toThrow('AGENT_WAIT_SECONDS должно быть числом секунд (0..60), а не «abc»');
      expect(() => waitSecondsFromEnv({ AGENT_WAIT_SECONDS: '1e3' })).toThrow(/AGENT_WAIT_SECONDS/);
      expect(waitSecondsFromEnv({ AGENT_WAIT_SECONDS: '0' })).toBe(0);
      expect(waitSecondsFromEnv({ AGENT_WAIT_SECONDS: '12.7' })).toBe(12);
      expect(waitSecondsFromEnv({ AGENT_WAIT_SECONDS: '120' })).toBe(60);
      expect(waitSecondsFromEnv({ AGENT_WAIT_SECONDS: '-5' })).toBe(0);
    });

    it('reads AGENT_REFRESH_PART_ISSUES as a whole number from 1 (unset: the default)', () => {
      expect(partIssuesFromEnv({})).toBeUndefined();
      expect(partIssuesFromEnv({ AGENT_REFRESH_PART_ISSUES: ' 500 ' })).toBe(500);
      for (const bad of ['0', '-3', '2.5', 'много']) expect(() => partIssuesFromEnv({ AGENT_REFRESH_PART_ISSUES: bad })).toThrow(/AGENT_REFRESH_PART_ISSUES/);
    });

    it('explains a missing or wrong variable in Russian', async () => {
      await expect(runAgentFromEnv({ JIRA_URL: simUrl })).rejects.toThrow('не заданы переменные окружения: HUB_URL, JIRA_PROJECT, JIRA_EMAIL, JIRA_API_TOKEN');
      expect(() => jiraClientFromEnv({ JIRA_URL: simUrl, JIRA_FLAVOR: 'server' })).toThrow('JIRA_FLAVOR должен быть cloud или dc');
    });
  });

  describe('agentBin (jira-hub-agent)', () => {
    /** Its exit code and the lines it printed to stderr. */
    async function bin(args: string[], env: Record<string, string> = {}): Promise<{ code: number; err: string[] }> {
      const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const code = await agentBin(args, env);
        return { code, err: error.mock.calls.map((c) => String(c[0])) };
      } finally {
        error.mockRestore();
      }
    }
    const HELP = ' (список параметров и переменных: jira-hub-agent --help)';

    it('refuses a missing or bad variable or an unknown option in one Russian line, exit code 2 (they exited 1, in two lines)', async () => {
      const env = { HUB_URL: 'http://127.0.0.1:1', JIRA_URL: simUrl, JIRA_PROJECT: 'AURORA', JIRA_FLAVOR: 'dc', JIRA_PAT: 'pat' };
      const before = sim.requests.length;
      expect(await bin(['--bogus'], env)).toEqual({ code: 2, err: [`jira-hub-agent: неизвестный параметр «--bogus»${HELP}`] });
      expect(await bin(['--once', 'extra'], env)).toEqual({ code: 2, err: [`jira-hub-agent: неизвестный параметр «extra»${HELP}`] });
      expect(await bin([], {})).toEqual({ code: 2, err: [`jira-hub-agent: не заданы переменные окружения: HUB_URL, JIRA_URL, JIRA_PROJECT, JIRA_EMAIL, JIRA_API_TOKEN${HELP}`] });
      expect(await bin(['--once'], { ...env, JIRA_FLAVOR: 'server', AGENT_REFRESH_PART_ISSUES: '2.5' })).toEqual({
        code: 2,
        err: [`jira-hub-agent: JIRA_FLAVOR должен быть cloud или dc, а не «server»; AGENT_REFRESH_PART_ISSUES должно быть целым числом от 1, а не «2.5»${HELP}`],
      });
      expect(sim.requests.length).toBe(before); // refused before anything is sent to Jira
    });

    it('a failure is still exit code 1: a pre-flight check Jira does not pass', async () => {
      const failed = await bin(['--once'], { HUB_URL: 'http://127.0.0.1:1', JIRA_URL: 'http://127.0.0.1:1', JIRA_PROJECT: 'AURORA', JIRA_FLAVOR: 'dc', JIRA_PAT: 'pat' });
      expect(failed).toEqual({ code: 1, err: [expect.stringMatching(/^jira-hub-agent: проверка перед стартом не пройдена: Jira недоступна/)] });
      expect(failed.err[0]).not.toContain('--help');
    });
  });

  describe('runSimulatorFromEnv', () => {
    it('serves until stopped', async () => {
      const stop = new AbortController();
      const running = runSimulatorFromEnv({ JIRA_SIM_PORT: '0', JIRA_SIM_PROJECT: 'ZED' }, stop.signal);
      const announced = () => (console.log as jest.Mock).mock.calls.map((c) => String(c[0])).find((l) => l.startsWith('Симулятор Jira слушает'));
      await until(() => announced() !== undefined); // it listens, then says where
      const line = announced()!;
      const url = /слушает (http:\/\/\S+)/.exec(line)![1]!;
      const boards = await (await fetch(`${url}/rest/agile/1.0/board?projectKeyOrId=ZED`)).json();
      expect(boards.values[0].location.projectKey).toBe('ZED');
      stop.abort();
      await running;
    });
  });
});

describe('shownAddress', () => {
  it.each([
    ['https://bob:secret@jira.example', 'https://***@jira.example'],
    // a password with «/», «?» or «#» unencoded (new URL refuses it, and the refusal quotes the address)
    ['https://bob:ab/cd@jira.example', 'https://***@jira.example'],
    ['https://bob:a?b#c@jira.example/rest', 'https://***@jira.example/rest'],
    ['https://jira.example', 'https://jira.example'],
  ])('%s → %s', (raw, shown) => {
    expect(shownAddress(raw)).toBe(shown);
  });
});
