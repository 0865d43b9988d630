/** The answer of POST /batches/{id}/revert (SPEC 17.2) and its parts. */
import type { FindingView } from '../common/index.js';
import type { RevertConflict } from './commands/revert.js';
import type { CommandDto } from './dto/create-batch.dto.js';
import type { BatchView } from './rows.js';

/** A change of the batch the revert leaves as it is (SPEC 17.2), and why. */
export class RevertConflictView implements RevertConflict {
  /** the issue (null: a change of no one issue) */
  key!: string | null;
  /** what changed: `field:<id>`, `status`, `sprint`, `link`, `comment`, `issue`, … */
  what!: string;
  /** what the batch left there */
  expected!: unknown;
  /** what the mirror shows now (absent: the mirror cannot tell) */
  actual?: unknown;
  /**
   * why it is left (Russian)
   * @example 'AURORA-1: приоритет с тех пор изменили — сейчас «Lowest», пакет оставил «High»; не откатываем'
   */
  detail!: string;
  /** not final (decision 1467): a refresh of the mirror or another batch's end would let a revert asked for again put it back */
  retry_later!: boolean;
}

/** An inverse command the checks could not judge. */
export class UncheckedCommandView {
  /** its place among the inverse commands, from 1 */
  seq!: number;
  /**
   * why (Russian)
   * @example ['переходы из «Done» типа Task ещё не наблюдались: шаг в «In Progress» не проверить']
   */
  notes!: string[];
}

/** The answer of POST /batches/{id}/revert (SPEC 17.2). */
export class RevertView {
  /** true: nothing was written */
  dry_run!: boolean;
  /** the batch reverted */
  revert_of!: number;
  /** @example 'Откат пакета #12' */
  title!: string;
  /** the inverse commands, newest change first (the tail refresh is added when the batch is made) */
  commands!: CommandDto[];
  /**
   * changes not reverted, never overwritten: the mirror no longer shows them as the batch left them, or cannot
   * yet tell (`retry_later`: refresh the mirror or wait for the batch named, then ask again; the revert itself
   * is refused while any is listed, unless `leave_pending` says to leave them)
   */
  conflicts!: RevertConflictView[];
  /** how many of the conflicts are `retry_later` (0: every conflict is final) */
  retry_later!: number;
  /**
   * the fingerprint of the `retry_later` conflicts listed here (null: none): `leave_pending=<it>` makes the revert
   * leaving exactly these, refused with 409 when the list has changed since (decision 1491)
   * @example '3f9a0c1be47d2a65'
   */
  pending_token!: string | null;
  /** SPEC 16.2: no finding — the revert batch would be accepted (the same checks as any submit) */
  ok!: boolean;
  /** every finding of the inverse commands (1-based seq): what the revert itself would answer with 422 plan_failed */
  findings!: FindingView[];
  /**
   * the inverse commands the checks could not judge (verdict unknown: no catalogue, a stale one, a route
   * back it has not seen), with why; the revert is accepted, and the agent finds out in Jira
   */
  unchecked!: UncheckedCommandView[];
  /** the new batch (null in a dry run) */
  batch!: BatchView | null;
}
