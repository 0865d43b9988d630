import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The record of one refresh execution (SPEC 3). */
@Entity('sync_run')
export class SyncRunEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column('text', { name: 'started_at' }) startedAt!: string;
  @Column('text', { name: 'finished_at', nullable: true }) finishedAt!: string | null;
  @Column('text') kind!: string;
  @Column('text', { nullable: true }) query!: string | null;
  @Column('integer', { name: 'command_id', nullable: true }) commandId!: number | null;
  @Column('integer', { nullable: true }) issues!: number | null;
  @Column('integer', { nullable: true }) links!: number | null;
  @Column('text', { nullable: true }) missing!: string | null;
  @Column('text', { nullable: true }) error!: string | null;
}
