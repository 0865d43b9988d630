import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A mirrored Jira issue (SPEC 3, 7): written only from refresh results. */
@Entity('issue')
export class IssueEntity {
  @PrimaryColumn('text')
  key!: string;

  @Column('text', { nullable: true }) summary!: string | null;
  @Column('text', { name: 'issue_type', nullable: true }) issueType!: string | null;
  @Column('text', { nullable: true }) status!: string | null;
  @Column('text', { nullable: true }) sprint!: string | null;
  @Column('text', { nullable: true }) assignee!: string | null;
  @Column('text', { nullable: true }) priority!: string | null;
  @Column('text', { nullable: true }) duedate!: string | null;
  @Column('text', { default: '[]' }) labels!: string;
  @Column('text', { default: '{}' }) fields!: string;
  @Column('text', { nullable: true }) created!: string | null;
  @Column('text', { nullable: true }) updated!: string | null;
  @Column('text', { name: 'synced_at', nullable: true }) syncedAt!: string | null;
}
