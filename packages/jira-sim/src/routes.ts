import { currentUser, decodeBody, decodeFields } from './codec.js';
import { SimError } from './errors.js';
import { SYSTEM_FIELDS } from './seed.js';
import { fieldFilter, renderComment, renderIssue, type RenderContext } from './render.js';
import type { SimStore } from './store.js';
import type { Flavor, SprintState, StoredIssue } from './types.js';
import { statusId } from './workflow.js';
import { metaRoutes } from './meta-routes.js';
import { checkRequired, checkScreen, checkTransitionScreen, customFieldsOf } from './screens.js';

export interface RouteRequest {
  flavor: Flavor;
  params: string[];
  query: Record<string, string>;
  body: unknown;
  store: SimStore;
  baseUrl: string;
  searchLagMs: number;
  searchStale: boolean;
  maxPageSize: number;
}

export interface RouteResponse {
  status: number;
  body?: unknown;
}

type Handler = (req: RouteRequest) => RouteResponse;

export interface Route {
  method: string;
  pattern: RegExp;
  /** Serve only this flavor (search endpoints differ between Cloud and DC). */
  flavor?: Flavor;
  handler: Handler;
}

const API = String.raw`/rest/api/(?:2|3)`;
const ok = (body: unknown): RouteResponse => ({ status: 200, body });
const noContent: RouteResponse = { status: 204 };

function ctxOf(req: RouteRequest): RenderContext {
  return { store: req.store, flavor: req.flavor, baseUrl: req.baseUrl };
}

function findIssue(req: RouteRequest, keyOrId: string) {
  const issue = req.store.findIssue(keyOrId) ?? req.store.findIssueById(keyOrId);
  if (!issue) throw new SimError(404, ['Issue does not exist or you do not have permission to see it.']);
  return issue;
}

function objectBody(req: RouteRequest): Record<string, unknown> {
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) throw new SimError(400, ['Request body is missing or is not a JSON object.']);
  return req.body as Record<string, unknown>;
}

function paging(req: RouteRequest, startAtRaw: unknown, maxRaw: unknown): { startAt: number; maxResults: number } {
  const startAt = Math.max(0, Number(startAtRaw ?? 0) || 0);
  const asked = maxRaw === undefined ? 50 : Number(maxRaw);
  const maxResults = Math.min(Math.max(Number.isFinite(asked) ? asked : 50, 0), req.maxPageSize);
  return { startAt, maxResults };
}

function keyParam(req: RouteRequest): string {
  return decodeURIComponent(req.params[0]!);
}

/** Search parameters come from the query string (GET) or the JSON body (POST). */
function searchInput(req: RouteRequest): Record<string, unknown> {
  return req.body === undefined ? req.query : objectBody(req);
}

const INVALID_PAYLOAD = 'Invalid request payload. Refer to the REST API documentation and try again.';

/** Cloud's request beans refuse unknown properties (additionalProperties: false) with a 400. */
function onlyKnownProperties(req: RouteRequest, allowed: string[]): void {
  if (req.body === undefined) return;
  const unknown = Object.keys(objectBody(req)).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw new SimError(400, [INVALID_PAYLOAD]);
}

/** SearchAndReconcileRequestBean (POST /rest/api/3/search/jql). */
const SEARCH_JQL_PROPERTIES = ['jql', 'nextPageToken', 'maxResults', 'fields', 'expand', 'properties', 'fieldsByKeys', 'failFast', 'reconcileIssues'];
/** BulkFetchIssueRequestBean (POST /rest/api/3/issue/bulkfetch). */
const BULKFETCH_PROPERTIES = ['issueIdsOrKeys', 'fields', 'expand', 'fieldsByKeys', 'properties'];

