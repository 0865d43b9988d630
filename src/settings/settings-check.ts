/**
 * The port through which a settings change is checked against Jira's configuration as the hub last read
 * it (the catalogue): a link type or a field the agent's start-up check would not find in Jira stops the
 * agent at its next start, and with it the whole queue. Catalogue implements this and AppModule wires it
 * (`SETTINGS_CHECK`), so Settings never imports Catalogue (which reads the settings).
 */
import type { EntityManager } from 'typeorm';
import type { FieldError } from '../common/index.js';

export const SETTINGS_CHECK = Symbol('SettingsCheck');

/** The parts of a settings change that name things in Jira. */
export interface JiraNamedSettings {
  /** settings `link_types` as they would be: word → Jira link type name */
  link_types?: Readonly<Record<string, string>>;
  /** settings `fields` as they would be: ids or Jira display names */
  fields?: readonly string[];
}

export interface SettingsCheck {
  /**
   * Each value Jira does not have, by the catalogue; none when there is no fresh catalogue to tell
   * (`maxAgeMinutes`: settings `catalogue_max_age_minutes` as the change leaves it).
   */
  problems(m: EntityManager, changed: JiraNamedSettings, maxAgeMinutes: number): Promise<FieldError[]>;
}
