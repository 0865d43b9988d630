/**
 * The libraries a bundle of the hub leaves outside, loaded from node_modules at run time; why each is
 * left out is in scripts/bundle.js. Shared by that build (dist/hub/) and the tests' bundle of the
 * sources (test/support/source-bundle.js), so that a child process in a test loads what `jira-hub` loads.
 */
import { builtinModules } from 'node:module';

export const EXTERNAL_LIBRARIES = [
  /^node:/,
  ...builtinModules,
  'better-sqlite3',
  'pg',
  'pg-native',
  /^typeorm(\/|$)/,
  'swagger-ui-dist',
  'express',
  'reflect-metadata',
  /^@nestjs\/(microservices|websockets)(\/|$)/,
  '@fastify/static',
];
