import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SimError } from './errors.js';
import { matchRoute } from './routes.js';
import { generatedProject } from './generate.js';
import { defaultSeed } from './seed.js';
import { SimStore } from './store.js';
import type { RecordedRequest, SimSeed, StoredComment, StoredIssue, StoredLink } from './types.js';

export interface JiraSimulatorOptions {
  /** Replaces parts of the default seed (each given key replaces that key). */
  seed?: Partial<SimSeed>;
  /** Project key of the default seed. */
  projectKey?: string;
  /** Largest page any paged endpoint returns (Jira caps maxResults too). */
  maxPageSize?: number;
  /** Answer 401 to requests without an Authorization header (same as anonymous: 'refuse'). */
  requireAuth?: boolean;
  /** How requests without an Authorization header are answered (default 'allow'; see setAnonymous). */
  anonymous?: AnonymousMode;
  /** A generated project of this many issues (and about twice as many links) instead of the seed's issues and links. */
  generate?: number;
}

/**
 * Requests without credentials: 'allow' serves them as the seed's first user; 'refuse' answers 401 to all;
 * 'as-jira' answers as a real site with anonymous access does: 401 for /myself and writes, 404 for issues and
 * projects, empty searches and board lists, every permission false — never a plain 401 the agent could notice.
 */
export type AnonymousMode = 'allow' | 'refuse' | 'as-jira';

export interface RateLimitSwitch {
  /** How many of the next requests are refused. */
  count: number;
  /** Retry-After header in seconds; omitted when undefined. */
  retryAfterSeconds?: number;
  /** Send Retry-After as an HTTP date (now + retryAfterSeconds) instead of seconds, as some proxies do. */
  retryAfterAsDate?: boolean;
  /**
   * X-RateLimit-Reset (an ISO 8601 timestamp, as Cloud sends it) this many seconds ahead, with
   * X-RateLimit-Limit and X-RateLimit-Remaining: 0; omitted when undefined.
   */
  resetAfterSeconds?: number;
  /** 429 (default) or 503; 500, 502 or 504 to simulate a failing server or gateway; 409 a conflicting update. */
  status?: 429 | 503 | 500 | 502 | 504 | 409;
}

/**
 * In-memory Jira (Cloud v3 under /rest/api/3, DC v2 under /rest/api/2, Agile 1.0) over node:http.
 * Tests start it in-process on port 0 and inspect its state directly.
 */
export class JiraSimulator {
  readonly store: SimStore;
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;
  private baseUrl = '';
  private readonly maxPageSize: number;
  private anonymous: AnonymousMode;
  private rateLimit: RateLimitSwitch & { status: NonNullable<RateLimitSwitch['status']> } = { count: 0, status: 429 };
  private latencyMs = 0;
  private searchLagMs = 0;
  private searchStale = false;
  private credentialsRevoked = false;

