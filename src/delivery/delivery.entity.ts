import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DeliveryOutcome } from '../common/index.js';

/** One handout of a command to the agent (SPEC 15.3), written by the claim's and the report's transactions. */
@Entity('delivery')
@Index('idx_delivery_command', ['commandId', 'n'], { unique: true })
export class DeliveryEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column('integer', { name: 'command_id' })
  commandId!: number;

  /** Queue's command, named by string (entity files import only their own module's entities) */
  @ManyToOne('CommandEntity', { nullable: false })
  @JoinColumn({ name: 'command_id' })
  command?: object;

  /** 1, 2, …: the handout's number (released handouts counted, so past 3 after a release) */
  @Column('integer')
  n!: number;

  @Column('text', { name: 'handed_out_at' })
  handedOutAt!: string;

  @Column('text', { name: 'agent_version', nullable: true })
  agentVersion!: string | null;

  @Column('text', { default: 'pending' })
  outcome!: DeliveryOutcome;

  @Column('text', { name: 'reported_at', nullable: true })
  reportedAt!: string | null;

  @Column('integer', { name: 'jira_calls', nullable: true })
  jiraCalls!: number | null;
}
