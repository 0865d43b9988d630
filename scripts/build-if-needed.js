// `npm start` builds first when the build is missing or older than any source file.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const target = 'dist/src/cli.js';
function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
// The workspace packages the hub imports (packages/*/dist, built by `npm run build` before the hub).
const packages = ['agent', 'jira-sim', 'contracts'];
const stale =
  !existsSync(target) ||
  packages.some((p) => !existsSync(`packages/${p}/dist/index.js`)) ||
  ['src', 'migrations', 'bench', ...packages.map((p) => `packages/${p}/src`)].some((d) => existsSync(d) && newest(d) > statSync(target).mtimeMs);
if (stale) {
  console.log('building…');
  execSync('npm run build', { stdio: 'inherit' });
}
