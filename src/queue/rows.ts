/** Raw rows of the queue's tables (snake_case, JSON as text) and their API views (SPEC 11.3). */
import { parseJson } from '../database/index.js';
import type { CommandType, Params } from '@jira-hub/contracts/catalogue';
import type { BatchSource, DeliveryOutcome } from '../common/index.js';
import type { RowOf } from '../database/index.js';
import type { BatchEntity } from './batch.entity.js';
import { COMMAND_STATUSES, type CommandEntity, type CommandStatus } from './command.entity.js';
import type { BatchChecksView } from './checks.view.js';
import { RecordedChangeView } from './change.view.js';
import type { Batch, BatchCommand, BatchSummary as BatchSummaryContract, CommandDelivery } from '@jira-hub/contracts';

/** Raw rows: the entities' columns under their database names (database/row.ts), written once. */
export type CommandRow = RowOf<CommandEntity>;
export type BatchRow = RowOf<BatchEntity>;

/** One handout of a command (SPEC 15.3). */
export class DeliveryView implements CommandDelivery {
  /** delivery number, 1, 2, … (released handouts counted too) */
  n!: number;
  handed_out_at!: string;
  agent_version!: string | null;
  /** pending: out now; reported_done / reported_failed: the agent reported; released: Jira refused the agent's credentials, the command went back to the queue (not counted, SPEC 16.3); lost: handed out again; expired: the delivery limit; cancelled: force-cancelled while out; confirmed_by_state: a refresh showed the result while it was out */
  outcome!: DeliveryOutcome;
  reported_at!: string | null;
  jira_calls!: number | null;
}


export class CommandView implements BatchCommand {
  id!: number;
  batch_id!: number;
  /** 1-based order in the batch */
  seq!: number;
  type!: CommandType;
  params!: Params;
  status!: CommandStatus;
  deliveries!: number;
  pause_seconds!: number | null;
  claimed_at!: string | null;
  finished_at!: string | null;
  result!: Record<string, unknown> | null;
  error!: string | null;
  jira_calls!: number;
  rate_limited!: number;
  /** the command this one repeats */
  retry_of!: number | null;
  /** every handout to the agent, oldest first (SPEC 15.3) */
  history!: DeliveryView[];
  /** what it changed in Jira, as the agent reported it with `done`, or with `failed` for what it made before the failure (SPEC 17.1, decision 1413) */
  changes!: RecordedChangeView[];
}

export const BATCH_STATUSES = ['awaiting_approval', 'queued', 'running', 'done', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** A batch's status in words for people (CLI, MCP answers, API texts). */
export const BATCH_STATUS_WORDS: Record<BatchStatus, string> = {
  awaiting_approval: 'ждёт одобрения человека',
  queued: 'в очереди',
  running: 'выполняется',
  done: 'завершён',
  cancelled: 'отменён',
};

export class BatchSummary implements BatchSummaryContract {
  id!: number;
  title!: string;
  author!: string;
  created_at!: string;
  cancelled_at!: string | null;
  /** client, assistant, or hub (auto-refresh) */
  source!: BatchSource;
  /** set when the batch was made waiting for approval */
  awaiting_approval_since!: string | null;
  approved_by!: string | null;
  approved_at!: string | null;
  rejected_reason!: string | null;
  /** when it joined the queue (created, or approved); null while it waits */
  runnable_at!: string | null;
  status!: BatchStatus;
  /** sum of the pacing pauses of all its commands */
  estimate_seconds!: number;
  /** pauses of its unfinished commands and of every unfinished command ahead of it */
  remaining_seconds!: number;
  /** @example {"queued": 3, "done": 2} */
  counts!: Record<CommandStatus, number>;
  /** SPEC 17.2: the batch this one reverts («Откат пакета #id») */
  revert_of!: number | null;
}

export class BatchView extends BatchSummary implements Batch {
  /** SPEC 16.2: the verdict of each command at submit, `unknown` ones and stored warnings included; null for batches of the hub itself and of earlier hubs */
  checks!: BatchChecksView | null;
  /**
   * SPEC 17.1: what this batch did to Jira, by issue key, in the order it happened
   * @example {"AURORA-1": [{"key": "AURORA-1", "what": "field:duedate", "before": null, "after": "2026-12-20", "command_id": 7, "delivery_n": 1, "recorded_at": "2026-12-02T10:00:00.000Z"}]}
   */
  changes!: Record<string, RecordedChangeView[]>;
  commands!: CommandView[];
}

export function commandView(r: CommandRow, history: DeliveryView[], changes: RecordedChangeView[] = []): CommandView {
  return {
    id: r.id,
    batch_id: r.batch_id,
    seq: r.seq,
    type: r.type,
    params: parseJson<Params>(r.params, {}),
    status: r.status,
    deliveries: r.deliveries,
    pause_seconds: r.pause_seconds,
    claimed_at: r.claimed_at,
    finished_at: r.finished_at,
    result: parseJson<Record<string, unknown> | null>(r.result, null),
    error: r.error,
    jira_calls: r.jira_calls,
    rate_limited: r.rate_limited,
    retry_of: r.retry_of,
    history,
    changes,
  };
}

/** Waiting for a person: made so, not yet approved, not cancelled (rejected). */
export const isAwaiting = (b: Pick<BatchRow, 'awaiting_approval_since' | 'approved_at' | 'cancelled_at'>): boolean =>
  b.awaiting_approval_since !== null && b.approved_at === null && b.cancelled_at === null;

/** SPEC 6.8: derived, never stored. */
export function batchStatus(batch: Pick<BatchRow, 'awaiting_approval_since' | 'approved_at' | 'cancelled_at'>, counts: Record<CommandStatus, number>): BatchStatus {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (isAwaiting(batch)) return 'awaiting_approval';
  if (batch.cancelled_at && counts.claimed === 0) return 'cancelled';
  if (counts.queued === total) return 'queued';
  if (counts.queued === 0 && counts.claimed === 0) return 'done';
  return 'running';
}

/** Done, with a failed or skipped command: what GET /batches/counts counts as `done_with_errors` and GET /batches filters by. */
export function isDoneWithErrors(status: BatchStatus, counts: Record<CommandStatus, number>): boolean {
  return status === 'done' && counts.failed + counts.skipped > 0;
}

/** The filters of GET /batches and the list_batches tool: a batch status, or `done_with_errors` (isDoneWithErrors). */
export const BATCH_FILTERS = [...BATCH_STATUSES, 'done_with_errors'] as const;
export type BatchFilter = (typeof BATCH_FILTERS)[number];

/** Whether a batch of this status and these command counts passes a filter of GET /batches. */
export function passesFilter(filter: BatchFilter, status: BatchStatus, counts: Record<CommandStatus, number>): boolean {
  return filter === 'done_with_errors' ? isDoneWithErrors(status, counts) : status === filter;
}

export function emptyCounts(): Record<CommandStatus, number> {
  return Object.fromEntries(COMMAND_STATUSES.map((s) => [s, 0])) as Record<CommandStatus, number>;
}
