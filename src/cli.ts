/**
 * `jira-hub <command>` (commander): serve (default), migrate, import <folder> [--json], plan|apply <folder>
 * and export <folder> --jql (planning packages, SPEC 18; package-commands.ts), agent (the
 * reference agent, packages/agent), jira-sim (the Jira simulator, packages/jira-sim), mcp (the MCP server on stdio, src/mcp); `--help` for each
 * lists its options and the environment variables it reads.
 * Configuration comes from the environment (and a .env file; the shell wins), SPEC 14.
 */
import 'reflect-metadata';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { readdir } from 'node:fs/promises';
// The two packages' help lists only (small modules); the packages themselves load when their command runs.
import { AGENT_VARIABLES, variablesHelp, type Variable } from '@jira-hub/agent/variables';
import { SIM_VARIABLES } from '@jira-hub/jira-sim/help';
import { ConfigError, type HubConfig, type HubEnv, HubLogger, HUB_VARIABLES, type HubVariable, loadConfig, loadDotEnv, NEST_LEVELS, NO_COLOR_VARIABLE, onlyVariables, type OptionNames } from './common/index.js';
import { assertDatabaseUsable, databaseName, dataSourceOptions, openDataSource, openMigrated } from './database/index.js';
import { formatReport, ImportService, PackageValidationError } from './import/index.js';
import { announceDatabase, applyFolder, assertExistingDatabase, assertPackageFolder, exportFolder, packageFile, planFolder, withHub } from './package-commands.js';
import { serve } from './serve.js';

/** `jira-hub serve`, also run by the demo and the tests. */
export { serve };

async function migrateOnly(config: HubConfig): Promise<void> {
  await assertDatabaseUsable(config);
  const logger = new HubLogger({ context: 'Migrations', logLevels: NEST_LEVELS[config.logLevel] });
  const { ds, result } = await openMigrated(dataSourceOptions(config), logger);
  await ds.destroy();
  const name = databaseName(config);
  const copy = result.backup ? `; копия до миграции: ${result.backup}` : '';
  if (!result.applied.length) console.log(`схема v${result.to}: мигрировать нечего`);
  else console.log(result.from === 0 ? `база ${name} создана, схема v${result.to}` : `база ${name} приведена к схеме v${result.to} (была v${result.from})${copy}`);
}

/** `migrate --from-sqlite <file>`: a SQLite hub into the empty PostgreSQL database of HUB_DATABASE_URL. */
async function migrateFromSqlite(config: HubConfig, file: string | undefined): Promise<void> {
  if (!file || file.startsWith('--')) throw new ConfigError('укажите файл базы SQLite: jira-hub migrate --from-sqlite <файл>');
  if (!config.databaseUrl) throw new ConfigError('задайте HUB_DATABASE_URL=postgres://… — базу PostgreSQL, в которую копировать');
  // Loaded for this command only: `serve` never needs the copy code.
  const { assertSqliteFile, copyFromSqlite } = await import('./database/index.js');
  await assertSqliteFile(file);
  const ds = await openDataSource(dataSourceOptions(config));
  try {
    const counts = await copyFromSqlite(file, ds);
    console.log(
      [`Скопировано из ${file} в ${databaseName(config)}; строк в таблицах (SQLite → PostgreSQL):`, ...counts.map((c) => `  ${c.table}: ${c.source} → ${c.target}`)].join('\n'),
    );
  } finally {
    await ds.destroy();
  }
}

/** The import report for a person (Russian, SPEC 12); `--json` prints the report itself. */
export { formatReport };

async function importFolder(config: HubConfig, folder: string, json: boolean): Promise<void> {
  assertPackageFolder(folder, 'notes.csv и/или links.csv');
  const entries = await readdir(folder, { withFileTypes: true });
  const files = { notes: await packageFile(folder, entries, 'notes.csv'), links: await packageFile(folder, entries, 'links.csv') };
  assertExistingDatabase(config);
  announceDatabase(config, json, 'временная: импорт не сохранится');
  if (!files.notes && !files.links) console.error(`jira-hub: в папке ${folder} нет ни notes.csv, ни links.csv — импортировать нечего`);
  const report = await withHub(config, (app) => app.get(ImportService).import(files));
  console.log(json ? JSON.stringify(report, null, 2) : formatReport(report));
}

/**
 * What a hub command reads: only `names` of the environment (the rest of HUB_VARIABLES take their
 * defaults), and its help lists exactly them and NO_COLOR (the log's). One value for both, so that the
 * help and the reads cannot part; test/cli-variables.e2e-spec.ts records what each command reads.
 */
