import { adfProblem, adfToText, isAdfDoc, textToAdf } from './adf.js';
import { SimError } from './errors.js';
import type { IssuePatch, SimStore } from './store.js';
import type { Flavor, SimCustomField, SimUser } from './types.js';

const ADF_REQUIRED = 'Operation value must be an Atlassian Document (see the Atlassian Document Format)';

/**
 * A rich-text body as the flavor expects it: Cloud (v3) takes ADF documents only,
 * DC (v2) takes plain strings only; anything else is a 400 on `field`, as in Jira.
 */
export function decodeBody(value: unknown, flavor: Flavor, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (flavor === 'cloud') {
    if (!isAdfDoc(value) || adfProblem(value)) throw new SimError(400, [], { [field]: ADF_REQUIRED });
    return adfToText(value);
  }
  if (typeof value !== 'string') throw new SimError(400, [], { [field]: `Operation value must be a string` });
  return value;
}

export function encodeBody(text: string | null, flavor: Flavor): unknown {
  if (text === null) return null;
  return flavor === 'cloud' ? textToAdf(text) : text;
}

/** Cloud identifies users by accountId only (GDPR strict mode); DC by user name. */
export function decodeUser(value: unknown, flavor: Flavor, store: SimStore, field: string): string | null {
  if (value === null) return null;
  const ref = (value ?? {}) as { accountId?: unknown; name?: unknown };
  const user = flavor === 'cloud'
    ? store.seed.users.find((u) => u.accountId === ref.accountId)
    : store.seed.users.find((u) => u.name === ref.name);
  if (!user) {
    const what = flavor === 'cloud' ? `accountId '${String(ref.accountId)}'` : `User '${String(ref.name)}'`;
    throw new SimError(400, [], { [field]: `${what} does not exist.` });
  }
  return user.accountId;
}

export function encodeUser(accountId: string | null, flavor: Flavor, store: SimStore): unknown {
  if (accountId === null) return null;
  const user = store.seed.users.find((u) => u.accountId === accountId);
  if (!user) return null;
  return flavor === 'cloud'
    ? { accountId: user.accountId, displayName: user.displayName, active: true, accountType: 'atlassian' }
    : { name: user.name, key: user.name, displayName: user.displayName, emailAddress: user.emailAddress, active: true };
}

export function currentUser(store: SimStore): SimUser {
  return store.seed.users[0]!;
}

function nameOf(value: unknown): string | null {
  if (value === null) return null;
  const ref = value as { name?: unknown; id?: unknown } | undefined;
  return typeof ref?.name === 'string' ? ref.name : null;
}

/** Decodes the `fields` of a create or edit request. Unknown fields → 400 as in Jira. */
export function decodeFields(fields: Record<string, unknown>, flavor: Flavor, store: SimStore): { project?: string; patch: IssuePatch } {
  const patch: IssuePatch = {};
  let project: string | undefined;
  const errors: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) {
    try {
      switch (field) {
        case 'project': {
          const ref = value as { key?: string; id?: string } | undefined;
          project = ref?.key ?? ref?.id;
          break;
        }
        case 'summary':
          if (typeof value !== 'string') throw new SimError(400, [], { summary: 'Operation value must be a string' });
          patch.summary = value;
          break;
        case 'description':
          patch.description = decodeBody(value, flavor, 'description');
          break;
        case 'issuetype':
          patch.issueType = nameOf(value) ?? store.seed.issueTypes[Number((value as { id?: string }).id) - 1] ?? '';
          break;
        case 'assignee':
          patch.assignee = decodeUser(value, flavor, store, 'assignee');
          break;
        case 'priority':
          patch.priority = nameOf(value);
          break;
        case 'duedate':
          if (value !== null && typeof value !== 'string') throw new SimError(400, [], { duedate: 'Operation value must be a string' });
          patch.duedate = value === '' ? null : (value as string | null);
          break;
        case 'labels':
          if (value !== null && (!Array.isArray(value) || value.some((l) => typeof l !== 'string'))) throw new SimError(400, [], { labels: 'Operation value must be an array of strings' });
          patch.labels = (value as string[] | null) ?? [];
          break;
        case 'parent': {
          const ref = value as { key?: string; id?: string } | null;
          const parent = ref === null ? null : ref?.key ?? store.listIssues().find((i) => i.id === ref?.id)?.key ?? '?';
          patch.parent = parent;
          break;
        }
        case 'environment':
          patch.custom = { ...patch.custom, environment: decodeBody(value, flavor, 'environment') };
          break;
        case 'components':
        case 'fixVersions':
        case 'versions':
          patch.custom = { ...patch.custom, [field]: decodeNamed(field, value, field === 'components' ? (store.seed.components ?? []) : (store.seed.versions ?? [])) };
          break;
        default:
          decodeCustom(field, value, flavor, store, patch);
      }
    } catch (error) {
      if (!(error instanceof SimError)) throw error;
      Object.assign(errors, error.errors);
    }
  }
  if (Object.keys(errors).length > 0) throw new SimError(400, [], errors);
  return { project, patch };
}

/** Components and versions: a list of {name} or {id} (id = 1-based position in the seed list), stored as names. */
function decodeNamed(field: string, value: unknown, known: string[]): string[] {
  if (value === null) return [];
  if (!Array.isArray(value)) throw new SimError(400, [], { [field]: 'Operation value must be an array' });
  return value.map((ref) => {
    const r = (ref ?? {}) as { name?: unknown; id?: unknown };
    if (typeof ref !== 'object' || ref === null) throw new SimError(400, [], { [field]: `Specify a valid 'id' or 'name' for ${field}` });
    const name = typeof r.name === 'string' ? r.name : known[Number(r.id) - 1];
    if (name === undefined || !known.includes(name)) throw new SimError(400, [], { [field]: `${field === 'components' ? 'Component' : 'Version'} name '${String(r.name ?? r.id)}' is not valid` });
    return name;
  });
}

