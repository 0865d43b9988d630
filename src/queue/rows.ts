/** Raw rows of the queue's tables (snake_case, JSON as text) and their API views (SPEC 11.3). */
import { ApiProperty, ApiPropertyOptional } from '../common/openapi.js';
import { parseJson } from '../database/json.js';
import { COMMAND_TYPES, type CommandType, type Params } from './commands/catalogue.js';
import { BATCH_SOURCES, type BatchSource } from '../common/auth.guard.js';
import type { RowOf } from '../database/row.js';
import type { BatchEntity } from './batch.entity.js';
import { COMMAND_STATUSES, type CommandEntity, type CommandStatus } from './command.entity.js';
import { DELIVERY_OUTCOMES, type DeliveryEntity, type DeliveryOutcome } from './delivery.entity.js';

/** Raw rows: the entities' columns under their database names (database/row.ts), written once. */
export type CommandRow = RowOf<CommandEntity>;
export type BatchRow = RowOf<BatchEntity>;
export type DeliveryRow = RowOf<DeliveryEntity>;

/** One handout of a command (SPEC 15.3). */
export class DeliveryView {
  @ApiProperty({ description: 'delivery number, 1..3' }) n!: number;
  @ApiProperty() handed_out_at!: string;
  @ApiProperty({ nullable: true, type: String }) agent_version!: string | null;
  @ApiProperty({
    enum: DELIVERY_OUTCOMES,
    description:
      'pending: out now; reported_done / reported_failed: the agent reported; lost: handed out again; expired: the delivery limit; ' +
      'cancelled: force-cancelled while out; confirmed_by_state: a refresh showed the result while it was out',
  })
  outcome!: DeliveryOutcome;
  @ApiProperty({ nullable: true, type: String }) reported_at!: string | null;
  @ApiProperty({ nullable: true, type: Number }) jira_calls!: number | null;
}

export function deliveryView(r: DeliveryRow): DeliveryView {
  return { n: r.n, handed_out_at: r.handed_out_at, agent_version: r.agent_version, outcome: r.outcome, reported_at: r.reported_at, jira_calls: r.jira_calls };
}

export class CommandView {
  @ApiProperty() id!: number;
  @ApiProperty() batch_id!: number;
  @ApiProperty({ description: '1-based order in the batch' }) seq!: number;
  @ApiProperty({ enum: COMMAND_TYPES }) type!: CommandType;
  @ApiProperty({ type: 'object', additionalProperties: true }) params!: Params;
  @ApiProperty({ enum: COMMAND_STATUSES }) status!: CommandStatus;
  @ApiProperty() deliveries!: number;
  @ApiProperty({ nullable: true, type: Number }) pause_seconds!: number | null;
  @ApiProperty({ nullable: true, type: String }) claimed_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) finished_at!: string | null;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) result!: unknown;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty() jira_calls!: number;
  @ApiProperty() rate_limited!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'the command this one repeats' }) retry_of!: number | null;
  @ApiProperty({ type: [DeliveryView], description: 'every handout to the agent, oldest first (SPEC 15.3)' }) history!: DeliveryView[];
}

export const BATCH_STATUSES = ['awaiting_approval', 'queued', 'running', 'done', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export class BatchSummary {
  @ApiProperty() id!: number;
  @ApiProperty() title!: string;
  @ApiProperty() author!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty({ nullable: true, type: String }) cancelled_at!: string | null;
  @ApiProperty({ enum: BATCH_SOURCES, description: 'client, assistant, or hub (auto-refresh)' }) source!: BatchSource;
  @ApiProperty({ nullable: true, type: String, description: 'set when the batch was made waiting for approval' }) awaiting_approval_since!: string | null;
  @ApiProperty({ nullable: true, type: String }) approved_by!: string | null;
  @ApiProperty({ nullable: true, type: String }) approved_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) rejected_reason!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'when it joined the queue (created, or approved); null while it waits' }) runnable_at!: string | null;
  @ApiProperty({ enum: BATCH_STATUSES }) status!: BatchStatus;
  @ApiProperty({ description: 'sum of the pacing pauses of all its commands' }) estimate_seconds!: number;
  @ApiProperty({ description: 'pauses of its unfinished commands and of every unfinished command ahead of it' }) remaining_seconds!: number;
  @ApiProperty({ example: { queued: 3, done: 2 } }) counts!: Record<CommandStatus, number>;
}

export class BatchView extends BatchSummary {
  @ApiPropertyOptional({ type: [CommandView] }) commands!: CommandView[];
}

export function commandView(r: CommandRow, history: DeliveryView[]): CommandView {
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
    result: parseJson<unknown>(r.result, null),
    error: r.error,
    jira_calls: r.jira_calls,
    rate_limited: r.rate_limited,
    retry_of: r.retry_of,
    history,
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

export function emptyCounts(): Record<CommandStatus, number> {
  return Object.fromEntries(COMMAND_STATUSES.map((s) => [s, 0])) as Record<CommandStatus, number>;
}
