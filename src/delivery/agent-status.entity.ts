import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** The single agent status row (id = 1, always present). */
@Entity('agent_status')
@Check('agent_status_single_row', 'id = 1')
export class AgentStatusEntity {
  @PrimaryColumn('integer')
  id!: number;

  @Column('text', { name: 'last_seen_at', nullable: true }) lastSeenAt!: string | null;
  @Column('text', { name: 'agent_version', nullable: true }) agentVersion!: string | null;
  @Column('integer', { name: 'settings_version', nullable: true }) settingsVersion!: number | null;
  @Column('text', { name: 'last_jira_call_at', nullable: true }) lastJiraCallAt!: string | null;
  @Column('integer', { name: 'current_command_id', nullable: true }) currentCommandId!: number | null;
}
