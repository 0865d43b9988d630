// The workspace packages run from their sources in tests, as jest.config.js's moduleNameMapper and
// tsconfig.json's paths say: `@jira-hub/<package>[/<path>]` → packages/<package>/src/<path or index>.ts.
// Read by ts-hooks.mjs (a child run from the sources) and source-bundle.js (the bundle of the entries).
import { fileURLToPath } from 'node:url';

const PACKAGES = new URL('../../packages/', import.meta.url);
const WORKSPACE = /^@jira-hub\/(agent|jira-sim|contracts)(?:\/(.+))?$/;

/** The source file a workspace import names, or undefined for any other specifier. */
export function workspaceSource(specifier) {
  const m = WORKSPACE.exec(specifier);
  return m ? fileURLToPath(new URL(`${m[1]}/src/${m[2] ?? 'index'}.ts`, PACKAGES)) : undefined;
}
