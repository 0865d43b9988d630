import type { PacedType } from '@jira-hub/contracts/catalogue';

/** Seconds of pause per command type; `refresh_catalogue` is paced as `refresh` (pacedAs in @jira-hub/contracts/catalogue). */
export type Pacing = Record<PacedType, number>;

/** Every setting of SPEC 9, with `version` (starts at 1, bumped by every change). */
export interface Settings {
  version: number;
  pacing: Pacing;
  link_types: Record<string, string>;
  fields: string[];
  auto_refresh: { interval_minutes: number; jql: string | null };
  backup_keep: number;
  agent_offline_seconds: number;
  /** SPEC 15.2: which sources' batches wait for a person's approval */
  approval: Approval;
  /** SPEC 16.1: the catalogue is refreshed (when nothing else is queued) once older than this; checks call it stale */
  catalogue_max_age_minutes: number;
  /** issue 22: days the audit of the assistant's calls keeps a call */
  audit_retention_days: number;
  /** SPEC 17.2: what a revert does with the issues the reverted batch created */
  revert: RevertSettings;
}

export interface RevertSettings {
  /** the status a created issue is moved to (with the label `hub-reverted`) */
  created_issue_status: string;
  /** delete created issues instead (when the agent's account may delete) */
  delete_created: boolean;
}

/** Per batch source (SPEC 15.1): does a batch from it wait for approval? */
export interface Approval {
  assistant: boolean;
  client: boolean;
  hub: boolean;
}

export type SettingKey = Exclude<keyof Settings, 'version'>;

export const DEFAULT_SETTINGS: Settings = {
  version: 1,
  pacing: { ensure_issue: 180, ensure_fields: 120, ensure_status: 120, ensure_link: 90, ensure_sprint: 120, ensure_comment: 150, refresh: 60, remove_link: 90, remove_comment: 150, delete_issue: 180 },
  link_types: { блокирует: 'Blocks', связанные: 'Relates', дублирует: 'Duplicate' },
  fields: [],
  auto_refresh: { interval_minutes: 0, jql: null },
  backup_keep: 20,
  agent_offline_seconds: 120,
  approval: { assistant: true, client: false, hub: false },
  catalogue_max_age_minutes: 1440,
  audit_retention_days: 90,
  revert: { created_issue_status: 'Done', delete_created: false },
};

export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS).filter((k) => k !== 'version') as SettingKey[];

/** Keys whose PATCH merges per entry instead of replacing the whole value (SPEC 9). */
export const MERGED_KEYS: readonly SettingKey[] = ['pacing', 'auto_refresh', 'approval', 'revert'];

/** Applies a partial change (pure); `version` is the caller's business. */
const definedEntries = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

export function applyPatch(current: Settings, patch: Partial<Record<SettingKey, unknown>>): Settings {
  const next: Settings = structuredClone(current);
  for (const key of SETTING_KEYS) {
    const value = patch[key];
    if (value === undefined) continue;
    // Merged keys take the entries given; an entry left out (or undefined on a DTO instance) keeps its value.
    (next as unknown as Record<string, unknown>)[key] = MERGED_KEYS.includes(key)
      ? { ...(current[key] as object), ...definedEntries(value as object) }
      : structuredClone(value);
  }
  return next;
}
