#!/usr/bin/env node
/**
 * `npm run build -w @jira-hub/web`: the dashboard built by vite into a folder aside, then moved into dist/
 * keeping the previous build's files (scripts/install-build.js, as the hub's own bundle does). A tab opened
 * before a rebuild holds the old index.html, whose hashed assets — a lazily loaded chunk among them — it may
 * still ask for; emptying dist/ (vite's default) made those requests 404. Files of builds older than the
 * previous one are removed; index.html is moved in last, after the assets it names.
 *
 * `node scripts/build.js [root out]`: the dashboard by default; the test of this script gives its own project.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildAside } from '../../../scripts/install-build.js';

const web = fileURLToPath(new URL('..', import.meta.url));

export async function buildDashboard(root = web, out = resolve(web, 'dist')) {
  // The project's own vite.config (when it has one) with the output folder replaced.
  await buildAside(out, ['index.html'], (built) => build({ root, build: { outDir: built, emptyOutDir: true } }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await buildDashboard(...process.argv.slice(2, 4).map((p) => resolve(p)));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
