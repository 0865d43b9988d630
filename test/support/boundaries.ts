/**
 * The table check (ARCHITECTURE.md, "Tables"): a table's name appears in SQL only in its owner module's
 * repository files (`src/<owner>/…/*.repository.ts`), and the same holds for TypeORM calls given the
 * table's entity (`getRepository(CommandEntity)`, `m.update(CommandEntity, …)`); no SQL in controllers or
 * services; no `forwardRef`. The import rules are dependency-cruiser's (.dependency-cruiser.js).
 *
 * Files are parsed with the TypeScript compiler, so comments never count as SQL. SQL is read in any case
 * (`update COMMAND set`), and a `${…}` inside it is read as the string constant it names when the file or
 * the file it imports that name from declares one (`const TABLE = 'command'`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/**
 * Files that work on the schema as a whole and may name every table: the migrations, the migration runner
 * (it reads and raises `schema_version` before any module runs), `jira-hub migrate --from-sqlite`
 * (it copies every table of a SQLite hub into PostgreSQL) and the reader that tells whose backup copies
 * a folder holds (it reads the first batch of a whole copy file and of the database itself, decision 1420). Permanent.
 */
export const SCHEMA_WIDE = ['migrations/', 'src/database/migrate.ts', 'src/database/from-sqlite.ts', 'src/database/copy-identity.ts'];

/** Tables without an entity class (kept by triggers or generated columns the migrations create), with their owner. */
export const TABLES_WITHOUT_ENTITY: Record<string, string> = { issue_fts: 'mirror' };

export interface SourceFile {
  path: string; // relative to the repository root, with forward slashes: src/queue/claim.repository.ts
  text: string;
}

/** `src/queue/x.ts` → `queue`; the root files of src/ are `app`; anything else (migrations/) has none. */
export const moduleOf = (path: string): string | undefined => {
  const m = /^src\/(?:([^/]+)\/)?[^/]+$/.exec(path) ?? /^src\/([^/]+)\//.exec(path);
  return m ? (m[1] ?? 'app') : undefined;
};

const isRepositoryOf = (path: string, module: string): boolean => path.startsWith(`src/${module}/`) && path.endsWith('.repository.ts');
const isSchemaWide = (path: string): boolean => SCHEMA_WIDE.some((s) => (s.endsWith('/') ? path.startsWith(s) : path === s));

const parsed = new WeakMap<SourceFile, ts.SourceFile>();
const parse = (file: SourceFile): ts.SourceFile => {
  let source = parsed.get(file);
  if (!source) parsed.set(file, (source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)));
  return source;
};

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

const stringOf = (node: ts.Node | undefined): string | undefined => {
  while (node && (ts.isAsExpression(node) || ts.isParenthesizedExpression(node) || ts.isSatisfiesExpression(node))) node = node.expression;
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
};

export interface Schema {
  /** table → owning module */
  owners: Record<string, string>;
  /** entity class name → its table */
  entities: Record<string, string>;
}

/** Who owns what, read from the entity classes: `@Entity('command') export class CommandEntity` in src/queue/ → queue owns `command`. */
export function schemaOf(files: SourceFile[]): Schema {
  const owners: Record<string, string> = { ...TABLES_WITHOUT_ENTITY };
  const entities: Record<string, string> = {};
  for (const file of files.filter((f) => f.path.startsWith('src/') && f.text.includes('@Entity('))) {
    walk(parse(file), (node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      for (const decorator of ts.getDecorators(node) ?? []) {
        const call = decorator.expression;
        if (!ts.isCallExpression(call) || call.expression.getText() !== 'Entity') continue;
        const [first] = call.arguments;
        let table = stringOf(first);
        if (table === undefined && first && ts.isObjectLiteralExpression(first)) {
          const name = first.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'name');
          table = name && ts.isPropertyAssignment(name) ? stringOf(name.initializer) : undefined;
        }
        if (table === undefined) continue;
        owners[table.toLowerCase()] = moduleOf(file.path)!;
        entities[node.name.text] = table.toLowerCase();
      }
    });
  }
  return { owners, entities };
}

