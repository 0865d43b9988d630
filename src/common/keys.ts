/** Jira keys and temp keys (SPEC 4): the command catalogue's rules, in @jira-hub/contracts. */
export { isJiraKey, isTempKey, JIRA_KEY, TEMP_KEY } from '@jira-hub/contracts/catalogue';
