/**
 * Module boundaries (issue 9, scope 3; ARCHITECTURE.md, "Table ownership"): no module names another
 * module's tables in SQL, imports another module's private repository file, or imports up the layers
 * (a cycle); no controller has SQL. Read from the source text (test/support/boundaries.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { readSources, sqlLiterals, violations, type SourceFile } from './support/boundaries.js';

/**
 * Today's violations that are not fixed yet, each with why. The test fails on any violation not listed
 * here, and on an entry that no longer occurs (remove it when you fix it).
 */
const KNOWN: Record<string, string> = {
  // The migration runner reads and raises `schema_version` in the migrations' own transaction, before
  // any module runs (SPEC 3.1); migrations/ write every table by design. Permanent.
  'tables  src/database/migrate.ts → setting (settings)':
    'the migration runner owns the schema as a whole',
  // `jira-hub migrate --from-sqlite` copies every table of a SQLite hub into PostgreSQL and compares the
  // row counts (issue 13): like the migration runner it works on the schema as a whole, before any module runs. Permanent.
  'tables  src/database/from-sqlite.ts → setting (settings)':
    'the SQLite → PostgreSQL copy moves every table as a whole',
  'tables  src/database/from-sqlite.ts → agent_status (agent)':
    'the SQLite → PostgreSQL copy moves every table as a whole',
  'imports src/cli.ts → src/database/from-sqlite.ts (private repository)':
    'the CLI runs the copy as its own command, with no module started',
  // Queue's claim, report and cancel transactions write agent_status (SPEC 6.2: last seen, versions,
  // current command) atomically with the command. Moving these writes to Agent makes Queue import Agent,
  // which imports Queue: it needs an Agent-status repository injected into Queue from below (scope 3).
  'tables  src/queue/agent-status.store.ts → agent_status (agent)':
    'claim/report/cancel write agent_status in the queue transaction; needs an injected Agent repository',
  // The delivery row records the agent version, falling back to the last one the agent reported.
  'tables  src/queue/delivery.store.ts → agent_status (agent)':
    'delivery falls back to the stored agent version inside the claim; goes with the entry above',
  // Notes on a temp key follow it to its Jira key (SPEC 6.5): Mirror asks Queue's ensure_issue commands.
  // Queue imports Mirror's repository too, so this is the Queue↔Mirror cycle; the resolver should be
  // passed in (noteKeyOf already takes it as a function) by a module above both.
  'layers  src/mirror/mirror.service.ts → src/queue/temp-key.store.ts (queue above mirror)':
    'Queue↔Mirror cycle through temp-key resolution of notes',
};

describe('module boundaries', () => {
  const found = violations(readSources(process.cwd()));

  it('has no violation beyond the known ones', () => {
    const fresh = found.filter((v) => !(v in KNOWN));
    if (fresh.length) console.log(`new boundary violations:\n${fresh.join('\n')}`);
    expect(fresh).toEqual([]);
  });

  it('lists no known violation that is gone (remove it from KNOWN)', () => {
    expect(Object.keys(KNOWN).filter((v) => !found.includes(v))).toEqual([]);
  });
});

