/**
 * `npm run build -w @jira-hub/web` (packages/web/scripts/build.js) while a dashboard tab is open: the tab holds
 * the previous build's index.html and asks for its hashed assets later (a lazily loaded chunk). A rebuild must
 * leave them in place, as the hub's own bundle does (test/bundle.e2e-spec.ts). Driven with a small vite project
 * built by the script as the package's build runs it for the dashboard.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './support/app.js';

describe("the dashboard's build keeps an open page's assets", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** `node packages/web/scripts/build.js <root> <out>`, as `npm run build -w @jira-hub/web` runs it for packages/web → dist. */
  const build = (root: string, out: string) => execFileSync(process.execPath, ['packages/web/scripts/build.js', root, out], { stdio: 'pipe' });

  /** The project: a page whose script loads `late.js` only when asked, as the dashboard loads a page's code. */
  const sources = (root: string, version: string) => {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><html><body><script type="module" src="/main.js"></script></body></html>\n');
    writeFileSync(join(root, 'main.js'), `document.body.onclick = async () => (await import('./late.js')).show();\nexport const main = '${version}';\n`);
    writeFileSync(join(root, 'late.js'), `export const show = () => 'late ${version}';\n`);
  };

  const assets = (out: string) => readdirSync(join(out, 'assets')).sort();
  /** The scripts an index.html names, and the chunks they import (the built files, as a tab would ask for them). */
  const page = (out: string) => {
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const main = /src="\/assets\/([^"]+\.js)"/.exec(html)![1];
    const late = /\/(late-[\w-]+\.js)[`"']/.exec(readFileSync(join(out, 'assets', main), 'utf8'))![1];
    return { main, late };
  };

  it("an open page still finds its late chunk after a rebuild with changed code; older builds' files go", () => {
    const dir = tempDir();
    dirs.push(dir);
    const root = join(dir, 'web');
    const out = join(root, 'dist');
    sources(root, 'v1');
    build(root, out);
    const first = page(out);
    const firstAssets = assets(out);
    expect(firstAssets).toEqual([first.main, first.late].sort());

    sources(root, 'v2');
    build(root, out);
    const second = page(out);
    expect(second.late).not.toBe(first.late);
    // the page opened before the rebuild loads its chunk, which the new build (a new name) left in place
    expect(readFileSync(join(out, 'assets', first.late), 'utf8')).toContain('late v1');
    expect(readFileSync(join(out, 'assets', second.late), 'utf8')).toContain('late v2');
    expect(assets(out)).toEqual([...firstAssets, second.main, second.late].sort());
    // no half-built folder is left beside it
    expect(readdirSync(root).sort()).toEqual(['dist', 'index.html', 'late.js', 'main.js']);

    // a third build: the first build's files go, the second's stay
    sources(root, 'v3');
    build(root, out);
    const third = page(out);
    expect(assets(out)).toEqual([second.main, second.late, third.main, third.late].sort());
    const [now, before] = JSON.parse(readFileSync(join(out, '.builds.json'), 'utf8')) as string[][];
    expect(now).toContain('index.html');
    expect(before).toEqual([`assets/${second.late}`, `assets/${second.main}`].sort());

    // An unchanged rebuild keeps every name: nothing piles up, the previous build stays.
    const files = assets(out);
    build(root, out);
    expect(assets(out)).toEqual(files);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
  });

  it('the dashboard is built by this script', () => {
    const pkg = JSON.parse(readFileSync('packages/web/package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.build).toBe('node scripts/build.js');
  });
});
