import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedFromEnv, simNumbersFromEnv } from './main.js';

describe('the simulator’s variables (jira-hub jira-sim)', () => {
  it('numbers: unset is the default; a whole number in range is taken', () => {
    expect(simNumbersFromEnv({})).toEqual({ port: undefined, pageSize: undefined, latencyMs: undefined, searchLagMs: undefined });
    expect(simNumbersFromEnv({ JIRA_SIM_PORT: '0', JIRA_SIM_PAGE_SIZE: ' 50 ', JIRA_SIM_LATENCY_MS: '20', JIRA_SIM_SEARCH_LAG_MS: '' })).toEqual({
      port: 0,
      pageSize: 50,
      latencyMs: 20,
      searchLagMs: undefined,
    });
  });

  it.each([
    ['JIRA_SIM_PAGE_SIZE', '0', /^JIRA_SIM_PAGE_SIZE: нужно целое число от 1 до 10000, а задано «0»$/],
    ['JIRA_SIM_PAGE_SIZE', '-5', /JIRA_SIM_PAGE_SIZE: .*«-5»/],
    ['JIRA_SIM_PORT', 'abc', /^JIRA_SIM_PORT: нужно целое число от 0 до 65535, а задано «abc»$/],
    ['JIRA_SIM_PORT', '70000', /JIRA_SIM_PORT: .*«70000»/],
    ['JIRA_SIM_LATENCY_MS', 'abc', /JIRA_SIM_LATENCY_MS: .*«abc»/],
    ['JIRA_SIM_SEARCH_LAG_MS', '1.5', /JIRA_SIM_SEARCH_LAG_MS: .*«1\.5»/],
  ])('%s=%s is refused in Russian, naming the variable', (name, raw, message) => {
    expect(() => simNumbersFromEnv({ [name]: raw })).toThrow(message);
  });

  it('a seed file: read with or without a BOM; missing, a folder, not JSON or not an object → one Russian line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jira-sim-seed-'));
    try {
      const file = join(dir, 'seed.json');
      writeFileSync(file, '\uFEFF{"issues": []}');
      expect(seedFromEnv({ JIRA_SIM_SEED: file })).toEqual({ issues: [] });
      expect(() => seedFromEnv({ JIRA_SIM_SEED: join(dir, 'none.json') })).toThrow(`JIRA_SIM_SEED: файл ${join(dir, 'none.json')} не найден`);
      expect(() => seedFromEnv({ JIRA_SIM_SEED: dir })).toThrow(`JIRA_SIM_SEED: файл ${dir} — папка, а нужен файл JSON`);
      for (const text of ['{bad', '', '[1]', '"x"']) {
        writeFileSync(file, text);
        expect(() => seedFromEnv({ JIRA_SIM_SEED: file })).toThrow(`JIRA_SIM_SEED: ${file} — не JSON-объект с частями затравки (issues, links, …); проверьте файл`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
