/** The checks a batch was submitted with (SPEC 16.2), as the batch view and the dry run show them. */
import type { BatchChecks, CheckedCommand, CheckVerdict } from '@jira-hub/contracts';
import { FindingView } from '../common/index.js';

export const CHECK_VERDICTS = ['will_change', 'no_change', 'will_fail', 'unknown'] as const satisfies readonly CheckVerdict[];

/** The catalogue the checks read. */
export class CatalogueStampView {
  /** @example 'AURORA' */
  project_key!: string;
  /** @example '2026-11-30T10:00:00.000Z' */
  synced_at!: string;
  /** older than settings catalogue_max_age_minutes, or marked stale by a command Jira refused for a screen, field, transition or permission */
  stale!: boolean;
}

export class CheckedCommandView implements CheckedCommand {
  /** the command's seq, from 1 */
  seq!: number;
  /** will_change, no_change, will_fail (see findings), unknown (the catalogue lacks what is needed or is stale: see notes) */
  verdict!: CheckVerdict;
  findings!: FindingView[];
  /**
   * what the checks did or could not judge
   * @example ['тип связи «блокирует» записан как «Blocks»']
   */
  notes!: string[];
}

export class CheckCountsView {
  will_change!: number;
  no_change!: number;
  will_fail!: number;
  unknown!: number;
}

export class BatchChecksView implements BatchChecks {
  /** refuse: the batch passed every check; warn: a client stored the catalogue's findings as warnings */
  mode!: 'refuse' | 'warn';
  catalogue!: CatalogueStampView | null;
  counts!: CheckCountsView;
  /** every command of the body (the tail refresh aside) */
  commands!: CheckedCommandView[];
}
