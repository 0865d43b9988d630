import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { main, russianUsageError } from '../src/cli.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/database/migrations.js';
import { JiraSimulator } from '@jira-hub/jira-sim';
import { DataSource } from 'typeorm';
import { agentOf, refreshResult, startHub, tempDir } from './support/app.js';
import { testDatabaseEnv } from './support/pg.js';
import { copyOfMigratedDatabase } from './support/template.js';
import { waitFor } from './support/wait.js';
import { createV1Database, storedSchemaVersion } from './support/legacy.js';

/**
 * Runs `jira-hub <args>` in-process: its exit code and what it printed to stdout and stderr, the log's
 * lines (written to the streams, not through the console) among them. Something that would end the
 * process (Nest's abortOnError) throws instead, so the test says so rather than ending the run.
 */
async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error, writeOut, writeErr, exit, abort] = [console.log, console.error, process.stdout.write, process.stderr.write, process.exit, process.abort];
  process.exit = ((code?: number) => {
    throw new Error(`process.exit(${code}) called`);
  }) as typeof process.exit;
  process.abort = () => {
    throw new Error('process.abort() called');
  };
  console.log = (s: unknown) => void out.push(String(s));
  console.error = (s: unknown) => void err.push(String(s));
  const onto = (lines: string[]) => ((chunk: string | Uint8Array) => lines.push(String(chunk).replace(/\n$/, '')) > 0) as typeof process.stdout.write;
  process.stdout.write = onto(out);
  process.stderr.write = onto(err);
  try {
    const code = await main(args, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    process.exit = exit;
    process.abort = abort;
  }
}

const COMMANDS = ['serve', 'migrate', 'import', 'agent', 'jira-sim'];

