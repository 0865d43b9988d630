/**
 * The entries that tests run as child processes (the CLI, the MCP stdio server, the demo, the agent's and
 * the simulator's bins), bundled from the TypeScript sources once per change of the sources, by jest's
 * globalSetup. A child then starts from a few files, as `jira-hub` does from dist/hub/, instead of
 * resolving and transpiling every module through support/ts-hooks.mjs: about a third of the CPU per
 * child (decision record 1404). The libraries are bundled as scripts/bundle.js bundles them for `jira-hub`.
 *
 * The folder sits one level under the repository's root, as src/ does, so that what the sources find
 * beside them (../packages/web/dist, the dashboard) they find from the bundle too.
 *
 * Plain JavaScript: the globalSetup reads it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTERNAL_LIBRARIES } from '../../scripts/bundle-external.js';
import { workspaceSource } from './workspace.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the bundle is, from the repository's root. */
export const BUNDLE_DIR = '.test-bundle';

/** Each bundled entry: the source a test names (support/cli-process.ts) and the bundle's file for it. */
export const ENTRIES = {
  'src/cli.ts': 'jira-hub.js',
  'src/mcp/stdio.ts': 'mcp-stdio.js',
  'src/demo.ts': 'demo.js',
  'packages/agent/src/bin.ts': 'agent-bin.js',
  'packages/jira-sim/src/bin.ts': 'jira-sim-bin.js',
};

/** What the bundle is made of: the sources, the migrations, the lock file, the options and this file. */
const INPUTS = ['src', 'migrations', 'packages/agent/src', 'packages/jira-sim/src', 'packages/contracts/src'];
/** The CLI's entry in the bundle: `runCommand` of src/cli.ts, as bin/jira-hub.js runs it. */
const COMMAND = '\0jira-hub-command';

function sourcesHash() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.(ts|js|json|sql)$/.test(e.name) && !/\.spec\.ts$/.test(e.name)) hash.update(path).update('\0').update(readFileSync(join(ROOT, path))).update('\0');
    }
  };
  for (const dir of INPUTS) walk(dir);
  for (const file of ['package-lock.json', 'tsconfig.json', 'test/support/source-bundle.js', 'test/support/workspace.js', 'scripts/bundle-external.js']) hash.update(readFileSync(join(ROOT, file)));
  return hash.digest('hex');
}

/**
 * The bundle's folder, built first when the sources changed since it was built. Built aside and renamed,
 * so a run that starts meanwhile never sees half a bundle.
 */
export async function sourceBundle() {
  const dir = join(ROOT, BUNDLE_DIR);
  const hash = sourcesHash();
  const stamp = join(dir, 'SOURCES');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return dir;
  const { build } = await import('rolldown');
  const aside = `${dir}.${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  const warnings = [];
  await build({
    // src/cli.ts is imported by another entry (the demo), so its code lands in a shared chunk, whose
    // import.meta.url is no process's argv[1]: the CLI's entry runs it as bin/jira-hub.js does.
    input: Object.fromEntries(Object.entries(ENTRIES).map(([source, out]) => [out.replace(/\.js$/, ''), source === 'src/cli.ts' ? COMMAND : join(ROOT, source)])),
    platform: 'node',
    preserveEntrySignatures: 'allow-extension',
    // tsconfig.json's compiler options: legacy decorators with their metadata, which Nest's injection reads.
    tsconfig: join(ROOT, 'tsconfig.json'),
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    // Libraries as `jira-hub`'s bundle has them (the workspace packages are bundled from their sources here).
    external: EXTERNAL_LIBRARIES,
    plugins: [
      {
        name: 'workspace-sources',
        resolveId(id) {
          return id === COMMAND ? id : (workspaceSource(id) ?? null);
        },
        load(id) {
          return id === COMMAND ? `import { runCommand } from ${JSON.stringify(join(ROOT, 'src/cli.ts'))};\nawait runCommand();\n` : null;
        },
      },
    ],
    output: { dir: aside, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', keepNames: true, sourcemap: true },
    onLog(level, log) {
      if (level === 'warn') warnings.push(log.message);
    },
  });
  if (warnings.length) throw new Error(`test bundle: ${warnings.length} warning(s):\n${warnings.join('\n')}`);
  writeFileSync(join(aside, 'SOURCES'), hash);
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(aside, dir);
  } catch {
    rmSync(aside, { recursive: true, force: true }); // another run renamed its own first: the same sources
  }
  return dir;
}

/** The bundle's file for a source a test runs, or undefined when that source is not an entry. */
export function bundledEntry(dir, source) {
  const out = ENTRIES[relative(ROOT, join(ROOT, source))];
  return out && join(dir, out);
}