function cloudSearch(req: RouteRequest): RouteResponse {
  onlyKnownProperties(req, SEARCH_JQL_PROPERTIES);
  const input = searchInput(req);
  const jql = String(input.jql ?? '');
  let offset = 0;
  if (input.nextPageToken !== undefined && input.nextPageToken !== '') {
    offset = Number(Buffer.from(String(input.nextPageToken), 'base64url').toString('utf8'));
    if (!Number.isInteger(offset) || offset < 0) throw new SimError(400, ['The provided next page token is invalid or expired.']);
  }
  const { maxResults } = paging(req, 0, input.maxResults);
  const found = offset > 0 ? req.store.searchAgain(jql, req.searchLagMs, false, req.searchStale) : req.store.search(jql, req.searchLagMs, false, req.searchStale);
  const page = found.slice(offset, offset + maxResults);
  const include = fieldFilter(input.fields as string | string[] | undefined, 'none');
  const issues = page.map((issue) => renderIssue(issue, ctxOf(req), include));
  const isLast = offset + page.length >= found.length;
  return ok(isLast ? { issues, isLast } : { issues, isLast, nextPageToken: Buffer.from(String(offset + page.length)).toString('base64url') });
}

function dcSearch(req: RouteRequest): RouteResponse {
  const input = searchInput(req);
  const { startAt, maxResults } = paging(req, input.startAt, input.maxResults);
  // validateQuery: strict (default, also `true`) | warn (also `false`) | none.
  const strict = !['false', 'warn', 'none'].includes(String(input.validateQuery ?? 'strict'));
  const search = startAt > 0 ? req.store.searchAgain.bind(req.store) : req.store.search.bind(req.store);
  const found = search(String(input.jql ?? ''), req.searchLagMs, strict, req.searchStale);
  const include = fieldFilter(input.fields as string | string[] | undefined, 'all');
  const issues = found.slice(startAt, startAt + maxResults).map((issue) => renderIssue(issue, ctxOf(req), include));
  return ok({ expand: 'schema,names', startAt, maxResults, total: found.length, issues });
}

/**
 * Cloud's POST /rest/api/3/issue/bulkfetch {issueIdsOrKeys: [≤100], fields?: [...]} → {issues, issueErrors}.
 * Reads the database, not the search index (current state). Issues come in ascending id order; an id or key
 * that matches no issue is listed in issueErrors (as real sites do, though the description says only retriable
 * failures are), so the agent meets both.
 */
function bulkFetch(req: RouteRequest): RouteResponse {
  onlyKnownProperties(req, BULKFETCH_PROPERTIES);
  const body = objectBody(req);
  const wanted = body.issueIdsOrKeys;
  if (!Array.isArray(wanted) || wanted.length === 0) throw new SimError(400, ['issueIdsOrKeys must not be empty.']);
  if (wanted.length > 100) throw new SimError(400, ['You can request up to 100 issues.']);
  const found = new Map<string, StoredIssue>();
  const issueErrors: Array<{ id: string; errorMessage: string }> = [];
  for (const idOrKey of wanted) {
    const issue = req.store.findIssue(String(idOrKey)) ?? req.store.findIssueById(String(idOrKey));
    if (issue) found.set(issue.id, issue);
    else issueErrors.push({ id: String(idOrKey), errorMessage: 'Issue does not exist or you do not have permission to see it.' });
  }
  const include = fieldFilter(body.fields as string | string[] | undefined, 'all');
  const issues = [...found.values()].sort((a, b) => Number(a.id) - Number(b.id)).map((issue) => renderIssue(issue, ctxOf(req), include));
  // BulkIssueResults has only issues and issueErrors (additionalProperties: false); real sites list unknown keys there too.
  return ok({ issues, issueErrors });
}

/** The screen fields of a transition (GET …/transitions?expand=transitions.fields): FieldMetadata by field id. */
function transitionFields(req: RouteRequest, required: string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (required.includes('resolution')) {
    fields.resolution = {
      required: true,
      schema: { type: 'resolution', system: 'resolution' },
      name: 'Resolution',
      key: 'resolution',
      hasDefaultValue: false,
      operations: ['set'],
      allowedValues: req.store.resolutions().map((name, i) => ({ self: `${req.baseUrl}/rest/api/${req.flavor === 'cloud' ? 3 : 2}/resolution/${i + 1}`, id: String(i + 1), name })),
    };
  }
  return fields;
}

