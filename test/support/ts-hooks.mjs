// Module hooks that let a child process run the TypeScript sources directly (tests spawn `jira-hub mcp`
// this way instead of building dist/ first): `.js` imports resolve to the `.ts` beside them, and
// `.ts` files are transpiled one by one with the project's compiler (no type check). The output is kept
// under node_modules/.cache/jira-hub-ts by a hash of the source, so that the next child neither loads the
// compiler nor transpiles a file that has not changed.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { workspaceSource } from './workspace.js';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/jira-hub-ts/', import.meta.url));
/** This file's own text is part of each key: changed compiler options make new entries. */
const HOOKS = await readFile(new URL(import.meta.url), 'utf8');
let compiler;

export async function resolve(specifier, context, next) {
  const workspace = workspaceSource(specifier); // the workspace packages run from their sources too
  if (workspace && existsSync(workspace)) return { url: pathToFileURL(workspace).href, shortCircuit: true };
  if (/^\.{1,2}\//.test(specifier) && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const candidate = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const source = await readFile(fileURLToPath(url), 'utf8');
  const cached = `${CACHE}${createHash('sha256').update(HOOKS).update(url).update('\0').update(source).digest('hex')}.js`;
  const hit = await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return { format: 'module', source: hit, shortCircuit: true };
  const ts = (compiler ??= (await import('typescript')).default);
  const out = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      sourceMap: false,
    },
  });
  // Written aside and renamed: children started at once never read half a file. A child that may not
  // write the cache (one run as another user) goes on without it.
  const aside = `${cached}.${process.pid}`;
  await mkdir(CACHE, { recursive: true })
    .then(() => writeFile(aside, out.outputText))
    .then(() => rename(aside, cached))
    .catch(() => undefined);
  return { format: 'module', source: out.outputText, shortCircuit: true };
}
