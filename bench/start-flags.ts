import { readFileSync } from 'node:fs';

/**
 * The Node flags of `npm start` (package.json's start script): the mirror's memory target (< 100 MB of
 * growth over 200,000 issues) is met with `--heap-growing-percent=50`, which `jira-hub` itself does not pass
 * (decision 0900), so the mirror section starts the hub as `npm start` does.
 */
export function npmStartFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}
