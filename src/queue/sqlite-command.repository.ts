/** The `command` table on SQLite: `params` and `result` are JSON text, read with json_extract (idx_command_temp_key's expression). */
import { raw } from '../database/index.js';
import { CommandRepository } from './command.repository.js';

export class SqliteCommandRepository extends CommandRepository {
  protected readonly tempKey = raw(`json_extract(params, '$.temp_key')`);
  protected readonly resultKey = raw(`json_extract(result, '$.key')`);
}
