/**
 * Runs dependency-cruiser (its API) with the repository's `.dependency-cruiser.js` on a tree — the hub's
 * own, or a fixture tree in a temporary folder — and reads its answer as one line per violation. Beside
 * the config's rules, one check reads the cruise's output: an import of a package's subpath is public only
 * if the package's `exports` map declares it (dependency-cruiser matches resolved paths, not specifiers).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IModule } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

export const CONFIG = join(process.cwd(), '.dependency-cruiser.js');

/** What the rules cover: the hub's sources and the workspace packages' sources. */
export const SCOPE = ['src', 'packages/agent/src', 'packages/contracts/src', 'packages/jira-sim/src', 'packages/web/src'];

export interface Cruise {
  /** `rule: from → to` (a cycle: `no-circular: a → b → a`), sorted */
  violations: string[];
  /** the same, of the rules whose severity is `error` */
  errors: string[];
  modules: IModule[];
}

/** dependency-cruiser on `root` (a repository-shaped tree with a tsconfig.json), the given folders of it. */
export async function cruiseTree(root: string, scope: string[] = SCOPE): Promise<Cruise> {
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfigFile = join(root, 'tsconfig.json');
  const result = await cruise(
    scope.filter((s) => existsSync(join(root, s))),
    { ...options, baseDir: root, tsConfig: { fileName: tsConfigFile } },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  const output = result.output as ICruiseResult;
  const line = (v: (typeof all)[number]) =>
    v.cycle?.length ? `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}` : `${v.rule.name}: ${v.from} → ${v.to}`;
  const all = output.summary.violations ?? [];
  const lines = (list: typeof all) => [...new Set(list.map(line))].sort();
  return { violations: lines(all), errors: lines(all.filter((v) => v.rule.severity === 'error')), modules: output.modules };
}

/** `@scope/name/sub/path` → [`@scope/name`, `sub/path`]; `name` → [`name`, ``]. */
function splitSpecifier(spec: string): [string, string] {
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  return [parts.slice(0, n).join('/'), parts.slice(n).join('/')];
}

/** The package.json of the package an import resolved into: a workspace package's own, or the one under node_modules seen from the importer. */
function packageJsonOf(root: string, importer: string, name: string, resolved: string): string | undefined {
  const workspace = /^packages\/[^/]+\//.exec(resolved)?.[0];
  if (workspace && existsSync(join(root, workspace, 'package.json'))) return join(root, workspace, 'package.json');
  for (let dir = dirname(join(root, importer)); dir.startsWith(root); dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return file;
    if (dir === root) break;
  }
  return undefined;
}

/**
 * Whether a package's `exports` map declares `./sub`: a key of its own, or a pattern key with a fixed
 * part before the `*` (`./lib/*`). A catch-all over the whole package (`./*`, `./*.js`) declares nothing:
 * it exposes the folder structure, which is what the rule is about; no `exports` at all declares only
 * the package itself.
 */
export function declares(exports: unknown, sub: string): boolean {
  if (!exports || typeof exports !== 'object' || Array.isArray(exports)) return false;
  const wanted = `./${sub}`;
  return Object.keys(exports).some((key) => {
    if (!key.startsWith('./')) return false;
    if (!key.includes('*')) return key === wanted;
    const [before, after] = key.split('*');
    return before !== './' && wanted.startsWith(before) && wanted.endsWith(after) && wanted.length > before.length + after.length - 1;
  });
}

/** `deep-import: from → specifier` for each import of a subpath its package's `exports` does not declare. */
export function deepImports(root: string, modules: IModule[]): string[] {
  const out: string[] = [];
  for (const m of modules.filter((m) => /^(src|packages\/[^/]+\/src)\//.test(m.source))) {
    for (const d of m.dependencies) {
      if (d.coreModule || d.couldNotResolve || /^[./]/.test(d.module) || d.module.startsWith('node:')) continue;
      const [name, sub] = splitSpecifier(d.module);
      if (!sub) continue;
      const pkg = packageJsonOf(root, m.source, name, d.resolved);
      const exports = pkg ? JSON.parse(readFileSync(pkg, 'utf8')).exports : undefined;
      if (!declares(exports, sub)) out.push(`deep-import: ${m.source} → ${d.module}`);
    }
  }
  return [...new Set(out)].sort();
}

/** The module folders of `src/` that have no index.ts. */
export function modulesWithoutIndex(root: string): string[] {
  return readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !existsSync(join(root, 'src', e.name, 'index.ts')))
    .map((e) => `no-index: src/${e.name}`);
}
