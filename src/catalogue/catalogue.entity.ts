import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The catalogue of one Jira project's configuration (SPEC 16.1), as the agent last reported it with a
 * `refresh_catalogue`: one row per project key, each part of the catalogue a JSON text column (schema v6).
 */
@Entity('catalogue')
export class CatalogueEntity {
  @PrimaryColumn('text', { name: 'project_key' })
  projectKey!: string;

  /** cloud | dc */
  @Column('text')
  flavor!: string;

  @Column('text', { name: 'agent_version', nullable: true })
  agentVersion!: string | null;

  /** when the hub stored the report */
  @Column('text', { name: 'synced_at' })
  syncedAt!: string;

  /** set when a command failed with a Jira answer naming a screen, a field or a transition (SPEC 16.1) */
  @Column('text', { name: 'stale_since', nullable: true })
  staleSince!: string | null;

  @Column('text', { name: 'stale_reason', nullable: true })
  staleReason!: string | null;

  @Column('text', { name: 'issue_types' }) issueTypes!: string;
  @Column('text') fields!: string;
  @Column('text', { name: 'per_type' }) perType!: string;
  /** workflow | observed */
  @Column('text', { name: 'transitions_source' }) transitionsSource!: string;
  @Column('text', { name: 'link_types' }) linkTypes!: string;
  @Column('text') boards!: string;
  @Column('text') sprints!: string;
  @Column('text') priorities!: string;
  @Column('text') components!: string;
  @Column('text') versions!: string;
  @Column('text') permissions!: string;
  @Column('text') assignable!: string;
  @Column('integer', { name: 'assignable_truncated', default: 0 }) assignableTruncated!: number;
}