describe('jira-hub command line (commander)', () => {
  it.each([['--help'], ['-h'], ['help']])('%s lists every command with its description', async (flag) => {
    const { code, out, err } = await run([flag]);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain('Запуск: jira-hub');
    for (const command of COMMANDS) expect(out).toMatch(new RegExp(`^  ${command}\\b.*[а-я]`, 'm'));
    expect(out).toContain('Без команды запускается serve');
  });

  it.each([
    ['serve', ['--db <файл>', '--port <порт>'], ['HUB_DB_PATH', 'HUB_PORT', 'HUB_CLIENT_TOKEN', 'HUB_AGENT_TOKEN', 'HUB_LOG_LEVEL', 'NO_COLOR']],
    ['migrate', ['--db <файл>'], ['HUB_DB_PATH']],
    ['import', ['--json', '--db <файл>', '<папка>'], ['HUB_DB_PATH']],
    ['agent', ['--once'], ['HUB_URL', 'JIRA_URL', 'JIRA_PROJECT', 'JIRA_PAT', 'AGENT_JOURNAL', 'AGENT_WAIT_SECONDS']],
    ['jira-sim', ['--port <порт>', '--seed <файл>'], ['JIRA_SIM_PORT', 'JIRA_SIM_SEED', 'JIRA_SIM_PROJECT']],
  ])('%s --help shows its options and the environment variables it reads', async (command, options, variables) => {
    for (const args of [[command, '--help'], ['help', command]]) {
      const { code, out } = await run(args);
      expect(code).toBe(0);
      expect(out).toContain(`Запуск: jira-hub ${command}`);
      expect(out).toContain('Переменные окружения');
      for (const o of options) expect(out).toContain(o);
      for (const v of variables) expect(out).toMatch(new RegExp(`^  ${v} +\\S`, 'm'));
    }
  });

  it('an unknown command says so in Russian and exits non-zero', async () => {
    const { code, out, err } = await run(['frobnicate']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('jira-hub: неизвестная команда «frobnicate»');
    expect(err).toContain('jira-hub --help');
    expect((await run(['improt'])).err).toContain('неизвестная команда «improt»; может быть, import?');
  });

  it('help with a command it does not know is a usage error too: one line, exit 2', async () => {
    expect(await run(['help', 'frobnicate'])).toEqual({ code: 2, out: '', err: 'jira-hub: неизвестная команда «frobnicate» (список команд и параметров: jira-hub --help)' });
    expect(await run(['help', 'serve', 'extra'])).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/^jira-hub: лишние аргументы у команды help[^\n]*$/) });
  });

  it.each([
    [['serve', '--bogus'], 'неизвестный параметр «--bogus»'],
    [['import'], 'не хватает аргумента «папка»'],
    [['migrate', 'extra'], 'лишние аргументы у команды migrate: ожидалось 0, получено 1'],
  ])('%j is a usage error (exit 2) in Russian', async (args, message) => {
    const { code, err } = await run(args);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it('translates what it knows of commander and keeps the rest', () => {
    expect(russianUsageError("error: unknown command 'x'\n(Did you mean serve?)")).toBe('неизвестная команда «x»; может быть, serve?');
    expect(russianUsageError("error: option '--db <файл>' argument missing")).toBe('параметру «--db <файл>» нужно значение');
    expect(russianUsageError('error: something new')).toBe('something new');
  });

  describe('with a database', () => {
    let dir: string;
    beforeEach(() => {
      dir = tempDir();
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('migrate --db writes the file the option names, not HUB_DB_PATH', async () => {
      const file = join(dir, 'by-option.sqlite');
      const { code, out } = await run(['migrate', '--db', file], { HUB_DB_PATH: join(dir, 'by-env.sqlite'), HUB_LOG_LEVEL: 'error' });
      expect(code).toBe(0);
      expect(out).toBe(`база ${file} создана, схема v${SCHEMA_VERSION}`);
    });

    it('--db wins over HUB_DATABASE_URL as well: the file it names, never the server', async () => {
      const file = join(dir, 'over-url.sqlite');
      const { code, out } = await run(['migrate', '--db', file], { HUB_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nothing', HUB_LOG_LEVEL: 'error' });
      expect({ code, out }).toEqual({ code: 0, out: `база ${file} создана, схема v${SCHEMA_VERSION}` });
    });

    it('migrate logs without ANSI colours when stdout is not a terminal, and says what it did in Russian', async () => {
      const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
      Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true });
      let printed: Awaited<ReturnType<typeof run>>;
      try {
        printed = await run(['migrate'], { HUB_DB_PATH: join(dir, 'h.sqlite') });
      } finally {
        if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
        else delete (process.stdout as { isTTY?: boolean }).isTTY;
      }
      expect(printed.code).toBe(0);
      const lines = printed.out.split('\n');
      expect(lines.filter((l) => /^\[Nest\] \d+ +- \S+ +LOG \[Migrations\] applied migration \w+$/.test(l))).toHaveLength(MIGRATIONS.length);
      expect(printed.out).not.toMatch(/\x1b\[/);
      expect(lines.filter((l) => !l.startsWith('[Nest]'))).toEqual([`база ${join(dir, 'h.sqlite')} создана, схема v${SCHEMA_VERSION}`]);
    });

    it('import, plan, apply and export refuse a database file that is not there instead of creating an empty one', async () => {
      const missing = join(dir, 'typo', 'hub.sqlite');
      const folder = resolve('examples/plan');
      for (const args of [['import', folder], ['plan', folder], ['apply', folder], ['export', join(dir, 'out'), '--jql', 'project = AURORA']]) {
        const { code, out, err } = await run([...args, '--db', missing]);
        expect({ args, code, out }).toEqual({ args, code: 2, out: '' });
        expect(err).toBe(`jira-hub: базы данных ${missing} нет: укажите файл базы хаба (--db или HUB_DB_PATH); новую базу создаёт jira-hub serve или jira-hub migrate`);
      }
      expect(existsSync(join(dir, 'typo'))).toBe(false);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    });

    it('plan and export refuse a database of an older schema instead of migrating it in passing: nothing changes, no backup is made', async () => {
      const old = join(dir, 'old.sqlite');
      createV1Database(old);
      for (const args of [['plan', resolve('examples/plan')], ['export', join(dir, 'out'), '--jql', 'project = AURORA']]) {
        const { code, out, err } = await run([...args, '--db', old]);
        expect({ args, code, out }).toEqual({ args, code: 2, out: `база данных: ${old}` });
        expect(err).toBe(`jira-hub: база данных ${old} — схемы v1, а этому хабу нужна v${SCHEMA_VERSION}; jira-hub ${args[0]} базу не меняет: сначала обновите её командой jira-hub migrate (или запустите хаб)`);
      }
      expect(storedSchemaVersion(old)).toBe('1');
      expect(existsSync(join(dir, 'backups'))).toBe(false);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    });

    it('import, plan, apply and export refuse an empty file (SQLite would take it for a new database) and leave it empty', async () => {
      const empty = join(dir, 'empty.sqlite');
      writeFileSync(empty, '');
      const folder = resolve('examples/plan');
      for (const args of [['import', folder], ['plan', folder], ['apply', folder], ['export', join(dir, 'out'), '--jql', 'project = AURORA']]) {
        const { code, out, err } = await run([...args, '--db', empty]);
        expect({ args, code, out }).toEqual({ args, code: 2, out: '' });
        expect(err).toBe(`jira-hub: файл базы данных ${empty} пуст — это не база хаба: укажите файл базы хаба (--db или HUB_DB_PATH); новую базу создаёт jira-hub serve или jira-hub migrate`);
      }
      expect(statSync(empty).size).toBe(0);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    });

    // The checks before any command opens its database (the same for each: assertDatabaseUsable); in-process,
    // the log's lines captured too. cli-start.e2e-spec.ts shows the process: its exit code, all it prints.
    const ODD_PATHS: [string, (dir: string) => string, (path: string) => string][] = [
      ['a folder', (dir) => dir, (path) => `${path} — папка, а не файл базы SQLite`],
      ['/dev/null', () => '/dev/null', (path) => `${path} — не обычный файл (устройство, канал или сокет), а базе SQLite нужен файл`],
      ['a file that is not a SQLite database', (dir) => (writeFileSync(join(dir, 'notes.txt'), 'not a database'), join(dir, 'notes.txt')), (path) => `${path} — не база SQLite (в начале файла нет заголовка «SQLite format 3»)`],
    ];
    /** Every command that opens the database. */
    const opening = () => [['serve'], ['migrate'], ['import', 'examples/plan'], ['plan', 'examples/plan'], ['apply', 'examples/plan'], ['export', join(dir, 'out'), '--jql', 'project = AURORA']];
    it.each(ODD_PATHS)('--db naming %s: every command that opens the database refuses in one Russian line naming it, exit 2', async (_what, pathIn, says) => {
      const path = pathIn(dir);
      for (const args of opening()) {
        const { code, out, err } = await run([...args, '--db', path], { HUB_PORT: '0' });
        expect({ args, code, err }).toEqual({ args, code: 2, err: `jira-hub: ${says(path)}; укажите файл базы хаба (--db или HUB_DB_PATH)` });
        expect(out).toBe(['serve', 'migrate'].includes(args[0]) ? '' : `база данных: ${path}`);
      }
      expect(existsSync(join(dir, 'out'))).toBe(false);
    });

    it('--db naming a folder that is not there yet (a path ending in /): serve and migrate refuse it, and create no file of that folder’s name', async () => {
      const path = `${join(dir, 'data')}/`;
      for (const args of [['serve'], ['migrate']]) {
        expect(await run([...args, '--db', path], { HUB_PORT: '0' })).toEqual({
          code: 2,
          out: '',
          err: `jira-hub: ${path} — путь к папке (кончается на «/»), а нужен файл базы SQLite: укажите файл базы хаба (--db или HUB_DB_PATH), например ${join(dir, 'data', 'hub.sqlite')}`,
        });
      }
      expect(existsSync(join(dir, 'data'))).toBe(false);
    });

    // Refused by the migrations inside Nest's start: plan and apply printed only Nest's ExceptionHandler
    // stack (and exited 1), serve that stack and an English line.
    it('a database made by a newer hub: every command that opens it refuses in one Russian line with no log, exit 2, and leaves it as it is', async () => {
      // On PostgreSQL (npm run test:pg) the file stands for a schema of its own.
      const env: Record<string, string> = await testDatabaseEnv({ HUB_DB_PATH: join(dir, 'hub.sqlite') });
      env.HUB_DATABASE_URL ??= '';
      const hub = await startHub(env);
      await hub.app.get(DataSource).query(`UPDATE setting SET value = '99' WHERE key = 'schema_version'`);
      await hub.close();
      for (const args of opening()) {
        const { code, out, err } = await run(args, { ...env, HUB_PORT: '0' });
        expect({ args, code, err }).toEqual({ args, code: 2, err: `jira-hub: база данных создана более новой версией хаба (схема v99, этот хаб знает схемы до v${SCHEMA_VERSION}): обновите хаб` });
        expect({ args, out }).toEqual({ args, out: ['serve', 'migrate'].includes(args[0]) ? '' : expect.stringMatching(/^база данных: [^\n]+$/) });
      }
      await expect(startHub(env)).rejects.toThrow('схема v99');
    });

    // They failed inside the first migration (Nest's ExceptionHandler stack, exit 1) or on JSON.parse of the version.
    it("another program's SQLite database, and a hub database whose schema version is not a number: every command refuses in one Russian line, exit 2, nothing made in it", async () => {
      const { default: Database } = await import('better-sqlite3');
      const cases: [string, string, string][] = [
        ['other.sqlite', 'CREATE TABLE issue (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO issue (title) VALUES (\'чужое\')', 'в базе данных уже есть таблицы issue, но нет версии схемы хаба: это не база хаба; укажите файл базы хаба или новый файл (--db или HUB_DB_PATH)'],
        ['broken.sqlite', "CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO setting VALUES ('schema_version', 'abc')", 'версия схемы в базе данных непонятна («abc»): это не база хаба или она повреждена'],
      ];
      for (const [name, made, says] of cases) {
        const file = join(dir, name);
        const db = new Database(file);
        db.exec(made);
        db.close();
        const contents = () => {
          const open = new Database(file, { readonly: true });
          try {
            return open.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY name`).all();
          } finally {
            open.close();
          }
        };
        const before = contents();
        for (const args of opening()) {
          const { code, err } = await run([...args, '--db', file], { HUB_PORT: '0', HUB_DATABASE_URL: '' });
          expect({ args, code, err }).toEqual({ args, code: 2, err: `jira-hub: ${says}` });
        }
        expect(contents()).toEqual(before); // no table of the hub's made, no migrations table
      }
      expect(existsSync(join(dir, 'out'))).toBe(false);
    });

    it("plan, apply and import print a package's errors one per line under how many there are, exit 1 (they were one line joined by «; »)", async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const folder = join(dir, 'bad');
      mkdirSync(folder);
      writeFileSync(join(folder, 'notes.csv'), 'key,comment\nabc,x\n,y\n');
      const lines = ['jira-hub: в пакете ошибок: 2', '  notes.csv, строка 2: ключ «abc» — не ключ Jira (ABC-123) и не временный ключ (new:N)', '  notes.csv, строка 3: пустой ключ'];
      for (const command of ['plan', 'apply', 'import']) {
        expect({ command, ...(await run([command, folder, '--db', db])) }).toEqual({ command, code: 1, out: `база данных: ${db}`, err: lines.join('\n') });
      }
      // Past the 50 named, the last line says how many more there are.
      writeFileSync(join(folder, 'notes.csv'), `key\n${Array.from({ length: 52 }, (_, i) => `bad${i}`).join('\n')}\n`);
      const many = (await run(['plan', folder, '--db', db])).err.split('\n');
      expect(many).toHaveLength(52);
      expect([many[0], many[1], many.at(-1)]).toEqual([
        'jira-hub: в пакете ошибок: 52',
        '  notes.csv, строка 2: ключ «bad0» — не ключ Jira (ABC-123) и не временный ключ (new:N)',
        '  …и ещё ошибок: 2 (показаны первые 50) — исправьте эти и проверьте пакет снова',
      ]);
      // One error stays one line, as before.
      writeFileSync(join(folder, 'notes.csv'), 'key\nabc\n');
      expect(await run(['plan', folder, '--db', db])).toEqual({ code: 1, out: `база данных: ${db}`, err: 'jira-hub: notes.csv, строка 2: ключ «abc» — не ключ Jira (ABC-123) и не временный ключ (new:N)' });
      // --name as the HTTP routes take it: not blank, at most 200 characters; refused before anything is read
      expect(await run(['apply', folder, '--db', db, '--name', '  '])).toEqual({ code: 2, out: '', err: 'jira-hub: --name: нужно непустое имя пакета' });
      expect(await run(['plan', folder, '--db', db, '--name', 'я'.repeat(201)])).toEqual({ code: 2, out: '', err: 'jira-hub: --name: имя пакета не длиннее 200 символов' });
      // a folder without a name (the root) and no --name: said as such, not as a blank --name nobody gave
      expect(await run(['plan', '/', '--db', db])).toEqual({ code: 2, out: '', err: 'jira-hub: у папки / нет имени, по которому назвать пакет: задайте его параметром --name' });
    });

    it('--name is trimmed as POST /packages/plan, /packages/apply and the MCP tools trim it: the same package gets the same name', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const folder = resolve('examples/plan');
      const plan = await run(['plan', folder, '--db', db, '--name', '  Спринт 2  ', '--json']);
      expect(plan).toMatchObject({ code: 0, err: `база данных: ${db}` });
      expect(JSON.parse(plan.out).name).toBe('Спринт 2');
      const applied = await run(['apply', folder, '--db', db, '--name', ' Спринт 2\t', '--json']);
      expect(applied).toMatchObject({ code: 0 });
      const { package: stored, batch } = JSON.parse(applied.out);
      // it was « Спринт 2\t», and the batch «Пакет планирования #1 « Спринт 2\t»»
      expect({ name: stored.name, title: batch.title }).toEqual({ name: 'Спринт 2', title: `Пакет планирования #${stored.id} «Спринт 2»` });
    });

    it('plan of a package over the batch cap prints the plan with what to do and exits 0; apply refuses it in the same words, exit 1, nothing stored', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const folder = join(dir, 'big');
      mkdirSync(folder);
      writeFileSync(join(folder, 'issues.csv'), `Ключ;Тип;Тема\n${Array.from({ length: 2001 }, (_, i) => `new:${i + 1};Task;Задача ${i + 1}`).join('\n')}\n`);
      const words = 'план пакета — 2001 команда, а в одном пакете команд их может быть не больше 1000: применить его одним пакетом команд нельзя. Разделите строки файлов пакета хотя бы на 3 части';
      const planned = await run(['plan', folder, '--db', db]);
      expect({ code: planned.code, err: planned.err }).toEqual({ code: 0, err: '' });
      const lines = planned.out.split('\n');
      expect(lines[1]).toContain(`Изменений: 2001 (новые задачи: 2001). План${words.slice(4)}`);
      expect(lines).toContain('  2001. ensure_issue {"temp_key":"new:2001","issue_type":"Task","summary":"Задача 2001"} — issues.csv, строка 2002: issue: пусто → «Задача 2001»');
      const json = JSON.parse((await run(['plan', folder, '--db', db, '--json'])).out);
      expect(json).toMatchObject({ over_cap: { commands: 2001, max_commands: 1000, parts: 3, listed: 2001 }, dry_run: null });
      const applied = await run(['apply', folder, '--db', db]);
      expect(applied).toMatchObject({ code: 1, out: `база данных: ${db}` });
      expect(applied.err).toMatch(new RegExp(`^jira-hub: ${words}`));
      const ds = new DataSource({ type: 'better-sqlite3', database: db });
      await ds.initialize();
      expect(await ds.query('SELECT (SELECT count(*) FROM package) AS packages, (SELECT count(*) FROM batch) AS batches')).toEqual([{ packages: 0, batches: 0 }]);
      await ds.destroy();
    });

    it('export into a place it cannot write says where and why in one line', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db); // export finds nothing in it
      writeFileSync(join(dir, 'file'), '');
      mkdirSync(join(dir, 'out', 'issues.csv'), { recursive: true });
      const export_ = (folder: string, ...more: string[]) => run(['export', folder, '--jql', 'project = AURORA', '--db', db, ...more]);
      expect(await export_(join(dir, 'file'))).toMatchObject({ code: 2, err: `jira-hub: папку для пакета ${join(dir, 'file')} создать нельзя: ${join(dir, 'file')} — файл, а не папка` });
      expect(await export_(join(dir, 'out'), '--force')).toMatchObject({ code: 2, err: `jira-hub: файл ${join(dir, 'out', 'issues.csv')} не записать: это папка, а не файл` });
    });

    it('an export that fails writes nothing: the package in the folder is not left half old, half new', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const folder = join(dir, 'package');
      mkdirSync(join(folder, 'links.csv'), { recursive: true }); // a folder where the export's links.csv goes
      writeFileSync(join(folder, 'issues.csv'), 'Ключ;Срок\nA-1;2026-12-01\n');
      writeFileSync(join(folder, 'notes.csv'), 'Ключ;Комментарий (внутр.)\nA-1;правлю руками\n');
      expect(await run(['export', folder, '--jql', 'project = AURORA', '--db', db, '--force'])).toMatchObject({
        code: 2,
        err: `jira-hub: файл ${join(folder, 'links.csv')} не записать: это папка, а не файл`,
      });
      // it was: issues.csv already the export's, beside the old notes.csv — a package plan reads as one
      expect(readFileSync(join(folder, 'issues.csv'), 'utf8')).toBe('Ключ;Срок\nA-1;2026-12-01\n');
      expect(readFileSync(join(folder, 'notes.csv'), 'utf8')).toBe('Ключ;Комментарий (внутр.)\nA-1;правлю руками\n');
      expect(readdirSync(folder).sort()).toEqual(['issues.csv', 'links.csv', 'notes.csv']);
      // the folder gone, the same export writes the three files whole, with no partial file left
      rmSync(join(folder, 'links.csv'), { recursive: true });
      expect(await run(['export', folder, '--jql', 'project = AURORA', '--db', db, '--force'])).toMatchObject({ code: 0, err: '' });
      expect(readdirSync(folder).sort()).toEqual(['issues.csv', 'links.csv', 'notes.csv']);
      expect(readFileSync(join(folder, 'issues.csv'), 'utf8')).toMatch(/^Ключ;Тип;Тема;/);
    });

    it('an export whose second file fails to move in puts the first file back: the package is the old one, whole', async () => {
      // On Windows a links.csv open in Excel refuses the rename (EPERM) after issues.csv has moved in. Here the
      // rename of links.csv.partial fails for real: notes.csv.partial is a pipe, so the export waits on it
      // after writing links.csv.partial, and the test takes links.csv.partial away meanwhile.
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const folder = join(dir, 'package');
      mkdirSync(folder);
      const old = { 'issues.csv': 'Ключ;Срок\nA-1;2026-12-01\n', 'links.csv': 'Ключ;Связь;С задачей\n', 'notes.csv': 'Ключ;Комментарий (внутр.)\nA-1;правлю руками\n' };
      for (const [name, text] of Object.entries(old)) writeFileSync(join(folder, name), text);
      execFileSync('mkfifo', [join(folder, 'notes.csv.partial')]);
      const exported = run(['export', folder, '--jql', 'project = AURORA', '--db', db, '--force']);
      await waitFor('links.csv.partial written', () => existsSync(join(folder, 'links.csv.partial')) || undefined);
      rmSync(join(folder, 'links.csv.partial'));
      const pipe = await open(join(folder, 'notes.csv.partial'), 'r');
      await pipe.readFile(); // the export's notes, to its end: the export goes on to the renames
      await pipe.close();
      expect(await exported).toMatchObject({ code: 2, err: `jira-hub: файл ${join(folder, 'links.csv')} не записать: нет такого файла или папки` });
      // it was: issues.csv the export's, beside the old links.csv and notes.csv
      for (const [name, text] of Object.entries(old)) expect(readFileSync(join(folder, name), 'utf8')).toBe(text);
      expect(readdirSync(folder).sort()).toEqual(['issues.csv', 'links.csv', 'notes.csv']);
    });

    it('a package folder that is not there is said so, and a file given for it as a file (both said “— не папка”)', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const missing = join(dir, 'nope');
      const holds = { plan: 'issues.csv, links.csv и/или notes.csv', apply: 'issues.csv, links.csv и/или notes.csv', import: 'notes.csv и/или links.csv' };
      for (const [command, files] of Object.entries(holds)) {
        expect(await run([command, missing, '--db', db])).toEqual({ code: 2, out: '', err: `jira-hub: папки ${missing} нет; укажите папку с ${files}` });
        expect(await run([command, db, '--db', db])).toEqual({ code: 2, out: '', err: `jira-hub: ${db} — файл, а не папка; укажите папку с ${files}` });
        // a path through a file: one line too, not Node's ENOTDIR
        const through = join(db, 'plan');
        expect(await run([command, through, '--db', db])).toEqual({ code: 2, out: '', err: `jira-hub: папку ${through} не открыть: часть пути — файл, а не папка; укажите папку с ${files}` });
      }
    });

    it('a package file that cannot be read is one Russian line naming it (exit 2), for plan, apply and import alike', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const folder = join(dir, 'package');
      mkdirSync(folder);
      symlinkSync(join(dir, 'moved-away.csv'), join(folder, 'links.csv')); // a link whose file is gone
      const line = `jira-hub: файл ${join(folder, 'links.csv')} не прочитать: нет такого файла или папки`;
      for (const command of ['plan', 'apply', 'import']) expect(await run([command, folder, '--db', db])).toEqual({ code: 2, out: '', err: line });
      rmSync(join(folder, 'links.csv'));
      symlinkSync(dir, join(folder, 'notes.csv')); // a link to a folder
      expect(await run(['import', folder, '--db', db])).toEqual({ code: 2, out: '', err: `jira-hub: файл ${join(folder, 'notes.csv')} не прочитать: это папка, а не файл` });
    });

    it('export into a package folder refuses to overwrite its files unless --force; nothing is written', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const folder = join(dir, 'package');
      mkdirSync(folder);
      writeFileSync(join(folder, 'issues.csv'), 'Ключ;Срок\nA-1;2026-12-01\n');
      writeFileSync(join(folder, 'notes.csv'), 'Ключ;Комментарий (внутр.)\nA-1;правлю руками\n');
      const export_ = (...more: string[]) => run(['export', folder, '--jql', 'status = Done', '--db', db, ...more]);
      expect(await export_()).toEqual({
        code: 2,
        out: '',
        err: `jira-hub: в папке ${folder} уже есть issues.csv, notes.csv: выгрузка их перезапишет; укажите новую папку или добавьте --force, чтобы перезаписать`,
      });
      expect(readFileSync(join(folder, 'issues.csv'), 'utf8')).toBe('Ключ;Срок\nA-1;2026-12-01\n');
      expect(existsSync(join(folder, 'links.csv'))).toBe(false);
      expect(await export_('--force')).toMatchObject({ code: 0 });
      expect(readFileSync(join(folder, 'notes.csv'), 'utf8')).not.toContain('правлю руками');
    });

    it('export finds a package file in another letter case (Issues.csv) as plan does: refused without --force, that very file overwritten with it', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      const folder = join(dir, 'package');
      mkdirSync(folder);
      writeFileSync(join(folder, 'Issues.csv'), 'Ключ;Срок\nA-1;2026-12-01\n');
      const export_ = (...more: string[]) => run(['export', folder, '--jql', 'status = Done', '--db', db, ...more]);
      expect(await export_()).toEqual({
        code: 2,
        out: '',
        err: `jira-hub: в папке ${folder} уже есть Issues.csv: выгрузка их перезапишет; укажите новую папку или добавьте --force, чтобы перезаписать`,
      });
      expect(readdirSync(folder)).toEqual(['Issues.csv']);
      expect(readFileSync(join(folder, 'Issues.csv'), 'utf8')).toBe('Ключ;Срок\nA-1;2026-12-01\n');
      const forced = await export_('--force');
      expect(forced).toMatchObject({ code: 0, err: '' });
      expect(forced.out.split('\n').at(-1)).toBe(`Записано в ${folder}: Issues.csv (задач: 0), links.csv (связей: 0), notes.csv (заметок: 0).`);
      expect(readdirSync(folder).sort()).toEqual(['Issues.csv', 'links.csv', 'notes.csv']);
      expect(readFileSync(join(folder, 'Issues.csv'), 'utf8')).toMatch(/^Ключ;Тип;Тема;/);
      // the folder is a package plan reads (one issues.csv, not two)
      expect(await run(['plan', folder, '--db', db])).toMatchObject({ code: 0, err: '' });
      // two files of one name in different case: refused, even with --force, and nothing written
      writeFileSync(join(folder, 'issues.csv'), 'Ключ;Срок\n');
      expect(await export_('--force')).toEqual({ code: 2, out: '', err: `jira-hub: в папке ${folder} несколько файлов issues.csv: Issues.csv, issues.csv; оставьте один` });
      expect(readFileSync(join(folder, 'issues.csv'), 'utf8')).toBe('Ключ;Срок\n');
    });

    it('import names the PostgreSQL database it writes, and an unreachable one is one line', async () => {
      const { code, out, err } = await run(['import', resolve('examples/plan')], { HUB_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', HUB_DB_PATH: join(dir, 'h.sqlite') });
      expect(out).toBe('база данных: PostgreSQL (HUB_DATABASE_URL)');
      expect(code).toBe(2);
      expect(err.split('\n')).toEqual([expect.stringMatching(/^jira-hub: .*127\.0\.0\.1:1/)]);
      expect(existsSync(join(dir, 'h.sqlite'))).toBe(false);
    });

    it('migrate --from-sqlite refuses what is not a SQLite database file before connecting', async () => {
      const text = join(dir, 'notes.txt');
      writeFileSync(text, 'not a database');
      const env = { HUB_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' };
      expect(await run(['migrate', '--from-sqlite', '/dev/null'], env)).toEqual({
        code: 2,
        out: '',
        err: 'jira-hub: /dev/null — не обычный файл (устройство, канал или сокет), а базе SQLite нужен файл; укажите файл базы SQLite хаба (обычно data/hub.sqlite)',
      });
      expect(await run(['migrate', '--from-sqlite', text], env)).toEqual({
        code: 2,
        out: '',
        err: `jira-hub: ${text} — не база SQLite (в начале файла нет заголовка «SQLite format 3»); укажите файл базы SQLite хаба (обычно data/hub.sqlite)`,
      });
    });

    it('migrate --from-sqlite with --db says the two do not go together, not that HUB_DATABASE_URL is missing when it is set', async () => {
      const db = join(dir, 'hub.sqlite');
      await copyOfMigratedDatabase(db);
      expect(await run(['migrate', '--from-sqlite', db, '--db', db], { HUB_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' })).toEqual({
        code: 2,
        out: '',
        err: 'jira-hub: --db и --from-sqlite вместе не задаются: --from-sqlite копирует файл SQLite в базу PostgreSQL из HUB_DATABASE_URL, а --db выбрал бы вместо неё файл SQLite; уберите --db',
      });
    });

    it('a bad variable is a usage error naming it', async () => {
      const { code, err } = await run(['migrate'], { HUB_DB_PATH: join(dir, 'h.sqlite'), HUB_LOG_LEVEL: 'loud' });
      expect(code).toBe(2);
      expect(err).toContain('HUB_LOG_LEVEL');
    });

    it("agent: a missing or bad variable is a refusal (exit 2, one line) before anything is sent; a failed pre-flight check stays a failure (exit 1)", async () => {
      expect(await run(['agent'])).toEqual({ code: 2, out: '', err: 'jira-hub: не заданы переменные окружения: HUB_URL, JIRA_URL, JIRA_PROJECT, JIRA_EMAIL, JIRA_API_TOKEN' });
      // Nothing listens on port 1: a start that got as far as the pre-flight check would fail there instead.
      const env = { HUB_URL: 'http://127.0.0.1:1', JIRA_URL: 'http://127.0.0.1:1', JIRA_PROJECT: 'AURORA', JIRA_FLAVOR: 'dc', JIRA_PAT: 'pat' };
      expect(await run(['agent'], { ...env, JIRA_FLAVOR: 'server' })).toEqual({ code: 2, out: '', err: 'jira-hub: JIRA_FLAVOR должен быть cloud или dc, а не «server»' });
      expect(await run(['agent', '--once'], { ...env, AGENT_REFRESH_PART_ISSUES: '0' })).toEqual({
        code: 2,
        out: '',
        err: 'jira-hub: AGENT_REFRESH_PART_ISSUES должно быть целым числом от 1, а не «0»',
      });
      const failed = await run(['agent', '--once'], env);
      expect({ code: failed.code, err: failed.err }).toEqual({ code: 1, err: expect.stringMatching(/^jira-hub: проверка перед стартом не пройдена: Jira недоступна/) });
    });

    it("jira-sim: the simulator's refused variables and seed file are usage errors too (exit 2, one line)", async () => {
      expect(await run(['jira-sim'], { JIRA_SIM_PORT: 'abc' })).toEqual({ code: 2, out: '', err: 'jira-hub: JIRA_SIM_PORT: нужно целое число от 0 до 65535, а задано «abc»' });
      expect(await run(['jira-sim', '--seed', dir])).toEqual({ code: 2, out: '', err: `jira-hub: --seed: файл ${dir} — папка, а нужен файл JSON` });
      expect(await run(['jira-sim'], { JIRA_SIM_SEED: dir })).toEqual({ code: 2, out: '', err: `jira-hub: JIRA_SIM_SEED: файл ${dir} — папка, а нужен файл JSON` });
      // an option's value is named by the option typed, as the hub's own --port is
      expect(await run(['jira-sim', '--port', 'abc'], { JIRA_SIM_PORT: '0' })).toEqual({ code: 2, out: '', err: 'jira-hub: --port: нужно целое число от 0 до 65535, а задано «abc»' });
    });
  });
});

describe('examples/plan imported against examples/jira-sim-seed.json (README)', () => {
  it('prints the database first, then a report with one reversed link, missing links and one unknown key', async () => {
    // The simulator with the example seed, as `JIRA_SIM_SEED=examples/jira-sim-seed.json jira-hub jira-sim` starts it.
    const sim = new JiraSimulator({ seed: JSON.parse(readFileSync('examples/jira-sim-seed.json', 'utf8')) });
    const issues = [1, 2, 3, 4, 5].map((n) => sim.store.findIssue(`AURORA-${n}`));
    expect(issues.map((i) => i?.summary)).toEqual(['Квартальная отчётность (эпик)', 'Подготовить квартальный отчёт', 'Выгрузить данные продаж', 'Согласовать отчёт с финансами', undefined]);
    // The hub's mirror after a refresh of that Jira (what the agent would report). On SQLite in both
    // runs: the import's first line names the database file (on PostgreSQL,
    // test/import.e2e-spec.ts covers reversed and missing links over HTTP).
    const hub = await startHub({ HUB_DATABASE_URL: '' });
    try {
      await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { jql: 'project = AURORA' } }] }).expect(201);
      const agent = agentOf(hub);
      const { command } = await agent.claim();
      const result = refreshResult(
        issues.flatMap((i) => (i ? [{ key: i.key, summary: i.summary, issue_type: i.issueType, status: i.status }] : [])),
        sim.store.links.map((l) => ({ source_key: l.sourceKey, target_key: l.targetKey, link_type: l.typeName })),
      );
      await agent.done(command.id, result);
      await hub.app.close();

      const env = { HUB_DB_PATH: hub.config.dbPath };
      const text = await run(['import', 'examples/plan'], env);
      expect(text.code).toBe(0);
      const lines = text.out.split('\n');
      expect(lines[0]).toBe(`база данных: ${resolve(hub.config.dbPath)}`);
      expect(lines).toContain('В Jira в обратную сторону: 1');
      expect(text.out).toContain('AURORA-2 —Blocks→ AURORA-3');
      expect(lines).toContain('Нет в Jira: 2'); // a reversed link is not also missing (SPEC 8)

      const json = await run(['import', 'examples/plan', '--json'], env);
      expect(json.err).toBe(`база данных: ${resolve(hub.config.dbPath)}`); // stdout stays pure JSON
      expect(JSON.parse(json.out)).toEqual({
        notes: 3,
        expected_links: [
          { source: 'AURORA-2', target: 'AURORA-3', link_type: 'Blocks' },
          { source: 'AURORA-2', target: 'AURORA-1', link_type: 'Relates' },
          { source: 'AURORA-4', target: 'AURORA-2', link_type: 'Blocks' },
          { source: 'AURORA-99', target: 'AURORA-4', link_type: 'Blocks' },
        ],
        missing_links: [
          { source: 'AURORA-4', target: 'AURORA-2', link_type: 'Blocks' },
          { source: 'AURORA-99', target: 'AURORA-4', link_type: 'Blocks' },
        ],
        reversed_links: [{ source: 'AURORA-2', target: 'AURORA-3', link_type: 'Blocks' }],
        missing_keys: ['AURORA-99'],
      });
    } finally {
      await hub.close().catch(() => undefined);
    }
  });
});
