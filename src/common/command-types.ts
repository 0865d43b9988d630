/** The command types of SPEC 4, shared by the queue's catalogue and the pacing settings. */
import type { CommandType } from '@jira-hub/contracts';

export type { CommandType };
export const COMMAND_TYPES = [
  'ensure_issue',
  'ensure_fields',
  'ensure_status',
  'ensure_link',
  'ensure_sprint',
  'ensure_comment',
  'refresh',
  'refresh_catalogue',
  'remove_link',
  'remove_comment',
  'delete_issue',
] as const satisfies readonly CommandType[];

/** Types that only read Jira: a batch of nothing else gets no tail refresh (SPEC 5, 16.1). */
export const READ_TYPES: readonly CommandType[] = ['refresh', 'refresh_catalogue'];

/** The types with a pacing setting of their own; `refresh_catalogue` is paced as `refresh` (SPEC 16.1). */
export type PacedType = Exclude<CommandType, 'refresh_catalogue'>;

/** The pacing setting a command type's pause comes from. */
export const pacedAs = (type: CommandType): PacedType => (type === 'refresh_catalogue' ? 'refresh' : type);

/** The list names every type of the contract: a type added there and not here fails to compile. */
const everyType: [Exclude<CommandType, (typeof COMMAND_TYPES)[number]>] extends [never] ? true : never = true;
void everyType;
