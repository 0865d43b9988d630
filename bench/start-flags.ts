import { readFileSync } from 'node:fs';

/** The Node flags `jira-hub` starts with (its bin's `#!/usr/bin/env -S node …` line): the bench starts the hub as users do. */
export function startFlags(): string[] {
  const shebang = readFileSync(new URL('../../bin/jira-hub.js', import.meta.url), 'utf8').split('\n')[0];
  return shebang.split(/\s+/).filter((word) => word.startsWith('--'));
}
