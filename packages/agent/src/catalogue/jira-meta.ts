/**
 * The Jira reads of the catalogue (SPEC 16.1) that the commands do not need: create screens (the paged
 * `createmeta/{project}/issuetypes[/{id}]` of Cloud v3 and DC v2 — Cloud pages carry `issueTypes` / `fields`,
 * DC pages `values`), edit screens (`editmeta`), statuses per issue type, components, versions, permissions,
 * assignable users, and the workflow API (Cloud, where the account may read it).
 */
import type { CatalogueScreenField, CatalogueStatus, CatalogueTransition, CatalogueUser } from '@jira-hub/contracts';
import type { JiraApi } from '../jira-api.js';
import { JiraHttpError } from '../jira-client.js';

/** Jira's FieldMetadata as createmeta and editmeta give it. */
interface FieldMetadata {
  fieldId?: string;
  key?: string;
  name?: string;
  required?: boolean;
  hasDefaultValue?: boolean;
  allowedValues?: Array<{ name?: string; value?: string; key?: string; id?: string }>;
}

interface CreateMetaType {
  id: string;
  name: string;
  subtask?: boolean;
  hierarchyLevel?: number;
}

/** Every permission key the catalogue asks GET /mypermissions about (the contracts' list). */
export const CATALOGUE_PERMISSIONS = [
  'BROWSE_PROJECTS', 'CREATE_ISSUES', 'EDIT_ISSUES', 'TRANSITION_ISSUES', 'LINK_ISSUES', 'ADD_COMMENTS', 'SCHEDULE_ISSUES',
  'ASSIGN_ISSUES', 'RESOLVE_ISSUES', 'DELETE_ISSUES', 'DELETE_OWN_COMMENTS', 'DELETE_ALL_COMMENTS',
];

/** At most this many assignable users are read (SPEC 16.1); more → the list is flagged as cut. */
export const MAX_ASSIGNABLE = 1000;
const PAGE = 50;
const MAX_PAGES = 200;

/** All items of a createmeta route, page by page (Cloud: under `name`; DC: under `values`, with isLast). */
async function createMetaPages<T>(api: JiraApi, path: string, name: string): Promise<T[]> {
  const all: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await api.client.api<Record<string, unknown> & { total?: number; isLast?: boolean }>('GET', path, { query: { startAt: all.length, maxResults: PAGE } });
    const items = ((answer[name] ?? answer.values ?? []) as T[]);
    all.push(...items);
    const last = answer.isLast === true || items.length === 0 || (answer.total !== undefined && all.length >= answer.total);
    if (last) break;
  }
  return all;
}

/** Data Center before 8.4 has no paged createmeta: the old route, read once per project (its types with their fields). */
const legacyCreateMeta = new WeakMap<JiraApi, Map<string, Array<CreateMetaType & { fields?: Record<string, FieldMetadata> }>>>();

async function legacyTypes(api: JiraApi, project: string): Promise<Array<CreateMetaType & { fields?: Record<string, FieldMetadata> }>> {
  let byProject = legacyCreateMeta.get(api);
  if (!byProject) legacyCreateMeta.set(api, (byProject = new Map()));
  let types = byProject.get(project);
  if (!types) {
    const answer = await api.client.api<{ projects?: Array<{ key?: string; issuetypes?: Array<CreateMetaType & { fields?: Record<string, FieldMetadata> }> }> }>('GET', '/issue/createmeta', {
      query: { projectKeys: project, expand: 'projects.issuetypes.fields' },
    });
    types = answer.projects?.find((p) => p.key?.toUpperCase() === project.toUpperCase())?.issuetypes ?? answer.projects?.[0]?.issuetypes ?? [];
    byProject.set(project, types);
  }
  return types;
}

/** A 404 of the paged createmeta on Data Center: a version before 8.4, which has only the old route. */
const isOldDataCenter = (api: JiraApi, error: unknown): boolean => api.flavor === 'dc' && error instanceof JiraHttpError && error.status === 404;

