import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A mirrored Jira issue (SPEC 3, 7): written only from refresh results. Schema v4 (issue 14) adds the
 * search row id, the sync mark of parted refreshes and the indexes of GET /issues' filters; the FTS5
 * index `issue_fts` and the triggers that fill it and `issue_label` are SQLite-only and outside the
 * entities (migrations/1764633600000-MirrorSearch.ts).
 */
@Entity('issue')
@Index('idx_issue_search_id', ['searchId'], { unique: true })
@Index('idx_issue_status', ['status', 'key'])
@Index('idx_issue_sprint_status', ['sprint', 'status', 'key'])
@Index('idx_issue_assignee', ['assignee', 'key'])
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
  /** The FTS5 row id (`issue_fts.rowid`), given by a trigger on insert: stable, unlike the rowid. */
  @Column('integer', { name: 'search_id', nullable: true }) searchId!: number | null;
  /** Which delivery of which sync run last reported the issue. */
  @Column('integer', { name: 'sync_mark', nullable: true }) syncMark!: number | null;
}
