import { readFileSync } from 'node:fs';
import { SeedEntryError } from './errors.js';
import { seedProblem } from './seed-shape.js';
import { JiraSimulator } from './simulator.js';
import type { SimSeed } from './types.js';

export type Env = Record<string, string | undefined>;

/**
 * A variable the simulator cannot start with (a number out of range, a seed file that is not there, not
 * JSON or not a seed, a port that is taken): a refusal, exit code 2 like the hub's own (`jira-sim`,
 * `jira-hub jira-sim`), not a failure (1).
 */
export class SimConfigError extends Error {}

/** What Node's listen errors mean for JIRA_SIM_HOST:JIRA_SIM_PORT (`at`), as the hub says its own (src/serve.ts). */
const LISTEN_REFUSALS: Record<string, (at: string, host: string) => string> = {
  EADDRINUSE: (at) => `адрес ${at} уже занят другой программой (может быть, симулятор уже запущен); укажите другой порт: --port или JIRA_SIM_PORT (0 — любой свободный)`,
  EACCES: (at) => `слушать ${at} нет прав (порты ниже 1024 обычно только для администратора); укажите другой порт: --port или JIRA_SIM_PORT`,
  EADDRNOTAVAIL: (_at, host) => `адреса ${host} у этой машины нет; укажите её адрес в JIRA_SIM_HOST`,
  ENOTFOUND: (_at, host) => `имя ${host} не найдено; укажите адрес этой машины в JIRA_SIM_HOST`,
  // e.g. a link-local IPv6 address without its interface (fe80::1 rather than fe80::1%eth0)
  EINVAL: (_at, host) => `на адресе ${host} слушать нельзя (адрес IPv6 fe80::… нужен с именем интерфейса, например fe80::1%eth0); укажите адрес этой машины в JIRA_SIM_HOST`,
};

/** The refusal to say for Node's error listening on host:port, or undefined when it is a failure, not a refusal. */
export function listenRefusal(err: unknown, host: string, port: number): string | undefined {
  const refusal = LISTEN_REFUSALS[(err as NodeJS.ErrnoException | undefined)?.code ?? ''];
  return refusal?.(`${host.includes(':') ? `[${host}]` : host}:${port}`, host);
}

/**
 * How the person gave a variable when not in the environment (`--port` for JIRA_SIM_PORT, `--seed` for
 * JIRA_SIM_SEED): a refusal names what they typed.
 */
export type Given = Readonly<Partial<Record<'JIRA_SIM_PORT' | 'JIRA_SIM_SEED', string>>>;

/**
 * `jira-hub jira-sim`: serves the simulator until SIGINT/SIGTERM (or `stopSignal`).
 * JIRA_SIM_HOST (127.0.0.1), JIRA_SIM_PORT (8080; 0 = any free port), JIRA_SIM_PROJECT (AURORA),
 * JIRA_SIM_SEED (path of a JSON file with parts of the seed to replace), JIRA_SIM_SEARCH_LAG_MS,
 * JIRA_SIM_LATENCY_MS, JIRA_SIM_PAGE_SIZE (100), JIRA_SIM_GENERATE (a generated project of N issues with about 2N links,
 * the same for the same N, instead of the seed's issues).
 */
export async function runSimulatorFromEnv(env: Env = process.env, stopSignal?: AbortSignal, given: Given = {}): Promise<void> {
  const numbers = simNumbersFromEnv(env, given);
  const sim = simulatorFromEnv(env, numbers.pageSize, given);
  if (numbers.searchLagMs !== undefined) sim.setSearchLagMs(numbers.searchLagMs);
  if (numbers.latencyMs !== undefined) sim.setLatencyMs(numbers.latencyMs);
  if (sim.store.issues.size > 0) console.log(`Симулятор Jira: задач ${sim.store.issues.size}, связей ${sim.store.links.length}`);
  const host = env.JIRA_SIM_HOST || '127.0.0.1';
  const port = numbers.port ?? 8080;
  const url = await sim.start(port, host).catch((err: unknown) => {
    const refusal = listenRefusal(err, host, port);
    throw refusal ? new SimConfigError(refusal) : err;
  });
  console.log(`Симулятор Jira слушает ${url} (Cloud: ${url}/rest/api/3, DC: ${url}/rest/api/2, проект ${sim.store.seed.projects.map((p) => p.key).join(', ')})`);
  await new Promise<void>((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    stopSignal?.addEventListener('abort', done, { once: true });
    if (stopSignal?.aborted) done();
  });
  await sim.stop();
  console.log('Симулятор Jira остановлен');
}

