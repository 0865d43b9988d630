/** Jest in ESM mode: NestJS 12 packages are ESM-only (see README, "Stack"). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // The workspace packages run from their sources (no build needed for tests), as tsconfig.json's paths say.
    '^@jira-hub/(agent|jira-sim|contracts)$': '<rootDir>/packages/$1/src/index.ts',
    '^@jira-hub/(agent|jira-sim|contracts)/(.*)$': '<rootDir>/packages/$1/src/$2.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/packages/*/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 30000,
  // A folder for the migrated template database each worker copies for its test hubs (test/support/template.ts).
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  // Jest's default is one worker fewer than the cores: one worker on these 2-core machines. The e2e
  // files spend much of their time waiting on fsync and sockets, so one per core keeps both busy.
  maxWorkers: '100%',
};
