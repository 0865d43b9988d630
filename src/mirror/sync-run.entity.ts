import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The record of one refresh execution (SPEC 3). `command_id` references Queue's `command` (the refresh
 * command that produced it); the relation names its target by entity name, so Mirror imports nothing
 * of Queue for it. A failed command's missing keys are recorded as a run too (decision 1448: `delivery` 0).
 */
@Entity('sync_run')
@Index('idx_sync_run_started', ['startedAt'])
@Index('idx_sync_run_command', ['commandId'])
export class SyncRunEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column('text', { name: 'started_at' }) startedAt!: string;
  @Column('text', { name: 'finished_at', nullable: true }) finishedAt!: string | null;
  @Column('text') kind!: string;
  @Column('text', { nullable: true }) query!: string | null;
  @Column('integer', { name: 'command_id', nullable: true }) commandId!: number | null;
  @ManyToOne('CommandEntity', { nullable: true })
  @JoinColumn({ name: 'command_id' })
  command?: object;
  @Column('integer', { nullable: true }) issues!: number | null;
  @Column('integer', { nullable: true }) links!: number | null;
  @Column('text', { nullable: true }) missing!: string | null;
  @Column('text', { nullable: true }) error!: string | null;
  /** Schema v4: the delivery whose parts are being applied, and how many parts have been. */
  @Column('integer', { nullable: true }) delivery!: number | null;
  @Column('integer', { default: 0 }) parts!: number;
}
