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
/** One line, as the hub's CLI says a usage error (src/cli.ts), and exit 2. */
const refuse = (problem: string): never => {
  console.error(`jira-sim: ${problem} (список параметров и переменных: jira-sim --help)`);
  process.exit(2);
};
for (let i = 0; i < args.length; i++) {
  // `--port 8080` and `--port=8080`, as `jira-hub jira-sim` (commander) takes them.
  const [flag, inline] = args[i]!.startsWith('--') && args[i]!.includes('=') ? [args[i]!.slice(0, args[i]!.indexOf('=')), args[i]!.slice(args[i]!.indexOf('=') + 1)] : [args[i]!, undefined];
  const name = flag === '-p' || flag === '--port' ? 'JIRA_SIM_PORT' : flag === '--seed' ? 'JIRA_SIM_SEED' : undefined;
  if (!name) refuse(`неизвестный параметр «${flag}»`);
  const value = inline ?? args[++i];
  if (value === undefined) refuse(`параметру «${flag}» нужно значение`);
  // A blank value (`--port "$PORT"` with PORT unset) is not the default: it would have taken port 8080 or the default seed.
  if (!value!.trim()) refuse(`параметру «${flag}» нужно непустое значение`);
  given[name!] = flag.startsWith('--') ? flag : '--port';
  env[name!] = value;
}
try {
  await runSimulatorFromEnv(env, undefined, given);
} catch (err) {
  console.error(`jira-sim: ${err instanceof Error ? err.message : String(err)}`);
  // A refused variable is a usage error (2), as the hub's CLI says; anything else a failure (1).
  process.exit(err instanceof SimConfigError ? 2 : 1);
}
