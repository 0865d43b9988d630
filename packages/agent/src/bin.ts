#!/usr/bin/env node
/** `jira-hub-agent`: the reference agent on its own, without the hub installed (package.json bin). */
import { existsSync } from 'node:fs';
import { agentHelp } from './help.js';
import { agentMain } from './main.js';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(agentHelp());
  process.exit(0);
}
// A .env file in the current folder, like the hub's; variables of the shell win (loadEnvFile keeps them).
if (existsSync('.env')) process.loadEnvFile('.env');
const once = args.includes('--once');
try {
  const code = await agentMain(
    args.filter((a) => a !== '--once'),
    once ? { ...process.env, AGENT_ONCE: '1' } : process.env,
  );
  process.exit(code);
} catch (err) {
  console.error(`jira-hub-agent: ${err instanceof Error ? err.message : String(err)}\nсправка: jira-hub-agent --help`);
  process.exit(1);
}
