/** The settings as `GET /settings` answers them (SPEC 9): every key present, merged with the defaults. */
import type { ApprovalSettings, HubSettings, RevertSettings } from '@jira-hub/contracts';
import type { Pacing } from './defaults.js';

/** Seconds of pause per command type; `refresh_catalogue` is paced as `refresh`. */
export class PacingView implements Pacing {
  /** @example 180 */
  ensure_issue!: number;
  /** @example 120 */
  ensure_fields!: number;
  /** @example 120 */
  ensure_status!: number;
  /** @example 90 */
  ensure_link!: number;
  /** @example 120 */
  ensure_sprint!: number;
  /** @example 150 */
  ensure_comment!: number;
  /** @example 60 */
  refresh!: number;
  /** @example 90 */
  remove_link!: number;
  /** @example 150 */
  remove_comment!: number;
  /** @example 180 */
  delete_issue!: number;
}

export class AutoRefreshView {
  /** minutes between automatic refreshes; 0 = off */
  interval_minutes!: number;
  /** JQL of the automatic refresh, or null: none */
  jql!: string | null;
}

/** SPEC 15.2: per batch source, whether its batches wait for a person's approval. */
export class ApprovalView implements ApprovalSettings {
  assistant!: boolean;
  client!: boolean;
  hub!: boolean;
}

/** SPEC 17.2: what a revert does with the issues the reverted batch created. */
export class RevertSettingsView implements RevertSettings {
  /** the status a created issue goes to, with the label hub-reverted */
  created_issue_status!: string;
  /** delete created issues instead (delete_issue) */
  delete_created!: boolean;
}

export class SettingsView implements HubSettings {
  /** @example 1 */
  version!: number;
  pacing!: PacingView;
  /** @example {"блокирует": "Blocks"} */
  link_types!: Record<string, string>;
  fields!: string[];
  auto_refresh!: AutoRefreshView;
  backup_keep!: number;
  agent_offline_seconds!: number;
  approval!: ApprovalView;
  catalogue_max_age_minutes!: number;
  revert!: RevertSettingsView;
  audit_retention_days!: number;
}
