import { currentUser, decodeBody, decodeFields } from './codec.js';
import { SimError } from './errors.js';
import { fieldFilter, renderComment, renderIssue, type RenderContext } from './render.js';
import type { SimStore } from './store.js';
import type { Flavor, SprintState, StoredIssue } from './types.js';

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

interface Route {
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

function cloudSearch(req: RouteRequest): RouteResponse {
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
 * that matches no issue is left out of both lists (Jira lists only retriable failures in issueErrors).
 */
function bulkFetch(req: RouteRequest): RouteResponse {
  const body = objectBody(req);
  const wanted = body.issueIdsOrKeys;
  if (!Array.isArray(wanted) || wanted.length === 0) throw new SimError(400, ['issueIdsOrKeys must not be empty.']);
  if (wanted.length > 100) throw new SimError(400, ['You can request up to 100 issues.']);
  const found = new Map<string, StoredIssue>();
  for (const idOrKey of wanted) {
    const issue = req.store.findIssue(String(idOrKey)) ?? req.store.findIssueById(String(idOrKey));
    if (issue) found.set(issue.id, issue);
  }
  const include = fieldFilter(body.fields as string | string[] | undefined, 'all');
  const issues = [...found.values()].sort((a, b) => Number(a.id) - Number(b.id)).map((issue) => renderIssue(issue, ctxOf(req), include));
  return ok({ expand: 'schema,names', issues, issueErrors: [] });
}

export const routes: Route[] = [
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
        ...['summary', 'description', 'issuetype', 'status', 'assignee', 'priority', 'duedate', 'labels', 'created', 'updated', 'issuelinks', 'parent', 'project']
          .map((id) => ({ id, key: id, name: id[0]!.toUpperCase() + id.slice(1), custom: false, schema: { system: id } })),
        ...req.store.seed.customFields.map((f) => ({ id: f.id, key: f.id, name: f.name, custom: true, schema: { type: f.type, ...(f.items ? { items: f.items } : {}), custom: f.custom, customId: Number(f.id.replace(/\D/g, '')) } })),
      ]),
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
      const { project, patch } = decodeFields((objectBody(req).fields ?? {}) as Record<string, unknown>, req.flavor, req.store);
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
      const { project, patch } = decodeFields((body.fields ?? {}) as Record<string, unknown>, req.flavor, req.store);
      if (project !== undefined) throw new SimError(400, [], { project: 'Field \'project\' cannot be set. It is not on the appropriate screen, or unknown.' });
      req.store.updateIssue(issue.key, patch);
      return noContent;
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${API}/issue/([^/]+)/transitions$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      const transitions = req.store.transitionsFor(issue.key).map((t) => ({
        id: t.id,
        name: t.name,
        to: { id: String(req.store.seed.statuses.indexOf(t.to) + 1), name: t.to },
        hasScreen: false,
        isGlobal: t.from === '*',
        isInitial: false,
        isConditional: false,
      }));
      return ok({ expand: 'transitions', transitions });
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${API}/issue/([^/]+)/transitions$`),
    handler: (req) => {
      const issue = findIssue(req, keyParam(req));
      const transition = objectBody(req).transition as { id?: string | number } | undefined;
      req.store.transition(issue.key, transition?.id === undefined ? undefined : String(transition.id));
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
      const text = decodeBody(objectBody(req).body, req.flavor, 'comment');
      const comment = req.store.addComment(issue.key, text ?? '', currentUser(req.store).accountId);
      return { status: 201, body: renderComment(comment, ctxOf(req)) };
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
      req.store.moveToSprint(Number(req.params[0]), issues.map((k) => findIssue(req, String(k)).key));
      return noContent;
    },
  },
];

export function matchRoute(method: string, path: string): { route: Route; params: string[]; flavor: Flavor } | { error: SimError } {
  const flavor: Flavor = path.startsWith('/rest/api/3/') ? 'cloud' : 'dc';
  let pathMatched = false;
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match || (route.flavor && route.flavor !== flavor)) continue;
    pathMatched = true;
    if (route.method === method) return { route, params: match.slice(1), flavor };
  }
  return pathMatched ? { error: new SimError(405, [`Method ${method} is not allowed for ${path}.`]) } : { error: new SimError(404, [`null for uri: ${path}`]) };
}
