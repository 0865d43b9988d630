import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const COMMAND_STATUSES = ['queued', 'claimed', 'done', 'failed', 'cancelled', 'skipped', 'confirmed_by_state'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
export const TERMINAL_STATUSES: readonly CommandStatus[] = ['done', 'failed', 'cancelled', 'skipped', 'confirmed_by_state'];
export const isTerminal = (s: CommandStatus) => TERMINAL_STATUSES.includes(s);

/** A command row (SPEC 3). `params` and `result` are JSON text. */
@Entity('command')
export class CommandEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column('integer', { name: 'batch_id' })
  batchId!: number;

  @Column('integer')
  seq!: number;

  @Column('text')
  type!: string;

  @Column('text')
  params!: string;

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

  @Column('text', { nullable: true })
  result!: string | null;

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
