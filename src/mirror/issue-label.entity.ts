import { Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One row per (label, issue) for GET /issues' label filter (schema v4, issue 14). On SQLite it is kept in
 * step with `issue.labels` by the migration's triggers, whoever writes the issue; the hub never writes it
 * directly. A SQLite `WITHOUT ROWID` table, as the migration makes it.
 */
@Entity('issue_label', { withoutRowid: true })
@Index('idx_issue_label_key', ['issueKey'])
export class IssueLabelEntity {
  @PrimaryColumn('text') label!: string;
  @PrimaryColumn('text', { name: 'issue_key' }) issueKey!: string;
}
