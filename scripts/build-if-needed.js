// `npm start` builds first when a build is missing or older than any of its sources: the hub
// (src, migrations, bench → dist/) and the dashboard (packages/web → packages/web/dist/).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dashboardIsStale, stale } from './stale.js';

// The workspace packages the hub imports (packages/*/dist, built by `npm run build` before the hub).
const packages = ['agent', 'jira-sim', 'contracts'];

if (
  packages.some((p) => !existsSync(`packages/${p}/dist/index.js`)) ||
  stale('dist/hub/cli.js', ['src', 'migrations', 'bench', ...packages.map((p) => `packages/${p}/src`)])
) {
  console.log('собираем хаб и панель (исходники новее сборки)…');
  execSync('npm run build', { stdio: 'inherit' });
} else if (dashboardIsStale()) {
  console.log('собираем панель (её исходники новее сборки)…');
  execSync('npm run build -w @jira-hub/web', { stdio: 'inherit' });
}
