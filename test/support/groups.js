/**
 * The whole suite in groups (decision record 1403). Jest gives every test file a module registry of its
 * own, so each file loads NestJS, TypeORM, class-validator and the hub anew before its first test: most
 * of the suite's CPU. `npm test` with no arguments therefore runs the spec files in the groups of
 * test/groups/: each group file imports its share of the files, which then run in one registry, one
 * after another, exactly as written. A file named on the command line still runs alone
 * in a registry of its own (`npm test -- test/claim.e2e-spec.ts`), and so does every file of RUN_ALONE.
 *
 * What a member file must keep to itself, since it shares a registry: its hooks and tests inside
 * `describe` blocks (a hook at the top level would run around the other members' tests too; the group
 * refuses such a file), and any spy or global it changes restored when its tests end.
 *
 * Plain JavaScript: jest.config.js reads it too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the group files are; `<n>.group.ts`, n from 1. */
export const GROUPS_DIR = 'test/groups';

/**
 * Files that need a registry of their own, with the reason. Jest matches them one by one in a grouped run.
 */
export const RUN_ALONE = [
  // it stops and starts the PostgreSQL server (npm run test:pg runs it on its own)
  'test/postgres-faults.e2e-spec.ts',
];

/** The spec files jest's testMatch names (jest.config.js): paths relative to the root, sorted. */
export function specFiles() {
  const found = [];
  const walk = (dir, match) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'dist') walk(path, match);
      } else if (match(e.name)) found.push(path);
    }
  };
  const unit = (name) => name.endsWith('.spec.ts');
  walk('src', unit);
  walk('bench', unit);
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    try {
      if (statSync(join(ROOT, 'packages', pkg, 'src')).isDirectory()) walk(join('packages', pkg, 'src'), unit);
    } catch {
      // a package without sources
    }
  }
  walk('test', (name) => name.endsWith('.e2e-spec.ts'));
  return found.sort();
}

/** How many group files there are. */
export function groupCount() {
  return readdirSync(join(ROOT, GROUPS_DIR)).filter((name) => /^\d+\.group\.ts$/.test(name)).length;
}

/**
 * The members of each group: every spec file but RUN_ALONE, shared out by an estimate of its work
 * (its size; an end-to-end file starts hubs and processes, so it weighs four times as much), largest
 * first into the lightest group. Deterministic: the same files give the same groups.
 */
export function groups(count = groupCount()) {
  const weight = (path) => statSync(join(ROOT, path)).size * (path.endsWith('.e2e-spec.ts') ? 4 : 1);
  const files = specFiles()
    .filter((path) => !RUN_ALONE.includes(path))
    .map((path) => ({ path, weight: weight(path) }))
    .sort((a, b) => b.weight - a.weight || a.path.localeCompare(b.path));
  const out = Array.from({ length: count }, () => ({ files: [], weight: 0 }));
  for (const file of files) {
    const lightest = out.reduce((min, g) => (g.weight < min.weight ? g : min));
    lightest.files.push(file.path);
    lightest.weight += file.weight;
  }
  return out.map((g) => g.files.sort());
}

/** A hook or test called at a file's top level, which would apply to the whole group: its text, or undefined. */
export function topLevelCall(source) {
  return /^(beforeEach|afterEach|beforeAll|afterAll|it|test)(\.\w+)*\(/m.exec(source)?.[0];
}

/** Imports the members of the group whose file is `groupFileUrl` (import.meta.url of `<n>.group.ts`). */
export async function importGroup(groupFileUrl) {
  const n = Number(basename(fileURLToPath(groupFileUrl)).split('.')[0]);
  const members = groups()[n - 1];
  if (!members?.length) throw new Error(`${relative(ROOT, fileURLToPath(groupFileUrl))}: no member files`);
  for (const path of members) {
    const call = topLevelCall(readFileSync(join(ROOT, path), 'utf8'));
    if (call) throw new Error(`${path}: "${call}" at the top level would run for every file of its group; put it inside a describe block`);
  }
  for (const path of members) await import(pathToFileURL(join(ROOT, path)).href);
}
