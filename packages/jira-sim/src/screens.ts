/**
 * Create, edit and transition screens of the simulated project, and what Jira refuses because of them: a
 * field not on the screen («Field 'X' cannot be set. It is not on the appropriate screen, or unknown.»),
 * a required field left out at create («Epic Name is required.»). Pure, over the seed.
 */
import { SimError } from './errors.js';
import { SYSTEM_FIELDS } from './seed.js';
import type { Flavor, SimCustomField, SimSeed } from './types.js';

/** System fields a person can set on a create screen (the rest of GET /field are read-only). */
const SETTABLE = ['summary', 'description', 'environment', 'assignee', 'reporter', 'priority', 'duedate', 'labels', 'components', 'fixVersions', 'versions'];

export const notOnScreen = (field: string): string => `Field '${field}' cannot be set. It is not on the appropriate screen, or unknown.`;

/** The custom fields a flavor has: Cloud sites have neither Epic Link (`parent` instead) nor Epic Name. */
export function customFieldsOf(seed: SimSeed, flavor: Flavor): SimCustomField[] {
  return seed.customFields.filter((f) => !(flavor === 'cloud' && (f.id === seed.epicLinkFieldId || f.id === seed.epicNameFieldId)));
}

const isSubtask = (issueType: string): boolean => issueType === 'Sub-task';

/**
 * Field ids on a screen of an issue type. Default: every settable field of the flavor; `parent` on Cloud
 * for every type and on DC for sub-tasks only; Epic Name (DC) only on the Epic's screens; create adds
 * project and issue type.
 */
export function screenFields(seed: SimSeed, flavor: Flavor, issueType: string, which: 'create' | 'edit'): string[] {
  const configured = seed.screens?.[issueType]?.[which];
  const always = which === 'create' ? ['project', 'issuetype'] : [];
  if (configured) return [...always, ...configured];
  const custom = customFieldsOf(seed, flavor).filter((f) => f.id !== seed.epicNameFieldId || issueType === 'Epic').map((f) => f.id);
  const parent = flavor === 'cloud' || isSubtask(issueType) ? ['parent'] : [];
  return [...always, ...SETTABLE, ...parent, ...custom];
}

/** Field ids required at create: summary, issue type, project; Epic Name of an Epic on DC; the seed's own. */
export function requiredAtCreate(seed: SimSeed, flavor: Flavor, issueType: string): string[] {
  const epicName = flavor === 'dc' && issueType === 'Epic' && seed.epicNameFieldId ? [seed.epicNameFieldId] : [];
  return ['project', 'issuetype', 'summary', ...epicName, ...(seed.screens?.[issueType]?.required ?? [])];
}

/** A field's name as Jira shows it (for «X is required.»). */
export function fieldName(seed: SimSeed, id: string): string {
  return SYSTEM_FIELDS.find((f) => f.id === id)?.name ?? seed.customFields.find((f) => f.id === id)?.name ?? id;
}

/** 400 for every field of `fields` not on the screen (as Jira answers: all of them at once). */
export function checkScreen(seed: SimSeed, flavor: Flavor, issueType: string, which: 'create' | 'edit', fields: Record<string, unknown>): void {
  const on = new Set(screenFields(seed, flavor, issueType, which));
  const errors: Record<string, string> = {};
  for (const field of Object.keys(fields)) if (!on.has(field)) errors[field] = notOnScreen(field);
  if (Object.keys(errors).length > 0) throw new SimError(400, [], errors);
}

/** 400 for a required field left out (or empty) at create; summary is the store's own check. */
export function checkRequired(seed: SimSeed, flavor: Flavor, issueType: string, fields: Record<string, unknown>): void {
  const errors: Record<string, string> = {};
  for (const field of requiredAtCreate(seed, flavor, issueType)) {
    if (field === 'summary' || field === 'project' || field === 'issuetype') continue;
    const value = fields[field];
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) errors[field] = `${fieldName(seed, field)} is required.`;
  }
  if (Object.keys(errors).length > 0) throw new SimError(400, [], errors);
}

/** 400 for a field of a transition's POST that its screen does not have (only `resolution` is modelled). */
export function checkTransitionScreen(required: string[], fields: Record<string, unknown>): void {
  const errors: Record<string, string> = {};
  for (const field of Object.keys(fields)) if (!required.includes(field)) errors[field] = notOnScreen(field);
  if (Object.keys(errors).length > 0) throw new SimError(400, [], errors);
}
