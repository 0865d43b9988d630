/**
 * A build written aside and moved into its output folder, keeping the previous build's files: something
 * started from the previous build (a running hub, a dashboard tab opened before the rebuild) still finds the
 * hashed files it loads late. Shared by the hub's bundle (scripts/bundle.js) and the dashboard's build
 * (packages/web/scripts/build.js).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** In the output folder: the files of the last two builds, newest first (a JSON array of two lists). */
export const BUILDS_FILE = '.builds.json';

/** Every file under `dir`, as paths relative to it, sorted. */
function filesUnder(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name), base) : [relative(base, join(dir, e.name))]))
    .sort();
}

/**
 * Moves the build in `built` into `out`, keeping the files of the build before it (what a running hub or an open page loads late)
 * and removing those of older builds. A build that names the same files as the last one (nothing changed)
 * does not count as a build. A folder from before BUILDS_FILE existed counts as one build. The `entries`
 * (cli.js, index.html) are moved in last: whatever loads one finds the new files it names already there.
 */
function install(built, out, entries = []) {
  const files = filesUnder(built);
  const manifest = join(out, BUILDS_FILE);
  const [last, beforeLast] = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : [filesUnder(out), []];
  const before = last.join('\n') === files.join('\n') ? beforeLast : last;
  for (const file of [...files.filter((f) => !entries.includes(f)), ...files.filter((f) => entries.includes(f))]) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    renameSync(join(built, file), join(out, file));
  }
  const keep = new Set([...files, ...before, BUILDS_FILE]);
  writeFileSync(`${manifest}.next`, `${JSON.stringify([files, before.filter((f) => !files.includes(f))])}\n`);
  renameSync(`${manifest}.next`, manifest);
  for (const file of filesUnder(out)) if (!keep.has(file)) rmSync(join(out, file), { force: true });
  rmSync(built, { recursive: true, force: true });
}

/**
 * Runs `build(folder)` into a new folder beside `out` (`<out>.next-<pid>`), then installs it into `out`
 * (install, `entries` last); the folder aside is gone afterwards, whether the build succeeded or threw.
 */
export async function buildAside(out, entries, build) {
  const built = `${out}.next-${process.pid}`;
  rmSync(built, { recursive: true, force: true });
  try {
    await build(built);
    install(built, out, entries);
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
}
