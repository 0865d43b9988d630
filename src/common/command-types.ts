/** The command types of SPEC 4, shared by the queue's catalogue and the pacing settings. */
export const COMMAND_TYPES = ['ensure_issue', 'ensure_fields', 'ensure_status', 'ensure_link', 'ensure_sprint', 'ensure_comment', 'refresh'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];