/**
 * The simulator of JIRA_SIM_PROJECT, JIRA_SIM_SEED and JIRA_SIM_GENERATE; a seed entry Jira would refuse (an
 * unknown issue type, a link to no issue) is one Russian line naming it, with Jira's answer.
 */
function simulatorFromEnv(env: Env, maxPageSize: number | undefined, given: Given): JiraSimulator {
  const seed = seedFromEnv(env, given);
  const generate = generateFromEnv(env);
  try {
    return new JiraSimulator({ projectKey: env.JIRA_SIM_PROJECT || 'AURORA', seed, maxPageSize, generate });
  } catch (err) {
    if (!(err instanceof SeedEntryError)) throw err;
    const path = env.JIRA_SIM_SEED?.trim();
    const what = `${err.entry} не создать — Jira отвечает «${err.refusal.text()}»`;
    throw new SimConfigError(generate ? `JIRA_SIM_GENERATE: ${what} (сгенерированный проект${path ? ` с начальными данными ${path}` : ''})` : `${given.JIRA_SIM_SEED ?? 'JIRA_SIM_SEED'}: ${path}: ${what}`);
  }
}

/** JIRA_SIM_GENERATE as a whole number of issues (0 or unset: none generated). */
export function generateFromEnv(env: Env): number | undefined {
  const raw = env.JIRA_SIM_GENERATE?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new SimConfigError(`JIRA_SIM_GENERATE должно быть целым числом задач, а не «${raw}»`);
  return n || undefined;
}

/** A whole number from `min` to `max` in the variable `name` (unset or empty: undefined), or a Russian error naming it. */
function wholeFromEnv(env: Env, name: string, min: number, max: number, given: Given): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new SimConfigError(`${given[name as keyof Given] ?? name}: нужно целое число от ${min} до ${max}, а задано «${raw}»`);
  return n;
}

/**
 * The simulator's numeric variables, checked before it starts: a page size of 0 served empty pages that
 * never ended, and a port or a latency that is not a number reached Node as NaN.
 */
export function simNumbersFromEnv(env: Env, given: Given = {}): { port?: number; pageSize?: number; latencyMs?: number; searchLagMs?: number } {
  return {
    port: wholeFromEnv(env, 'JIRA_SIM_PORT', 0, 65535, given),
    pageSize: wholeFromEnv(env, 'JIRA_SIM_PAGE_SIZE', 1, 10_000, given),
    latencyMs: wholeFromEnv(env, 'JIRA_SIM_LATENCY_MS', 0, 600_000, given),
    searchLagMs: wholeFromEnv(env, 'JIRA_SIM_SEARCH_LAG_MS', 0, 600_000, given),
  };
}

/**
 * JIRA_SIM_SEED: the parts of the seed a JSON file replaces; a missing or malformed file, or one not shaped
 * as a seed (seedProblem: `issues[0]: нужен объект задачи с summary, …`), is one Russian line.
 */
export function seedFromEnv(env: Env, given: Given = {}): Partial<SimSeed> | undefined {
  const path = env.JIRA_SIM_SEED?.trim();
  if (!path) return undefined;
  const name = given.JIRA_SIM_SEED ?? 'JIRA_SIM_SEED';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SimConfigError(`${name}: файл ${path} ${code === 'ENOENT' ? 'не найден' : code === 'EISDIR' ? '— папка, а нужен файл JSON' : 'не прочитать'}`);
  }
  let seed: unknown;
  try {
    seed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    // not JSON: the same answer as JSON that is not an object
  }
  if (typeof seed !== 'object' || seed === null || Array.isArray(seed)) {
    throw new SimConfigError(`${name}: ${path} — не JSON-объект с частями затравки (issues, links, …); проверьте файл`);
  }
  const problem = seedProblem(seed);
  if (problem) throw new SimConfigError(`${name}: ${path}: ${problem}`);
  return seed as Partial<SimSeed>;
}
