/** Queue's command catalogue as the checks of SPEC 16.2 take it (catalogue/checks.ts sits below Queue). */
import type { CommandRules } from '../../catalogue/index.js';
import { checkTempKeys, duplicateSummaries } from './batch-rules.js';
import { checkParams, paramNames } from '@jira-hub/contracts/catalogue';
import { changesAgainstMirror } from './confirmation.js';

export const COMMAND_RULES: CommandRules = {
  checkParams,
  paramNames,
  checkTempKeys,
  duplicateSummaries,
  changes: changesAgainstMirror,
};
