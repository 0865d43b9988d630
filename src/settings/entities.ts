import { SettingEntity } from './setting.entity.js';

/** The tables the Settings module owns (ARCHITECTURE.md, "Table ownership"). */
export const SETTINGS_ENTITIES = [SettingEntity];
