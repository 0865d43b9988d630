import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { BatchSource } from '../common/index.js';

/** A batch (SPEC 3, 15). Schema v1's verbatim DDL plus v3's approval and queue-position columns. */
@Entity('batch')
@Index('idx_batch_created', ['createdAt', 'id'])
@Index('idx_batch_queue_pos', ['queuePos'])
@Index('idx_batch_revert_of', ['revertOf'], { where: 'revert_of IS NOT NULL' })
@Index('idx_batch_awaiting', ['id'], { where: 'awaiting_approval_since IS NOT NULL AND approved_at IS NULL AND cancelled_at IS NULL' })
export class BatchEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column('text')
  title!: string;

  @Column('text')
  author!: string;

  @Column('text', { name: 'created_at' })
  createdAt!: string;

  @Column('text', { name: 'cancelled_at', nullable: true })
  cancelledAt!: string | null;

  /** SPEC 15.1: client, assistant or hub (auto-refresh) */
  @Column('text', { default: 'client' })
  source!: BatchSource;

  /** SPEC 15.2: set when the batch was made waiting for a person's approval */
  @Column('text', { name: 'awaiting_approval_since', nullable: true })
  awaitingApprovalSince!: string | null;

  @Column('text', { name: 'approved_by', nullable: true })
  approvedBy!: string | null;

  @Column('text', { name: 'approved_at', nullable: true })
  approvedAt!: string | null;

  @Column('text', { name: 'rejected_reason', nullable: true })
  rejectedReason!: string | null;

  /** when the batch joined the queue (creation, or approval); never goes backwards */
  @Column('text', { name: 'runnable_at', nullable: true })
  runnableAt!: string | null;

  /** its place in queue order, given when it became runnable (null while it waits for approval) */
  @Column('integer', { name: 'queue_pos', nullable: true })
  queuePos!: number | null;

  /** schema v6, SPEC 16.2: the checks' verdicts and findings at submit (JSON), null for batches made before */
  @Column('text', { nullable: true })
  checks!: string | null;

  /** SPEC 17.2 (schema v8): the batch this «Откат пакета #id» reverts */
  @Column('integer', { name: 'revert_of', nullable: true })
  revertOf!: number | null;
}
