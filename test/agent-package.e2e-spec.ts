/**
 * The agent installs on its own (issue 9): `npm pack` of packages/agent and packages/contracts, both
 * tarballs installed into an empty folder with no registry, and the installed `jira-hub-agent` bin runs.
 * Nothing of the hub comes along: no Nest, no TypeORM, no native module.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = process.cwd();

/** The environment of a child npm: not the `npm test` that runs jest (its npm_* settings), nor jest's NODE_OPTIONS. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') && k !== 'NODE_OPTIONS'));

/** Every `from '…'` / `import('…')` specifier of a TypeScript file. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('the agent package imports nothing of the hub', () => {
  // Tests and their helpers may use the simulator; what ships (the build's files) may not.
  const shipped = sources(join(ROOT, 'packages/agent/src')).filter((f) => !/\.spec\.ts$|test-support\.ts$|fake-hub\.ts$/.test(f));

  // The contracts' types, and their dependency-free command catalogue (`./catalogue`: the rules both sides
  // share, such as how a status name matches); not `./commands`, whose schemas need zod.
  const CONTRACTS = ['@jira-hub/contracts', '@jira-hub/contracts/catalogue', '@jira-hub/contracts/jira-failure', '@jira-hub/contracts/dotenv'];
  it.each(shipped.map((f) => [relative(ROOT, f)]))('%s: only Node, its own files and @jira-hub/contracts', (file) => {
    const foreign = specifiers(join(ROOT, file)).filter((s) => !s.startsWith('node:') && !s.startsWith('./') && !s.startsWith('../') && !CONTRACTS.includes(s));
    expect(foreign).toEqual([]);
    // and no relative way out of the package
    for (const s of specifiers(join(ROOT, file)).filter((s) => s.startsWith('.'))) {
      expect(relative(join(ROOT, 'packages/agent/src'), join(ROOT, file, '..', s))).not.toMatch(/^\.\./);
    }
  });

  it('declares no dependency but the contracts, and the contracts none at all', () => {
    const agent = JSON.parse(readFileSync(join(ROOT, 'packages/agent/package.json'), 'utf8'));
    const contracts = JSON.parse(readFileSync(join(ROOT, 'packages/contracts/package.json'), 'utf8'));
    expect(Object.keys(agent.dependencies ?? {})).toEqual(['@jira-hub/contracts']);
    expect(agent.dependencies['@jira-hub/contracts']).toBe(contracts.version);
    expect(contracts.dependencies).toBeUndefined();
    // zod serves only the hub's `./commands` entry: an optional peer, which an install of the agent leaves out.
    expect(Object.keys(contracts.peerDependencies ?? {}).every((name) => contracts.peerDependenciesMeta?.[name]?.optional)).toBe(true);
  });
});

describe('npm pack of the agent and the contracts, installed into an empty folder', () => {
  let dir: string;
  let app: string;
  let tarballs: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jira-hub-agent-pack-'));
    app = join(dir, 'app');
    mkdirSync(app);
    // prepack builds each package (tsc -b) before packing it.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir, '-w', 'packages/contracts', '-w', 'packages/agent'], { cwd: ROOT, env: cleanEnv() });
    tarballs = (JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[]).map((p) => join(dir, p.filename));
    // --offline: the two tarballs are all it needs; a dependency from a registry would fail here.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], { cwd: app, env: cleanEnv() });
  }, 180_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('packs the build with its bin, and no sources, tests or test helpers', () => {
    expect(tarballs.map((t) => t.replace(dir, ''))).toEqual(['/jira-hub-contracts-0.1.0.tgz', '/jira-hub-agent-0.1.0.tgz']);
    const installed = join(app, 'node_modules/@jira-hub/agent');
    expect(existsSync(join(installed, 'dist/bin.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist/index.d.ts'))).toBe(true);
    const files = sources(installed).concat(readdirSync(join(installed, 'dist')));
    expect(files.filter((f) => /spec|test-support|fake-hub|tsbuildinfo/.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
  });

  it('installs the two packages and nothing else (no Nest, TypeORM or native module)', () => {
    expect(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')).sort()).toEqual(['@jira-hub']);
    expect(readdirSync(join(app, 'node_modules/@jira-hub')).sort()).toEqual(['agent', 'contracts']);
  });

  it('runs `jira-hub-agent --help` there', async () => {
    const { stdout, stderr } = await run(join(app, 'node_modules/.bin/jira-hub-agent'), ['--help'], { cwd: app, env: cleanEnv() });
    expect(stderr).toBe('');
    expect(stdout).toContain('Запуск: jira-hub-agent [параметры]');
    expect(stdout).toContain('--check');
    expect(stdout).toContain('HUB_URL');
  });

  it('runs `jira-hub-agent --check` there: the checklist, exit code 1 without settings', async () => {
    const env = { ...cleanEnv(), HUB_URL: '', JIRA_URL: '', JIRA_PROJECT: '' };
    const failed = await run(join(app, 'node_modules/.bin/jira-hub-agent'), ['--check'], { cwd: app, env }).then(
      () => null,
      (e: { code: number; stdout: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain('✗ не заданы переменные окружения: HUB_URL, JIRA_URL, JIRA_PROJECT');
  });
});
