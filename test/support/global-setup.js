// jest globalSetup: a folder for the migrated template databases of this run (support/template.ts), removed by
// global-teardown.js. Workers inherit the variable.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function globalSetup() {
  process.env.HUB_TEST_TEMPLATES = mkdtempSync(join(tmpdir(), 'jira-hub-test-templates-'));
}