function decodeCustom(field: string, value: unknown, flavor: Flavor, store: SimStore, patch: IssuePatch): void {
  const known = store.seed.customFields.find((f) => f.id === field);
  const cannotBeSet = new SimError(400, [], { [field]: `Field '${field}' cannot be set. It is not on the appropriate screen, or unknown.` });
  if (!known) throw cannotBeSet;
  if (field === store.seed.epicLinkFieldId) {
    // Data Center: the Epic Link field puts an issue into an epic (its key as a string); Cloud has `parent` for that.
    if (flavor === 'cloud') throw cannotBeSet;
    if (value === null) patch.parent = null;
    else if (typeof value !== 'string') throw new SimError(400, [], { [field]: 'Epic Link must be an issue key.' });
    else {
      const epic = store.findIssue(value);
      if (!epic) throw new SimError(400, [], { [field]: `Issue '${value}' does not exist.` });
      if (epic.issueType !== 'Epic') throw new SimError(400, [], { [field]: `Issue '${value}' is not an epic.` });
      patch.parent = epic.key;
      patch.epicLink = true;
    }
    return;
  }
  if (field === store.seed.sprintFieldId) {
    // Cloud accepts a sprint id (number) in the sprint field.
    if (value === null) patch.sprintIds = [];
    else if (typeof value === 'number' && store.findSprint(value)) patch.sprintIds = [value];
    else throw new SimError(400, [], { [field]: 'Number value expected as the Sprint id.' });
    return;
  }
  patch.custom = { ...patch.custom, [field]: decodeCustomValue(known, value, flavor, store) };
}

const TEXTAREA = 'com.atlassian.jira.plugin.system.customfieldtypes:textarea';

/** Stored option of a select field: Jira's {id, value} (rendered with `self`). */
export interface StoredOption {
  id: string;
  value: string;
}

function optionOf(known: SimCustomField, ref: unknown): StoredOption {
  const field = known.id;
  // Jira answers a bare string (or number) in a select field with a 400: it wants an option object.
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) {
    throw new SimError(400, [], { [field]: `Specify a valid 'id' or 'value' for ${known.name}` });
  }
  const o = ref as { id?: unknown; value?: unknown };
  const options = known.options ?? [];
  const index = o.id !== undefined ? options.findIndex((_, i) => optionId(known, i) === String(o.id)) : options.indexOf(String(o.value));
  if (index < 0) throw new SimError(400, [], { [field]: `Option ${o.id !== undefined ? `id '${String(o.id)}'` : `value '${String(o.value)}'`} is not valid` });
  return { id: optionId(known, index), value: options[index]! };
}

export function optionId(known: SimCustomField, index: number): string {
  return String(Number(known.id.replace(/\D/g, '')) * 10 + index);
}

/**
 * A custom value in Jira's shape, checked by the field's schema and stored flavor-neutral: options as
 * {id, value}, users by accountId, text areas as plain text (Cloud sends and gets ADF), other values as given.
 */
function decodeCustomValue(known: SimCustomField, value: unknown, flavor: Flavor, store: SimStore): unknown {
  const field = known.id;
  if (value === null) return known.type === 'array' && known.items === 'option' ? [] : null;
  switch (known.type) {
    case 'number':
      if (typeof value !== 'number') throw new SimError(400, [], { [field]: 'Operation value must be a number' });
      return value;
    case 'option':
      return optionOf(known, value);
    case 'user':
      return decodeUser(value, flavor, store, field);
    case 'date':
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new SimError(400, [], { [field]: `Error parsing date string: ${String(value)}` });
      return value;
    case 'string':
      if (known.custom === TEXTAREA) return decodeBody(value, flavor, field);
      if (typeof value !== 'string') throw new SimError(400, [], { [field]: 'Operation value must be a string' });
      return value;
    case 'array':
      if (known.items === 'option') {
        if (!Array.isArray(value)) throw new SimError(400, [], { [field]: 'Operation value must be an array of options' });
        return value.map((v) => optionOf(known, v));
      }
      if (known.items === 'user') {
        // a multi-user picker: a list of user references ({accountId} on Cloud, {name} on DC), never bare ids
        if (!Array.isArray(value)) throw new SimError(400, [], { [field]: 'Operation value must be an array of users' });
        return value.map((v) => decodeUser(v, flavor, store, field));
      }
      return value;
    default:
      return value;
  }
}

/** A stored custom value as the flavor returns it. */
export function encodeCustomValue(known: SimCustomField, stored: unknown, flavor: Flavor, store: SimStore, baseUrl: string): unknown {
  if (stored === null || stored === undefined) return null;
  const option = (o: StoredOption) => ({ self: `${baseUrl}/rest/api/${flavor === 'cloud' ? 3 : 2}/customFieldOption/${o.id}`, value: o.value, id: o.id });
  switch (known.type) {
    case 'option':
      return option(stored as StoredOption);
    case 'user':
      return encodeUser(stored as string, flavor, store);
    case 'string':
      return known.custom === TEXTAREA ? encodeBody(stored as string, flavor) : stored;
    case 'array':
      if (known.items === 'option') return (stored as StoredOption[]).length === 0 ? null : (stored as StoredOption[]).map(option);
      if (known.items === 'user') return (stored as string[]).length === 0 ? null : (stored as string[]).map((id) => encodeUser(id, flavor, store));
      return stored;
    default:
      return stored;
  }
}
