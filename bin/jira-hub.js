#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=50
// The `jira-hub` command (package.json bin): runs the built CLI; `npm run build` makes it.
// --max-semi-space-size=4 (MB): V8 otherwise grows its young generation to 2 × 16 MB while the hub
// loads its modules and keeps it, ~10 MB more RSS for nothing (issue 9: < 120 MB after start); the
// agent's cycle rate is the same with it (README, "Benchmarks").
// --heap-growing-percent=50: the old generation may grow to 1.5 × what survived the last full GC before
// the next one (V8 otherwise lets it reach up to 4 ×): the hub's live heap is small (~35 MB with a
// 200,000-issue mirror) and a refresh's parts leave megabytes of garbage each, which otherwise piles up
// to 100–150 MB of RSS before it is collected (issue 14: < 100 MB of growth while mirroring).
// `npm start` passes the same flags, and `npm run bench` starts the hub with the flags of this line.
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
