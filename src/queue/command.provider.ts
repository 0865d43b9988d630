/** The engine's CommandRepository, as QueueModule provides it (ARCHITECTURE.md, "Two engines"). */
import type { Provider } from '@nestjs/common';
import type { Engine } from '../database/index.js';
import { Db } from '../database/index.js';
import { CommandRepository } from './command.repository.js';
import { PostgresCommandRepository } from './postgres-command.repository.js';
import { SqliteCommandRepository } from './sqlite-command.repository.js';

/** The `command` table's repository on `engine`. */
export function commandRepositoryFor(engine: Engine): CommandRepository {
  return engine === 'postgres' ? new PostgresCommandRepository() : new SqliteCommandRepository();
}

export const commandRepositoryProvider: Provider = {
  provide: CommandRepository,
  inject: [Db],
  useFactory: (db: Db) => commandRepositoryFor(db.engine),
};
