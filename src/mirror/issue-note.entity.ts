import { Column, Entity, PrimaryColumn } from 'typeorm';
import { PostgresCollation } from '../common/index.js';

/** The team's internal note about an issue, keyed by Jira key or temp key; never sent to Jira. */
@Entity('issue_note')
export class IssueNoteEntity {
  /** Ordered bytewise on both engines, as SQLite does (PostgreSQL: COLLATE "C", schema v20). */
  @PrimaryColumn('text')
  @PostgresCollation('C')
  key!: string;

  @Column('text', { name: 'fact_status', nullable: true }) factStatus!: string | null;
  @Column('text', { nullable: true }) comment!: string | null;
  @Column('text', { nullable: true }) source!: string | null;
  @Column('text', { name: 'updated_at', nullable: true }) updatedAt!: string | null;
}
