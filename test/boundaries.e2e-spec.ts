/**
 * Module boundaries (issue 21, scope 5; ARCHITECTURE.md, "Import rules"). The import rules are
 * dependency-cruiser's (`.dependency-cruiser.js`, run here through its API); the table check is
 * test/support/boundaries.ts. Each rule is shown failing on a planted violation: the dependency rules on a
 * fixture tree written to a temporary folder, the table check on fixture sources.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readSources, violations, type SourceFile } from './support/boundaries.js';
import { cruiseTree, deepImports, modulesWithoutIndex, type Cruise } from './support/depcruise.js';

describe("the hub's tree", () => {
  const root = process.cwd();
  let all: string[];
  beforeAll(async () => {
    const tree = await cruiseTree(root);
    all = [...tree.errors, ...deepImports(root, tree.modules), ...modulesWithoutIndex(root), ...violations(readSources(root))];
  });

  // No tolerated violations: what a rule cannot hold for is a named exception in the config or the
  // table check, with its reason.
  it('has no violation', () => {
    if (all.length) console.log(`boundary violations:\n${all.join('\n')}`);
    expect(all).toEqual([]);
  });
});

/** A fixture tree: each rule's planted violation beside imports the rules allow. */
const FIXTURE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      baseUrl: '.',
      paths: { '@jira-hub/contracts': ['./packages/contracts/src/index.ts'], '@jira-hub/contracts/*': ['./packages/contracts/src/*.ts'] },
    },
    include: ['src', 'packages'],
  }),
  'package.json': JSON.stringify({ name: 'fixture', type: 'module', dependencies: { 'deep-lib': '1', 'mapped-lib': '1' } }),
  'node_modules/deep-lib/package.json': JSON.stringify({ name: 'deep-lib', main: 'lib/index.js' }),
  'node_modules/deep-lib/lib/index.js': 'export const a = 1;',
  'node_modules/deep-lib/lib/inner.js': 'export const b = 1;',
  'node_modules/mapped-lib/package.json': JSON.stringify({ name: 'mapped-lib', exports: { '.': './lib/index.js', './public': './lib/public.js' } }),
  'node_modules/mapped-lib/lib/index.js': 'export const a = 1;',
  'node_modules/mapped-lib/lib/public.js': 'export const b = 1;',
  'node_modules/mapped-lib/lib/hidden.js': 'export const c = 1;',
  'node_modules/catch-all/package.json': JSON.stringify({ name: 'catch-all', exports: { '.': './index.js', './*': './*' } }),
  'node_modules/catch-all/index.js': 'export const a = 1;',
  'node_modules/catch-all/driver/x.js': 'export const b = 1;',
  'packages/contracts/package.json': JSON.stringify({ name: '@jira-hub/contracts', exports: { '.': './dist/index.js', './commands': './dist/commands.js' } }),
  'packages/contracts/src/index.ts': 'export type View = { id: number };',
  'packages/contracts/src/commands.ts': 'export const COMMANDS = [];',
  'packages/contracts/src/internal.ts': 'export const secret = 1;',
  'packages/agent/src/ok.ts': "import type { View } from '@jira-hub/contracts';\nexport type V = View;",
  'packages/agent/src/into-contracts.ts': "export { secret } from '../../contracts/src/internal.js';",
  'packages/agent/src/into-hub.ts': "export { now } from '../../../src/common/index.js';",

  'src/common/index.ts': "export { now } from './clock.js';\nexport type { Source } from './auth.js';",
  'src/common/clock.ts': 'export const now = () => 0;',
  'src/common/auth.ts': "export type Source = 'ui' | 'api';",
  'src/settings/index.ts': "export { SettingsService } from './settings.service.js';",
  'src/settings/settings.service.ts': "import { now } from '../common/index.js';\nexport class SettingsService { at = now(); }",
  'src/settings/up.ts': "import { QUEUE_ENTITIES } from '../queue/index.js';\nexport const n = QUEUE_ENTITIES.length;",
  'src/mirror/index.ts': "export { MIRROR_ENTITIES } from './entities.js';",
  'src/mirror/entities.ts': "import { IssueEntity } from './issue.entity.js';\nexport const MIRROR_ENTITIES = [IssueEntity];",
  'src/mirror/issue.entity.ts': 'export class IssueEntity {}',
  'src/mirror/good.ts': "import { SettingsService } from '../settings/index.js';\nimport type { Source } from '../common/index.js';\nimport { COMMANDS } from '@jira-hub/contracts/commands';\nimport type { View } from '@jira-hub/contracts';\nimport { a } from 'deep-lib';\nimport { b } from 'mapped-lib/public';\nexport const s: [typeof SettingsService, Source?, View?] = [SettingsService];\nexport const x = [COMMANDS, a, b];",
  'src/mirror/bad-import.ts': "import { SettingsService } from '../settings/settings.service.js';\nexport const s = SettingsService;",
  'src/mirror/bad-type-import.ts': "import type { SettingsService } from '../settings/settings.service.js';\nexport type S = SettingsService;",
  'src/mirror/cycle-a.ts': "import { b } from './cycle-b.js';\nexport const a = () => b;",
  'src/mirror/cycle-b.ts': "import { a } from './cycle-a.js';\nexport const b = () => a;",
  'src/mirror/unresolvable.ts': "import { c } from 'mapped-lib/hidden';\nexport const x = c;",
  'src/mirror/deep.ts': "import { b } from 'deep-lib/lib/inner.js';\nimport { b as d } from 'catch-all/driver/x.js';\nimport { secret } from '@jira-hub/contracts/internal';\nexport const x = [b, d, secret];",
  'src/queue/index.ts': "export { QUEUE_ENTITIES } from './entities.js';",
  'src/queue/entities.ts': "import { CommandEntity } from './command.entity.js';\nexport const QUEUE_ENTITIES = [CommandEntity];",
  'src/queue/command.entity.ts': "import type { Source } from '../common/index.js';\nimport { SettingsService } from '../settings/index.js';\nexport class CommandEntity { source?: Source; s = SettingsService; }",
  'src/queue/own-index.ts': "import { QUEUE_ENTITIES } from './index.js';\nexport const n = QUEUE_ENTITIES.length;",
  'src/database/index.ts': "export { ENTITIES } from './data-source.js';",
  'src/database/data-source.ts':
    "import { MIRROR_ENTITIES } from '../mirror/entities.js';\nimport { CommandEntity } from '../queue/command.entity.js';\nimport { QUEUE_ENTITIES } from '../queue/index.js';\nexport const ENTITIES = [...MIRROR_ENTITIES, CommandEntity, ...QUEUE_ENTITIES];",
  'src/import/index.ts': "export const i = 1;",
  'src/import/into-package.ts': "export { secret } from '../../packages/contracts/src/internal.js';",
  'src/stray/x.ts': "import { now } from '../common/index.js';\nexport const x = now();",
  'src/cli.ts': "import { SettingsService } from './settings/settings.service.js';\nimport { i } from './import/index.js';\nexport const c = [SettingsService, i];",
};

