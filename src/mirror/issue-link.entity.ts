import { Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { PostgresType } from '../common/index.js';

/** A link between two mirrored issues (SPEC 3): schema v1's verbatim DDL, v2's index on the target, v4's sync mark. */
@Entity('issue_link')
@Index('idx_issue_link_target', ['targetKey'])
@Unique(['sourceKey', 'targetKey', 'linkType'])
export class IssueLinkEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column('text', { name: 'source_key' }) sourceKey!: string;
  @Column('text', { name: 'target_key' }) targetKey!: string;
  @Column('text', { name: 'link_type' }) linkType!: string;
  /** Which delivery of which sync run last reported the link (schema v4). */
  @Column('integer', { name: 'sync_mark', nullable: true })
  @PostgresType('bigint')
  syncMark!: number | null;
}
