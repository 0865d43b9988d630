// Whether a build is missing or older than anything it is built from: `npm start` (build-if-needed.js)
// and the tests' global setup (the dashboard the browser tests serve) ask the same question.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The newest modification time under `path` (0 when it does not exist), node_modules and dist left out. */
function newest(path) {
  if (!existsSync(path)) return 0;
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    t = Math.max(t, newest(join(path, entry.name)));
  }
  return t;
}

/** `target` (a path from the repository's root) is missing or older than any of `sources`. */
export function stale(target, sources) {
  const built = join(ROOT, target);
  return !existsSync(built) || sources.some((s) => newest(join(ROOT, s)) > statSync(built).mtimeMs);
}

/** The dashboard's build against what vite reads to make it. */
export const dashboardIsStale = () =>
  stale('packages/web/dist/index.html', ['packages/web/src', 'packages/web/index.html', 'packages/web/vite.config.ts', 'packages/web/package.json']);
