/** The command types of SPEC 4, shared by the queue's catalogue and the pacing settings. */
import type { CommandType } from '@jira-hub/contracts';

export type { CommandType };
export const COMMAND_TYPES = ['ensure_issue', 'ensure_fields', 'ensure_status', 'ensure_link', 'ensure_sprint', 'ensure_comment', 'refresh'] as const satisfies readonly CommandType[];

/** The list names every type of the contract: a type added there and not here fails to compile. */
const everyType: [Exclude<CommandType, (typeof COMMAND_TYPES)[number]>] extends [never] ? true : never = true;
void everyType;
