import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenRefusal, runSimulatorFromEnv, seedFromEnv, SimConfigError, simNumbersFromEnv } from './main.js';

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
    // given as an option: the option is named instead of the variable
    if (name === 'JIRA_SIM_PORT') expect(() => simNumbersFromEnv({ [name]: raw }, { JIRA_SIM_PORT: '--port' })).toThrow(/^--port: нужно целое число/);
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

  // They crashed the start with Node's or Jira's English words and exit code 1 (seedProblem's table: seed-shape.spec.ts).
  it('a seed file not shaped as a seed → one Russian line naming the file, the entry and the shape expected', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jira-sim-seed-'));
    try {
      const file = join(dir, 's.json');
      const refusal = (seed: unknown) => {
        writeFileSync(file, JSON.stringify(seed));
        try {
          seedFromEnv({ JIRA_SIM_SEED: file });
        } catch (err) {
          return err instanceof SimConfigError ? err.message : err;
        }
        return 'taken';
      };
      expect(refusal({ links: 'x' })).toBe(`JIRA_SIM_SEED: ${file}: links: нужен список связей, а не строка «x»`);
      expect(refusal({ issues: [1, 2] })).toBe(`JIRA_SIM_SEED: ${file}: issues[0]: нужен объект задачи с summary, а не число 1`);
      expect(refusal({ issues: [{ summary: 'a' }, {}] })).toBe(`JIRA_SIM_SEED: ${file}: issues[1]: нужен объект задачи с summary, а в нём нет summary`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a seed entry Jira would refuse → one Russian line naming it, with Jira’s answer, before anything listens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jira-sim-seed-'));
    try {
      const file = join(dir, 's.json');
      const start = (seed: unknown, env: Record<string, string> = {}) => {
        writeFileSync(file, JSON.stringify(seed));
        // An aborted stop signal: a seed that is taken starts and stops at once instead of serving on.
        return runSimulatorFromEnv({ JIRA_SIM_SEED: file, JIRA_SIM_PORT: '0', ...env }, AbortSignal.abort()).then(
          () => 'started',
          (err: unknown) => (err instanceof SimConfigError ? err.message : err),
        );
      };
      expect(await start({ issues: [{ summary: 'a' }, { summary: 'b', issueType: 'Epik' }] })).toBe(
        `JIRA_SIM_SEED: ${file}: issues[1] не создать — Jira отвечает «issuetype: valid issue type is required»`,
      );
      expect(await start({ issues: [{ summary: 'a' }], links: [{ source: 'AURORA-1', target: 'AURORA-2', type: 'Blocks' }] })).toBe(
        `JIRA_SIM_SEED: ${file}: links[0] не создать — Jira отвечает «Issue does not exist or you do not have permission to see it.»`,
      );
      expect(await start({ issueTypes: ['Story'] }, { JIRA_SIM_GENERATE: '3' })).toBe(
        `JIRA_SIM_GENERATE: issues[0] не создать — Jira отвечает «issuetype: valid issue type is required» (сгенерированный проект с начальными данными ${file})`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['EADDRINUSE', '127.0.0.1', 'адрес 127.0.0.1:47401 уже занят другой программой (может быть, симулятор уже запущен); укажите другой порт: --port или JIRA_SIM_PORT (0 — любой свободный)'],
    ['EADDRINUSE', '::1', 'адрес [::1]:47401 уже занят другой программой (может быть, симулятор уже запущен); укажите другой порт: --port или JIRA_SIM_PORT (0 — любой свободный)'],
    ['EACCES', '127.0.0.1', 'слушать 127.0.0.1:47401 нет прав (порты ниже 1024 обычно только для администратора); укажите другой порт: --port или JIRA_SIM_PORT'],
    ['EADDRNOTAVAIL', '10.9.9.9', 'адреса 10.9.9.9 у этой машины нет; укажите её адрес в JIRA_SIM_HOST'],
    ['ENOTFOUND', 'jira.invalid', 'имя jira.invalid не найдено; укажите адрес этой машины в JIRA_SIM_HOST'],
    ['EMFILE', '127.0.0.1', undefined],
  ])('listening refused with %s on %s → %s', (code, host, line) => {
    expect(listenRefusal(Object.assign(new Error('listen'), { code }), host, 47401)).toBe(line);
  });
});