/** The string constants a file declares (`const TABLE = 'command'`, `const T = { c: 'command' } as const` → `T.c`). */
function constantsOf(source: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  walk(source, (node) => {
    if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name) || !node.initializer) return;
    if (!(ts.getCombinedNodeFlags(node) & ts.NodeFlags.Const)) return;
    const value = stringOf(node.initializer);
    if (value !== undefined) out.set(node.name.text, value);
    let init: ts.Node = node.initializer;
    while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
    if (ts.isObjectLiteralExpression(init)) {
      for (const p of init.properties) {
        const v = ts.isPropertyAssignment(p) ? stringOf(p.initializer) : undefined;
        if (v !== undefined && p.name) out.set(`${node.name.text}.${p.name.getText()}`, v);
      }
    }
  });
  return out;
}

/** Imported name → the repository-relative file it comes from (relative specifiers only). */
function importsOf(file: SourceFile, source: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const spec = statement.moduleSpecifier.text;
    if (!spec.startsWith('.')) continue;
    const target = normalize(join(dirname(file.path), spec)).replace(/\\/g, '/').replace(/\.js$/, '.ts');
    const names = statement.importClause?.namedBindings;
    if (names && ts.isNamedImports(names)) for (const el of names.elements) out.set(el.name.text, `${target}#${(el.propertyName ?? el.name).text}`);
  }
  return out;
}

/** SQL statement shapes, in any case. A text with one of them is SQL. */
const STATEMENT = [
  /\bselect\b[\s\S]*?\bfrom\b/i,
  /\binsert\s+(?:or\s+\w+\s+)?into\b/i,
  /\bupdate\s+\S+\s+(?:\w+\s+)?set\b/i,
  /\bdelete\s+from\b/i,
  /\breplace\s+into\b/i,
  /\b(?:create|drop|alter)\s+(?:unique\s+|virtual\s+)?(?:table|index|trigger|view)\b/i,
  /\bwith\s+(?:recursive\s+)?\w+\s*(?:\([^)]*\))?\s+as\s*\(/i,
];
export const isSql = (text: string): boolean => STATEMENT.some((re) => re.test(text));

/** The placeholder for a `${…}` whose value the check cannot read. */
const DYNAMIC = '⟨dynamic⟩';

export interface SqlText {
  text: string;
  line: number;
}

/**
 * The SQL texts of a file: string and template literals that read as SQL, a template's `${…}` parts
 * replaced by the string constant they name (in the file, or imported from a relative file), else by
 * a placeholder. Not imports, not comments.
 */
export function sqlTexts(file: SourceFile, constants: (path: string) => Map<string, string> = () => new Map()): SqlText[] {
  const source = parse(file);
  const local = constantsOf(source);
  const imported = importsOf(file, source);
  /** A `${…}` as text: string constants and literals as they are, conditionals as both branches, anything else a placeholder. */
  const render = (expr: ts.Expression): string => {
    while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) expr = expr.expression;
    const literal = stringOf(expr);
    if (literal !== undefined) return literal;
    if (ts.isTemplateExpression(expr)) return expr.head.text + expr.templateSpans.map((s) => ` ${render(s.expression)} ${s.literal.text}`).join('');
    if (ts.isConditionalExpression(expr)) return ` ${render(expr.whenTrue)} ${render(expr.whenFalse)} `;
    if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken) return render(expr.left) + render(expr.right);
    if (!ts.isIdentifier(expr) && !ts.isPropertyAccessExpression(expr)) return DYNAMIC;
    const key = expr.getText(source);
    const own = local.get(key);
    if (own !== undefined) return own;
    const [head, ...rest] = key.split('.');
    const from = imported.get(head);
    const [path, name] = from?.split('#') ?? [];
    return (path && constants(path).get([name, ...rest].join('.'))) ?? DYNAMIC;
  };
  const out: SqlText[] = [];
  walk(source, (node) => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent) || ts.isTemplateExpression(node.parent)) return;
      text = node.text;
    } else if (ts.isTemplateExpression(node)) {
      text = render(node);
    }
    if (text !== undefined && isSql(text)) out.push({ text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  });
  return out;
}

/**
 * The tables a SQL text names: the words in table position — after FROM, JOIN, INTO, UPDATE or TABLE, up
 * to the next clause (so `FROM issue i, json_each(…)` names `issue`), in any case. A column that shares a
 * table's name (sync_run's `delivery`) is not a table, and `command_id` is not `command` (whole words
 * only). A `${…}` in table position that the check cannot read is reported as DYNAMIC.
 */
