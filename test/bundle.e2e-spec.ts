/**
 * `npm run build` while a hub runs from dist/hub/ (scripts/bundle.js): the running hub has loaded cli.js and
 * loads its chunks only when first needed (MCP, /docs). A rebuild must leave the chunks it refers to in place.
 * Driven with a small entry bundled by the script as `npm run build` runs it, run as a process that loads
 * its chunk late.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './support/app.js';

describe('scripts/bundle.js keeps a running build working', () => {
  const dirs: string[] = [];
  const children: ChildProcessWithoutNullStreams[] = [];
  afterEach(() => {
    children.splice(0).forEach((c) => c.kill());
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  /** `node scripts/bundle.js <entry> <out>`, as `npm run build` runs it for dist/src/cli.js → dist/hub. */
  const bundle = (entry: string, out: string) => execFileSync(process.execPath, ['scripts/bundle.js', entry, out], { stdio: 'pipe' });

  /** The sources: an entry that loads `late.js` (and through it `deep.js`) only when asked on stdin. */
  const sources = (dir: string, version: string) => {
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src/cli.js'), "console.log('ready');\nprocess.stdin.once('data', async () => console.log((await import('./late.js')).answer()));\n");
    writeFileSync(join(dir, 'src/late.js'), `import { deep } from './deep.js';\nexport const answer = () => deep('${version}');\n`);
    writeFileSync(join(dir, 'src/deep.js'), `export const deep = (v) => 'late ' + v + ' (${version})';\n`);
  };

  /** `node out/cli.js`, once it has loaded its entry (and nothing late yet). */
  const start = async (out: string) => {
    const child = spawn(process.execPath, [join(out, 'cli.js')]);
    children.push(child);
    let text = '';
    child.stdout.on('data', (b: Buffer) => (text += b.toString()));
    child.stderr.on('data', (b: Buffer) => (text += b.toString()));
    const line = async (n: number) => {
      while (text.split('\n').length <= n) await new Promise((r) => child.stdout.once('data', r));
      return text.split('\n')[n - 1];
    };
    expect(await line(1)).toBe('ready');
    return {
      /** What the late chunk answers (or the error loading it). */
      late: async () => {
        const exited = new Promise((r) => child.once('exit', r));
        child.stdin.end('go\n');
        await exited;
        return text.split('\n').slice(1).join('\n').trim();
      },
    };
  };

  it('a process started from the previous build still loads its late chunks after a rebuild with changed code; older builds’ files go', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const out = join(dir, 'hub');
    const entry = join(dir, 'src/cli.js');
    sources(dir, 'v1');
    bundle(entry, out);
    const first = readdirSync(out).sort();
    expect(first.filter((f) => f.endsWith('.js'))).toEqual(['cli.js', expect.stringMatching(/^late-[\w-]+\.js$/)]);
    const running = await start(out);

    sources(dir, 'v2');
    bundle(entry, out);
    // the running process loads its late chunk, which the new build (a new name) left in place
    expect(await running.late()).toBe('late v1 (v1)');
    const second = readdirSync(out).sort();
    expect(second).toEqual(expect.arrayContaining(first));
    expect(second.filter((f) => /^late-.*\.js$/.test(f))).toHaveLength(2);
    expect(await (await start(out)).late()).toBe('late v2 (v2)');
    // no half-built folder is left beside it
    expect(readdirSync(dir).sort()).toEqual(['hub', 'src']);

    // a third build: the first build's chunks go, the second's stay
    sources(dir, 'v3');
    bundle(entry, out);
    const third = readdirSync(out).sort();
    const gone = first.filter((f) => !third.includes(f));
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.every((f) => f.startsWith('late-'))).toBe(true);
    expect(third).toEqual(expect.arrayContaining(second.filter((f) => !gone.includes(f))));
    expect(await (await start(out)).late()).toBe('late v3 (v3)');
    const [now, before] = JSON.parse(readFileSync(join(out, '.builds.json'), 'utf8')) as string[][];
    expect(now).toContain('cli.js');
    expect(before.some((f) => second.includes(f) && /^late-/.test(f))).toBe(true);

    // An unchanged rebuild keeps every name: nothing piles up.
    bundle(entry, out);
    expect(readdirSync(out).sort()).toEqual(third);
    expect(existsSync(join(out, 'cli.js'))).toBe(true);
  });
});
