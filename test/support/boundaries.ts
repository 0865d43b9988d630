/**
 * Module boundaries (issue 9, scope 3; ARCHITECTURE.md, "Table ownership"), checked on the source text.
 * Files are parsed with the TypeScript compiler (string and template literals, import specifiers), so
 * comments and prose never count as SQL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/** Which module owns which table: only the owner's files name it in SQL. */
export const TABLE_OWNERS: Record<string, string> = {
  batch: 'queue',
  command: 'queue',
  delivery: 'queue',
  idempotency_key: 'queue',
  issue: 'mirror',
  issue_fts: 'mirror',
  issue_label: 'mirror',
  issue_link: 'mirror',
  issue_note: 'mirror',
  sync_run: 'mirror',
  setting: 'settings',
  agent_status: 'agent',
  catalogue: 'catalogue',
  package: 'packages',
};

/**
 * The layers, lowest first: a module imports only from modules below it (or from itself), so module
 * imports can never form a cycle. `app` is the root files of src/ (app.module, cli, health.controller…).
 */
export const LAYERS = ['common', 'events', 'metrics', 'database', 'settings', 'mirror', 'catalogue', 'queue', 'agent', 'import', 'packages', 'live', 'audit', 'mcp', 'app'] as const;

/**
 * A module's repository files (files with SQL) that other modules may import: the functions they call
 * inside their own transaction. Besides these, the providers a module's `*.module.ts` lists in `exports`
 * are its public surface (injected by other modules: they are services, not repositories). Any other
 * SQL-bearing file is the module's private business.
 */
export const PUBLIC_REPOSITORIES: Record<string, readonly string[]> = {
  /** the migration runner, which the CLI's `migrate` runs */
  database: ['src/database/migrate.ts'],
  settings: ['src/settings/settings.service.ts', 'src/settings/schema-version.store.ts'],
  /** sync-run.store: Mirror's repository for sync_run, written inside Queue's refresh-report transaction */
  /** package-view: what planning packages read of the mirror (SPEC 18) */
  mirror: ['src/mirror/mirror.store.ts', 'src/mirror/sync-run.store.ts', 'src/mirror/package-view.ts'],
  /** idempotency.store: a package apply finds the batch its files submitted before (SPEC 18) */
  queue: ['src/queue/agent-signals.store.ts', 'src/queue/temp-key.store.ts', 'src/queue/idempotency.store.ts'],
  agent: [],
  /** the catalogue's repository, used inside Queue's submit, claim and report transactions */
  catalogue: ['src/catalogue/catalogue.repository.ts'],
};

/**
 * Entity registration: `database/data-source.ts` imports each module's `entities.ts` (the list of the
 * tables it owns). That edge points up the layers, and cannot make a cycle as long as entity files import
 * only entity files of their own module and `common/` — which is checked too.
 */
const REGISTRY = 'src/database/data-source.ts';
const isEntityFile = (path: string): boolean => /^src\/[^/]+\/(entities|[^/]+\.entity)\.ts$/.test(path);

/** Not part of the hub: the agent and the simulator live in packages/ (never read here); nothing under src/ is outside. */
const OUTSIDE: string[] = [];

const SQL = /\b(SELECT|INSERT|UPDATE|DELETE)\b/;

export interface SourceFile {
  path: string; // relative to the repository root, with forward slashes: src/queue/claim.store.ts
  text: string;
}

export const moduleOf = (path: string): string => {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1] : 'app';
};

