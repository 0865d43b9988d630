#!/usr/bin/env node
/**
 * Bundles the built hub (dist/src/cli.js, tsc's output) into dist/hub/, which `jira-hub` (bin/jira-hub.js)
 * runs. The hub takes every library through its public entry point — class-validator's and
 * @nestjs/swagger's whole index among them — and a start that resolves and reads each of their modules one
 * by one misses issue 9's 1.5 s; read as a few large files, the same code starts well under it (decision
 * 0900). What the hub loads late (the MCP SDK, zod, Swagger's document builder, the agent, the simulator)
 * stays late: each `import()` becomes a chunk of its own. `npm run build` runs this after `nest build`.
 *
 * Left outside the bundle, loaded from node_modules as before: Node's own modules; better-sqlite3 (a native
 * addon); pg (loaded only for PostgreSQL); TypeORM (it loads its drivers by name at run time, and bundling it
 * made the start no faster); swagger-ui-dist (served from its own folder); reflect-metadata (it must run
 * before any decorator, so it stays the entry's first import); the workspace packages (their own builds);
 * the optional Nest packages the hub does not install (Nest tries them inside a try); and express, because
 * @nestjs/serve-static loads it at run time with a `require` of its own, which the bundler cannot see: a
 * bundled express would be a second copy beside that one (decision 0902).
 *
 * The output is ASCII (`charset`): V8 keeps every loaded source text, and one character above U+00FF
 * (Cyrillic in a message, a table of iconv-lite or libphonenumber) stores a whole chunk at two bytes per
 * character (decision 0902).
 *
 * A hub may be running from dist/hub/ while this runs: it has loaded cli.js and loads its
 * chunks only when first needed (the first /mcp request, the first page of /docs). So the folder is never
 * emptied: the build is written aside and moved in file by file (a rename: a reader sees the old file or the
 * new one, never half of one); chunk names carry a hash of their content, so the previous build's chunks keep
 * their names and stay beside the new ones. Files of builds older than the previous one are removed
 * (scripts/install-build.js, which the dashboard's build shares).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { EXTERNAL_LIBRARIES } from './bundle-external.js';
import { buildAside } from './install-build.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

// The workspace packages run from their own builds.
export const EXTERNAL = [...EXTERNAL_LIBRARIES, /^@jira-hub\//];

/** Bundles `input` (tsc's output of src/cli.ts) into `out`, which `jira-hub` runs. */
export async function bundle(input = join(root, 'dist/src/cli.js'), out = join(root, 'dist/hub')) {
  await buildAside(out, ['cli.js'], async (built) => {
    const warnings = [];
    await build({
      input: { cli: input },
      platform: 'node',
      external: EXTERNAL,
      output: {
        dir: built,
        format: 'esm',
        entryFileNames: '[name].js',
        // The hash is of the chunk's content: a changed chunk gets a new name, so a running hub's chunk is never overwritten.
        chunkFileNames: '[name]-[hash].js',
        // Names as written: Nest, TypeORM and Swagger read class names (tokens in messages, schema names).
        keepNames: true,
        // Whitespace and comments only (V8 keeps every loaded source text: ~4 MB less RSS after start); no
        // renaming or rewriting. Stack traces map back through the source maps (node --enable-source-maps).
        minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
        sourcemap: true,
        // \u escapes instead of non-ASCII characters: one-byte source strings (decision 0902).
        charset: 'ascii',
      },
      onLog(level, log) {
        if (level === 'warn') warnings.push(log.message);
      },
    });
    // An import the bundler cannot resolve would fail only when that path runs: refuse the build instead.
    if (warnings.length) throw new Error(`scripts/bundle.js: ${warnings.length} warning(s):\n${warnings.join('\n')}`);
  });
}

// `node scripts/bundle.js [input out]`: the hub by default; the test of this script gives its own entry.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await bundle(...process.argv.slice(2, 4).map((p) => resolve(p)));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
