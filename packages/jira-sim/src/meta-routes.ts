/**
 * What Jira tells about a project's configuration, as the OpenAPI descriptions (Cloud v3) and the DC v2
 * documentation say: create screens (paged createmeta per issue type), edit screens (editmeta), the statuses
 * per issue type, components, versions, assignable users, and the workflow routes (403 unless the seed lets
 * the account read workflows, as on most sites only administrators may).
 */
import { encodeUser, optionId } from './codec.js';
import { SimError } from './errors.js';
import type { Route, RouteRequest, RouteResponse } from './routes.js';
import { requiredAtCreate, screenFields } from './screens.js';
import { SYSTEM_FIELDS } from './seed.js';
import type { SimProject, SimSeed, StoredIssue } from './types.js';
import { allStatuses, renderStatusCategory, statusCategory, statusId, workflowOf } from './workflow.js';

const API = String.raw`/rest/api/(?:2|3)`;
const ok = (body: unknown): RouteResponse => ({ status: 200, body });
const base = (req: RouteRequest): string => `${req.baseUrl}/rest/api/${req.flavor === 'cloud' ? 3 : 2}`;

function projectOf(req: RouteRequest, wanted: string): SimProject {
  const project = req.store.seed.projects.find((p) => p.key === wanted.toUpperCase() || p.id === wanted);
  if (!project) throw new SimError(404, [`No project could be found with key '${wanted}'.`]);
  return project;
}

function page(req: RouteRequest): { startAt: number; maxResults: number } {
  const startAt = Math.max(0, Number(req.query.startAt ?? 0) || 0);
  const asked = req.query.maxResults === undefined ? 50 : Number(req.query.maxResults);
  return { startAt, maxResults: Math.min(Math.max(Number.isFinite(asked) ? asked : 50, 0), req.maxPageSize) };
}

const typeId = (seed: SimSeed, name: string): string => String(seed.issueTypes.indexOf(name) + 1);

function issueTypeView(req: RouteRequest, name: string): Record<string, unknown> {
  const id = typeId(req.store.seed, name);
  return {
    self: `${base(req)}/issuetype/${id}`,
    id,
    description: '',
    iconUrl: `${req.baseUrl}/images/icons/issuetypes/${name.toLowerCase()}.png`,
    name,
    subtask: name === 'Sub-task',
    ...(req.flavor === 'cloud' ? { hierarchyLevel: name === 'Sub-task' ? -1 : name === 'Epic' ? 1 : 0 } : {}),
  };
}

/** The values Jira lists for a field on a screen of `project` (priorities of its scheme, options, …). */
function allowedValues(req: RouteRequest, fieldId: string, project: SimProject): unknown[] | undefined {
  const seed = req.store.seed;
  const named = (names: string[], kind: string) => names.map((name, i) => ({ self: `${base(req)}/${kind}/${i + 1}`, id: String(i + 1), name }));
  switch (fieldId) {
    case 'priority': return named(project.priorities ?? seed.priorities, 'priority');
    case 'components': return named(seed.components ?? [], 'component');
    case 'fixVersions':
    case 'versions': return (seed.versions ?? []).map((name, i) => ({ self: `${base(req)}/version/${i + 1}`, id: String(i + 1), name, archived: false, released: false, projectId: Number(project.id) }));
    case 'issuetype': return seed.issueTypes.map((name) => issueTypeView(req, name));
    case 'project': return [{ self: `${base(req)}/project/${project.id}`, id: project.id, key: project.key, name: project.name }];
    default: {
      const known = seed.customFields.find((f) => f.id === fieldId);
      if (!known?.options) return undefined;
      return known.options.map((value, i) => ({ self: `${base(req)}/customFieldOption/${optionId(known, i)}`, value, id: optionId(known, i) }));
    }
  }
}

/** One field of a screen: Jira's FieldMetadata (with `fieldId` in the paged createmeta). */
function fieldMetadata(req: RouteRequest, fieldId: string, project: SimProject, required: boolean, withFieldId: boolean): Record<string, unknown> {
  const seed = req.store.seed;
  const system = SYSTEM_FIELDS.find((f) => f.id === fieldId);
  const custom = seed.customFields.find((f) => f.id === fieldId);
  const schema = system
    ? system.schema
    : { type: custom?.type ?? 'string', ...(custom?.items ? { items: custom.items } : {}), custom: custom?.custom, customId: Number(fieldId.replace(/\D/g, '')) };
  const values = allowedValues(req, fieldId, project);
  return {
    required,
    schema,
    name: system?.name ?? custom?.name ?? fieldId,
    ...(withFieldId ? { fieldId } : {}),
    key: fieldId,
    hasDefaultValue: fieldId === 'priority',
    operations: fieldId === 'labels' || fieldId === 'components' ? ['add', 'set', 'remove'] : ['set'],
    ...(values ? { allowedValues: values } : {}),
    ...(fieldId === 'priority' ? { defaultValue: { name: seed.defaultPriority } } : {}),
  };
}

