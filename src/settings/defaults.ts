import type { HubSettings } from '@jira-hub/contracts';
import type { PacedType } from '@jira-hub/contracts/catalogue';

/** Seconds of pause per command type; `refresh_catalogue` is paced as `refresh` (pacedAs in @jira-hub/contracts/catalogue). */
export type Pacing = Record<PacedType, number>;

/** Every setting of SPEC 9, with `version` (starts at 1, bumped by every change): the contract `GET /settings` answers. */
export type Settings = HubSettings;

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
