/**
 * What the hub's start does not load (issue 9: start < 1.5 s, RSS < 120 MB; ARCHITECTURE.md, "What the
 * start loads"): no source file but the ones named here imports these packages statically (a type-only
 * import or `import()` is fine). Read from the source text. Every library is taken through its public entry
 * point; class-validator, @nestjs/swagger and prom-client load whole at start, and `jira-hub` runs the
 * bundle of scripts/bundle.js, where each `import()` stays a chunk of its own (decision 0900).
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Package (or its index) → the files that may import it statically: those loaded only when it is
 * needed. An entry ending in `/` admits every file under that folder.
 */
const LATE: Record<string, string[]> = {
  '@modelcontextprotocol/sdk': ['src/mcp/server.ts', 'src/mcp/stdio.ts'],
  zod: ['src/mcp/server.ts', 'src/mcp/tools.ts', 'src/mcp/tool.ts', 'src/mcp/tools/', 'src/mcp/zod-ru.ts'],
  // the command schemas load zod: the docs and the MCP tools only
  '@jira-hub/contracts/commands': ['src/openapi-commands.ts', 'src/mcp/tools/'],
  pg: [],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

describe('what the start does not load', () => {
  it('no file loaded at start imports the MCP SDK, zod or pg', () => {
    const root = process.cwd();
    const found: string[] = [];
    for (const file of sources(join(root, 'src'))) {
      const name = relative(root, file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import\s+(?!type\s)[^'"]*?from\s+'([^']+)'/gms)) {
        const spec = m[1];
        for (const [pkg, allowed] of Object.entries(LATE)) {
          const loads = spec === pkg || spec.startsWith(`${pkg}/`);
          if (loads && !allowed.some((a) => (a.endsWith('/') ? name.startsWith(a) : a === name))) found.push(`${name} → ${spec}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('`jira-hub` runs the bundle, with no Node flags in its shebang', () => {
    const bin = readFileSync(join(process.cwd(), 'bin/jira-hub.js'), 'utf8');
    expect(bin.split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(bin).toContain("new URL('../dist/hub/cli.js', import.meta.url)");
  });
});
