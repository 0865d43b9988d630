// `npm start` builds first when a build is missing or older than any of its sources: the hub
// (src, migrations, bench → dist/) and the dashboard (packages/web → packages/web/dist/).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
const stale = (target, sources) => !existsSync(target) || sources.some((s) => existsSync(s) && newest(s) > statSync(target).mtimeMs);
// The workspace packages the hub imports (packages/*/dist, built by `npm run build` before the hub).
const packages = ['agent', 'jira-sim', 'contracts'];

if (
  packages.some((p) => !existsSync(`packages/${p}/dist/index.js`)) ||
  stale('dist/hub/cli.js', ['src', 'migrations', 'bench', ...packages.map((p) => `packages/${p}/src`)])
) {
  console.log('собираем хаб и панель (исходники новее сборки)…');
  execSync('npm run build', { stdio: 'inherit' });
} else if (stale('packages/web/dist/index.html', ['packages/web/src', 'packages/web/index.html', 'packages/web/vite.config.ts', 'packages/web/package.json'])) {
  console.log('собираем панель (её исходники новее сборки)…');
  execSync('npm run build -w @jira-hub/web', { stdio: 'inherit' });
}
