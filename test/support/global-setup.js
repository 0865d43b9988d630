// jest globalSetup, run once before the workers start (they inherit the variables it sets):
// - a folder for the migrated template databases of this run (support/template.ts) and the test hubs' own
//   folders (support/app.ts's tempDir), removed by global-teardown.js;
// - the entries that tests run as processes, bundled when their sources changed (support/source-bundle.js);
// - the dashboard built when its build is missing or older than its sources (the browser tests serve it):
//   several browser test files run at once, and two vite builds into one folder would empty it under each other.
import { execSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dashboardIsStale } from '../../scripts/stale.js';
import { sourceBundle } from './source-bundle.js';

export default async function globalSetup() {
  process.env.HUB_TEST_TEMPLATES = mkdtempSync(join(tmpdir(), 'jira-hub-test-templates-'));
  // Open to other users as /tmp is: the read-only tests run a hub as another user on a folder in it.
  chmodSync(process.env.HUB_TEST_TEMPLATES, 0o755);
  process.env.HUB_TEST_BUNDLE = await sourceBundle();
  if (dashboardIsStale()) execSync('npm run build -w @jira-hub/web', { stdio: 'ignore' });
}