/** The string and template literals of a file that read as SQL (a template's `${…}` parts left out). */
export function sqlLiterals(file: SourceFile): string[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? ');
    if (text !== undefined && SQL.test(text) && !ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) out.push(text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The repository-relative paths a file imports from (relative specifiers only). */
export function importsOf(file: SourceFile): string[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const add = (spec: string) => {
    if (spec.startsWith('.')) out.push(normalize(join(dirname(file.path), spec)).replace(/\\/g, '/').replace(/\.js$/, '.ts'));
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * The tables a SQL text names: the words in table position — after FROM, JOIN, INTO, UPDATE or TABLE, up
 * to the next clause (so `FROM issue i, json_each(…)` names `issue`). A column that shares a table's name
 * (sync_run's `delivery`) is not a table, and `command_id` is not `command` (whole words only).
 */
export function tablesNamed(sql: string): string[] {
  const named = new Set<string>();
  const places = sql.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\b([^;()]*?)(?=\b(?:WHERE|ON|SET|VALUES|SELECT|ORDER|GROUP|HAVING|LIMIT|UNION|JOIN|LEFT|INNER|CROSS|USING|RETURNING|AS|DEFAULT)\b|[;()]|$)/gi);
  for (const [, place] of places) for (const word of place.match(/\w+/g) ?? []) if (word in TABLE_OWNERS) named.add(word);
  return Object.keys(TABLE_OWNERS).filter((t) => named.has(t));
}

/**
 * The files whose providers a module exports (`exports: [BatchesService, …]` of a `*.module.ts`), found
 * through that module file's own imports: public surface, injected across modules.
 */
export function exportedProviderFiles(files: SourceFile[]): Set<string> {
  const out = new Set<string>();
  for (const file of files.filter((f) => f.path.endsWith('.module.ts'))) {
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const fileOf = new Map<string, string>();
    const exported: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('.')) {
        const target = normalize(join(dirname(file.path), node.moduleSpecifier.text)).replace(/\\/g, '/').replace(/\.js$/, '.ts');
        const names = node.importClause?.namedBindings;
        if (names && ts.isNamedImports(names)) for (const el of names.elements) fileOf.set(el.name.text, target);
      } else if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'exports' && ts.isArrayLiteralExpression(node.initializer)) {
        for (const el of node.initializer.elements) if (ts.isIdentifier(el)) exported.push(el.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const name of exported) {
      const target = fileOf.get(name);
      if (target && moduleOf(target) === moduleOf(file.path)) out.add(target);
    }
  }
  return out;
}

/**
 * Every boundary violation of a set of files, one line each:
 * - `tables  src/agent/x.ts → command (queue)`: SQL in one module names another module's table;
 * - `imports src/mirror/x.ts → src/queue/y.store.ts (private repository)`: a module imports another
 *   module's SQL-bearing file that is neither in that module's PUBLIC_REPOSITORIES nor a provider its
 *   module exports;
 * - `layers  src/settings/x.ts → src/queue/y.ts (queue above settings)`: an import up the layers (a cycle);
 * - `sql-in-controller src/x.controller.ts`: a controller with SQL;
 * - `entities src/x/y.entity.ts → …`: an entity file importing another module's code.
 */
export function violations(files: SourceFile[]): string[] {
  const hub = files.filter((f) => f.path.startsWith('src/') && !f.path.endsWith('.spec.ts') && !OUTSIDE.some((o) => f.path.startsWith(o)));
  const sqlOf = new Map(hub.map((f) => [f.path, sqlLiterals(f)]));
  const exportedProviders = exportedProviderFiles(hub);
  const out: string[] = [];
  for (const file of hub) {
    const own = moduleOf(file.path);
    const sql = sqlOf.get(file.path) ?? [];
    const named = new Set(sql.flatMap(tablesNamed));
    for (const table of [...named].sort()) {
      if (TABLE_OWNERS[table] !== own) out.push(`tables  ${file.path} → ${table} (${TABLE_OWNERS[table]})`);
    }
    if (file.path.endsWith('.controller.ts') && sql.length > 0) out.push(`sql-in-controller ${file.path}`);
    for (const target of importsOf(file)) {
      const theirs = moduleOf(target);
      if (!target.startsWith('src/') || theirs === own || OUTSIDE.some((o) => target.startsWith(o))) continue;
      const isPublic = (PUBLIC_REPOSITORIES[theirs] ?? []).includes(target) || exportedProviders.has(target);
      if ((sqlOf.get(target)?.length ?? 0) > 0 && !isPublic) {
        out.push(`imports ${file.path} → ${target} (private repository)`);
      }
      if (isEntityFile(file.path) && theirs !== 'common') out.push(`entities ${file.path} → ${target} (an entity file imports its module's entities and common/ only)`);
      if (file.path === REGISTRY && isEntityFile(target)) continue;
      const [mine, their] = [LAYERS.indexOf(own as never), LAYERS.indexOf(theirs as never)];
      if (mine < 0 || their < 0) out.push(`layers  ${file.path} → ${target} (module ${mine < 0 ? own : theirs} has no layer)`);
      else if (their > mine) out.push(`layers  ${file.path} → ${target} (${theirs} above ${own})`);
    }
  }
  return out;
}

/** The hub's source files as they are on disk. */
export function readSources(root: string): SourceFile[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  return walk(join(root, 'src')).map((p) => ({ path: relative(root, p).replace(/\\/g, '/'), text: readFileSync(p, 'utf8') }));
}
