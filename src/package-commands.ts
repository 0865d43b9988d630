/**
 * `jira-hub plan|apply|export` (SPEC 18): a planning package folder against the hub's database, as
 * `import` does — the CLI opens the database itself and does not talk to a running hub.
 */
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, renameSync, rmSync, statSync, type Dirent } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { AppModule } from './app.module.js';
import { ConfigError, fileSystemReason, type HubConfig, HubLogger, makeFolder, ValidationFailedError } from './common/index.js';
import { assertCurrentSchema, assertDatabaseUsable, databaseFile, databaseName, dataSourceOptions, openDataSource } from './database/index.js';
import { appliedPlanText, ExportService, keyList, MAX_PACKAGE_NAME, PackagesService, parseExportJql, planText } from './packages/index.js';
import type { PackageFiles } from './packages/index.js';

/**
 * The name a folder's file of a package named `name` (notes.csv, links.csv, issues.csv) has there, matched
 * case-insensitively (Notes.csv saved on Windows); undefined when the folder has none. What reads a
 * package and what writes one both find its files by this one rule.
 */
export function packageFileName(folder: string, entries: Dirent[], name: string): string | undefined {
  const found = entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase() === name).map((e) => e.name);
  if (found.length > 1) throw new ConfigError(`в папке ${folder} несколько файлов ${name}: ${found.sort().join(', ')}; оставьте один`);
  return found[0];
}

/** The file of a package named `name`, found as packageFileName finds it; undefined when the folder has none. */
export async function packageFile(folder: string, entries: Dirent[], name: string): Promise<Buffer | undefined> {
  const found = packageFileName(folder, entries, name);
  if (found === undefined) return undefined;
  const path = join(folder, found);
  return readFile(path).catch((err: unknown) => {
    throw new ConfigError(`файл ${path} не прочитать: ${fileSystemReason(err, 'read')}`);
  });
}

/** A package folder given on the command line is one (`holds`: which files it is to hold, for the refusal). */
export function assertPackageFolder(folder: string, holds: string): void {
  let found: ReturnType<typeof statSync>;
  try {
    found = statSync(folder, { throwIfNoEntry: false });
  } catch (err) {
    // A path through a file (ENOTDIR) or a folder without the right to look in (EACCES): one line, as any refusal.
    throw new ConfigError(`папку ${folder} не открыть: ${fileSystemReason(err, 'read')}; укажите папку с ${holds}`);
  }
  if (!found) throw new ConfigError(`папки ${folder} нет; укажите папку с ${holds}`);
  if (!found.isDirectory()) throw new ConfigError(`${folder} — ${found.isFile() ? 'файл' : 'не обычный файл'}, а не папка; укажите папку с ${holds}`);
}

/** The files of a package folder; a folder with none of them is an error. */
async function readFolder(folder: string): Promise<PackageFiles> {
  assertPackageFolder(folder, 'issues.csv, links.csv и/или notes.csv');
  const entries = await readdir(folder, { withFileTypes: true });
  const files: PackageFiles = {
    issues: await packageFile(folder, entries, 'issues.csv'),
    links: await packageFile(folder, entries, 'links.csv'),
    notes: await packageFile(folder, entries, 'notes.csv'),
  };
  if (!files.issues && !files.links && !files.notes) throw new ConfigError(`в папке ${folder} нет ни issues.csv, ни links.csv, ни notes.csv`);
  return files;
}

/**
 * First, which database is read or written: the CLI does not talk to a running hub (README). `memory`:
 * what a throw-away database means for this command.
 */
export function announceDatabase(config: HubConfig, json: boolean, memory = 'временная'): void {
  const file = databaseFile(config.dbPath);
  const line = `база данных: ${config.databaseUrl ? 'PostgreSQL (HUB_DATABASE_URL)' : file ? resolve(file) : `:memory: (${memory})`}`;
  if (json) console.error(line);
  else console.log(line);
}

/**
 * import, plan, apply and export work on an existing hub's database: a SQLite file that is not there, or
 * an empty one (SQLite would take it for a new database), is a mistyped path, not a new hub to create
 * (plan would compare against an empty mirror and say everything is to be created; import would store
 * the notes where no hub reads them).
 */