/** Cloud pages carry their items under `name`; DC's v2 pages under `values`, with isLast. */
function pageOf(req: RouteRequest, name: string, all: unknown[]): RouteResponse {
  const { startAt, maxResults } = page(req);
  const items = all.slice(startAt, startAt + maxResults);
  if (req.flavor === 'cloud') return ok({ [name]: items, maxResults, startAt, total: all.length });
  return ok({ maxResults, startAt, total: all.length, isLast: startAt + items.length >= all.length, values: items });
}

const statusView = (req: RouteRequest, name: string): Record<string, unknown> => ({
  self: `${base(req)}/status/${statusId(req.store.seed, name)}`,
  description: '',
  iconUrl: `${req.baseUrl}/images/icons/statuses/generic.png`,
  name,
  id: statusId(req.store.seed, name),
  statusCategory: renderStatusCategory(req.store.seed, name, base(req)),
});

function issueOf(req: RouteRequest, keyOrId: string): StoredIssue {
  const issue = req.store.findIssue(keyOrId) ?? req.store.findIssueById(keyOrId);
  if (!issue) throw new SimError(404, ['Issue does not exist or you do not have permission to see it.']);
  return issue;
}

const WORKFLOW_CATEGORY = { new: 'TODO', indeterminate: 'IN_PROGRESS', done: 'DONE' } as const;

function requireWorkflowAccess(req: RouteRequest): void {
  if (!req.store.seed.workflowsReadable) throw new SimError(403, ['You are not authorized to perform this action. Administrator privileges are required.']);
}

/** The workflow name of an issue type: its own, else the default one. */
const workflowName = (seed: SimSeed, issueType: string): string => (seed.workflows?.[issueType] ? `${issueType} workflow` : 'Default workflow');

/** A DC site before 8.4 (seed `legacyCreateMeta`) has no paged createmeta. */
function requirePagedCreateMeta(req: RouteRequest): void {
  if (req.flavor === 'dc' && req.store.seed.legacyCreateMeta) throw new SimError(404, [`null for uri: ${req.baseUrl}/rest/api/2/issue/createmeta/${req.params.join('/')}`]);
}

