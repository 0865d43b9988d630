import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CommandEntity } from './command.entity.js';

/**
 * One change a command made in Jira, as the agent reported it with `done` or `failed` (SPEC 17.1, decision 1413; schema v8). JSON as
 * text in `before`, `after` and `transitions`; `delivery_id` is the handout whose report carried it.
 */
@Entity('command_change')
@Index('idx_command_change_command', ['commandId', 'seq'], { unique: true })
@Index('idx_command_change_issue', ['issueKey', 'id'])
@Index('idx_command_change_link', ['id'], { where: "what IN ('link', 'link_removed')" })
export class CommandChangeEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column('integer', { name: 'command_id' })
  commandId!: number;

  @ManyToOne(() => CommandEntity, { nullable: false })
  @JoinColumn({ name: 'command_id' })
  command?: CommandEntity;

  @Column('integer', { name: 'delivery_id', nullable: true })
  deliveryId!: number | null;

  /** Delivery's handout, named by string (entity files import only their own module's entities) */
  @ManyToOne('DeliveryEntity', { nullable: true })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: object;

  /** order of the change in the command's report, from 1 */
  @Column('integer')
  seq!: number;

  @Column('text', { name: 'issue_key', nullable: true })
  issueKey!: string | null;

  /** `field:<id>`, `status`, `sprint`, `link`, `comment`, `issue`, `link_removed`, `comment_removed`, `issue_deleted` */
  @Column('text')
  what!: string;

  @Column('text', { nullable: true })
  before!: string | null;

  @Column('text', { nullable: true })
  after!: string | null;

  @Column('text', { nullable: true })
  transitions!: string | null;

  @Column('text', { name: 'recorded_at' })
  recordedAt!: string;
}