export function assertExistingDatabase(config: HubConfig): void {
  const file = databaseFile(config.dbPath);
  if (config.databaseUrl || !file) return;
  const next = 'укажите файл базы хаба (--db или HUB_DB_PATH); новую базу создаёт jira-hub serve или jira-hub migrate';
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) throw new ConfigError(`базы данных ${resolve(file)} нет: ${next}`);
  if (stat.isFile() && stat.size === 0) throw new ConfigError(`файл базы данных ${resolve(file)} пуст — это не база хаба: ${next}`);
}

/**
 * The hub's modules on an existing hub's database (on PostgreSQL: a schema that holds the hub; a SQLite
 * file: assertExistingDatabase), after the checks `serve` makes first: each failure is one line, not a logged stack.
 */
export async function withHub<T>(config: HubConfig, run: (app: INestApplicationContext) => Promise<T>, readOnly?: string): Promise<T> {
  await assertDatabaseUsable(config, { existing: true });
  if (readOnly) {
    // `plan` and `export` change nothing: a database of an older schema is refused, not migrated in passing.
    const ds = await openDataSource(dataSourceOptions(config));
    try {
      await assertCurrentSchema(ds, databaseName(config), readOnly);
    } finally {
      await ds.destroy();
    }
  }
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    // A failed start rejects here, as createApp's does, instead of Nest ending the process with code 1:
    // a refusal raised inside the start (ConfigError, whose log HubLogger drops) then reaches main's line.
    abortOnError: false,
    logger: new HubLogger({ logLevels: ['error', 'warn', 'fatal'] }),
  });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

export interface PackageCommandOptions {
  json?: boolean;
  name?: string;
}

/**
 * The package's name: --name, or the folder's; held to what the HTTP routes take (PackageFormDto) and
 * trimmed as they and the MCP tools trim it, so the same package gets the same name (and batch title) from each.
 */
function nameOf(o: PackageCommandOptions, folder: string): string {
  const name = (o.name ?? basename(resolve(folder))).trim();
  if (!name) throw new ConfigError(o.name === undefined ? `у папки ${resolve(folder)} нет имени, по которому назвать пакет: задайте его параметром --name` : '--name: нужно непустое имя пакета');
  if ([...name].length > MAX_PACKAGE_NAME) throw new ConfigError(`--name: имя пакета не длиннее ${MAX_PACKAGE_NAME} символов`);
  return name;
}

/** `jira-hub plan <folder>`: what would change in Jira; writes nothing. */
export async function planFolder(config: HubConfig, folder: string, o: PackageCommandOptions): Promise<void> {
  const name = nameOf(o, folder);
  const files = await readFolder(folder);
  assertExistingDatabase(config);
  announceDatabase(config, o.json === true);
  const plan = await withHub(config, (app) => app.get(PackagesService).plan(files, 'client', name), 'jira-hub plan');
  console.log(o.json ? JSON.stringify(plan, null, 2) : planText(plan));
}

/** `jira-hub apply <folder>`: stores the package and submits its plan's batch (source client, author cli). */
export async function applyFolder(config: HubConfig, folder: string, o: PackageCommandOptions): Promise<void> {
  const name = nameOf(o, folder);
  const files = await readFolder(folder);
  assertExistingDatabase(config);
  announceDatabase(config, o.json === true);
  const applied = await withHub(config, (app) => app.get(PackagesService).apply(files, { name: 'cli', source: 'client' }, name));
  console.log(o.json ? JSON.stringify(applied, null, 2) : [applied.text, appliedPlanText(applied)].filter(Boolean).join('\n'));
}

/**
 * The package's files written whole or not at all: each under a partial name first; then the files already
 * there are set aside (`issues.csv.<tag>.previous`), the partial files renamed in, and the set-aside files
 * removed. A failure at any step (a full disk, a folder where a file goes, a links.csv open in Excel on
 * Windows) moves the new files out and the set-aside ones back: the folder is as it was — not a new
 * issues.csv beside the old links.csv and notes.csv, a package of two exports that plan would read as one.
 */