  constructor(options: JiraSimulatorOptions = {}) {
    const seed = { ...defaultSeed(options.projectKey), ...options.seed };
    this.store = new SimStore(options.generate ? { ...seed, ...generatedProject(options.generate, seed) } : seed);
    this.maxPageSize = options.maxPageSize ?? 100;
    this.anonymous = options.anonymous ?? (options.requireAuth ? 'refuse' : 'allow');
  }

  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    const address = server.address() as AddressInfo;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.baseUrl = `http://${shownHost}:${address.port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return this.baseUrl;
  }

  // ---- switches ------------------------------------------------------------------------------

  /** The next `count` requests answer 429 (or 503) with Retry-After. */
  setRateLimit(limit: RateLimitSwitch): void {
    this.rateLimit = { ...limit, status: limit.status ?? 429 };
  }

  /**
   * The token is revoked (or the password changed): every request with credentials answers 401, as Jira does,
   * until restoreCredentials. Requests without credentials follow the anonymous mode.
   */
  revokeCredentials(): void {
    this.credentialsRevoked = true;
  }

  restoreCredentials(): void {
    this.credentialsRevoked = false;
  }

  /** How requests without credentials are answered (see AnonymousMode). */
  setAnonymous(mode: AnonymousMode): void {
    this.anonymous = mode;
  }

  setLatencyMs(ms: number): void {
    this.latencyMs = ms;
  }

  /**
   * Issues created less than `ms` ago are invisible to search (Jira's index is eventually consistent).
   * With `stale: true` search also serves every issue as it was `ms` ago (old status, fields, sprints), as
   * Cloud's /search/jql does without read-after-write consistency; GET /issue and bulkfetch stay current.
   */
  setSearchLagMs(ms: number, options: { stale?: boolean } = {}): void {
    this.searchLagMs = ms;
    this.searchStale = options.stale ?? false;
  }

  // ---- inspection ----------------------------------------------------------------------------

  getIssue(key: string): StoredIssue | undefined {
    return this.store.findIssue(key);
  }

  listIssues(): StoredIssue[] {
    return this.store.listIssues();
  }

  /** Every link as {source, target, type}: "source <outward> target", e.g. source blocks target. */
  links(): Array<{ source: string; target: string; type: string }> {
    return this.store.links.map((l: StoredLink) => ({ source: l.sourceKey, target: l.targetKey, type: l.typeName }));
  }

  comments(key: string): StoredComment[] {
    return this.store.comments.filter((c) => c.issueKey === key.toUpperCase());
  }

  /** Sprint names of an issue, in the order of its sprint field. */
  sprintsOf(key: string): string[] {
    const issue = this.store.findIssue(key);
    return (issue ? this.store.sprintIdsOf(issue) : []).map((id) => this.store.findSprint(id)?.name ?? String(id));
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      authorization: req.headers.authorization,
      status: 0,
    };
    this.requests.push(record);
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));

    let status: number;
    let body: unknown;
    const headers: Record<string, string> = {};
    try {
      if (raw.length > 0) {
        try {
          record.body = JSON.parse(raw);
        } catch {
          throw new SimError(400, ['Unexpected character in the JSON body.']);
        }
      }
      if (this.rateLimit.count > 0) {
        this.rateLimit.count--;
        const { retryAfterSeconds, retryAfterAsDate, resetAfterSeconds } = this.rateLimit;
        if (retryAfterSeconds !== undefined) {
          headers['Retry-After'] = retryAfterAsDate ? new Date(Date.now() + retryAfterSeconds * 1000).toUTCString() : String(retryAfterSeconds);
        }
        if (resetAfterSeconds !== undefined) {
          Object.assign(headers, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': new Date(Date.now() + resetAfterSeconds * 1000).toISOString() });
        }
        throw new SimError(this.rateLimit.status, [REFUSAL_TEXT[this.rateLimit.status]]);
      }
      const authorization = req.headers.authorization;
      // Credentials are checked: a revoked token, or an Authorization that is neither Basic nor Bearer, is a 401.
      if (authorization && (this.credentialsRevoked || !/^(Basic|Bearer) \S+$/.test(authorization))) {
        throw new SimError(401, ['Client must be authenticated to access this resource.']);
      }
      const anonymous = !authorization && this.anonymous !== 'allow';
      if (anonymous && this.anonymous === 'refuse') throw new SimError(401, ['You are not authenticated. Authentication required to perform this operation.']);
      const matched = matchRoute(method, url.pathname);
      if ('error' in matched) throw matched.error;
      const asAnonymous = anonymous ? anonymousAnswer(method, url.pathname, record.query) : undefined;
      const answer = asAnonymous ?? matched.route.handler({
        flavor: matched.flavor,
        params: matched.params,
        query: record.query,
        body: record.body,
        store: this.store,
        baseUrl: this.baseUrl,
        searchLagMs: this.searchLagMs,
        searchStale: this.searchStale,
        maxPageSize: this.maxPageSize,
      });
      status = answer.status;
      body = answer.body;
    } catch (error) {
      const simError = error instanceof SimError ? error : new SimError(500, [`Internal server error: ${(error as Error).message}`]);
      status = simError.status;
      body = simError.body();
    }
    record.status = status;
    record.response = body;
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...headers, ...(text ? { 'Content-Type': 'application/json;charset=UTF-8' } : {}) });
    res.end(text);
  }
}

/** What a real site answers an anonymous caller (AnonymousMode 'as-jira'); undefined = served normally (GET /field). */
function anonymousAnswer(method: string, path: string, query: Record<string, string>): { status: number; body?: unknown } | undefined {
  const unauthenticated = new SimError(401, ['Client must be authenticated to access this resource.']);
  if (/\/myself$/.test(path)) throw unauthenticated;
  if (/\/search(\/jql)?$/.test(path)) return { status: 200, body: path.endsWith('/jql') ? { issues: [], isLast: true } : { startAt: 0, maxResults: 50, total: 0, issues: [] } };
  if (method === 'POST' && path.endsWith('/issue/bulkfetch')) return { status: 200, body: { issues: [], issueErrors: [] } };
  if (method !== 'GET') throw unauthenticated;
  if (/\/issue\//.test(path)) throw new SimError(404, ['Issue does not exist or you do not have permission to see it.']);
  const project = /\/project\/([^/]+)$/.exec(path);
  if (project) throw new SimError(404, [`No project could be found with key '${decodeURIComponent(project[1]!)}'.`]);
  if (path.endsWith('/mypermissions')) {
    const keys = (query.permissions ?? '').split(',').filter(Boolean);
    return { status: 200, body: { permissions: Object.fromEntries(keys.map((key, i) => [key, { id: String(i + 1), key, name: key, type: 'PROJECT', description: '', havePermission: false }])) } };
  }
  if (path.endsWith('/rest/agile/1.0/board')) return { status: 200, body: { maxResults: 50, startAt: 0, total: 0, isLast: true, values: [] } };
  if (/\/board\/\d+\/sprint$/.test(path)) throw new SimError(404, ['Board does not exist or you do not have permission to see it.']);
  return undefined;
}

const REFUSAL_TEXT: Record<NonNullable<RateLimitSwitch['status']>, string> = {
  429: 'Rate limit exceeded.',
  409: 'Conflicting update: the issue was changed by another request at the same time. Please try again.',
  503: 'Service Unavailable',
  500: 'Internal server error',
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
