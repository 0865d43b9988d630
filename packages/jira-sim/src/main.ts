import { readFileSync } from 'node:fs';
import { JiraSimulator } from './simulator.js';
import type { SimSeed } from './types.js';

export type Env = Record<string, string | undefined>;

/**
 * `jira-hub jira-sim`: serves the simulator until SIGINT/SIGTERM (or `stopSignal`).
 * JIRA_SIM_HOST (127.0.0.1), JIRA_SIM_PORT (8080; 0 = any free port), JIRA_SIM_PROJECT (AURORA),
 * JIRA_SIM_SEED (path of a JSON file with parts of the seed to replace), JIRA_SIM_SEARCH_LAG_MS,
 * JIRA_SIM_LATENCY_MS, JIRA_SIM_PAGE_SIZE (100), JIRA_SIM_GENERATE (a generated project of N issues with about 2N links,
 * the same for the same N, instead of the seed's issues).
 */
export async function runSimulatorFromEnv(env: Env = process.env, stopSignal?: AbortSignal): Promise<void> {
  const seed = env.JIRA_SIM_SEED ? (JSON.parse(readFileSync(env.JIRA_SIM_SEED, 'utf8')) as Partial<SimSeed>) : undefined;
  const sim = new JiraSimulator({
    projectKey: env.JIRA_SIM_PROJECT || 'AURORA',
    seed,
    maxPageSize: env.JIRA_SIM_PAGE_SIZE ? Number(env.JIRA_SIM_PAGE_SIZE) : undefined,
    generate: generateFromEnv(env),
  });
  if (env.JIRA_SIM_SEARCH_LAG_MS) sim.setSearchLagMs(Number(env.JIRA_SIM_SEARCH_LAG_MS));
  if (env.JIRA_SIM_LATENCY_MS) sim.setLatencyMs(Number(env.JIRA_SIM_LATENCY_MS));
  if (sim.store.issues.size > 0) console.log(`Jira simulator: ${sim.store.issues.size} issues, ${sim.store.links.length} links`);
  const url = await sim.start(Number(env.JIRA_SIM_PORT ?? 8080), env.JIRA_SIM_HOST || '127.0.0.1');
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
  if (!Number.isInteger(n) || n < 0) throw new Error(`JIRA_SIM_GENERATE должно быть целым числом задач, а не «${raw}»`);
  return n || undefined;
}
