import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFileUnder } from './allowed-methods.js';

describe('isFileUnder: a file express.static would serve, nothing outside its folder', () => {
  let root: string;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-files-'));
    root = join(dir, 'dist');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<html>');
    writeFileSync(join(root, 'assets', 'app.js'), '');
    writeFileSync(join(root, '.env'), '');
    writeFileSync(join(dir, 'secret.txt'), '');
  });
  afterAll(() => rmSync(join(root, '..'), { recursive: true, force: true }));

  it.each([
    ['/index.html', true],
    ['/assets/app.js', true],
    ['/assets/%61pp.js', true],
    ['/assets', false],
    ['/missing.js', false],
    ['/.env', false],
    ['/../secret.txt', false],
    ['/assets/%2E%2E/%2E%2E/secret.txt', false],
    ['/assets%5C..%5C..%5Csecret.txt', false],
    ['/assets/app.js%00', false],
    ['/%E0%A4%A', false],
    ['//index.html', false],
  ])('%s → %s', (path, served) => {
    expect(isFileUnder(root, path)).toBe(served);
  });
});
