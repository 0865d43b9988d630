/** Jira keys and temp keys (SPEC 4). */
export const JIRA_KEY = /^[A-Z][A-Z0-9_]*-[1-9][0-9]*$/;
export const TEMP_KEY = /^new:[1-9][0-9]*$/;

export const isJiraKey = (v: unknown): v is string => typeof v === 'string' && JIRA_KEY.test(v);
export const isTempKey = (v: unknown): v is string => typeof v === 'string' && TEMP_KEY.test(v);