function hubVariables(names: readonly HubVariable[]) {
  return {
    help: variablesHelp([...names.map((name): Variable => [name, HUB_VARIABLES[name]]), NO_COLOR_VARIABLE]),
    /**
     * The command's variables, with its options written over them (an option wins over its variable). `--db`
     * names a SQLite file: it wins over HUB_DATABASE_URL too, which would otherwise take the hub to PostgreSQL.
     */
    of: (env: NodeJS.ProcessEnv, options: Partial<Record<HubVariable, string>> = {}): HubEnv => {
      const { HUB_DATABASE_URL, ...others } = onlyVariables(env, names) as Record<string, string | undefined>;
      return { ...others, ...(options.HUB_DB_PATH === undefined && HUB_DATABASE_URL !== undefined ? { HUB_DATABASE_URL } : {}), ...given(options) } as HubEnv;
    },
    /** The command's configuration (`of`), whose refusals name a given option (`--port: …`) rather than its variable. */
    load(env: NodeJS.ProcessEnv, options: Partial<Record<HubVariable, string>> = {}): HubConfig {
      return loadConfig(this.of(env, options), optionNames(options));
    },
  };
}

/** The hub's options that stand for a variable (each command's help says «вместо HUB_…»). */
const OPTION_OF: OptionNames = { HUB_DB_PATH: '--db', HUB_HOST: '--host', HUB_PORT: '--port' };

/** The options given, by the variable each stands for (`{ HUB_PORT: '--port' }`). */
const optionNames = (options: Partial<Record<HubVariable, string>>): OptionNames =>
  Object.fromEntries(Object.keys(given(options)).map((name) => [name, OPTION_OF[name as HubVariable] ?? name]));

/** `serve` reads every variable of the configuration. */
const SERVE = hubVariables(Object.keys(HUB_VARIABLES) as HubVariable[]);
/** `migrate`: the database, and the level of its log. */
const MIGRATE = hubVariables(['HUB_DB_PATH', 'HUB_DATABASE_URL', 'HUB_LOG_LEVEL']);
/** import, plan, apply, export: the database only (their log prints errors and warnings, whatever HUB_LOG_LEVEL says). */
const PACKAGE = hubVariables(['HUB_DB_PATH', 'HUB_DATABASE_URL']);

/** `jira-hub mcp` (src/mcp/stdio.ts): a client of a running hub. */
const MCP_VARIABLES: Variable[] = [
  ['HUB_URL', 'адрес работающего хаба (по умолчанию http://127.0.0.1:3000)'],
  ['HUB_ASSISTANT_TOKEN', 'токен ассистента, с которым MCP-сервер обращается к хабу, если хаб с токенами'],
  ['HUB_MCP_READ_ONLY', HUB_VARIABLES.HUB_MCP_READ_ONLY],
  ['HUB_MCP_TOOLS', HUB_VARIABLES.HUB_MCP_TOOLS],
];
const TITLES: Record<string, string> = {
  'Usage:': 'Запуск:',
  'Options:': 'Параметры:',
  'Commands:': 'Команды:',
  'Arguments:': 'Аргументы:',
  'Global Options:': 'Общие параметры:',
};

/** Commander's usage errors, in Russian (texts for people, SPEC 12); an unknown one passes as it is. */
const USAGE_ERRORS: [RegExp, (...m: string[]) => string][] = [
  [/^error: unknown command '(.*)'$/, (name) => `неизвестная команда «${name}»`],
  [/^error: unknown option '(.*)'$/, (flag) => `неизвестный параметр «${flag}»`],
  [/^error: missing required argument '(.*)'$/, (name) => `не хватает аргумента «${name}»`],
  [/^error: required option '(.*)' not specified$/, (flags) => `не указан обязательный параметр «${flags}»`],
  [/^error: option '(.*)' argument missing$/, (flags) => `параметру «${flags}» нужно значение`],
  [/^error: option '(.*)' argument '\s*' is invalid\.$/, (flags) => `параметру «${flags}» нужно непустое значение`],
  [/^error: command-argument value '\s*' is invalid for argument '(.*)'\.$/, (name) => `аргумент «${name}» пуст`],
  [/^error: too many arguments(?: for '(.*)')?\. Expected (\d+) arguments? but got (\d+)\.$/, (name, expected, got) => `лишние аргументы${name ? ` у команды ${name}` : ''}: ожидалось ${expected}, получено ${got}`],
];

