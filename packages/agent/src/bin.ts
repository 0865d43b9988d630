#!/usr/bin/env node
/** `jira-hub-agent`: the reference agent on its own, without the hub installed (package.json bin); main.ts's agentBin. */
import { existsSync } from 'node:fs';
import { agentBin } from './main.js';

const args = process.argv.slice(2);
// A .env file in the current folder, like the hub's; variables of the shell win (loadEnvFile keeps them).
if (!args.includes('--help') && !args.includes('-h') && existsSync('.env')) process.loadEnvFile('.env');
process.exit(await agentBin(args, process.env));
