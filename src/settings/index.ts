/** The settings module's public surface: what other modules import of it. */
export { DEFAULT_SETTINGS } from './defaults.js';
export type { Pacing, Settings } from './defaults.js';
export { SettingRepository } from './setting.repository.js';
export { AgentSettingsView } from './settings.dto.js';
export { SettingsModule } from './settings.module.js';
export { SettingsService } from './settings.service.js';
export { SETTINGS_CHECK } from './settings-check.js';
export type { JiraNamedSettings, SettingsCheck } from './settings-check.js';
