/**
 * `jira-hub <command>`: serve (default), migrate, import <folder> [--json], agent (the reference agent,
 * src/jira-agent), jira-sim (the Jira simulator, src/jira-sim).
 * Configuration comes from the environment (and a .env file; the shell wins), SPEC 14.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { existsSync, statSync, type Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createApp } from './app.js';
import { AppModule } from './app.module.js';
import { ConfigError, loadConfig, loadDotEnv, type HubConfig } from './common/config.js';
import { databaseName, dataSourceOptions, openDataSource } from './database/data-source.js';
import { copyFromSqlite } from './database/from-sqlite.js';
import { migrate } from './database/migrate.js';
import { databaseFile } from './database/sqlite-copy.js';
import type { ImportReport } from './import/compare.js';
import { ImportService } from './import/import.service.js';

const USAGE = `usage: jira-hub [serve | migrate [--from-sqlite <file>] | import <folder> [--json] | agent | jira-sim | help]`;

/** Starts the hub and prints where it listens. */
export async function serve(env: NodeJS.ProcessEnv): Promise<{ url: string; close: () => Promise<void> }> {
  const config = loadConfig(env);
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const auth = config.clientToken ? 'bearer tokens required' : 'open mode (no tokens, loopback only)';
  console.log(`Jira Hub listening on ${url}\n  database: ${databaseName(config)}\n  Swagger UI: ${url}/docs\n  auth: ${auth}`);
  return { url, close: () => app.close() };
}

async function migrateOnly(config: HubConfig): Promise<void> {
  const ds = await openDataSource(dataSourceOptions(config));
  try {
    const file = config.databaseUrl ? null : databaseFile(config.dbPath);
    const result = await migrate(ds, { file, logger: new Logger('Migrations') });
    console.log(
      result.applied.length
        ? `migrated ${databaseName(config)} from schema v${result.from} to v${result.to}${result.backup ? `; copy before: ${result.backup}` : ''}`
        : `schema v${result.to}: nothing to migrate`,
    );
  } finally {
    await ds.destroy();
  }
}

/** `migrate --from-sqlite <file>`: a SQLite hub into the empty PostgreSQL database of HUB_DATABASE_URL. */
async function migrateFromSqlite(config: HubConfig, file: string | undefined): Promise<void> {
  if (!file || file.startsWith('--')) throw new ConfigError('укажите файл базы SQLite: jira-hub migrate --from-sqlite <файл>');
  if (!config.databaseUrl) throw new ConfigError('задайте HUB_DATABASE_URL=postgres://… — базу PostgreSQL, в которую копировать');
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

/**
 * The file of a package named `name` (notes.csv, links.csv), its name matched case-insensitively
 * (Notes.csv saved on Windows); undefined when the folder has none.
 */
async function packageFile(folder: string, entries: Dirent[], name: string): Promise<Buffer | undefined> {
  const found = entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase() === name).map((e) => e.name);
  if (found.length > 1) throw new ConfigError(`в папке ${folder} несколько файлов ${name}: ${found.sort().join(', ')}; оставьте один`);
  return found.length ? readFile(join(folder, found[0])) : undefined;
}

/** The import report for a person (Russian, SPEC 12); `--json` prints the report itself. */
export function formatReport(r: ImportReport): string {
  const links = (title: string, list: ImportReport['missing_links']) =>
    `${title}: ${list.length}${list.map((l) => `\n  ${l.source} —${l.link_type}→ ${l.target}`).join('')}`;
  return [
    `Заметок импортировано: ${r.notes}`,
    `Ожидаемых связей: ${r.expected_links.length}`,
    links('Нет в Jira', r.missing_links),
    links('В Jira в обратную сторону', r.reversed_links),
    `Ключей нет в зеркале: ${r.missing_keys.length ? `${r.missing_keys.join(', ')} (прочитайте их командой refresh)` : 'нет'}`,
  ].join('\n');
}

async function importFolder(config: HubConfig, folder: string, json: boolean): Promise<void> {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new ConfigError(`${folder} — не папка; укажите папку с notes.csv и/или links.csv`);
  const entries = await readdir(folder, { withFileTypes: true });
  const files = { notes: await packageFile(folder, entries, 'notes.csv'), links: await packageFile(folder, entries, 'links.csv') };
  if (!files.notes && !files.links) console.error(`jira-hub: в папке ${folder} нет ни notes.csv, ни links.csv — импортировать нечего`);
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error', 'warn'] });
  try {
    const report = await app.get(ImportService).import(files);
    console.log(json ? JSON.stringify(report, null, 2) : formatReport(report));
  } finally {
    await app.close();
  }
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command = 'serve', ...args] = argv;
  try {
    switch (command) {
      case 'serve':
        await serve(env);
        return -1; // keeps running
      case 'migrate': {
        const from = args.indexOf('--from-sqlite');
        if (from >= 0) await migrateFromSqlite(loadConfig(env), args[from + 1]);
        else await migrateOnly(loadConfig(env));
        return 0;
      }
      case 'import': {
        const folder = args.find((a) => !a.startsWith('--'));
        if (!folder) throw new ConfigError('укажите папку пакета: jira-hub import <папка> (в ней notes.csv и/или links.csv)');
        await importFolder(loadConfig(env), folder, args.includes('--json'));
        return 0;
      }
      case 'agent': {
        const { runAgentFromEnv } = await import('./jira-agent/main.js');
        await runAgentFromEnv(env);
        return 0;
      }
      case 'jira-sim': {
        const { runSimulatorFromEnv } = await import('./jira-sim/main.js');
        await runSimulatorFromEnv(env);
        return 0;
      }
      case 'help':
      case '--help':
        console.log(USAGE);
        return 0;
      default:
        console.error(USAGE);
        return 2;
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`jira-hub: ${err.message}`);
      return 2;
    }
    const detail = (err as { detail?: string }).detail;
    console.error(`jira-hub: ${detail ?? (err instanceof Error ? err.message : String(err))}`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  loadDotEnv();
  const code = await main(process.argv.slice(2), process.env);
  if (code >= 0) process.exit(code);
}