/** The issue types a create screen exists for (createmeta). */
export async function createMetaTypes(api: JiraApi, project: string): Promise<CreateMetaType[]> {
  try {
    return await createMetaPages<CreateMetaType>(api, `/issue/createmeta/${encodeURIComponent(project)}/issuetypes`, 'issueTypes');
  } catch (error) {
    if (!isOldDataCenter(api, error)) throw error;
    return (await legacyTypes(api, project)).map(({ id, name, subtask }) => ({ id, name, subtask }));
  }
}

/** A screen field as the catalogue keeps it: allowed values by name (priority, component, version) or value (option). */
function screenField(id: string, meta: FieldMetadata): CatalogueScreenField {
  const values = meta.allowedValues?.map((v) => v.name ?? v.value ?? v.key ?? v.id ?? '').filter(Boolean);
  return { field_id: id, name: meta.name ?? id, required: meta.required === true, has_default: meta.hasDefaultValue === true, ...(values && values.length > 0 ? { allowed_values: values } : {}) };
}

/** The create screen of an issue type. */
export async function createScreen(api: JiraApi, project: string, typeId: string): Promise<CatalogueScreenField[]> {
  const legacy = legacyCreateMeta.get(api)?.get(project);
  if (legacy) return Object.entries(legacy.find((t) => t.id === typeId)?.fields ?? {}).map(([id, meta]) => screenField(id, meta));
  const fields = await createMetaPages<FieldMetadata>(api, `/issue/createmeta/${encodeURIComponent(project)}/issuetypes/${encodeURIComponent(typeId)}`, 'fields');
  return fields.map((f) => screenField(f.fieldId ?? f.key ?? '', f));
}

/** The edit screen of an issue (its type's). */
export async function editScreen(api: JiraApi, key: string): Promise<CatalogueScreenField[]> {
  const answer = await api.client.api<{ fields?: Record<string, FieldMetadata> }>('GET', `/issue/${encodeURIComponent(key)}/editmeta`, { subject: key, issueKeys: [key] });
  return Object.entries(answer.fields ?? {}).map(([id, meta]) => screenField(id, meta));
}

/** Statuses per issue type id (GET /project/{key}/statuses). */
export async function statusesByType(api: JiraApi, project: string): Promise<Map<string, CatalogueStatus[]>> {
  const answer = await api.client.api<Array<{ id: string; statuses: Array<{ id: string; name: string; statusCategory?: { key?: string } }> }>>(
    'GET',
    `/project/${encodeURIComponent(project)}/statuses`,
    { subject: project },
  );
  return new Map(answer.map((t) => [t.id, t.statuses.map((s) => ({ id: s.id, name: s.name, category: s.statusCategory?.key ?? 'indeterminate' }))]));
}

export async function componentNames(api: JiraApi, project: string): Promise<string[]> {
  return (await api.client.api<Array<{ name: string }>>('GET', `/project/${encodeURIComponent(project)}/components`, { subject: project })).map((c) => c.name);
}

/** Versions of the project, archived ones left out (Jira refuses them on an issue). */
export async function versionNames(api: JiraApi, project: string): Promise<string[]> {
  const versions = await api.client.api<Array<{ name: string; archived?: boolean }>>('GET', `/project/${encodeURIComponent(project)}/versions`, { subject: project });
  return versions.filter((v) => !v.archived).map((v) => v.name);
}

/** The account's permissions in the project, every key of CATALOGUE_PERMISSIONS. */
export async function permissions(api: JiraApi, project: string): Promise<Record<string, boolean>> {
  const answer = await api.client.api<{ permissions: Record<string, { havePermission?: boolean }> }>('GET', '/mypermissions', {
    query: { projectKey: project, permissions: CATALOGUE_PERMISSIONS.join(',') },
  });
  return Object.fromEntries(CATALOGUE_PERMISSIONS.map((key) => [key, answer.permissions[key]?.havePermission === true]));
}

