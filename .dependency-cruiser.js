/**
 * The hub's import rules (ARCHITECTURE.md, "Import rules"; decision record 1400), checked by
 * dependency-cruiser: `npm run boundaries` prints the violations; `test/boundaries.e2e-spec.ts` runs the
 * same config through the API on the hub's tree and shows each rule failing on a planted violation in a
 * fixture tree. Which module's SQL may name which table is the table check's (test/support/boundaries.ts).
 *
 * A module is a folder `src/<module>/`; the root files of `src/` (app.module.ts, cli.ts, …) are `app`.
 */

/** The layers, lowest first: a module imports only from its own layer or below, so modules never form a cycle. */
export const LAYERS = [
  'common',
  'events',
  'metrics',
  'database',
  'settings',
  'mirror',
  'catalogue',
  'queue',
  'delivery',
  'agent',
  'import',
  'packages',
  'live',
  'audit',
  'mcp',
];

/**
 * The one sanctioned upward edge: the data source registers every module's tables, so it imports each
 * module's `entities.ts` (the entity classes of the tables it owns). It cannot make a cycle as long as
 * entity files import only their own module's entities and `common/` (rule `entity-imports`).
 */
export const ENTITY_REGISTRY = 'src/database/data-source.ts';

/**
 * The severity of the index rules (`module-index`, `root-file-module-index`, and test/boundaries.e2e-spec.ts's
 * check that each module folder has an index.ts). `warn` while issue 21's modules are re-cut: the index files
 * and the rewrite of the imports to them come last, in one step.
 */
export const INDEX_SEVERITY = 'warn';

const INDEX = '^src/[^/]+/index[.]ts$';
const escape = (s) => s.replace(/[.]/g, '[.]');

/** One rule per layer: nothing of a higher layer (nor the root files) is imported from below. */
const layerRules = LAYERS.map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `${layer} is below ${LAYERS.slice(i + 1).join(', ') || 'the root files'}: it imports none of them (no module cycles)`,
  severity: 'error',
  from: { path: `^src/${layer}/`, pathNot: `^${escape(ENTITY_REGISTRY)}$` },
  to: { path: [...LAYERS.slice(i + 1).map((l) => `^src/${l}/`), '^src/[^/]+[.]ts$'] },
}));

export default {
  forbidden: [
    {
      name: 'module-index',
      comment: "another module is reached through its public index.ts only (type-only imports too)",
      severity: INDEX_SEVERITY,
      from: { path: '^src/([^/]+)/', pathNot: `^${escape(ENTITY_REGISTRY)}$` },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', INDEX] },
    },
    {
      name: 'root-file-module-index',
      comment: 'the root files of src/ reach a module through its public index.ts only',
      severity: INDEX_SEVERITY,
      from: { path: '^src/[^/]+[.]ts$' },
      to: { path: '^src/[^/]+/', pathNot: INDEX },
    },
    {
      name: 'module-index-registry',
      comment: "the data source: as module-index, and it registers each module's entities.ts (the one named exception: ENTITY_REGISTRY)",
      severity: INDEX_SEVERITY,
      from: { path: `^${escape(ENTITY_REGISTRY)}$` },
      to: { path: '^src/[^/]+/', pathNot: ['^src/database/', INDEX, '^src/[^/]+/entities[.]ts$'] },
    },
    {
      name: 'own-index',
      comment: "a module's own files never import its index.ts (the index imports them: a cycle, and TDZ errors on decorated classes)",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: INDEX },
      to: { path: '^src/$1/index[.]ts$' },
    },
    ...layerRules,
    {
      name: 'layer-registry',
      comment: "the data source goes up the layers to entities.ts files only",
      severity: 'error',
      from: { path: `^${escape(ENTITY_REGISTRY)}$` },
      to: { path: [...LAYERS.slice(LAYERS.indexOf('database') + 1).map((l) => `^src/${l}/`), '^src/[^/]+[.]ts$'], pathNot: '^src/[^/]+/entities[.]ts$' },
    },
    {
      name: 'module-without-layer',
      comment: 'every module folder has a place in LAYERS',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: LAYERS.map((l) => `^src/${l}/`) },
      to: {},
    },
    {
      name: 'entity-imports',
      comment: "an entity file imports its own module's entity files and common/ only (a foreign key names another module's entity by string)",
      severity: 'error',
      from: { path: '^src/([^/]+)/(entities|[^/]+[.]entity)[.]ts$' },
      to: { path: '^src/', pathNot: ['^src/$1/(entities|[^/]+[.]entity)[.]ts$', '^src/common/'] },
    },
    {
      name: 'no-circular',
      comment: "no import cycles in the hub, inside a module either (a cycle through a decorated class is a TDZ error at start; a module's index.ts makes one easily)",
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'hub-into-package-folders',
      comment: "the hub reaches a workspace package by its name and exports (@jira-hub/contracts/…), never by a path into its folders",
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^packages/', dependencyTypesNot: ['aliased'] },
    },
    {
      name: 'package-into-other-package',
      comment: 'a workspace package reaches another one by its name and exports, never by a path into its folders',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/', pathNot: '^packages/$1/', dependencyTypesNot: ['aliased'] },
    },
    {
      name: 'package-into-hub',
      comment: 'the workspace packages import nothing of the hub',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(src|test|bench|migrations)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: "every import resolves: a subpath a package's exports map does not declare does not (see also the exports check in test/boundaries.e2e-spec.ts)",
      severity: 'error',
      from: { path: '^(src|packages/[^/]+/src)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    moduleSystems: ['es6'],
    skipAnalysisNotInRules: true,
    exclude: { path: '(^|/)dist/' },
    // type-only imports count: a type from another module comes through its index.ts as well
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    // the hub is ESM with `.js` specifiers for `.ts` files (module nodenext)
    extraExtensionsToScan: [],
  },
};
