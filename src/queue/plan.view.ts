/** The answer of POST /batches/plan (SPEC 15.4). */
import type { BatchSource } from '../common/index.js';
import type { CommandType, Params } from '@jira-hub/contracts/catalogue';
import type { CheckVerdict } from '@jira-hub/contracts';
import { FindingView } from '../common/index.js';
import { CatalogueStampView, CheckCountsView } from './checks.view.js';
import type { Verdict } from './commands/verdict.js';

export class ChangeView {
  /** @example 'status' */
  field!: string;
  /**
   * the mirror's value
   * @example 'To Do'
   */
  from!: unknown;
  /**
   * the command's value
   * @example 'Done'
   */
  to!: unknown;
}

export class PlannedCommandView {
  /** its seq if the batch were submitted now */
  seq!: number;
  type!: CommandType;
  /** the params as they would be stored: a link type by its Jira name, an ensure_status {to} with its route as `path` */
  params!: Params;
  /** SPEC 16.2: will_change, no_change, will_fail (see findings), unknown (the catalogue lacks what is needed or is stale: see notes) */
  check!: CheckVerdict;
  findings!: FindingView[];
  /**
   * what the checks did or could not judge
   * @example ['тип связи «блокирует» записан как «Blocks»']
   */
  notes!: string[];
  /** the refresh the hub appends to every batch with writes */
  tail_refresh!: boolean;
  /** holds: the mirror already shows the result (a refresh would confirm it); would_change: see changes; unknown_key: the mirror lacks a key (run a refresh); cannot_judge: see why */
  verdict!: Verdict;
  changes!: ChangeView[];
  unknown_keys!: string[];
  why!: string | null;
  /** oldest synced_at of the mirror issues behind the verdict */
  synced_at!: string | null;
  /** how old that mirror data is, in seconds */
  age_seconds!: number | null;
  /** @example 'Уже выполнено (данные зеркала 5 мин назад): агенту менять нечего.' */
  text!: string;
}

export class PlanCountsView {
  holds!: number;
  would_change!: number;
  unknown_key!: number;
  cannot_judge!: number;
}

export class PlanView {
  title!: string;
  source!: BatchSource;
  /** submitted now, the batch would wait for a person's approval (setting approval) */
  awaiting_approval!: boolean;
  /** sum of the pacing pauses of its commands, tail refresh included */
  estimate_seconds!: number;
  /** its own pauses plus those of every unfinished runnable command ahead (as if approved now) */
  remaining_seconds!: number;
  /** every command of the body (the tail refresh aside) already holds */
  all_hold!: boolean;
  /** verdicts of the commands of the body (the tail refresh aside) */
  counts!: PlanCountsView;
  /** SPEC 16.2: no finding — a submit of this body would be accepted */
  ok!: boolean;
  /** every finding of every command (1-based seq); a submit of this body answers 422 with these */
  findings!: FindingView[];
  /** the checks' verdicts of the commands of the body (the tail refresh aside) */
  checks!: CheckCountsView;
  /** the catalogue the checks read; null when the agent has not reported one (catalogue-dependent verdicts are then unknown) */
  catalogue!: CatalogueStampView | null;
  /** @example 'Из 2 команд уже выполнено 2: отправлять пакет не нужно.' */
  text!: string;
  commands!: PlannedCommandView[];
}
