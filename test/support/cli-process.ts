/**
 * The CLI (or another entry of the hub's sources) as a child process: for what only a process shows — its
 * exit code, everything it prints (Nest's log lines too), a hang, a port, another user. The entries run
 * from the bundle of the sources that jest's globalSetup builds (support/source-bundle.js); a source that
 * is not an entry of it, or a run without the globalSetup, runs through support/ts-register.mjs.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledEntry } from './source-bundle.js';

const ROOT = process.cwd();
const REGISTER = fileURLToPath(new URL('./ts-register.mjs', import.meta.url));

/** Node's arguments that run the source `file` (a path from the repository's root): its bundle, else the source itself. */
export function entryArgs(file: string): string[] {
  const bundled = process.env.HUB_TEST_BUNDLE ? bundledEntry(process.env.HUB_TEST_BUNDLE, file) : undefined;
  return bundled ? [bundled] : ['--import', REGISTER, join(ROOT, file)];
}

export interface ChildOptions {
  /** Run as this user and group (the tests run as root, which may bind any port). */
  uid?: number;
  gid?: number;
  /** A command that runs node with its arguments appended (`unshare -m sh -c '…; exec "$@"' sh`). */
  wrap?: string[];
  /** The child's working folder (the repository's root unless given). */
  cwd?: string;
}

/** A child running `file` with `args`; `until` resolves when its output (stdout and stderr) matches. */
export function runSource(file: string, args: string[], env: Record<string, string>, options: ChildOptions = {}) {
  const node = [process.execPath, ...entryArgs(file), ...args];
  const [command, ...rest] = [...(options.wrap ?? []), ...node];
  const child = spawn(command, rest, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...env, NO_COLOR: '1' }, uid: options.uid, gid: options.gid });
  const printed = { out: '', err: '', both: '' };
  const waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const onData = (stream: 'out' | 'err') => (chunk: string) => {
    printed[stream] += chunk;
    printed.both += chunk;
    for (const w of [...waiters]) {
      const m = printed.both.match(w.re);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', onData('out'));
  child.stderr.setEncoding('utf8').on('data', onData('err'));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    /** stdout and stderr as they came */
    output: () => printed.both,
    stdout: () => printed.out,
    stderr: () => printed.err,
    exited,
    until: (re: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const m = printed.both.match(re);
        if (m) return resolve(m);
        waiters.push({ re, resolve });
        void exited.then((code) => reject(new Error(`exited (${code}) before ${re}:\n${printed.both}`)));
      }),
  };
}

/** `jira-hub <args>` from the sources. */
export const runCli = (args: string[], env: Record<string, string>, options?: ChildOptions) => runSource('src/cli.ts', args, env, options);