/** Users issues of the project may be assigned to, at most MAX_ASSIGNABLE (then `truncated`). */
export async function assignableUsers(api: JiraApi, project: string): Promise<{ users: CatalogueUser[]; truncated: boolean }> {
  const users: CatalogueUser[] = [];
  for (;;) {
    const page = await api.client.api<Array<{ accountId?: string; name?: string; displayName?: string }>>('GET', '/user/assignable/search', {
      query: { project, startAt: users.length, maxResults: PAGE },
    });
    for (const u of page) {
      const id = api.userId(u);
      if (id) users.push({ id, display_name: u.displayName ?? id });
    }
    if (users.length >= MAX_ASSIGNABLE) return { users: users.slice(0, MAX_ASSIGNABLE), truncated: true };
    if (page.length < PAGE) return { users, truncated: false };
  }
}

/**
 * Cloud's workflow API: the transitions per issue type id, or null when the account may not read it (403,
 * 401 on the admin routes, 404 on a site without them) — the caller then observes the transitions instead.
 */
export async function workflowTransitions(
  api: JiraApi,
  projectId: string,
  typeIds: string[],
  statusNames: Map<string, string>,
): Promise<{ transitions: Map<string, CatalogueTransition[]>; initial: Map<string, string> } | null> {
  if (api.flavor !== 'cloud') return null;
  let scheme: { values: Array<{ workflowScheme: { defaultWorkflow?: string; issueTypeMappings?: Record<string, string> } }> };
  try {
    scheme = await api.client.api('GET', '/workflowscheme/project', { query: { projectId } });
  } catch (error) {
    if (isRefusal(error)) return null;
    throw error;
  }
  const mapping = scheme.values[0]?.workflowScheme;
  if (!mapping) return null;
  const nameOf = (typeId: string): string => mapping.issueTypeMappings?.[typeId] ?? mapping.defaultWorkflow ?? 'jira';
  const byName = new Map<string, { transitions: CatalogueTransition[]; initial: string | null }>();
  for (const name of new Set(typeIds.map(nameOf))) {
    const answer = await api.client.api<{ values: WorkflowValue[]; statuses?: Array<{ id: string; name: string; statusReference?: string }> }>('GET', '/workflows/search', {
      query: { queryString: name, expand: 'values.transitions' },
    });
    const names = new Map(statusNames);
    for (const s of answer.statuses ?? []) names.set(s.statusReference ?? s.id, s.name);
    const workflow = answer.values.find((w) => w.name === name) ?? answer.values[0];
    if (workflow) byName.set(name, edgesOf(workflow, names));
  }
  const transitions = new Map<string, CatalogueTransition[]>();
  const initial = new Map<string, string>();
  for (const id of typeIds) {
    const found = byName.get(nameOf(id));
    transitions.set(id, found?.transitions ?? []);
    if (found?.initial) initial.set(id, found.initial);
  }
  return { transitions, initial };
}

interface WorkflowValue {
  name: string;
  transitions?: Array<{ id: string; name: string; type?: string; toStatusReference?: string; links?: Array<{ fromStatusReference?: string }>; transitionScreen?: unknown }>;
}

/** A workflow's edges by status name; a transition with a screen counts as requiring the resolution when it ends in done (the API lists no screen fields). */
function edgesOf(workflow: WorkflowValue, names: Map<string, string>): { transitions: CatalogueTransition[]; initial: string | null } {
  const edges: CatalogueTransition[] = [];
  let initial: string | null = null;
  for (const t of workflow.transitions ?? []) {
    const to = names.get(t.toStatusReference ?? '') ?? t.toStatusReference ?? '';
    if (t.type === 'INITIAL') {
      initial = to;
      continue;
    }
    const required = t.transitionScreen ? ['resolution'] : [];
    const froms = t.type === 'GLOBAL' || !t.links || t.links.length === 0 ? [null] : t.links.map((l) => names.get(l.fromStatusReference ?? '') ?? l.fromStatusReference ?? null);
    for (const from of froms) edges.push({ from, to, id: t.id, name: t.name, required_fields: required });
  }
  return { transitions: edges, initial };
}

/** Jira refused the account (it may not read this): not a failure of the catalogue. */
function isRefusal(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  return status === 403 || status === 404;
}
