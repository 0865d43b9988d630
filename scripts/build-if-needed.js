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
const stale = !existsSync(target) || ['src', 'migrations', 'bench'].some((d) => existsSync(d) && newest(d) > statSync(target).mtimeMs);
if (stale) {
  console.log('building…');
  execSync('npm run build', { stdio: 'inherit' });
}
