/**
 * Each command's --help lists exactly the environment variables it reads (found by fuzzing: serve's
 * help missed four of its variables, the agent's and the simulator's one each, and the database
 * commands listed three while they read them all). The command runs in this process on an environment
 * that records every name asked of it, and the project's names among them (HUB_…, JIRA_…, AGENT_…) are
 * compared with the names its help lists. The commands that run until stopped (serve, jira-sim, mcp)
 * are stopped by a refusal that comes after everything they read (a port that is taken, an unknown
 * tool), so none needs a process of its own (decision 1402).
 *
 * NO_COLOR is asked for by libraries as they load (NestJS's logger, ansis), whatever the command: it
 * is left out of the comparison, and listed by the commands whose log is the hub's (HubLogger).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JiraSimulator } from '@jira-hub/jira-sim';
import { main } from '../src/cli.js';
import { startHub, tempDir, type TestHub } from './support/app.js';

const OURS = /^(?:HUB|JIRA|AGENT)_[A-Z0-9_]+$/;
const ours = (names: Iterable<string>): string[] => [...new Set(names)].filter((name) => OURS.test(name)).sort();

/** The variables `jira-hub <command> --help` lists (a line may name two: `JIRA_EMAIL, JIRA_API_TOKEN`), NO_COLOR apart. */
async function listed(command: string): Promise<string[]> {
  return ours(await listedAll(command));
}

async function listedAll(command: string): Promise<string[]> {
  const out: string[] = [];
  const log = console.log;
  console.log = (text: unknown) => void out.push(String(text));
  try {
    expect(await main([command, '--help'], {})).toBe(0);
  } finally {
    console.log = log;
  }
  const help = out.join('\n');
  const section = help.slice(help.indexOf('Переменные окружения'));
  return [...section.matchAll(/^ {2}([A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*) {2,}\S/gm)].flatMap((m) => m[1].split(', ')).sort();
}

/**
 * A view of `target` that adds every name asked of it to `names`; listing its names (a copy of the
 * environment) adds them all, and COPIED: what a command reads of its copy could not be seen.
 */
function recording<T extends object>(target: T, names: Set<string>): T {
  const note = (name: string | symbol) => typeof name === 'string' && names.add(name);
  return new Proxy(target, {
    get: (t, name) => (note(name), Reflect.get(t, name)),
    has: (t, name) => (note(name), Reflect.has(t, name)),
    ownKeys: (t) => {
      names.add(COPIED);
      return Reflect.ownKeys(t);
    },
  });
}
const COPIED = '(the environment was copied)';

/**
 * What `jira-hub <args>` reads: of the environment it is given, and of process.env (where the log looks
 * for NO_COLOR). `code`: the exit code the run ends with.
 */
async function reads(args: string[], env: Record<string, string>, code = 0): Promise<string[]> {
  const names = new Set<string>();
  const saved = process.env;
  const [log, error, writeOut, writeErr] = [console.log, console.error, process.stdout.write, process.stderr.write];
  // What the command prints, its log (written straight to the streams) included, is not this test's.
  console.log = console.error = () => undefined;
  process.stdout.write = process.stderr.write = (() => true) as typeof process.stdout.write;
  process.env = recording(saved, names);
  try {
    const ended = await main(args, recording({ ...env }, names));
    expect({ args, code: ended }).toEqual({ args, code: args.includes('--check') ? expect.any(Number) : code });
    expect({ args, copied: names.has(COPIED) }).toEqual({ args, copied: false });
  } finally {
    process.env = saved;
    [console.log, console.error, process.stdout.write, process.stderr.write] = [log, error, writeOut, writeErr];
  }
  return ours(names);
}

describe('each command’s --help lists exactly the variables it reads', () => {
  let dir: string;
  let hub: TestHub;
  let sim: JiraSimulator;
  let simUrl: string;

  beforeAll(async () => {
    dir = tempDir();
    hub = await startHub();
    sim = new JiraSimulator();
    simUrl = await sim.start();
  });
  afterAll(async () => {
    await sim?.stop();
    await hub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrate, import, plan, apply and export: the database’s variables', async () => {
    const db = { HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_DATABASE_URL: '', HUB_LOG_LEVEL: 'error' };
    const runs: [string, string[]][] = [
      ['migrate', ['migrate']],
      ['import', ['import', resolve('examples/plan')]],
      ['plan', ['plan', resolve('examples/plan')]],
      ['apply', ['apply', resolve('examples/plan')]],
      ['export', ['export', join(dir, 'export'), '--jql', 'project = AURORA']],
    ];
    for (const [command, args] of runs) {
      const read = await reads(args, db);
      expect({ command, read }).toEqual({ command, read: await listed(command) });
    }
  });

  it('agent: what a run and a check read, Cloud and Data Center', async () => {
    const base = { HUB_URL: hub.url, JIRA_URL: simUrl, JIRA_PROJECT: 'AURORA', AGENT_JOURNAL: join(dir, 'journal.jsonl'), AGENT_WAIT_SECONDS: '0' };
    // AGENT_ONCE rather than --once: an option given is not looked up as its variable
    const run = await reads(['agent'], { ...base, AGENT_ONCE: '1', JIRA_EMAIL: 'a@example.com', JIRA_API_TOKEN: 't' });
    const check = await reads(['agent', '--check'], { ...base, JIRA_FLAVOR: 'dc', JIRA_PAT: 'p' });
    expect(ours([...run, ...check])).toEqual(await listed('agent'));
  });

  it('serve, jira-sim and mcp, each stopped by a refusal after all it reads', async () => {
    const serve = await reads(['serve'], { HUB_DB_PATH: join(dir, 'serve.sqlite'), HUB_DATABASE_URL: '', HUB_HOST: '127.0.0.1', HUB_PORT: String(hub.port) }, 2);
    const sim = await reads(['jira-sim'], { JIRA_SIM_PORT: new URL(simUrl).port }, 2); // a taken port: one line, exit 2
    const mcp = await reads(['mcp'], { HUB_URL: hub.url, HUB_MCP_TOOLS: 'no_such_tool' }, 2);
    expect({ serve, sim, mcp }).toEqual({ serve: await listed('serve'), sim: await listed('jira-sim'), mcp: await listed('mcp') });
  });

  it('NO_COLOR is listed by the commands that log through the hub’s logger, and only by them', async () => {
    const logging = ['serve', 'migrate', 'import', 'plan', 'apply', 'export'];
    for (const command of [...logging, 'agent', 'jira-sim', 'mcp']) {
      expect({ command, listed: (await listedAll(command)).includes('NO_COLOR') }).toEqual({ command, listed: logging.includes(command) });
    }
  });
});
