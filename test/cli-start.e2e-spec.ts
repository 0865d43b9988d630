/**
 * `jira-hub` refusing to start, as a process (decision 0108): one Russian line on stderr naming what is
 * wrong, exit code 2, nothing else on stderr (no log line, no stack), what it opened closed, never a hang.
 * Only what a process shows is spawned here (each child costs seconds of CPU, decision 1402); the matrix of
 * odd database paths × commands runs in-process in cli.e2e-spec.ts. The simulator's own bin (`jira-sim`,
 * which loads only its package) and the agent's (`jira-hub-agent`) keep the same exit codes; the agent's
 * refusals one by one run in-process (agentBin, packages/agent/src/main.spec.ts).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './support/app.js';
import { type ChildOptions, runCli, runSource } from './support/cli-process.js';
import { copyOfMigratedDatabase } from './support/template.js';

/** The child's exit code and its stderr's lines, once it has ended. */
async function ended(hub: ReturnType<typeof runCli>): Promise<{ code: number | null; err: string[] }> {
  return { code: await hub.exited, err: hub.stderr().trimEnd().split('\n') };
}

/** Whether this process may mount a file system in a mount namespace of its own (root with unshare). */
function canMount(): boolean {
  if (process.geteuid?.() !== 0) return false;
  try {
    execFileSync('unshare', ['-m', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The lowest port only root may listen on, or undefined where every port is open to every user. */
function privilegedPort(): number | undefined {
  const first = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
  return first > 1 ? first - 1 : undefined;
}

describe('jira-hub refuses to start in one Russian line (a process)', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });
  const folder = () => {
    const dir = tempDir();
    dirs.push(dir);
    return dir;
  };
  const cli = (args: string[], env: Record<string, string>, options?: ChildOptions) => {
    const hub = runCli(args, { HUB_PORT: '0', ...env }, options);
    children.push(hub.child);
    return hub;
  };

  // Node 20's recursive mkdir loops for ever under /proc: the old hub never ended (the test's timeout failed it).
  it.each([
    ['serve', () => ['serve', '--db', '/proc/jira-hub-test/hub.sqlite'], 'папку базы данных /proc/jira-hub-test'],
    ['export', (db: string) => ['export', '/proc/jira-hub-test', '--jql', 'project = AURORA', '--db', db], 'папку для пакета /proc/jira-hub-test'],
  ])('%s under /proc: a refusal, not a hang', async (_command, argsWith, what) => {
    const db = join(folder(), 'hub.sqlite');
    await copyOfMigratedDatabase(db); // a hub's database: export refuses an empty file before it looks at the folder
    const hub = cli(argsWith(db), {});
    expect(await ended(hub)).toEqual({ code: 2, err: [`jira-hub: ${what} создать нельзя: /proc — служебная папка системы, не на диске, и папок в ней не создать`] });
    expect(existsSync('/proc/jira-hub-test')).toBe(false);
  });

  // A tmpfs of 16 KB, filled, in a mount namespace of the child's own (unshare): the disk is full from the first write.
  (canMount() ? it.each : it.skip.each)([['serve'], ['migrate']])('%s on a full disk: one line naming the database', async (command) => {
    const dir = folder();
    const fill = `mount -t tmpfs -o size=16k tmpfs "${dir}" && head -c 16384 /dev/zero > "${dir}/fill"; exec "$@"`;
    const hub = cli([command], { HUB_DB_PATH: join(dir, 'hub.sqlite') }, { wrap: ['unshare', '-m', 'sh', '-c', fill, 'sh'] });
    expect(await ended(hub)).toEqual({ code: 2, err: [`jira-hub: база данных ${join(dir, 'hub.sqlite')}: на диске не осталось места`] });
  });

  // `--db "$DB"` with DB unset: taken as not given, migrate made ./data/hub.sqlite, export wrote into the
  // current folder, serve and jira-sim took their default port.
  it('a blank option value or folder (an unset shell variable) is a usage error, not the default: one line, exit 2, nothing made', async () => {
    const cwd = folder();
    const db = join(cwd, 'hub.sqlite');
    await copyOfMigratedDatabase(db);
    const runs: [string[], string][] = [
      [['migrate', '--db', ''], 'параметру «--db <файл>» нужно непустое значение'],
      [['serve', '--port', ' '], 'параметру «-p, --port <порт>» нужно непустое значение'],
      [['jira-sim', '--seed', ''], 'параметру «--seed <файл>» нужно непустое значение'],
      [['export', '', '--jql', 'project = AURORA', '--db', db], 'аргумент «папка» пуст'],
    ];
    for (const [args, said] of runs) {
      expect({ args, ...(await ended(cli(args, {}, { cwd }))) }).toEqual({ args, code: 2, err: [`jira-hub: ${said} (список команд и параметров: jira-hub --help)`] });
    }
    expect(readdirSync(cwd)).toEqual(['hub.sqlite']);
  });

  // It said «HUB_PORT: …» for `serve --port abc`: the variable, which the person never set.
  it('a refused option value names the option (--port, --host), a refused variable its variable: one line, exit 2, nothing made', async () => {
    const cwd = folder();
    const port = 'нужно целое число от 0 до 65535, а задано «abc»';
    const host = 'без HUB_CLIENT_TOKEN и HUB_AGENT_TOKEN хаб не слушает 0.0.0.0: без токенов он отвечает только на loopback-адресе (127.0.0.1, ::1, localhost); задайте токены или другой';
    const runs: [string[], Record<string, string>, string][] = [
      [['serve', '--port', 'abc'], {}, `--port: ${port}`],
      [['-p', 'abc'], { HUB_PORT: '3000' }, `--port: ${port}`],
      [['serve'], { HUB_PORT: 'abc' }, `HUB_PORT: ${port}`],
      [['serve', '--host', '0.0.0.0'], {}, `${host} --host`],
      [['serve'], { HUB_HOST: '0.0.0.0' }, `${host} HUB_HOST`],
    ];
    for (const [args, env, said] of runs) {
      expect({ args, ...(await ended(cli(args, { HUB_DB_PATH: join(cwd, 'hub.sqlite'), ...env }, { cwd }))) }).toEqual({ args, code: 2, err: [`jira-hub: ${said}`] });
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('export with a JQL it does not understand: a bad option (exit 2, as a bad --name), told before the database is opened (it was exit 1 after the database line)', async () => {
    const cwd = folder();
    const db = join(cwd, 'hub.sqlite');
    await copyOfMigratedDatabase(db);
    const hub = cli(['export', 'out', '--jql', 'project = AURORA OR status = Done', '--db', db], {}, { cwd });
    expect({ ...(await ended(hub)), out: hub.stdout() }).toEqual({
      code: 2,
      err: ['jira-hub: --jql: JQL «project = AURORA OR status = Done»: между условиями выгрузка понимает только AND (с «OR status = Done»)'],
      out: '',
    });
    expect(readdirSync(cwd)).toEqual(['hub.sqlite']);
  });

  it('serve on a port that is taken: one line naming host:port, asked before the database is made', async () => {
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const db = join(folder(), 'hub.sqlite');
    const hub = cli(['serve'], { HUB_DB_PATH: db, HUB_PORT: String(port), HUB_LOG_LEVEL: 'warn' });
    expect(await ended(hub)).toEqual({
      code: 2,
      err: [`jira-hub: адрес 127.0.0.1:${port} уже занят другой программой (может быть, хаб уже запущен); укажите другой порт: --port или HUB_PORT`],
    });
    // Asked before the database is opened: a mistyped port leaves no new database behind.
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  it('serve on an address the system cannot listen on (link-local IPv6 without its interface): one Russian line', async () => {
    const db = join(folder(), 'hub.sqlite');
    const hub = cli(['serve'], { HUB_DB_PATH: db, HUB_HOST: 'fe80::1', HUB_PORT: '39999', HUB_CLIENT_TOKEN: 'c'.repeat(16), HUB_AGENT_TOKEN: 'a'.repeat(16), HUB_LOG_LEVEL: 'warn' });
    expect(await ended(hub)).toEqual({
      code: 2,
      err: ['jira-hub: на адресе fe80::1 слушать нельзя (адрес IPv6 fe80::… нужен с именем интерфейса, например fe80::1%eth0); укажите адрес этой машины: --host или HUB_HOST'],
    });
    expect(existsSync(db)).toBe(false);
  });

  // As root the test runs the hub as nobody, for whom a port below ip_unprivileged_port_start is not allowed.
  const port = privilegedPort();
  (port === undefined ? it.skip : it)('serve on a port it may not listen on: one line naming host:port', async () => {
    const dir = folder();
    chmodSync(dir, 0o777);
    const asUser = process.geteuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const hub = cli(['serve'], { HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: String(port), HUB_LOG_LEVEL: 'warn' }, asUser);
    expect(await ended(hub)).toEqual({
      code: 2,
      err: [`jira-hub: слушать 127.0.0.1:${port} нет прав (порты ниже 1024 обычно только для администратора); укажите другой порт: --port или HUB_PORT`],
    });
    expect(existsSync(join(dir, 'hub.sqlite-wal'))).toBe(false);
  });
});

describe('jira-hub on a database file its user may not read or whose folder it may not write (a process as another user)', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  // As root the commands run as nobody, for whom a file of root's with mode 600 cannot be read.
  const asUser: ChildOptions = process.geteuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

  it('migrate says the right to read is missing, and migrate --from-sqlite refuses in one line before connecting (it printed Node’s and SQLite’s English, exit 1)', async () => {
    const dir = tempDir();
    dirs.push(dir);
    chmodSync(dir, 0o777);
    const locked = join(dir, 'locked.sqlite');
    await copyOfMigratedDatabase(locked);
    chmodSync(locked, 0o600);
    if (!asUser.uid) chmodSync(locked, 0o000);
    const nowhere = { HUB_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', HUB_LOG_LEVEL: 'warn' };
    expect(await ended(runCli(['migrate', '--db', locked], { HUB_LOG_LEVEL: 'warn' }, asUser))).toEqual({
      code: 2,
      err: [`jira-hub: файл базы данных ${locked} не прочитать: нет прав на чтение; укажите файл базы хаба (--db или HUB_DB_PATH)`],
    });
    expect(await ended(runCli(['migrate', '--from-sqlite', locked], nowhere, asUser))).toEqual({ code: 2, err: [`jira-hub: файл базы SQLite ${locked} не прочитать: нет прав на чтение`] });
    // A stopped hub's file in WAL mode, readable, in a folder this user may not write: read as bytes, with no
    // -wal and -shm made beside it (decision 1440), so the command goes on to PostgreSQL.
    const shut = join(dir, 'shut');
    mkdirSync(shut);
    await copyOfMigratedDatabase(join(shut, 'hub.sqlite'));
    chmodSync(join(shut, 'hub.sqlite'), 0o644);
    chmodSync(shut, 0o755);
    if (!asUser.uid) chmodSync(shut, 0o555);
    expect(await ended(runCli(['migrate', '--from-sqlite', join(shut, 'hub.sqlite')], nowhere, asUser))).toEqual({
      code: 2,
      err: ['jira-hub: не удаётся подключиться к PostgreSQL postgres://postgres@127.0.0.1:1/nowhere: на этом адресе и порту никто не слушает'],
    });
    expect(readdirSync(shut)).toEqual(['hub.sqlite']);
    chmodSync(shut, 0o755);
  });
});

describe('jira-sim, the simulator package’s own bin, refuses the same way (a process: its exit code)', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('a refused variable, seed file or option is one Russian line and exit 2, as in the hub’s CLI (it exited 1; an unknown option took two lines)', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const runs: { env: Record<string, string>; args: string[]; line: string }[] = [
      { env: { JIRA_SIM_PAGE_SIZE: '0' }, args: [], line: 'jira-sim: JIRA_SIM_PAGE_SIZE: нужно целое число от 1 до 10000, а задано «0»' },
      { env: {}, args: ['--seed', join(dir, 'none.json')], line: `jira-sim: --seed: файл ${join(dir, 'none.json')} не найден` },
      { env: { JIRA_SIM_SEED: join(dir, 'none.json') }, args: [], line: `jira-sim: JIRA_SIM_SEED: файл ${join(dir, 'none.json')} не найден` },
      { env: {}, args: ['-p', 'abc'], line: 'jira-sim: --port: нужно целое число от 0 до 65535, а задано «abc»' },
      { env: {}, args: ['--bogus'], line: 'jira-sim: неизвестный параметр «--bogus» (список параметров и переменных: jira-sim --help)' },
    ];
    const started = runs.map((r) => ({ ...r, sim: runSource('packages/jira-sim/src/bin.ts', r.args, { JIRA_SIM_PORT: '0', ...r.env }) }));
    for (const { line, sim } of started) {
      expect({ code: await sim.exited, err: sim.stderr().trimEnd().split('\n'), out: sim.stdout() }).toEqual({ code: 2, err: [line], out: '' });
    }
  });

  it('takes --port=N and --seed=FILE as `jira-hub jira-sim` does, and refuses a blank value instead of taking the default port or seed', async () => {
    const dir = tempDir();
    dirs.push(dir);
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({ issues: [{ summary: 'Из файла' }] }));
    // it was «неизвестный параметр «--port=0»», exit 2
    const sim = runSource('packages/jira-sim/src/bin.ts', ['--port=0', `--seed=${join(dir, 'seed.json')}`], {});
    try {
      await sim.until(/Симулятор Jira слушает http:\/\/127\.0\.0\.1:\d+/);
      expect(sim.output()).toContain('Симулятор Jira: задач 1, связей 0');
    } finally {
      sim.child.kill('SIGTERM');
      await sim.exited;
    }
    // `--port "$PORT"` with PORT unset: it was the default port 8080 (or the default data for --seed)
    for (const args of [['--port', ''], ['-p', ' '], ['--port='], ['--seed', '']]) {
      const blank = runSource('packages/jira-sim/src/bin.ts', args, { JIRA_SIM_PORT: '0' });
      const started = await Promise.race([blank.exited.then(() => false), blank.until(/слушает/).then(() => true, () => false)]);
      if (started) blank.child.kill('SIGTERM');
      const flag = args[0]!.replace(/=$/, '');
      expect({ started, code: await blank.exited, err: blank.stderr().trimEnd().split('\n'), out: blank.stdout() }).toEqual({
        started: false,
        code: 2,
        err: [`jira-sim: параметру «${flag}» нужно непустое значение (список параметров и переменных: jira-sim --help)`],
        out: '',
      });
    }
  });

  // It was Node's English `listen EADDRINUSE: address already in use …` and exit 1 (the other refusals of
  // listening and of a seed file's shape run in-process: packages/jira-sim/src/main.spec.ts, seed-shape.spec.ts).
  it('a port that is taken is one Russian line naming host:port and how to choose another, exit 2', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const sim = runSource('packages/jira-sim/src/bin.ts', ['-p', String(port)], {});
      expect({ code: await sim.exited, err: sim.stderr().trimEnd().split('\n'), out: sim.stdout() }).toEqual({
        code: 2,
        err: [`jira-sim: адрес 127.0.0.1:${port} уже занят другой программой (может быть, симулятор уже запущен); укажите другой порт: --port или JIRA_SIM_PORT (0 — любой свободный)`],
        out: '',
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('jira-hub-agent, the agent package’s own bin, refuses the same way (a process: its exit code)', () => {
  it('an unknown option is one Russian line and exit 2 (it exited 1, in two lines)', async () => {
    const agent = runSource('packages/agent/src/bin.ts', ['--bogus'], {});
    expect({ code: await agent.exited, err: agent.stderr().trimEnd().split('\n'), out: agent.stdout() }).toEqual({
      code: 2,
      err: ['jira-hub-agent: неизвестный параметр «--bogus» (список параметров и переменных: jira-hub-agent --help)'],
      out: '',
    });
  });

  it('a .env it cannot read (a folder of that name) is one Russian line and exit 2, not Node’s stack', async () => {
    const dir = tempDir();
    try {
      mkdirSync(join(dir, '.env'));
      const agent = runSource('packages/agent/src/bin.ts', ['--check'], {}, { cwd: dir });
      expect({ code: await agent.exited, err: agent.stderr().trimEnd().split('\n'), out: agent.stdout() }).toEqual({
        code: 2,
        err: [`jira-hub-agent: ${join(dir, '.env')} не прочитать (это не файл с переменными); исправьте или переименуйте его`],
        out: '',
      });
      // a line Node would skip with the variables after it (the token): named, and nothing runs
      rmSync(join(dir, '.env'), { recursive: true });
      writeFileSync(join(dir, '.env'), 'HUB_URL=http://127.0.0.1:1\nthis is garbage\nHUB_AGENT_TOKEN=secret\n');
      const garbled = runSource('packages/agent/src/bin.ts', ['--check'], {}, { cwd: dir });
      expect({ code: await garbled.exited, err: garbled.stderr().trimEnd().split('\n'), out: garbled.stdout() }).toEqual({
        code: 2,
        err: [`jira-hub-agent: ${join(dir, '.env')}, строка 2: «this is garbage» — не «ИМЯ=значение» и не комментарий (#): она и переменные после неё не были бы прочитаны; исправьте строку`],
        out: '',
      });
      // and the hub's own CLI says the same
      const hub = runCli(['migrate'], {}, { cwd: dir });
      expect({ code: await hub.exited, err: hub.stderr().trimEnd().split('\n') }).toEqual({
        code: 2,
        err: [`jira-hub: ${join(dir, '.env')}, строка 2: «this is garbage» — не «ИМЯ=значение» и не комментарий (#): она и переменные после неё не были бы прочитаны; исправьте строку`],
      });
      expect(readdirSync(dir)).toEqual(['.env']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a disk that fills while the hub runs (a process)', () => {
  // A tmpfs of 1 MB in the child's own mount namespace, filled from outside through /proc/<pid>/root once the hub listens.
  (canMount() ? it : it.skip)('writes answer 503 unavailable saying the disk is full, reads go on, and once there is room the same write succeeds', async () => {
    const dir = tempDir();
    const mount = `mount -t tmpfs -o size=1m tmpfs "${dir}"; exec "$@"`;
    const hub = runCli(['serve'], { HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_PORT: '0' }, { wrap: ['unshare', '-m', 'sh', '-c', mount, 'sh'] });
    try {
      const [, url] = await hub.until(/слушает (http:\/\/127\.0\.0\.1:\d+)/);
      const post = (title: string) =>
        fetch(`${url}/batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title, commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-01' } }] }) });
      const filler = `/proc/${hub.child.pid}/root${dir}/fill`;
      try {
        writeFileSync(filler, Buffer.alloc(2 << 20));
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC'); // filled up to the last block
      }
      const refused = await post('на полный диск');
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({
        error: 'unavailable',
        detail: 'на диске базы данных хаба не осталось места: изменение не сохранено; освободите место и повторите запрос',
      });
      const list = await fetch(`${url}/batches`);
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([]);
      rmSync(filler);
      const stored = await post('после уборки');
      expect(stored.status).toBe(201);
      expect((await (await fetch(`${url}/batches`)).json()).map((b: { title: string }) => b.title)).toEqual(['после уборки']);
      // The operator reads one line about the disk, with no stack trace; nothing reached the filter as a 500.
      expect(hub.output()).toMatch(/WARN \[Database\] the database's disk is full: a write was rolled back/);
      expect(hub.output()).not.toMatch(/\n +at |ERROR/);
      expect(hub.child.exitCode).toBeNull();
    } finally {
      hub.child.kill('SIGKILL');
      await hub.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
