#!/usr/bin/env node
/** `jira-hub-agent`: the reference agent on its own, without the hub installed (package.json bin); main.ts's agentBin. */
import { dotEnvRefusal } from '@jira-hub/contracts/dotenv';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { agentBin } from './main.js';

const args = process.argv.slice(2);
// A .env file in the current folder, like the hub's; variables of the shell win (loadEnvFile keeps them).
if (!args.includes('--help') && !args.includes('-h') && existsSync('.env')) {
  try {
    // A line Node would skip, and with it the variables after it (a token), stops the start (as the hub's .env).
    const refusal = dotEnvRefusal(resolve('.env'), readFileSync('.env', 'utf8'));
    if (refusal) {
      console.error(`jira-hub-agent: ${refusal}`);
      process.exit(2);
    }
    process.loadEnvFile('.env');
  } catch (err) {
    // A folder named .env, a file it may not read…: one line for a person and exit 2, as for a bad variable.
    const why = (err as NodeJS.ErrnoException).code === 'EACCES' ? 'нет прав на чтение' : 'это не файл с переменными';
    console.error(`jira-hub-agent: ${resolve('.env')} не прочитать (${why}); исправьте или переименуйте его`);
    process.exit(2);
  }
}
process.exit(await agentBin(args, process.env));