describe('boundary rules (fixtures)', () => {
  const file = (path: string, text: string): SourceFile => ({ path, text });
  const repository = file('src/queue/claim.store.ts', "export const f = (m) => m.query('SELECT * FROM command WHERE id = ?', [1]);");

  it("fails on a new write to another module's table, even in a file with a known violation", () => {
    const agent = file(
      'src/agent/agent-status.service.ts',
      "await m.query(`UPDATE command SET status = 'done' WHERE id = ${id}`); await m.query('SELECT * FROM agent_status');",
    );
    const queue = file('src/queue/agent-status.store.ts', "await m.query('UPDATE agent_status SET x = 1'); await m.query('DELETE FROM sync_run');");
    const v = violations([agent, queue]);
    expect(v).toEqual([
      'tables  src/agent/agent-status.service.ts → command (queue)',
      'tables  src/queue/agent-status.store.ts → agent_status (agent)',
      'tables  src/queue/agent-status.store.ts → sync_run (mirror)',
    ]);
    expect(v.filter((x) => !(x in KNOWN))).toHaveLength(2);
  });

  it("fails on an import of another module's private repository file, not of its public one", () => {
    const mirror = file('src/mirror/mirror.store.ts', "export const g = (m) => m.query('SELECT key FROM issue');");
    const agent = file('src/agent/x.ts', "import { f } from '../queue/claim.store.js';\nimport { g } from '../mirror/mirror.store.js';");
    expect(violations([repository, mirror, agent])).toEqual(['imports src/agent/x.ts → src/queue/claim.store.ts (private repository)']);
  });

  it('fails on an import up the layers and on SQL in a controller', () => {
    const settings = file('src/settings/x.ts', "import type { CommandRow } from '../queue/rows.js';");
    const controller = file('src/health.controller.ts', "const rows = await m.query(\"SELECT value FROM setting WHERE key = 'schema_version'\");");
    expect(violations([settings, file('src/queue/rows.ts', ''), controller])).toEqual([
      'layers  src/settings/x.ts → src/queue/rows.ts (queue above settings)',
      'tables  src/health.controller.ts → setting (settings)',
      'sql-in-controller src/health.controller.ts',
    ]);
  });

  it('reads SQL from literals only: not from comments, not `command_id`, not imports', () => {
    const text = [
      '// UPDATE command SET status = 1 (a comment)',
      "import { x } from '../queue/select-update.js';",
      "const a = 'SELECT id FROM sync_run WHERE command_id = ?';",
      "const b = 'Пакет обновлён';",
    ].join('\n');
    expect(sqlLiterals(file('src/mirror/y.ts', text))).toEqual(['SELECT id FROM sync_run WHERE command_id = ?']);
    expect(violations([file('src/mirror/y.ts', text)]).filter((v) => v.startsWith('tables'))).toEqual([]);
  });

  it('reads tables in table position only: a column sharing a table name is not a table, a join or a FROM list is', () => {
    const columns = file(
      'src/mirror/y.ts',
      "await m.query('UPDATE sync_run SET delivery = ?, parts = 0 WHERE id = ?'); await m.query('SELECT id, delivery FROM sync_run');",
    );
    expect(violations([columns])).toEqual([]);
    const mirror = file(
      'src/mirror/z.ts',
      [
        "await m.query('SELECT s.delivery FROM sync_run s JOIN delivery d ON d.id = s.delivery');",
        "await m.query(`SELECT i.key FROM issue i, batch b WHERE b.id = ${id}`);",
        "await m.query('INSERT INTO command (batch_id) VALUES (1)');",
      ].join('\n'),
    );
    expect(violations([mirror])).toEqual([
      'tables  src/mirror/z.ts → batch (queue)',
      'tables  src/mirror/z.ts → command (queue)',
      'tables  src/mirror/z.ts → delivery (queue)',
    ]);
  });

  it("lets a module inject the providers another module exports, even with SQL, but not its unexported ones", () => {
    const module = file(
      'src/queue/queue.module.ts',
      "import { BatchesService } from './batches.service.js';\nimport { Hidden } from './hidden.service.js';\n@Module({ providers: [BatchesService, Hidden], exports: [BatchesService] })",
    );
    const batches = file('src/queue/batches.service.ts', "export class BatchesService { f = (m) => m.query('SELECT * FROM batch'); }");
    const hidden = file('src/queue/hidden.service.ts', "export class Hidden { f = (m) => m.query('SELECT * FROM command'); }");
    const live = file('src/live/live.service.ts', "import { BatchesService } from '../queue/batches.service.js';\nimport { Hidden } from '../queue/hidden.service.js';");
    expect(violations([module, batches, hidden, live])).toEqual(['imports src/live/live.service.ts → src/queue/hidden.service.ts (private repository)']);
  });

  it('lets the data source register each module’s entities, and keeps entity files free of other modules', () => {
    const registry = file('src/database/data-source.ts', "import { QUEUE_ENTITIES } from '../queue/entities.js';");
    const entity = file('src/mirror/sync-run.entity.ts', "import { CommandEntity } from '../queue/command.entity.js';");
    expect(violations([registry, entity])).toEqual([
      'entities src/mirror/sync-run.entity.ts → src/queue/command.entity.ts (an entity file imports its module\'s entities and common/ only)',
      'layers  src/mirror/sync-run.entity.ts → src/queue/command.entity.ts (queue above mirror)',
    ]);
  });
});