describe('each dependency rule fails on its planted violation (a fixture tree)', () => {
  let dir: string;
  let fixture: Cruise;
  const rule = (name: string) => fixture.violations.filter((v) => v.startsWith(`${name}:`));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hub-boundaries-'));
    for (const [path, text] of Object.entries(FIXTURE)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    fixture = await cruiseTree(dir, ['src', 'packages/agent/src', 'packages/contracts/src']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("module-index: another module's file other than its index.ts, type-only imports too", () => {
    expect(rule('module-index')).toEqual([
      'module-index: src/mirror/bad-import.ts → src/settings/settings.service.ts',
      'module-index: src/mirror/bad-type-import.ts → src/settings/settings.service.ts',
    ]);
  });

  it('root-file-module-index: a root file of src/ past a module’s index.ts', () => {
    expect(rule('root-file-module-index')).toEqual(['root-file-module-index: src/cli.ts → src/settings/settings.service.ts']);
  });

  it("module-index-registry: the data source imports a module's entities.ts, not its entity files", () => {
    expect(rule('module-index-registry')).toEqual(['module-index-registry: src/database/data-source.ts → src/queue/command.entity.ts']);
  });

  it("own-index: a module's file importing its own index.ts", () => {
    expect(rule('own-index')).toEqual(['own-index: src/queue/own-index.ts → src/queue/index.ts']);
  });

  it('layer-*: an import up the layers, even through the index', () => {
    expect(fixture.violations.filter((v) => /^layer-(?!registry)/.test(v))).toEqual(['layer-settings: src/settings/up.ts → src/queue/index.ts']);
  });

  it('layer-registry: the data source goes up the layers to entities.ts files only', () => {
    expect(rule('layer-registry')).toEqual([
      'layer-registry: src/database/data-source.ts → src/queue/command.entity.ts',
      'layer-registry: src/database/data-source.ts → src/queue/index.ts',
    ]);
  });

  it('module-without-layer: a module folder missing from LAYERS', () => {
    expect(rule('module-without-layer')).toEqual(['module-without-layer: src/stray/x.ts → src/common/index.ts']);
  });

  it("entity-imports: an entity file importing another module than common/", () => {
    expect(rule('entity-imports')).toEqual(['entity-imports: src/queue/command.entity.ts → src/settings/index.ts']);
  });

  it('no-circular: a cycle of files', () => {
    expect(rule('no-circular')).toEqual(['no-circular: src/mirror/cycle-a.ts → src/mirror/cycle-b.ts → src/mirror/cycle-a.ts']);
  });

  it("hub-into-package-folders: the hub importing a path inside a workspace package's folders", () => {
    expect(rule('hub-into-package-folders')).toEqual(['hub-into-package-folders: src/import/into-package.ts → packages/contracts/src/internal.ts']);
  });

  it('package-into-other-package and package-into-hub: a workspace package reaching into another or into the hub', () => {
    expect(rule('package-into-other-package')).toEqual(['package-into-other-package: packages/agent/src/into-contracts.ts → packages/contracts/src/internal.ts']);
    expect(rule('package-into-hub')).toEqual(['package-into-hub: packages/agent/src/into-hub.ts → src/common/index.ts']);
  });

  it("not-to-unresolvable: a subpath the package's exports map does not declare", () => {
    expect(rule('not-to-unresolvable')).toEqual(['not-to-unresolvable: src/mirror/unresolvable.ts → mapped-lib/hidden']);
  });

  it("deep-import: a package's subpath its exports do not declare (none, a catch-all, or not listed)", () => {
    expect(deepImports(dir, fixture.modules)).toEqual([
      'deep-import: src/mirror/deep.ts → @jira-hub/contracts/internal',
      'deep-import: src/mirror/deep.ts → catch-all/driver/x.js',
      'deep-import: src/mirror/deep.ts → deep-lib/lib/inner.js',
    ]);
  });

  it('no-index: a module folder without index.ts', () => {
    expect(modulesWithoutIndex(dir)).toEqual(['no-index: src/stray']);
  });

  it('names no other violation: the allowed imports beside them pass', () => {
    const planted = /^(module-index|root-file-module-index|module-index-registry|own-index|layer-[a-z]+|module-without-layer|entity-imports|no-circular|hub-into-package-folders|package-into-[a-z-]+|not-to-unresolvable):/;
    expect(fixture.violations.filter((v) => !planted.test(v))).toEqual([]);
  });
});

describe('the table check fails on each planted violation (fixture sources)', () => {
  const file = (path: string, text: string): SourceFile => ({ path, text });
  const entities = [
    file('src/queue/command.entity.ts', "@Entity('command')\nexport class CommandEntity {}"),
    file('src/queue/batch.entity.ts', "@Entity({ name: 'batch' })\nexport class BatchEntity {}"),
    file('src/mirror/sync-run.entity.ts', "@Entity('sync_run')\nexport class SyncRunEntity { @Column() delivery!: number; }"),
    file('src/settings/setting.entity.ts', "@Entity('setting')\nexport class SettingEntity {}"),
  ];
  const check = (...files: SourceFile[]) => violations([...entities, ...files]);

  it("passes the owner's repository files, the schema-wide files, comments, columns and longer names", () => {
    expect(
      check(
        file('src/queue/command.repository.ts', "const T = 'command';\nawait m.query('SELECT * FROM command'); await m.getRepository(CommandEntity).update(1, {}); await m.query(`delete from ${T}`);"),
        file('src/queue/batch.repository.ts', 'const from = parts.join(", ");\nawait m.query(`SELECT * FROM ${from}`);'),
        file('migrations/1-Schema.ts', "await q.query('CREATE TABLE command (id integer)'); await q.query('UPDATE setting SET value = 1');"),
        file('src/database/migrate.ts', "await m.query(\"SELECT value FROM setting WHERE key = 'schema_version'\");"),
        file('src/database/from-sqlite.ts', 'for (const t of tables) await m.query(`SELECT * FROM ${t}`);'),
        file('src/mirror/sync-run.repository.ts', [
          '// UPDATE command SET status = 1 (a comment)',
          "await m.query('UPDATE sync_run SET delivery = ?, parts = 0 WHERE command_id = ?');",
          "await m.query('SELECT id, delivery FROM sync_run');",
          "const a = 'Пакет обновлён'; const b = 'update the command';",
        ].join('\n')),
      ),
    ).toEqual([]);
  });

  it("another module's table in SQL, in any case", () => {
    expect(check(file('src/mirror/sync-run.repository.ts', "await m.query('update COMMAND set status = 1');\nawait m.query('SELECT s.id FROM sync_run s JOIN Batch b ON b.id = s.batch');"))).toEqual([
      'tables  src/mirror/sync-run.repository.ts → command (queue)',
      'tables  src/mirror/sync-run.repository.ts → batch (queue)',
    ]);
  });

  it('a table name interpolated from a constant, of the file or imported', () => {
    expect(
      check(
        file('src/mirror/names.ts', "export const TABLES = { queue: 'command' } as const;\nexport const BATCH = 'batch';"),
        file('src/mirror/local.repository.ts', "const TABLE = 'command';\nawait m.query(`update ${TABLE} set status = 1`);"),
        file('src/mirror/imported.repository.ts', "import { BATCH } from './names.js';\nawait m.query(`SELECT * FROM ${BATCH}`);"),
        file('src/mirror/member.repository.ts', "import { TABLES } from './names.js';\nawait m.query(`DELETE FROM ${TABLES.queue} WHERE id = ${id}`);"),
      ),
    ).toEqual([
      'tables  src/mirror/local.repository.ts → command (queue)',
      'tables  src/mirror/imported.repository.ts → batch (queue)',
      'tables  src/mirror/member.repository.ts → command (queue)',
    ]);
  });

  it('a table name the check cannot read, outside a repository file', () => {
    expect(check(file('src/mirror/search.ts', "let from = 'issue i';\nawait m.query(`SELECT * FROM ${from} WHERE id = ${id}`);"))).toEqual(['tables  src/mirror/search.ts → ⟨dynamic⟩']);
  });

  it("another module's entity given to TypeORM: getRepository, the manager's calls, a query builder", () => {
    expect(
      check(
        file(
          'src/mirror/sync-run.repository.ts',
          "await m.getRepository(CommandEntity).update(1, {});\nawait m.update(BatchEntity, 1, {});\nawait m.createQueryBuilder().from('command', 'c').getMany();\nawait m.getRepository(SyncRunEntity).find();",
        ),
      ),
    ).toEqual([
      'entity  src/mirror/sync-run.repository.ts → CommandEntity (queue)',
      'entity  src/mirror/sync-run.repository.ts → BatchEntity (queue)',
      "entity  src/mirror/sync-run.repository.ts → 'command' (queue)",
    ]);
  });

  it('its own table outside a repository file, and SQL in a controller or a service', () => {
    expect(
      check(
        file('src/queue/batches.service.ts', "await m.query('SELECT id FROM batch');"),
        file('src/health.controller.ts', "const rows = await m.query(\"SELECT value FROM setting WHERE key = 'schema_version'\");"),
        file('src/queue/commands.service.ts', 'await m.getRepository(CommandEntity).find();'),
      ),
    ).toEqual([
      'tables  src/queue/batches.service.ts → batch (queue)',
      'sql     src/queue/batches.service.ts (SQL in a controller or a service)',
      'tables  src/health.controller.ts → setting (settings)',
      'sql     src/health.controller.ts (SQL in a controller or a service)',
      'entity  src/queue/commands.service.ts → CommandEntity (queue)',
    ]);
  });

  it('forwardRef', () => {
    expect(check(file('src/queue/queue.module.ts', "import { forwardRef } from '@nestjs/common';\n@Module({ imports: [forwardRef(() => MirrorModule)] })"))).toEqual([
      'forwardRef src/queue/queue.module.ts',
    ]);
  });
});
