/** Jira's size limits on what an issue holds, with Jira's texts (pure). */
import type { IssuePatch } from './store.js';
import type { SimSeed } from './types.js';

/** Description, comment and multi-line text fields (Jira's default jira.text.field.character.limit). */
export const MAX_TEXT = 32_767;
/** Single-line text fields and each label. */
export const MAX_LINE = 255;

export const tooLong = (limit: number): string => `The entered text is too long. It exceeds the allowed limit of ${limit} characters.`;

const TEXTFIELD = 'com.atlassian.jira.plugin.system.customfieldtypes:textfield';
const TEXTAREA = 'com.atlassian.jira.plugin.system.customfieldtypes:textarea';
const EPIC_NAME = 'com.pyxis.greenhopper.jira:gh-epic-label';

/** Field id → Jira's message, for every value of the patch past its limit. */
export function sizeProblems(patch: IssuePatch, seed: SimSeed): Record<string, string> {
  const errors: Record<string, string> = {};
  if (patch.description && patch.description.length > MAX_TEXT) errors.description = tooLong(MAX_TEXT);
  const long = patch.labels?.find((label) => label.length > MAX_LINE);
  if (long) errors.labels = `The label '${long.slice(0, 20)}…' exceeds the maximum length for a single label of ${MAX_LINE} characters.`;
  for (const [id, value] of Object.entries(patch.custom ?? {})) {
    if (typeof value !== 'string') continue;
    const known = seed.customFields.find((f) => f.id === id);
    const limit = id === 'environment' || known?.custom === TEXTAREA ? MAX_TEXT : known?.custom === TEXTFIELD || known?.custom === EPIC_NAME ? MAX_LINE : undefined;
    if (limit !== undefined && value.length > limit) errors[id] = tooLong(limit);
  }
  return errors;
}
