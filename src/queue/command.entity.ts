import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { CommandType } from '@jira-hub/contracts';
import { PostgresType, type StoredJson } from '../common/index.js';
import { BatchEntity } from './batch.entity.js';

export const COMMAND_STATUSES = ['queued', 'claimed', 'done', 'failed', 'cancelled', 'skipped', 'confirmed_by_state'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
export const TERMINAL_STATUSES: readonly CommandStatus[] = ['done', 'failed', 'cancelled', 'skipped', 'confirmed_by_state'];
export const isTerminal = (s: CommandStatus) => TERMINAL_STATUSES.includes(s);

/**
 * A command row (SPEC 3). `params` and `result` are JSON: TEXT on SQLite, `json` on PostgreSQL (jsonb from v10,
 * json from v19: the text as written, its keys in their order, decision 1431).
 * Schema v1's verbatim DDL, v2's `deliveries`/`retry_of` and queue indexes, v3's `queue_pos`, v5's
 * `idx_command_load`.
 *
 * Not declared here: `idx_command_temp_key ON command (json_extract(params, '$.temp_key'), id) WHERE
 * type = 'ensure_issue'` (on PostgreSQL `(params ->> 'temp_key'), id`). TypeORM's @Index takes column
 * names only, not an expression; the index is named with `synchronize: false`, TypeORM's documented way
 * to keep an index it cannot express out of the schema diff, so the diff neither drops nor rebuilds it.
 */
@Entity('command')
@Index('idx_command_queued', ['batchId', 'seq'], { where: "status = 'queued'" })
@Index('idx_command_claimed', ['claimedAt', 'id'], { where: "status = 'claimed'" })
@Index('idx_command_batch', ['batchId', 'seq'])
@Index('idx_command_finished', ['finishedAt'])
@Index('idx_command_runnable', ['queuePos', 'seq'], { where: "status = 'queued' AND queue_pos IS NOT NULL" })
@Index('idx_command_load', ['queuePos', 'batchId', 'type'], { where: "status = 'queued' AND queue_pos IS NOT NULL" })
@Index('idx_command_catalogue', ['id'], { where: "type = 'refresh_catalogue'" })
@Index('idx_command_failed', ['status', 'batchId'], { where: "status IN ('failed', 'skipped')" })
@Index('idx_command_retry', ['retryOf'], { where: 'retry_of IS NOT NULL' })
@Index('idx_command_temp_key', { synchronize: false })
export class CommandEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column('integer', { name: 'batch_id' })
  batchId!: number;

  @ManyToOne(() => BatchEntity, { nullable: false })
  @JoinColumn({ name: 'batch_id' })
  batch?: BatchEntity;

  @Column('integer')
  seq!: number;

  @Column('text')
  type!: CommandType;

  /** JSON text on SQLite, json on PostgreSQL (read through parseJson) */
  @Column('text')
  @PostgresType('json')
  params!: StoredJson;

  @Column('text', { default: 'queued' })
  status!: CommandStatus;

  @Column('integer', { name: 'pause_seconds', nullable: true })
  pauseSeconds!: number | null;

  @Column('text', { name: 'claimed_at', nullable: true })
  claimedAt!: string | null;

  @Column('integer', { default: 0 })
  deliveries!: number;

  @Column('text', { name: 'finished_at', nullable: true })
  finishedAt!: string | null;

  /** as params */
  @Column('text', { nullable: true })
  @PostgresType('json')
  result!: StoredJson | null;

  @Column('text', { nullable: true })
  error!: string | null;

  @Column('integer', { name: 'jira_calls', default: 0 })
  jiraCalls!: number;

  @Column('integer', { name: 'rate_limited', default: 0 })
  rateLimited!: number;

  @Column('integer', { name: 'retry_of', nullable: true })
  retryOf!: number | null;

  /** its batch's queue_pos, copied so that the next runnable command is one index probe */
  @Column('integer', { name: 'queue_pos', nullable: true })
  queuePos!: number | null;
}
