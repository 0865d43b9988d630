/** Jest in ESM mode: NestJS 12 packages are ESM-only (see README, "Stack"). */
import { GROUPS_DIR, RUN_ALONE } from './test/support/groups.js';

/** Every spec file, one by one: what jest runs when files are named (`npm test -- test/claim`). */
const EACH = ['<rootDir>/src/**/*.spec.ts', '<rootDir>/packages/*/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'];

/**
 * `npm test` with no arguments sets HUB_TEST_GROUPED=1: the same files in the groups of test/groups/,
 * each group in one module registry, and the few that need a registry of their own alone
 * (test/support/groups.js, decision record 1403).
 */
const GROUPED = [`<rootDir>/${GROUPS_DIR}/*.group.ts`, ...RUN_ALONE.map((path) => `<rootDir>/${path}`)];

/**
 * SWC transpiles each file as tsconfig.json asks (legacy decorators with their metadata, which Nest's
 * injection reads; class fields assigned, not defined), to ES modules. Types are the compiler's job
 * (npm run typecheck), not the test run's.
 */
const SWC = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // The workspace packages run from their sources (no build needed for tests), as tsconfig.json's paths say.
    '^@jira-hub/(agent|jira-sim|contracts)$': '<rootDir>/packages/$1/src/index.ts',
    '^@jira-hub/(agent|jira-sim|contracts)/(.*)$': '<rootDir>/packages/$1/src/$2.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.ts$': ['@swc/jest', SWC] },
  testMatch: process.env.HUB_TEST_GROUPED === '1' ? GROUPED : EACH,
  testTimeout: 30000,
  // A folder for the migrated template database each worker copies for its test hubs (test/support/template.ts).
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  // Jest's default is one worker fewer than the cores: one worker on these 2-core machines. The e2e
  // files spend much of their time waiting on fsync and sockets, so one per core keeps both busy.
  maxWorkers: '100%',
};