export function tablesNamed(sql: string, owners: Record<string, string>): string[] {
  const named = new Set<string>();
  const places = sql.matchAll(
    /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\b([^;()]*?)(?=\b(?:WHERE|ON|SET|VALUES|SELECT|ORDER|GROUP|HAVING|LIMIT|OFFSET|UNION|JOIN|LEFT|INNER|CROSS|USING|RETURNING|AS|DEFAULT|FOR|WINDOW)\b|[;()]|$)/gi,
  );
  for (const [, place] of places) {
    if (place.includes(DYNAMIC)) named.add(DYNAMIC);
    for (const word of place.match(/\w+/g) ?? []) if (word.toLowerCase() in owners) named.add(word.toLowerCase());
  }
  return [...named].sort();
}

/** Calls that take an entity class or a table name and run SQL on it (TypeORM's manager, repository and query builder). */
const TABLE_CALLS = new Set([
  'getRepository', 'InjectRepository', 'createQueryBuilder', 'insert', 'update', 'upsert', 'delete', 'softDelete', 'restore', 'save', 'remove',
  'find', 'findOne', 'findBy', 'findOneBy', 'findOneOrFail', 'findOneByOrFail', 'findAndCount', 'findAndCountBy', 'count', 'countBy',
  'exists', 'existsBy', 'increment', 'decrement', 'clear', 'sum', 'average', 'minimum', 'maximum', 'preload', 'create', 'merge',
  'from', 'into', 'innerJoin', 'leftJoin', 'innerJoinAndSelect', 'leftJoinAndSelect', 'innerJoinAndMapOne', 'leftJoinAndMapOne',
]);

/**
 * Every violation of a set of files, one line each:
 * - `tables  src/x/y.ts → command (queue)`: SQL outside the owner's repository files names the table;
 * - `tables  src/x/y.ts → ⟨dynamic⟩`: outside a repository file, a table name interpolated from a value the
 *   check cannot read (a repository may compose its SQL from parts);
 * - `entity  src/x/y.ts → CommandEntity (queue)`: a TypeORM call on the entity outside its owner's repository files;
 * - `sql     src/x/y.controller.ts (SQL in a controller or a service)`;
 * - `forwardRef src/x/y.module.ts`.
 * One line per file and finding (`sqlTexts` gives the lines).
 */
export function violations(files: SourceFile[]): string[] {
  const all = files.filter((f) => (f.path.startsWith('src/') || f.path.startsWith('migrations/')) && !f.path.endsWith('.spec.ts'));
  const { owners, entities } = schemaOf(all);
  const byPath = new Map(all.map((f) => [f.path, f]));
  const constCache = new Map<string, Map<string, string>>();
  const constants = (path: string): Map<string, string> => {
    let found = constCache.get(path);
    if (!found) {
      const file = byPath.get(path);
      found = file ? constantsOf(parse(file)) : new Map();
      constCache.set(path, found);
    }
    return found;
  };
  const out: string[] = [];
  for (const file of all) {
    if (isSchemaWide(file.path)) continue;
    const may = (module: string) => isRepositoryOf(file.path, module);
    for (const { text } of sqlTexts(file, constants)) {
      for (const table of tablesNamed(text, owners)) {
        if (table === DYNAMIC) {
          if (!file.path.endsWith('.repository.ts')) out.push(`tables  ${file.path} → ${DYNAMIC}`);
        }
        else if (!may(owners[table])) out.push(`tables  ${file.path} → ${table} (${owners[table]})`);
      }
      if (/\.(controller|service)\.ts$/.test(file.path)) out.push(`sql     ${file.path} (SQL in a controller or a service)`);
    }
    const source = parse(file);
    walk(source, (node) => {
      if (ts.isIdentifier(node) && node.text === 'forwardRef' && !ts.isImportSpecifier(node.parent)) out.push(`forwardRef ${file.path}`);
      if (!ts.isCallExpression(node)) return;
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : undefined;
      if (!name || !TABLE_CALLS.has(name)) return;
      for (const arg of node.arguments) {
        const entityTable = ts.isIdentifier(arg) ? entities[arg.text] : undefined;
        const table = entityTable ?? stringOf(arg)?.toLowerCase();
        if (!table || !(table in owners) || may(owners[table])) continue;
        out.push(`entity  ${file.path} → ${entityTable ? (arg as ts.Identifier).text : `'${table}'`} (${owners[table]})`);
      }
    });
  }
  return [...new Set(out)];
}

/** The hub's source files and migrations as they are on disk. */
export function readSources(root: string): SourceFile[] {
  const list = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []));
  return ['src', 'migrations'].flatMap((d) => list(join(root, d))).map((p) => ({ path: relative(root, p).replace(/\\/g, '/'), text: readFileSync(p, 'utf8') }));
}
