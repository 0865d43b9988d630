#!/usr/bin/env node
// The `jira-hub` command (package.json bin): runs the built CLI; `npm run build` makes it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/src/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('jira-hub: not built yet; run `npm run build` (or `npm start`) first');
  process.exit(1);
}
const { main } = await import(cli);
const { loadDotEnv } = await import(new URL('../dist/src/common/config.js', import.meta.url).href);
loadDotEnv();
const code = await main(process.argv.slice(2), process.env);
if (code >= 0) process.exit(code);