async function writeAll(files: { path: string; text: string }[]): Promise<void> {
  const refuse = (path: string, err: unknown) => new ConfigError(`файл ${path} не записать: ${fileSystemReason(err)}`);
  // A rename onto a folder fails only after the files before it have moved in: refused before anything is written.
  const folderThere = files.find(({ path }) => statSync(path, { throwIfNoEntry: false })?.isDirectory());
  if (folderThere) throw refuse(folderThere.path, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
  const partial = (path: string) => `${path}.partial`;
  const tag = randomBytes(4).toString('hex'); // a name no file of the folder has: nothing is renamed over
  const aside = (path: string) => `${path}.${tag}.previous`;
  const setAside: string[] = [];
  const movedIn: string[] = [];
  try {
    for (const { path, text } of files) {
      await writeFile(partial(path), text).catch((err: unknown) => {
        throw refuse(path, err);
      });
    }
    const move = (from: string, to: string, path: string, done: string[]) => {
      try {
        renameSync(from, to);
      } catch (err) {
        throw refuse(path, err);
      }
      done.push(path);
    };
    const tried = (step: () => void) => {
      try {
        step();
        return true;
      } catch {
        return false;
      }
    };
    try {
      for (const { path } of files) if (lstatSync(path, { throwIfNoEntry: false })) move(path, aside(path), path, setAside);
      for (const { path } of files) move(partial(path), path, path, movedIn);
    } catch (err) {
      // Back as it was: the new files out, the old ones under their names again. One that cannot go back is named in the line.
      for (const path of movedIn) tried(() => rmSync(path, { force: true }));
      const stuck = setAside.filter((path) => !tried(() => renameSync(aside(path), path)));
      if (!stuck.length || !(err instanceof ConfigError)) throw err;
      throw new ConfigError(`${err.message}; прежние файлы не вернуть на место, они остались под именами ${stuck.map((path) => basename(aside(path))).join(', ')}`);
    }
    // The export is in place; an old file that cannot be removed stays under its set-aside name, which plan does not read.
    for (const path of setAside) tried(() => rmSync(aside(path), { force: true }));
  } finally {
    for (const { path } of files) rmSync(partial(path), { force: true });
  }
}

/** The files an export writes: a folder that holds any of them is refused unless `force` (a mistyped JQL would wipe a package being edited). */
const EXPORTED = ['issues.csv', 'links.csv', 'notes.csv'] as const;

/**
 * `jira-hub export <folder> --jql …`: the mirror's issues, links and notes as a package in the folder. A
 * file of the package already there is found as plan and apply find it, in any letter case (Issues.csv),
 * and `--force` overwrites that very file: the folder never ends up with two files plan would refuse.
 */
export async function exportFolder(config: HubConfig, folder: string, jql: string, force = false): Promise<void> {
  // A JQL the export does not understand is a bad option, as a bad --name is (exit 2), told before the folder and the database are looked at.
  try {
    parseExportJql(jql);
  } catch (err) {
    throw err instanceof ValidationFailedError ? new ConfigError(`--jql: ${err.detail}`) : err;
  }
  const entries = existsSync(folder) && statSync(folder).isDirectory() ? await readdir(folder, { withFileTypes: true }) : [];
  const names = new Map(EXPORTED.map((name) => [name, packageFileName(folder, entries, name)]));
  const there = [...names.values()].filter((name) => name !== undefined);
  if (there.length && !force) {
    throw new ConfigError(`в папке ${folder} уже есть ${there.join(', ')}: выгрузка их перезапишет; укажите новую папку или добавьте --force, чтобы перезаписать`);
  }
  assertExistingDatabase(config);
  announceDatabase(config, false);
  const out = await withHub(config, (app) => app.get(ExportService).export(jql), 'jira-hub export');
  makeFolder(folder, 'папку для пакета');
  const written = (name: (typeof EXPORTED)[number]) => names.get(name) ?? name;
  await writeAll(EXPORTED.map((name) => ({ path: join(folder, written(name)), text: out.files[name] })));
  console.log(
    `Записано в ${folder}: ${written('issues.csv')} (задач: ${out.issues}), ${written('links.csv')} (связей: ${out.links}), ${written('notes.csv')} (заметок: ${out.notes}).`,
  );
  if (out.labelsLeftOut.length) {
    console.log(`Метки задач ${keyList(out.labelsLeftOut)} не записаны: в их метке есть запятая или пробел, а в пакете они разделяют метки. Столбец «Метки» этих задач оставлен пустым — пакет их метки не меняет.`);
  }
  if (out.summariesLeftOut.length) {
    console.log(`Темы задач ${keyList(out.summariesLeftOut)} не записаны: в них перевод строки, а тема — одна строка (план такую отклонит). Столбец «Тема» этих задач оставлен пустым — пакет их темы не меняет.`);
  }
}
