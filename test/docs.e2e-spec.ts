/**
 * The docs are checked against the code (issue 26, scope 6): commands, options, npm scripts and
 * variables shown in README.md, ARCHITECTURE.md, CONTRIBUTING.md and docs/** exist; relative links and
 * their anchors lead somewhere; the configuration reference covers every variable the hub's config
 * reads; the README and ARCHITECTURE stay within their sizes and carry no dated measurements.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_VARIABLES } from '@jira-hub/agent/variables';
import { program } from '../src/cli.js';
import { HUB_VARIABLES } from '../src/common/index.js';
import { anchorOf, checkDocs, jiraHubCalls, markdownFiles, shellCommands, splitMarkdown, variablesReadBy, type Known } from './support/docs-check.js';
import { tempDir } from './support/app.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function known(): Known {
  const cli = program({}, () => undefined);
  const commands = new Map(cli.commands.map((c) => [c.name(), new Set(c.options.flatMap((o) => [o.short, o.long].filter((f): f is string => !!f)))]));
  const scripts = new Set(Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts));
  return { variables: variablesReadBy(ROOT), commands, scripts };
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the documentation', () => {
  it('shows only commands, options, npm scripts and variables that exist, and links that lead somewhere', () => {
    expect(checkDocs(ROOT, known())).toEqual([]);
  });

  it("lists every variable the hub's configuration reads in the configuration reference", () => {
    // loadConfig reads no name outside HUB_VARIABLES (its environment's type)
    const reference = read('docs/operations.md');
    expect(Object.keys(HUB_VARIABLES).filter((name) => !reference.includes(`\`${name}\``))).toEqual([]);
  });

  it("documents every variable of the agent's --help in a guide", () => {
    const names = AGENT_VARIABLES.flatMap(([name]) => name.split(/,\s*/));
    const guide = markdownFiles(ROOT).filter((f) => f.startsWith('docs/')).map(read).join('\n');
    expect(names.filter((name) => !guide.includes(`\`${name}\``))).toEqual([]);
  });

  it('keeps README.md within 150 lines and ARCHITECTURE.md within 15 KB', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(150);
    expect(Buffer.byteLength(read('ARCHITECTURE.md'))).toBeLessThanOrEqual(15 * 1024);
  });

  it('carries no dated measurement outside docs/benchmarks.md', () => {
    const dated = /\b(On|on|measured|Measured) 20\d\d-\d\d-\d\d/;
    expect(markdownFiles(ROOT).filter((f) => f !== 'docs/benchmarks.md' && dated.test(read(f)))).toEqual([]);
  });
});

describe('the documentation check', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const tree = (files: Record<string, string>): string => {
    const dir = tempDir();
    dirs.push(dir);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  const KNOWN: Known = {
    variables: new Set(['HUB_PORT', 'JIRA_URL', 'AGENT_ONCE']),
    commands: new Map([
      ['serve', new Set(['--db', '-p', '--port'])],
      ['agent', new Set(['--once', '--check'])],
    ]),
    scripts: new Set(['demo']),
  };
  const good = {
    'README.md': [
      '# Hub',
      '',
      '```sh',
      'HUB_PORT=3001 npx jira-hub serve --db data/x.sqlite   # a comment naming jira-hub nothing',
      'JIRA_URL=http://127.0.0.1:8080 npx jira-hub agent \\',
      '  --check && npm run demo',
      'npx jira-hub --help',
      '```',
      '',
      'See [the guide](docs/guide.md#первые-шаги), [the folder](docs/), [a site](https://example.com) and `AGENT_ONCE`.',
    ].join('\n'),
    'docs/guide.md': '# Guide\n\n## Первые шаги\n\nBack to [the README](../README.md#hub).\n',
  };

  it('finds nothing wrong in a correct tree', () => {
    expect(checkDocs(tree(good), KNOWN)).toEqual([]);
  });

  it('fails on a planted unknown variable, in a snippet or in the text', () => {
    const dir = tree({ ...good, 'docs/guide.md': good['docs/guide.md'] + '\n```sh\nHUB_PROT=3001 npx jira-hub serve\n```\nSet `JIRA_TOKEN` too.\n' });
    expect(checkDocs(dir, KNOWN)).toEqual(['docs/guide.md: unknown variable HUB_PROT', 'docs/guide.md: unknown variable JIRA_TOKEN']);
  });

  it('fails on a broken relative link and on a missing anchor', () => {
    const dir = tree({ ...good, 'docs/guide.md': good['docs/guide.md'] + '\nSee [ops](operations.md), [steps](guide.md#нет-такого) and [the api][api].\n\n[api]: api.md\n' });
    expect(checkDocs(dir, KNOWN)).toEqual([
      'docs/guide.md: broken link operations.md (no docs/operations.md)',
      'docs/guide.md: broken link guide.md#нет-такого (no heading #нет-такого in docs/guide.md)',
      'docs/guide.md: broken link api.md (no docs/api.md)',
    ]);
  });

  it('fails on an unknown command, an unknown option and an unknown npm script', () => {
    const dir = tree({ ...good, 'docs/guide.md': good['docs/guide.md'] + '\n```sh\nnpx jira-hub improt examples/plan\nnpx jira-hub agent --chek\nnpm run dmeo\n```\n' });
    expect(checkDocs(dir, KNOWN)).toEqual([
      'docs/guide.md: unknown command jira-hub improt',
      'docs/guide.md: unknown option jira-hub agent --chek',
      'docs/guide.md: unknown npm script dmeo',
    ]);
  });

  it('reads commands out of snippets: continuations, comments, chains, env assignments', () => {
    const lines = shellCommands('A=1 npx jira-hub agent \\\n  --once # then jira-hub nothing\nnpm ci && npm start');
    expect(lines).toEqual([['A=1', 'npx', 'jira-hub', 'agent', '--once'], ['npm', 'ci'], ['npm', 'start']]);
    expect(jiraHubCalls(lines[0])).toEqual([{ command: 'agent', flags: ['--once'] }]);
    expect(jiraHubCalls(['npx', 'jira-hub-agent', '--check'])).toEqual([]);
    expect(splitMarkdown('a `x` b\n```sh\nc\n```').fences).toEqual([{ lang: 'sh', body: 'c' }]);
    expect(anchorOf('Настройки и состояние агента')).toBe('настройки-и-состояние-агента');
    expect(anchorOf('The `claim` path (SPEC 6)')).toBe('the-claim-path-spec-6');
  });
});
