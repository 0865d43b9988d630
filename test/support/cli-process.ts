/**
 * The CLI (or another entry of the hub's sources) as a child process, its TypeScript run directly through
 * support/ts-register.mjs: for what only a process shows — its exit code, everything it prints (Nest's log
 * lines too), a hang, a port, another user.
 */
import { spawn } from 'node:child_process';

const ROOT = process.cwd();

export interface ChildOptions {
  /** Run as this user and group (the tests run as root, which may bind any port). */
  uid?: number;
  gid?: number;
  /** A command that runs node with its arguments appended (`unshare -m sh -c '…; exec "$@"' sh`). */
  wrap?: string[];
}

/** A child running `file` with `args`; `until` resolves when its output (stdout and stderr) matches. */
export function runSource(file: string, args: string[], env: Record<string, string>, options: ChildOptions = {}) {
  const node = [process.execPath, '--import', './test/support/ts-register.mjs', file, ...args];
  const [command, ...rest] = [...(options.wrap ?? []), ...node];
  const child = spawn(command, rest, { cwd: ROOT, env: { ...process.env, ...env, NO_COLOR: '1' }, uid: options.uid, gid: options.gid });
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