export function russianUsageError(english: string): string {
  const [first, ...rest] = english.trim().split('\n');
  const suggestion = /^\(Did you mean (.*)\?\)$/.exec(rest.join(' ').trim())?.[1];
  for (const [pattern, say] of USAGE_ERRORS) {
    const m = pattern.exec(first);
    if (m) return `${say(...m.slice(1))}${suggestion ? `; может быть, ${suggestion}?` : ''}`;
  }
  return first.replace(/^error: /, '');
}

/**
 * A value on the command line that is blank (`--db "$DB"` with DB unset) is a usage error (nonBlank's
 * refusal, translated in USAGE_ERRORS): taken as not given, it meant the default — migrate made
 * ./data/hub.sqlite, export wrote into the current folder, serve and jira-sim took the default port.
 */
function nonBlank(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('');
  return value;
}

/** The options a command was given (an unset one is not written over its variable). */
const given = (values: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined));

/**
 * The variables of `env` with the given options written over them (an option wins over its variable).
 * Not a copy: every other name is read from `env` when the command asks for it, so what a command
 * reads is what it asks of the environment it was given (test/cli-variables.e2e-spec.ts records it).
 */
function withOptions(env: NodeJS.ProcessEnv, values: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const options = given(values);
  const own = (name: string | symbol): name is string => typeof name === 'string' && Object.hasOwn(options, name);
  return new Proxy(env, {
    get: (target, name) => (own(name) ? options[name] : Reflect.get(target, name)),
    has: (target, name) => own(name) || name in target,
    ownKeys: (target) => [...new Set([...Reflect.ownKeys(target), ...Object.keys(options)])],
    getOwnPropertyDescriptor: (target, name) =>
      own(name) ? { value: options[name], writable: true, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(target, name),
  });
}

/**
 * The `jira-hub` program: one commander command per entry. Each action returns the exit code, or -1
 * for a command that keeps running (serve). A new command (`mcp`, say) is one more entry here.
 */
export function program(env: NodeJS.ProcessEnv, exit: (code: number) => void): Command {
  const cli = new Command('jira-hub')
    .description('Jira Hub — очередь идемпотентных команд Jira, которые агент выполняет в человеческом темпе')
    .usage('[команда] [параметры]')
    .helpOption('-h, --help', 'показать справку')
    .helpCommand(false)
    .configureHelp({
      styleTitle: (title) => TITLES[title] ?? title,
      subcommandTerm: (cmd) =>
        [cmd.name(), ...(cmd.options.length ? ['[параметры]'] : []), ...cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`))].join(' '),
    })
    .configureOutput({
      writeOut: (text) => console.log(text.replace(/\n$/, '')),
      writeErr: (text) => console.error(text.replace(/\n$/, '')),
      // One line, as every refusal of the CLI (a ConfigError in main).
      outputError: (text, write) => write(`jira-hub: ${russianUsageError(text)} (список команд и параметров: jira-hub --help)\n`),
    })
    .exitOverride()
    .addHelpText('after', '\nБез команды запускается serve. Справка по команде: jira-hub <команда> --help');

  cli
    .command('serve')
    .description('запустить хаб (команда по умолчанию)')
    .usage('[параметры]')
    .option('--db <файл>', 'файл базы данных (вместо HUB_DB_PATH)', nonBlank)
    .option('--host <адрес>', 'адрес (вместо HUB_HOST)', nonBlank)
    .option('-p, --port <порт>', 'порт (вместо HUB_PORT)', nonBlank)
    .addHelpText('after', SERVE.help)
    .action(async (o: { db?: string; host?: string; port?: string }) => {
      const options = { HUB_DB_PATH: o.db, HUB_HOST: o.host, HUB_PORT: o.port };
      await serve(SERVE.of(env, options), { stopLine: true, named: optionNames(options) });
      exit(-1);
    });

  cli
    .command('migrate')
    .description('привести базу к текущей схеме (с копией до миграции) и выйти')
    .usage('[параметры]')
    .option('--db <файл>', 'файл базы данных (вместо HUB_DB_PATH)', nonBlank)
    .option('--from-sqlite <файл>', 'скопировать хаб из файла SQLite (любой версии схемы) в пустую базу PostgreSQL из HUB_DATABASE_URL и сверить число строк')
    .addHelpText('after', MIGRATE.help)
    .action(async (o: { db?: string; fromSqlite?: string }) => {
      // --db wins over HUB_DATABASE_URL (hubVariables), which leaves --from-sqlite no PostgreSQL to copy into.
      if (o.fromSqlite !== undefined && o.db !== undefined) {
        throw new ConfigError('--db и --from-sqlite вместе не задаются: --from-sqlite копирует файл SQLite в базу PostgreSQL из HUB_DATABASE_URL, а --db выбрал бы вместо неё файл SQLite; уберите --db');
      }
      const config = MIGRATE.load(env, { HUB_DB_PATH: o.db });
      await (o.fromSqlite !== undefined ? migrateFromSqlite(config, o.fromSqlite) : migrateOnly(config));
      exit(0);
    });

  cli
    .command('import')
    .description('импортировать пакет планирования (notes.csv и/или links.csv из папки) прямо в базу хаба и напечатать отчёт')
    .usage('[параметры] <папка>')
    .argument('<папка>', 'папка с notes.csv и/или links.csv, например examples/plan', nonBlank)
    .option('--json', 'напечатать отчёт в JSON (строка о базе — в stderr)')
    .option('--db <файл>', 'файл базы данных (вместо HUB_DB_PATH)', nonBlank)
    .addHelpText('after', PACKAGE.help)
    .action(async (folder: string, o: { json?: boolean; db?: string }) => {
      await importFolder(PACKAGE.load(env, { HUB_DB_PATH: o.db }), folder, o.json === true);
      exit(0);
    });

  const packageCommand = (name: 'plan' | 'apply', description: string, run: typeof planFolder) =>
    cli
      .command(name)
      .description(description)
      .usage('[параметры] <папка>')
      .argument('<папка>', 'папка с issues.csv, links.csv и/или notes.csv, например examples/plan', nonBlank)
      .option('--name <имя>', 'имя пакета (по умолчанию — имя папки)')
      .option('--json', 'напечатать ответ в JSON (строка о базе — в stderr)')
      .option('--db <файл>', 'файл базы данных (вместо HUB_DB_PATH)', nonBlank)
      .addHelpText('after', PACKAGE.help)
      .action(async (folder: string, o: { json?: boolean; db?: string; name?: string }) => {
        await run(PACKAGE.load(env, { HUB_DB_PATH: o.db }), folder, o);
        exit(0);
      });
  packageCommand('plan', 'показать, что изменится в Jira, чтобы она совпала с пакетом планирования (только различия с зеркалом); ничего не записывает', planFolder);
  packageCommand('apply', 'сохранить пакет планирования и поставить в очередь его план (только различия с зеркалом)', applyFolder);

  cli
    .command('export')
    .description('выгрузить задачи, связи и заметки из зеркала хаба в папку как пакет планирования (issues.csv, links.csv, notes.csv)')
    .usage('[параметры] <папка> --jql <запрос>')
    .argument('<папка>', 'куда записать файлы (папка создаётся)', nonBlank)
    .requiredOption('--jql <запрос>', 'какие задачи: project = KEY, sprint = …, status = …, key in (…) через AND')
    .option('--db <файл>', 'файл базы данных (вместо HUB_DB_PATH)', nonBlank)
    .option('--force', 'перезаписать issues.csv, links.csv и notes.csv, если они уже есть в папке')
    .addHelpText('after', PACKAGE.help)
    .action(async (folder: string, o: { jql: string; db?: string; force?: boolean }) => {
      await exportFolder(PACKAGE.load(env, { HUB_DB_PATH: o.db }), folder, o.jql, o.force === true);
      exit(0);
    });

  cli
    .command('agent')
    .description('запустить эталонного агента: берёт команды у хаба и выполняет их в Jira (до SIGINT/SIGTERM)')
    .usage('[параметры]')
    .option('--once', 'обработать одну выдачу и остановиться (вместо AGENT_ONCE=1)')
    .option('--check', 'только проверить подключение к хабу и Jira (список ✓/✗), ничего не меняя; код выхода 1 при любом ✗')
    .addHelpText('after', variablesHelp(AGENT_VARIABLES))
    .action(async (o: { once?: boolean; check?: boolean }) => {
      const { agentMain, AgentConfigError } = await import('@jira-hub/agent');
      const code = await agentMain(o.check ? ['--check'] : [], withOptions(env, { AGENT_ONCE: o.once ? '1' : undefined })).catch((err: unknown) => {
        throw err instanceof AgentConfigError ? new ConfigError(err.message) : err;
      });
      exit(code);
    });

  cli
    .command('jira-sim')
    .description('запустить симулятор Jira в памяти (Cloud /rest/api/3 и DC /rest/api/2) до SIGINT/SIGTERM')
    .usage('[параметры]')
    .option('-p, --port <порт>', 'порт (вместо JIRA_SIM_PORT)', nonBlank)
    .option('--seed <файл>', 'JSON-файл начальных данных (вместо JIRA_SIM_SEED)', nonBlank)
    .addHelpText('after', variablesHelp(SIM_VARIABLES))
    .action(async (o: { port?: string; seed?: string }) => {
      const { runSimulatorFromEnv, SimConfigError } = await import('@jira-hub/jira-sim');
      const given = { ...(o.port !== undefined ? { JIRA_SIM_PORT: '--port' } : {}), ...(o.seed !== undefined ? { JIRA_SIM_SEED: '--seed' } : {}) };
      await runSimulatorFromEnv(withOptions(env, { JIRA_SIM_PORT: o.port, JIRA_SIM_SEED: o.seed }), undefined, given).catch((err: unknown) => {
        throw err instanceof SimConfigError ? new ConfigError(err.message) : err;
      });
      exit(0);
    });

  cli
    .command('mcp')
    .description('MCP-сервер для ИИ-ассистента на stdin/stdout: инструменты хаба через его HTTP API (записи ждут одобрения человека)')
    .usage('[параметры]')
    .option('--read-only', 'только инструменты, которые ничего не пишут (вместо HUB_MCP_READ_ONLY=1)')
    .addHelpText('after', variablesHelp(MCP_VARIABLES))
    .action(async (o: { readOnly?: boolean }) => {
      const { runMcpStdio } = await import('./mcp/index.js');
      await runMcpStdio(env, { readOnlyFlag: o.readOnly === true });
      exit(0);
    });

  // Not commander's own help command: that one answers a name it does not know with the list of
  // commands and exit code 0; here it is a usage error like `jira-hub <unknown>`.
  cli
    .command('help')
    .description('справка по команде')
    .usage('[команда]')
    .argument('[команда]')
    .action((name: string | undefined) => {
      if (name === undefined) cli.help();
      const command = cli.commands.find((c) => c.name() === name);
      if (!command) return cli.error(`error: unknown command '${name}'`, { code: 'commander.unknownCommand', exitCode: 2 });
      command.help();
    });

  return cli;
}

/** Commander's own ends that are not errors. */
const HELP_CODES = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/**
 * Runs `jira-hub <argv>`; the exit code (-1: a server keeps running). Usage errors and bad
 * configuration exit 2, a failure 1; messages are Russian, on stderr.
 */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let code = 0;
  // No command, or only options of serve: serve (the default).
  const args = argv.length === 0 || (argv[0].startsWith('-') && !['-h', '--help'].includes(argv[0])) ? ['serve', ...argv] : argv;
  try {
    await program(env, (c) => (code = c)).parseAsync(args, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return HELP_CODES.has(err.code) ? 0 : 2;
    if (err instanceof ConfigError) {
      console.error(`jira-hub: ${err.message}`);
      return 2;
    }
    // A package's errors (decision 0132), one per line under how many there are, rather than one line joined by «; ».
    if (err instanceof PackageValidationError && err.lines.length > 1) {
      console.error([`jira-hub: в пакете ошибок: ${err.total}`, ...err.lines.map((line) => `  ${line}`)].join('\n'));
      return 1;
    }
    const detail = (err as { detail?: string }).detail;
    console.error(`jira-hub: ${detail ?? (err instanceof Error ? err.message : String(err))}`);
    return 1;
  }
}

/**
 * A reader that went away (`jira-hub plan … | head -1`, a log pipe that closed, decision 1443): the rest of
 * that stream's output is dropped and the command goes on — serve keeps serving, the others finish with
 * their own exit code — instead of Node's stack trace of an unhandled EPIPE and exit 1.
 */
export function dropClosedOutput(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
}

/**
 * `jira-hub` as a command: the .env file read, then `main` on the process's arguments, and the process
 * ended with its code (serve keeps it running: -1). bin/jira-hub.js runs it from the bundle, and so does
 * this file when it is run itself (from the sources).
 */
export async function runCommand(): Promise<void> {
  dropClosedOutput();
  try {
    loadDotEnv();
  } catch (err) {
    console.error(`jira-hub: ${(err as Error).message}`);
    process.exit(2);
  }
  const code = await main(process.argv.slice(2), process.env);
  if (code >= 0) process.exit(code);
}

if (import.meta.url === `file://${process.argv[1]}`) await runCommand();
