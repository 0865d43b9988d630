/**
 * The Jira simulator: an in-memory Jira (Cloud /rest/api/3 and Data Center /rest/api/2) for the agent's
 * tests, the demo and trying the hub out without a real Jira. Imports nothing but Node.
 */
export { JiraSimulator, type JiraSimulatorOptions, type AnonymousMode, type RateLimitSwitch } from './simulator.js';
export { runSimulatorFromEnv, generateFromEnv, SimConfigError, type Env } from './main.js';
export { simHelp, SIM_VARIABLES } from './help.js';
export { defaultSeed, SYSTEM_FIELDS } from './seed.js';
export { generatedProject } from './generate.js';
export type * from './types.js';
