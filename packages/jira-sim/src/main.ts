import { readFileSync } from 'node:fs';
import { JiraSimulator } from './simulator.js';
import type { SimSeed } from './types.js';

export type Env = Record<string, string | undefined>;

/**
 * A variable the simulator cannot start with (a number out of range, a seed file that is not there or
 * not JSON): a refusal, exit code 2 like the hub's own (`jira-sim`, `jira-hub jira-sim`), not a failure (1).
 */
export class SimConfigError extends Error {}

/**
 * `jira-hub jira-sim`: serves the simulator until SIGINT/SIGTERM (or `stopSignal`).
 * JIRA_SIM_HOST (127.0.0.1), JIRA_SIM_PORT (8080; 0 = any free port), JIRA_SIM_PROJECT (AURORA),
 * JIRA_SIM_SEED (path of a JSON file with parts of the seed to replace), JIRA_SIM_SEARCH_LAG_MS,
 * JIRA_SIM_LATENCY_MS, JIRA_SIM_PAGE_SIZE (100), JIRA_SIM_GENERATE (a generated project of N issues with about 2N links,
 * the same for the same N, instead of the seed's issues).
 */
export async function runSimulatorFromEnv(env: Env = process.env, stopSignal?: AbortSignal): Promise<void> {
  const numbers = simNumbersFromEnv(env);
  const sim = new JiraSimulator({
    projectKey: env.JIRA_SIM_PROJECT || 'AURORA',
    seed: seedFromEnv(env),
    maxPageSize: numbers.pageSize,
    generate: generateFromEnv(env),
  });
  if (numbers.searchLagMs !== undefined) sim.setSearchLagMs(numbers.searchLagMs);
  if (numbers.latencyMs !== undefined) sim.setLatencyMs(numbers.latencyMs);
  if (sim.store.issues.size > 0) console.log(`Jira simulator: ${sim.store.issues.size} issues, ${sim.store.links.length} links`);
  const url = await sim.start(numbers.port ?? 8080, env.JIRA_SIM_HOST || '127.0.0.1');
  console.log(`Jira simulator on ${url} (Cloud: ${url}/rest/api/3, DC: ${url}/rest/api/2, project ${sim.store.seed.projects.map((p) => p.key).join(', ')})`);
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
  console.log('Jira simulator stopped');
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
function wholeFromEnv(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new SimConfigError(`${name}: нужно целое число от ${min} до ${max}, а задано «${raw}»`);
  return n;
}

/**
 * The simulator's numeric variables, checked before it starts: a page size of 0 served empty pages that
 * never ended, and a port or a latency that is not a number reached Node as NaN.
 */
export function simNumbersFromEnv(env: Env): { port?: number; pageSize?: number; latencyMs?: number; searchLagMs?: number } {
  return {
    port: wholeFromEnv(env, 'JIRA_SIM_PORT', 0, 65535),
    pageSize: wholeFromEnv(env, 'JIRA_SIM_PAGE_SIZE', 1, 10_000),
    latencyMs: wholeFromEnv(env, 'JIRA_SIM_LATENCY_MS', 0, 600_000),
    searchLagMs: wholeFromEnv(env, 'JIRA_SIM_SEARCH_LAG_MS', 0, 600_000),
  };
}

/** JIRA_SIM_SEED: the parts of the seed a JSON file replaces; a missing or malformed file is one Russian line. */
export function seedFromEnv(env: Env): Partial<SimSeed> | undefined {
  const path = env.JIRA_SIM_SEED?.trim();
  if (!path) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SimConfigError(`JIRA_SIM_SEED: файл ${path} ${code === 'ENOENT' ? 'не найден' : code === 'EISDIR' ? '— папка, а нужен файл JSON' : 'не прочитать'}`);
  }
  try {
    const seed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof seed === 'object' && seed !== null && !Array.isArray(seed)) return seed as Partial<SimSeed>;
  } catch {
    // not JSON: the same answer as JSON that is not an object
  }
  throw new SimConfigError(`JIRA_SIM_SEED: ${path} — не JSON-объект с частями затравки (issues, links, …); проверьте файл`);
}
