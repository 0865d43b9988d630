#!/usr/bin/env node
// The `jira-hub` command (package.json bin): runs the hub's bundle (dist/hub/cli.js, scripts/bundle.js);
// `npm run build` makes it. No Node flags: the start's memory (< 120 MB) and the mirror's (< 100 MB of
// growth over 200,000 issues) are met without them (decision 0900, `npm run bench -- startup mirror`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/hub/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('jira-hub: хаб ещё не собран; выполните `npm run build` (или `npm start`)');
  process.exit(1);
}
const { runCommand } = await import(cli);
await runCommand();
