/**
 * The documentation check (issue 26, scope 6): every `jira-hub` command and option that a fenced shell
 * snippet shows exists in the CLI, every `npm run` script exists, every HUB_/JIRA_/AGENT_ variable the
 * docs name is one the code reads, and every relative link (and its #anchor) leads somewhere.
 * Pure over the texts it is given; the known names come from the code (see docs.e2e-spec.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface Known {
  /** environment variables the code reads */
  variables: ReadonlySet<string>;
  /** `jira-hub` subcommands and, for each, its option flags (`--check`, `-p`) */
  commands: ReadonlyMap<string, ReadonlySet<string>>;
  /** the root package's npm scripts */
  scripts: ReadonlySet<string>;
}

const VARIABLE = /\b(?:HUB|JIRA|AGENT)_[A-Z0-9_]*[A-Z0-9]\b/g;
const SHELL = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);
/** Flags every command takes (commander's own). */
const ALWAYS = new Set(['-h', '--help']);

/** The Markdown files a reader sees: README.md, ARCHITECTURE.md, CONTRIBUTING.md and docs/**. */
export function markdownFiles(root: string): string[] {
  const out = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'].filter((f) => existsSync(join(root, f)));
  const walk = (dir: string): void => {
    if (!existsSync(join(root, dir))) return;
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) out.push(path);
    }
  };
  walk('docs');
  return out.sort();
}

interface Fence {
  lang: string;
  body: string;
}

/** The fenced code blocks of a Markdown text, and the text with them (and inline code) blanked out. */
export function splitMarkdown(text: string): { fences: Fence[]; prose: string } {
  const fences: Fence[] = [];
  const prose: string[] = [];
  let open: { marker: string; lang: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (open) {
      if (fence && fence[1].startsWith(open.marker)) {
        fences.push({ lang: open.lang, body: open.lines.join('\n') });
        open = undefined;
      } else open.lines.push(line);
      prose.push('');
    } else if (fence) {
      open = { marker: fence[1], lang: fence[2].toLowerCase(), lines: [] };
      prose.push('');
    } else prose.push(line.replace(/`[^`]*`/g, ''));
  }
  return { fences, prose: prose.join('\n') };
}

/** A shell snippet's commands: continuation lines joined, comments dropped, split at ; && || |. */
export function shellCommands(body: string): string[][] {
  const joined = body.replace(/\\\n/g, ' ');
  const out: string[][] = [];
  for (const line of joined.split('\n')) {
    const code = line.replace(/^\s*\$\s+/, '').replace(/(^|\s)#.*$/, '');
    for (const part of code.split(/;|&&|\|\||\|/)) {
      const words = part.match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
      if (words.length) out.push(words);
    }
  }
  return out;
}

/** The `jira-hub …` calls of one command line: the subcommand and its flags (after npx, env assignments). */
export function jiraHubCalls(words: string[]): { command: string | undefined; flags: string[] }[] {
  const out: { command: string | undefined; flags: string[] }[] = [];
  words.forEach((word, i) => {
    if (word !== 'jira-hub' && !word.endsWith('/jira-hub.js')) return;
    const rest = words.slice(i + 1).filter((w) => !/^[<>]/.test(w));
    const first = rest[0];
    const command = first === undefined || first.startsWith('-') ? undefined : first;
    const flags = rest.filter((w) => /^--?[a-z]/i.test(w)).map((w) => w.split('=')[0]);
    out.push({ command, flags });
  });
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (letters of any script stay), spaces → -. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(text: string): Set<string> {
  const { prose } = splitMarkdown(text);
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchorOf(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Everything wrong with the docs under `root` (file paths relative to it); empty when all is well. */
export function checkDocs(root: string, known: Known, files = markdownFiles(root)): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const { fences, prose } = splitMarkdown(text);

    for (const name of new Set(text.match(VARIABLE) ?? [])) {
      if (!known.variables.has(name)) problems.push(`${file}: unknown variable ${name}`);
    }

    for (const fence of fences.filter((f) => SHELL.has(f.lang))) {
      for (const words of shellCommands(fence.body)) {
        for (const { command, flags } of jiraHubCalls(words)) {
          const options = command === undefined ? new Set<string>() : known.commands.get(command);
          if (command !== undefined && command !== 'help' && !options) {
            problems.push(`${file}: unknown command jira-hub ${command}`);
            continue;
          }
          for (const flag of flags) {
            if (!ALWAYS.has(flag) && !options?.has(flag)) problems.push(`${file}: unknown option jira-hub ${command ?? ''} ${flag}`.replace('  ', ' '));
          }
        }
        const run = words.indexOf('run');
        if (words[0] === 'npm' && run === 1 && words[2] && !words.includes('-w') && !words.some((w) => w.startsWith('--workspace'))) {
          if (!known.scripts.has(words[2])) problems.push(`${file}: unknown npm script ${words[2]}`);
        }
      }
    }

    const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
    const references = [...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)].map((m) => m[1]);
    for (const target of [...inline, ...references]) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path, anchor] = target.split('#');
      const resolved = path ? resolve(root, dirname(file), decodeURIComponent(path)) : join(root, file);
      const shown = path ? relative(root, resolved) : file;
      if (!existsSync(resolved)) {
        problems.push(`${file}: broken link ${target} (no ${shown})`);
        continue;
      }
      if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md')) {
        if (!anchorsIn(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) problems.push(`${file}: broken link ${target} (no heading #${anchor} in ${shown})`);
      }
    }
  }
  return problems;
}

/**
 * The environment variables the code reads: `env.NAME`, `env['NAME']` and shell `$NAME`/`${NAME…}` in
 * the hub, the packages, the bench, the scripts, the tests, jest's configuration and CI, and quoted names outside the test
 * files (this checker and its test left out, so that their planted names stay unknown).
 */
export function variablesReadBy(root: string): Set<string> {
  const out = new Set<string>();
  const skip = /(^|\/)(node_modules|dist)(\/|$)|docs-check|docs\.e2e-spec/;
  const walk = (dir: string): void => {
    if (!existsSync(join(root, dir))) return;
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (skip.test(path)) continue;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|js|mjs)$|^\.ci\/run$/.test(path)) read(path);
    }
  };
  const read = (path: string): void => {
    if (!existsSync(join(root, path))) return;
    const text = readFileSync(join(root, path), 'utf8');
    for (const m of text.matchAll(/\benv(?:\.|\[['"])((?:HUB|JIRA|AGENT)_[A-Z0-9_]+)/g)) out.add(m[1]);
    for (const m of text.matchAll(/\$\{?((?:HUB|JIRA|AGENT)_[A-Z0-9_]+)/g)) out.add(m[1]);
    // Outside the tests, a quoted name is a read too: `value(env, 'JIRA_PROJECT')`, the --help lists.
    if (!/\.(spec|e2e-spec|test)\.tsx?$/.test(path)) for (const m of text.matchAll(/['"]((?:HUB|JIRA|AGENT)_[A-Z0-9_]+)['",]/g)) out.add(m[1]);
  };
  for (const dir of ['src', 'packages', 'bench', 'scripts', 'test', 'bin', '.ci']) walk(dir);
  read('jest.config.js');
  return out;
}
