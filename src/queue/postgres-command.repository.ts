/** The `command` table on PostgreSQL: `params` and `result` are jsonb, read with `->>` (idx_command_temp_key's expression). */
import { raw } from '../database/index.js';
import { CommandRepository } from './command.repository.js';

export class PostgresCommandRepository extends CommandRepository {
  protected readonly tempKey = raw(`(params ->> 'temp_key')`);
  protected readonly resultKey = raw(`(result ->> 'key')`);
}