export const metaRoutes: Route[] = [
  {
    // The old createmeta (deprecated; Data Center before 8.4 has only this one): projects → issue types → fields.
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/createmeta$`),
    handler: (req) => {
      const keys = (req.query.projectKeys ?? '').split(',').filter(Boolean);
      const withFields = (req.query.expand ?? '').includes('projects.issuetypes.fields');
      const projects = req.store.seed.projects.filter((p) => keys.length === 0 || keys.includes(p.key));
      return ok({
        expand: 'projects',
        projects: projects.map((project) => ({
          self: `${base(req)}/project/${project.id}`,
          id: project.id,
          key: project.key,
          name: project.name,
          issuetypes: req.store.seed.issueTypes.map((type) => {
            const required = new Set(requiredAtCreate(req.store.seed, req.flavor, type));
            const fields = Object.fromEntries(screenFields(req.store.seed, req.flavor, type, 'create').map((id) => [id, fieldMetadata(req, id, project, required.has(id), false)]));
            return { ...issueTypeView(req, type), ...(withFields ? { fields } : {}) };
          }),
        })),
      });
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/createmeta/([^/]+)/issuetypes$`),
    handler: (req) => {
      requirePagedCreateMeta(req);
      projectOf(req, decodeURIComponent(req.params[0]!));
      return pageOf(req, 'issueTypes', req.store.seed.issueTypes.map((name) => issueTypeView(req, name)));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/createmeta/([^/]+)/issuetypes/([^/]+)$`),
    handler: (req) => {
      requirePagedCreateMeta(req);
      const project = projectOf(req, decodeURIComponent(req.params[0]!));
      const type = req.store.seed.issueTypes[Number(req.params[1]) - 1];
      if (!type) throw new SimError(404, ['Issue type with id ' + req.params[1] + ' not found.']);
      const required = new Set(requiredAtCreate(req.store.seed, req.flavor, type));
      const fields = screenFields(req.store.seed, req.flavor, type, 'create').map((id) => fieldMetadata(req, id, project, required.has(id), true));
      return pageOf(req, 'fields', fields);
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/([^/]+)/editmeta$`),
    handler: (req) => {
      const issue = issueOf(req, decodeURIComponent(req.params[0]!));
      const project = projectOf(req, issue.projectKey);
      const fields = Object.fromEntries(screenFields(req.store.seed, req.flavor, issue.issueType, 'edit').map((id) => [id, fieldMetadata(req, id, project, id === 'summary', false)]));
      return ok({ fields });
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/project/([^/]+)/statuses$`),
    handler: (req) => {
      projectOf(req, decodeURIComponent(req.params[0]!));
      const seed = req.store.seed;
      return ok(
        seed.issueTypes.map((name) => ({
          self: `${base(req)}/issueType/${typeId(seed, name)}`,
          id: typeId(seed, name),
          name,
          subtask: name === 'Sub-task',
          statuses: workflowOf(seed, name).statuses.map((status) => statusView(req, status)),
        })),
      );
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/project/([^/]+)/components$`),
    handler: (req) => {
      const project = projectOf(req, decodeURIComponent(req.params[0]!));
      return ok((req.store.seed.components ?? []).map((name, i) => ({ self: `${base(req)}/component/${i + 1}`, id: String(i + 1), name, description: '', project: project.key, projectId: Number(project.id) })));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/project/([^/]+)/versions$`),
    handler: (req) => {
      const project = projectOf(req, decodeURIComponent(req.params[0]!));
      return ok((req.store.seed.versions ?? []).map((name, i) => ({ self: `${base(req)}/version/${i + 1}`, id: String(i + 1), name, archived: false, released: false, projectId: Number(project.id) })));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/user/assignable/search$`),
    handler: (req) => {
      if (!req.query.project && !req.query.issueKey) throw new SimError(400, ['Either the project or issueKey parameter must be provided.']);
      if (req.query.project) projectOf(req, req.query.project);
      const seed = req.store.seed;
      const users = seed.users.filter((u) => !seed.assignable || seed.assignable.includes(u.accountId));
      const { startAt, maxResults } = page(req);
      return ok(users.slice(startAt, startAt + maxResults).map((u) => encodeUser(u.accountId, req.flavor, req.store)));
    },
  },
  {
    method: 'GET',
    pattern: /^\/rest\/api\/3\/workflowscheme\/project$/,
    flavor: 'cloud',
    handler: (req) => {
      requireWorkflowAccess(req);
      const seed = req.store.seed;
      const ids = (req.query.projectId ?? '').split(',').filter(Boolean);
      const mappings = Object.fromEntries(Object.keys(seed.workflows ?? {}).map((type) => [typeId(seed, type), workflowName(seed, type)]));
      return ok({ values: [{ projectIds: ids, workflowScheme: { id: 10100, name: 'Project workflow scheme', description: '', defaultWorkflow: 'Default workflow', issueTypeMappings: mappings, self: `${base(req)}/workflowscheme/10100` } }] });
    },
  },
  {
    method: 'GET',
    pattern: /^\/rest\/api\/3\/workflows\/search$/,
    flavor: 'cloud',
    handler: (req) => {
      requireWorkflowAccess(req);
      const seed = req.store.seed;
      const named = [['Default workflow', workflowOf(seed, '')] as const, ...Object.keys(seed.workflows ?? {}).map((type) => [workflowName(seed, type), workflowOf(seed, type)] as const)];
      const wanted = req.query.queryString?.toLowerCase();
      const values = named
        .filter(([name]) => !wanted || name.toLowerCase().includes(wanted))
        .map(([name, workflow], i) => ({
          id: `00000000-0000-0000-0000-00000000000${i + 1}`,
          name,
          description: '',
          scope: { type: 'GLOBAL' },
          isEditable: true,
          statuses: workflow.statuses.map((status) => ({ statusReference: statusId(seed, status), deprecated: false, properties: {} })),
          transitions: [
            { id: '1', name: 'Create', type: 'INITIAL', toStatusReference: statusId(seed, workflow.initialStatus), links: [], actions: [], validators: [], conditions: null, triggers: [], properties: {}, description: '' },
            ...workflow.transitions.map((t) => ({
              id: t.id,
              name: t.name,
              description: '',
              type: t.from === '*' ? 'GLOBAL' : 'DIRECTED',
              toStatusReference: statusId(seed, t.to),
              links: t.from === '*' ? [] : t.from.map((from) => ({ fromStatusReference: statusId(seed, from), fromPort: 0, toPort: 0 })),
              ...((t.requiredFields ?? []).length > 0 ? { transitionScreen: { ruleKey: 'system:transition-screen', parameters: { screenId: '10001' } } } : {}),
              actions: [],
              validators: t.validator ? [{ ruleKey: 'system:validate-field-value', parameters: { fieldKey: t.validator.field } }] : [],
              triggers: [],
              properties: {},
            })),
          ],
        }));
      const statuses = allStatuses(seed).map((name) => ({ id: statusId(seed, name), name, description: '', statusReference: statusId(seed, name), statusCategory: WORKFLOW_CATEGORY[statusCategory(seed, name)], scope: { type: 'GLOBAL' } }));
      const { startAt, maxResults } = page(req);
      return ok({ isLast: startAt + maxResults >= values.length, maxResults, startAt, total: values.length, self: `${base(req)}/workflows/search`, statuses, values: values.slice(startAt, startAt + maxResults) });
    },
  },
];
