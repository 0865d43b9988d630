import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One call of an AI assistant (issue 22): an MCP tool call or a REST call with the assistant's role. */
@Entity('audit')
@Index('idx_audit_batch', ['batchId', 'id'])
@Index('idx_audit_at', ['at'])
export class AuditEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column('text')
  at!: string;

  /** mcp or rest */
  @Column('text')
  channel!: string;

  @Column('text', { nullable: true })
  tool!: string | null;

  @Column('text', { nullable: true })
  route!: string | null;

  /** JSON, cut to AUDIT_ARGUMENTS_CAP characters */
  @Column('text')
  arguments!: string;

  /** ok, or the error code */
  @Column('text')
  outcome!: string;

  @Column('integer', { nullable: true })
  status!: number | null;

  @Column('text', { nullable: true })
  detail!: string | null;

  @Column('integer', { name: 'batch_id', nullable: true })
  batchId!: number | null;
}
