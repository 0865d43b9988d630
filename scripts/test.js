#!/usr/bin/env node
/**
 * `npm test`: the hub's tests (jest, ESM mode) and the dashboard's component tests (vitest) side by side.
 * The jest run is CPU-bound on two workers but leaves cores idle while it starts and while its last files
 * finish; the vitest run fills those gaps. jest prints as it goes; vitest's output is held and printed after
 * it, so the two never interleave. The exit code is jest's, else vitest's.
 *
 *   npm test                     both suites
 *   npm test -- <jest args>      jest alone with those arguments (e.g. a path: npm test -- test/claim)
 */
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, commandArgs, options) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, options);
    let output = '';
    child.stdout?.on('data', (c) => (output += c));
    child.stderr?.on('data', (c) => (output += c));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules', '--disable-warning=ExperimentalWarning'].filter(Boolean).join(' ') };
const jest = run(npx, ['jest', ...args], { stdio: 'inherit', env });
// vitest's output is held and written later: colours only when that goes to a terminal (no raw codes in a pipe or a log).
const colour = process.stdout.isTTY ? { FORCE_COLOR: '1' } : { NO_COLOR: '1', FORCE_COLOR: undefined };
const web = args.length ? Promise.resolve(null) : run(npm, ['test', '-w', '@jira-hub/web'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...colour } });

const jestResult = await jest;
const webResult = await web;
if (webResult) process.stdout.write(webResult.output);
process.exit(jestResult.code || webResult?.code || 0);
