#!/usr/bin/env node
/** `jira-sim`: the simulator on its own (package.json bin); `--port` and `--seed` win over their variables. */
import { simHelp } from './help.js';
import { runSimulatorFromEnv, SimConfigError } from './main.js';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(simHelp());
  process.exit(0);
}
const env = { ...process.env };
/** The variables given as options, by the option typed: a refusal names it. */
const given: Record<string, string> = {};
for (let i = 0; i < args.length; i++) {
  const name = args[i] === '-p' || args[i] === '--port' ? 'JIRA_SIM_PORT' : args[i] === '--seed' ? 'JIRA_SIM_SEED' : undefined;
  if (!name || args[i + 1] === undefined) {
    // One line, as the hub's CLI says a usage error (src/cli.ts).
    const problem = name ? `параметру «${args[i]}» нужно значение` : `неизвестный параметр «${args[i]}»`;
    console.error(`jira-sim: ${problem} (список параметров и переменных: jira-sim --help)`);
    process.exit(2);
  }
  given[name] = args[i]!.startsWith('--') ? args[i]! : '--port';
  env[name] = args[++i];
}
try {
  await runSimulatorFromEnv(env, undefined, given);
} catch (err) {
  console.error(`jira-sim: ${err instanceof Error ? err.message : String(err)}`);
  // A refused variable is a usage error (2), as the hub's CLI says; anything else a failure (1).
  process.exit(err instanceof SimConfigError ? 2 : 1);
}