/** Permissions the pre-flight check asks GET /mypermissions about, with Jira's names. */
const PERMISSION_NAMES: Record<string, string> = {
  BROWSE_PROJECTS: 'Browse Projects',
  CREATE_ISSUES: 'Create Issues',
  EDIT_ISSUES: 'Edit Issues',
  TRANSITION_ISSUES: 'Transition Issues',
  LINK_ISSUES: 'Link Issues',
  ADD_COMMENTS: 'Add Comments',
  SCHEDULE_ISSUES: 'Schedule Issues',
  ASSIGN_ISSUES: 'Assign Issues',
  RESOLVE_ISSUES: 'Resolve Issues',
  DELETE_ISSUES: 'Delete Issues',
  DELETE_OWN_COMMENTS: 'Delete Own Comments',
  DELETE_ALL_COMMENTS: 'Delete All Comments',
};

/** Jira's 403 when the account lacks a project permission (seed `deniedPermissions`) a write needs. */
function requirePermission(req: RouteRequest, key: keyof typeof PERMISSION_NAMES, message: string): void {
  if ((req.store.seed.deniedPermissions ?? []).includes(key)) throw new SimError(403, [message]);
}

export const routes: Route[] = [
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/mypermissions$`),
    handler: (req) => {
      const asked = (req.query.permissions ?? '').split(',').map((p) => p.trim()).filter(Boolean);
      if (req.flavor === 'cloud' && asked.length === 0) throw new SimError(400, ['The permissions query parameter is required.']);
      const projectKey = req.query.projectKey;
      if (projectKey && !req.store.seed.projects.some((p) => p.key === projectKey || p.id === projectKey)) {
        throw new SimError(404, [`No project could be found with key '${projectKey}'.`]);
      }
      const denied = new Set(req.store.seed.deniedPermissions ?? []);
      const permissions: Record<string, unknown> = {};
      for (const key of asked.length > 0 ? asked : Object.keys(PERMISSION_NAMES)) {
        permissions[key] = { id: String(Object.keys(PERMISSION_NAMES).indexOf(key) + 1), key, name: PERMISSION_NAMES[key] ?? key, type: 'PROJECT', description: '', havePermission: !denied.has(key) };
      }
      return ok({ permissions });
    },
  },
  { method: 'POST', pattern: /^\/rest\/api\/3\/issue\/bulkfetch$/, flavor: 'cloud', handler: bulkFetch },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/myself$`),
    handler: (req) => {
      const user = currentUser(req.store);
      return ok(req.flavor === 'cloud' ? { accountId: user.accountId, displayName: user.displayName, emailAddress: user.emailAddress } : { name: user.name, key: user.name, displayName: user.displayName });
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/field$`),
    handler: (req) =>
      ok([
        ...SYSTEM_FIELDS.map((f) => ({ id: f.id, key: f.id, name: f.name, custom: false, schema: f.schema })),
        ...customFieldsOf(req.store.seed, req.flavor) // Cloud sites dropped Epic Link for `parent`, and have no Epic Name
          .map((f) => ({
            id: f.id,
            key: f.id,
            name: f.name,
            custom: true,
            schema: { type: f.type, ...(f.items ? { items: f.items } : {}), custom: f.custom, customId: Number(f.id.replace(/\D/g, '')) },
            ...(f.scope && req.flavor === 'cloud' ? { scope: f.scope } : {}),
          })),
      ]),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/project/([^/]+)$`),
    handler: (req) => {
      const wanted = keyParam(req);
      const project = req.store.seed.projects.find((p) => p.key === wanted.toUpperCase() || p.id === wanted);
      if (!project) throw new SimError(404, [`No project could be found with key '${wanted}'.`]);
      const issueTypes = req.store.seed.issueTypes.map((name, i) => ({
        self: `${req.baseUrl}/rest/api/${req.flavor === 'cloud' ? 3 : 2}/issuetype/${i + 1}`,
        id: String(i + 1),
        name,
        description: '',
        subtask: name === 'Sub-task',
        ...(req.flavor === 'cloud' ? { hierarchyLevel: name === 'Sub-task' ? -1 : name === 'Epic' ? 1 : 0 } : {}),
      }));
      return ok({ self: `${req.baseUrl}/rest/api/${req.flavor === 'cloud' ? 3 : 2}/project/${project.id}`, id: project.id, key: project.key, name: project.name, issueTypes });
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issueLinkType$`),
    handler: (req) => ok({ issueLinkTypes: req.store.seed.linkTypes.map((t) => ({ ...t, self: `${req.baseUrl}/rest/api/${req.flavor === 'cloud' ? 3 : 2}/issueLinkType/${t.id}` })) }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${API}/issue$`),
    handler: (req) => {
      const fields = (objectBody(req).fields ?? {}) as Record<string, unknown>;
      requirePermission(req, 'CREATE_ISSUES', 'You do not have permission to create issues in this project.');
      if (fields.assignee !== undefined) requirePermission(req, 'ASSIGN_ISSUES', 'You do not have permission to assign issues.');
      const { project, patch } = decodeFields(fields, req.flavor, req.store);
      // Data Center: `parent` belongs to sub-tasks; a story goes into an epic through the Epic Link field.
      if (req.flavor === 'dc' && fields.parent !== undefined && fields.parent !== null && patch.issueType !== 'Sub-task') {
        throw new SimError(400, [], { parent: "Field 'parent' cannot be set. It is not on the appropriate screen, or unknown." });
      }
      if (patch.issueType && req.store.seed.issueTypes.includes(patch.issueType)) {
        checkScreen(req.store.seed, req.flavor, patch.issueType, 'create', fields);
        checkRequired(req.store.seed, req.flavor, patch.issueType, fields);
      }
      const issue = req.store.createIssue(project, patch, currentUser(req.store).accountId);
      return { status: 201, body: { id: issue.id, key: issue.key, self: `${req.baseUrl}/rest/api/${req.flavor === 'cloud' ? 3 : 2}/issue/${issue.id}` } };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/([^/]+)$`),
    handler: (req) => ok(renderIssue(findIssue(req, keyParam(req)), ctxOf(req), fieldFilter(req.query.fields, 'all'))),
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${API}/issue/([^/]+)$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      const body = objectBody(req);
      if (body.update !== undefined) throw new SimError(400, ['The simulator supports only "fields" in an issue edit.']);
      const fields = (body.fields ?? {}) as Record<string, unknown>;
      requirePermission(req, 'EDIT_ISSUES', 'You do not have permission to edit issues in this project.');
      if (fields.assignee !== undefined) requirePermission(req, 'ASSIGN_ISSUES', 'You do not have permission to assign issues.');
      const { project, patch } = decodeFields(fields, req.flavor, req.store);
      if (project !== undefined) throw new SimError(400, [], { project: 'Field \'project\' cannot be set. It is not on the appropriate screen, or unknown.' });
      checkScreen(req.store.seed, req.flavor, issue.issueType, 'edit', fields);
      req.store.updateIssue(issue.key, patch);
      return noContent;
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/([^/]+)/transitions$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      const withFields = (req.query.expand ?? '').split(',').includes('transitions.fields');
      const transitions = req.store.transitionsFor(issue.key).map((t) => ({
        id: t.id,
        name: t.name,
        to: { id: statusId(req.store.seed, t.to), name: t.to },
        hasScreen: (t.requiredFields ?? []).length > 0,
        isGlobal: t.from === '*',
        isInitial: false,
        isConditional: false,
        ...(withFields ? { fields: transitionFields(req, t.requiredFields ?? []) } : {}),
      }));
      return ok({ expand: 'transitions', transitions });
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${API}/issue/([^/]+)/transitions$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      const body = objectBody(req);
      const transition = body.transition as { id?: string | number } | undefined;
      const fields = (body.fields ?? {}) as Record<string, unknown>;
      requirePermission(req, 'TRANSITION_ISSUES', 'You do not have permission to transition this issue.');
      const offered = req.store.transitionsFor(issue.key).find((t) => t.id === String(transition?.id));
      if (offered) {
        checkTransitionScreen(offered.requiredFields ?? [], fields);
        if ((offered.requiredFields ?? []).includes('resolution')) requirePermission(req, 'RESOLVE_ISSUES', 'You do not have permission to resolve this issue.');
      }
      req.store.transition(issue.key, transition?.id === undefined ? undefined : String(transition.id), fields);
      return noContent;
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/([^/]+)/comment$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      const all = req.store.commentsOf(issue.key);
      const { startAt, maxResults } = paging(req, req.query.startAt, req.query.maxResults);
      return ok({ startAt, maxResults, total: all.length, comments: all.slice(startAt, startAt + maxResults).map((c) => renderComment(c, ctxOf(req))) });
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${API}/issue/([^/]+)/comment$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      requirePermission(req, 'ADD_COMMENTS', 'You do not have the permission to comment on this issue.');
      const text = decodeBody(objectBody(req).body, req.flavor, 'comment');
      const comment = req.store.addComment(issue.key, text ?? '', currentUser(req.store).accountId);
      return { status: 201, body: renderComment(comment, ctxOf(req)) };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/([^/]+)/comment/([^/]+)$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      const comment = req.store.commentsOf(issue.key).find((c) => c.id === decodeURIComponent(req.params[1]!));
      if (!comment) throw new SimError(404, [`Can not find a comment for the id: ${req.params[1]}.`]);
      return ok(renderComment(comment, ctxOf(req)));
    },
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^${API}/issue/([^/]+)/comment/([^/]+)$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      const id = decodeURIComponent(req.params[1]!);
      const own = req.store.commentsOf(issue.key).find((c) => c.id === id)?.author === currentUser(req.store).accountId;
      if (!own || (req.store.seed.deniedPermissions ?? []).includes('DELETE_OWN_COMMENTS')) {
        requirePermission(req, 'DELETE_ALL_COMMENTS', 'You do not have permission to delete this comment.');
      }
      req.store.deleteComment(issue.key, id);
      return noContent;
    },
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^${API}/issue/([^/]+)$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      requirePermission(req, 'DELETE_ISSUES', 'You do not have permission to delete issues in this project.');
      req.store.deleteIssue(issue.key, req.query.deleteSubtasks === 'true');
      return noContent;
    },
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^${API}/issueLink/([^/]+)$`),
    handler: (req) => {
      requirePermission(req, 'LINK_ISSUES', 'No Link Issue Permission to delete this link.');
      req.store.deleteLink(decodeURIComponent(req.params[0]!));
      return noContent;
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${API}/issueLink$`),
    handler: (req) => {
      const body = objectBody(req);
      const type = body.type as { name?: string; id?: string } | undefined;
      const typeName = type?.name ?? req.store.seed.linkTypes.find((t) => t.id === type?.id)?.name ?? '';
      const inward = (body.inwardIssue as { key?: string } | undefined)?.key;
      const outward = (body.outwardIssue as { key?: string } | undefined)?.key;
      if (!inward || !outward) throw new SimError(400, ['Both inwardIssue and outwardIssue are required.']);
      requirePermission(req, 'LINK_ISSUES', `No Link Issue Permission for issue '${inward}'.`);
      // Real Jira: the inwardIssue becomes the link's source (it "blocks" the outwardIssue). See store.ts.
      req.store.createLink(typeName, findIssue(req, inward).key, findIssue(req, outward).key);
      return { status: 201 };
    },
  },
  { method: 'GET', pattern: /^\/rest\/api\/3\/search\/jql$/, flavor: 'cloud', handler: cloudSearch },
  { method: 'POST', pattern: /^\/rest\/api\/3\/search\/jql$/, flavor: 'cloud', handler: cloudSearch },
  { method: 'GET', pattern: /^\/rest\/api\/2\/search$/, flavor: 'dc', handler: dcSearch },
  { method: 'POST', pattern: /^\/rest\/api\/2\/search$/, flavor: 'dc', handler: dcSearch },
  {
    method: 'GET',
    pattern: /^\/rest\/agile\/1\.0\/board$/,
    handler: (req) => {
      const boards = req.store.boardsOf(req.query.projectKeyOrId);
      const { startAt, maxResults } = paging(req, req.query.startAt, req.query.maxResults);
      const values = boards.slice(startAt, startAt + maxResults).map((b) => ({
        id: b.id,
        self: `${req.baseUrl}/rest/agile/1.0/board/${b.id}`,
        name: b.name,
        type: b.type,
        location: { projectKey: b.projectKey },
      }));
      return ok({ maxResults, startAt, total: boards.length, isLast: startAt + values.length >= boards.length, values });
    },
  },
  {
    method: 'GET',
    pattern: /^\/rest\/agile\/1\.0\/board\/(\d+)\/sprint$/,
    handler: (req) => {
      const states = req.query.state ? (req.query.state.split(',').map((s) => s.trim()) as SprintState[]) : undefined;
      const sprints = req.store.sprintsOf(Number(req.params[0]), states);
      const { startAt, maxResults } = paging(req, req.query.startAt, req.query.maxResults);
      const values = sprints.slice(startAt, startAt + maxResults).map((s) => ({
        id: s.id,
        self: `${req.baseUrl}/rest/agile/1.0/sprint/${s.id}`,
        state: s.state,
        name: s.name,
        originBoardId: s.boardId,
        goal: s.goal ?? '',
      }));
      return ok({ maxResults, startAt, isLast: startAt + values.length >= sprints.length, values });
    },
  },
  {
    method: 'POST',
    pattern: /^\/rest\/agile\/1\.0\/sprint\/(\d+)\/issue$/,
    handler: (req) => {
      const issues = objectBody(req).issues;
      if (!Array.isArray(issues) || issues.length === 0) throw new SimError(400, ['issues: must not be empty']);
      requirePermission(req, 'SCHEDULE_ISSUES', 'You do not have permission to schedule issues (Schedule Issues) in this project.');
      req.store.moveToSprint(Number(req.params[0]), issues.map((k) => findIssue(req, String(k)).key));
      return noContent;
    },
  },
  {
    method: 'POST',
    pattern: /^\/rest\/agile\/1\.0\/backlog\/issue$/,
    handler: (req) => {
      const issues = objectBody(req).issues;
      if (!Array.isArray(issues) || issues.length === 0) throw new SimError(400, ['issues: must not be empty']);
      requirePermission(req, 'SCHEDULE_ISSUES', 'You do not have permission to schedule issues (Schedule Issues) in this project.');
      req.store.moveToBacklog(issues.map((k) => findIssue(req, String(k)).key));
      return noContent;
    },
  },
];

export function matchRoute(method: string, path: string): { route: Route; params: string[]; flavor: Flavor } | { error: SimError } {
  const flavor: Flavor = path.startsWith('/rest/api/3/') ? 'cloud' : 'dc';
  let pathMatched = false;
  for (const route of [...metaRoutes, ...routes]) {
    const match = route.pattern.exec(path);
    if (!match || (route.flavor && route.flavor !== flavor)) continue;
    pathMatched = true;
    if (route.method === method) return { route, params: match.slice(1), flavor };
  }
  return pathMatched ? { error: new SimError(405, [`Method ${method} is not allowed for ${path}.`]) } : { error: new SimError(404, [`null for uri: ${path}`]) };
}
