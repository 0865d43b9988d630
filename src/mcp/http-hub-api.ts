/** HubApi over the hub's REST API (SPEC 11, 15): the stdio server's way in, and /mcp's too. */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { clip } from '../common/index.js';
import {
  type AuditCall,
  HubError,
  type AgentStatusView,
  type BatchBody,
  type BatchQuery,
  type BatchSummary,
  type BatchView,
  type CommandView,
  type HubApi,
  type ImportReport,
  type IssueDetailView,
  type IssuePage,
  type IssueQuery,
  type NoteChange,
  type NoteView,
  type PackageTexts,
  type PlanView,
  type ApplyView,
  type DriftView,
  type PackagePlanView,
  type RevertView,
} from './hub-api.js';

/** The header that marks a request as the assistant's in open mode (SPEC 15.1); the MCP server always sends it. */
export const SOURCE_HEADER = 'X-Hub-Source';

export interface HttpHubApiOptions {
  /** the hub's address, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** the value of the Authorization header (`Bearer <HUB_ASSISTANT_TOKEN>`), none in open mode */
  authorization?: string;
  /** how long one request may take (default 30 s): a hung hub gives a tool error, not a hung tool */
  timeoutMs?: number;
  /** where people open the dashboard (default: baseUrl) */
  dashboardUrl?: string;
  /**
   * How a tool call is recorded in the audit. By default POST /audit: the stdio server, outside the hub,
   * reports it (channel mcp_stdio); the hub's own MCP endpoint records what it served itself.
   */
  recordToolCall?: (call: AuditCall) => Promise<void>;
  /**
   * What a refused token (401) tells the model besides the hub's words: where this server's token is set.
   * The stdio server's comes from its environment, which only a person can change; none over /mcp, whose
   * caller's token is checked before any tool runs.
   */
  tokenHint?: string;
}

/** The header that names the MCP tool a REST call is made for (the audit records it beside the route). */
export const TOOL_HEADER = 'X-Hub-Mcp-Tool';

/** What the hub takes as an Idempotency-Key (POST /batches): 1..200 visible ASCII characters. */
const HEADER_KEY = /^[\x21-\x7e]{1,200}$/;

/**
 * An idempotency key as the header carries it: as it is when the hub takes it, else (spaces, letters
 * beyond ASCII, over 200 characters) `mcp-sha256-<hex>` of its UTF-8 bytes — the same key, the same header.
 */
export function idempotencyHeader(key: string): string {
  return HEADER_KEY.test(key) ? key : `mcp-sha256-${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}

/** Network failures that mean the hub is out of reach (anything else is this server's own fault). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** The error code of a request that took longer than its time. */
const TIMEOUT = 'HUB_MCP_TIMEOUT';

/** Failures after which the request may have reached the hub (unlike a refused connection or an unknown name). */
const MAYBE_REACHED = new Set([TIMEOUT, 'ECONNRESET', 'EPIPE']);
/** A request that changes something in the hub: not a read, not a dry run (a plan, a revert's `dry_run=true`). */
const writes = (method: string, path: string) => method !== 'GET' && !/\/plan$|[?&]dry_run=true/.test(path);
/** What a write that may have been done tells the model before it repeats it. */
const MAYBE_DONE =
  'запрос мог дойти до хаба и выполниться: прежде чем повторять, проверьте (list_batches, get_batch); submit_batch с тем же idempotency_key повторять безопасно — он вернёт уже созданный пакет';

/**
 * One request over node:http(s), not fetch: fetch refuses the ports of the WHATWG «bad ports» list
 * (6000, 10080, …), and a hub may listen on any port. The whole exchange has `timeoutMs`.
 */
function send(url: URL, method: string, headers: Record<string, string>, payload: Buffer | undefined, timeoutMs: number): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ status: res.statusCode ?? 0, headers: answer, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: TIMEOUT })), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(payload);
  });
}

interface Answer<T> {
  body: T;
  headers: Headers;
}

const query = (q: object): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null || (Array.isArray(v) && !v.length)) continue;
    params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
};

const seg = (key: string) => encodeURIComponent(key);

/** A package's CSV texts as the multipart form /import and /packages take (and the package's name). */
function packageForm(files: PackageTexts, name?: string): FormData {
  const form = new FormData();
  for (const field of ['issues', 'links', 'notes'] as const) {
    const text = files[field];
    if (text !== undefined) form.set(field, new Blob([text], { type: 'text/csv' }), `${field}.csv`);
  }
  if (name !== undefined) form.set('name', name);
  return form;
}

export class HttpHubApi implements HubApi {
  private readonly base: string;
  readonly dashboard: string;
  /** the tool a call is made for (X-Hub-Mcp-Tool), set by the server around each tool call */
  tool?: string;

  constructor(private readonly options: HttpHubApiOptions) {
    // HUB_URL may name the MCP endpoint itself (…/mcp): the REST API is the hub's root.
    this.base = options.baseUrl.replace(/\/+$/, '').replace(/\/mcp$/i, '').replace(/\/+$/, '');
    this.dashboard = (options.dashboardUrl ?? this.base).replace(/\/+$/, '');
  }

  forTool(name: string): HttpHubApi {
    const api = new HttpHubApi({ ...this.options, baseUrl: this.base, dashboardUrl: this.dashboard });
    api.tool = name;
    return api;
  }

  private async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const all: Record<string, string> = { Accept: 'application/json', [SOURCE_HEADER]: 'assistant', ...(this.tool ? { [TOOL_HEADER]: this.tool } : {}), ...headers };
    if (this.options.authorization) all.Authorization = this.options.authorization;
    let payload: Buffer | undefined;
    if (body instanceof FormData) {
      // The multipart encoding (and its boundary) as the WHATWG Response writes a form.
      const form = new Response(body);
      payload = Buffer.from(await form.arrayBuffer());
      all['Content-Type'] = form.headers.get('content-type')!;
    } else if (body !== undefined) {
      payload = Buffer.from(JSON.stringify(body), 'utf8');
      all['Content-Type'] = 'application/json';
    }
    if (payload) all['Content-Length'] = String(payload.length);
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    let res: { status: number; headers: Headers; text: string };
    try {
      res = await send(new URL(`${this.base}${path}`), method, all, payload, timeoutMs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A write whose request may have reached the hub (no answer, or the connection dropped on the way): it may have been done.
      const maybeDone = writes(method, path) && code !== undefined && MAYBE_REACHED.has(code) ? `; ${MAYBE_DONE}` : '';
      if (code === TIMEOUT) throw new HubError(0, 'timeout', `хаб по адресу ${this.base} не ответил за ${timeoutMs / 1000} с на ${method} ${path}${maybeDone}`);
      if (code && UNREACHABLE.has(code)) {
        throw new HubError(0, 'unavailable', `хаб недоступен по адресу ${this.base}: ${code}; проверьте, что он запущен, и переменную HUB_URL${maybeDone}`);
      }
      // Not the network: the request itself could not be made (a header value, say). The hub is not to blame.
      throw new HubError(0, 'internal', `MCP-сервер хаба не смог составить запрос ${method} ${path}: ${(err as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status < 200 || res.status > 299) {
      const e = (parsed ?? {}) as { error?: string; detail?: string; findings?: unknown[]; errors?: unknown[] };
      const hint = res.status === 401 && this.options.tokenHint ? `; ${this.options.tokenHint}` : '';
      const listed = Array.isArray(e.findings) && e.findings.length ? e.findings.length : Array.isArray(e.errors) && e.errors.length ? e.errors.length : undefined;
      throw new HubError(res.status, e.error ?? 'http_error', `${e.detail ?? `хаб ответил ${res.status} на ${method} ${path}`}${hint}`, listed, Array.isArray(e.findings) ? e.findings : undefined);
    }
    return { body: parsed as T, headers: res.headers };
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.call<T>(method, path, body)).body;
  }

  planBatch(body: BatchBody): Promise<PlanView> {
    return this.json('POST', '/batches/plan', body);
  }

  async createBatch(body: BatchBody, idempotencyKey?: string): Promise<{ batch: BatchView; replayed: boolean }> {
    const header = idempotencyKey === undefined ? undefined : idempotencyHeader(idempotencyKey);
    try {
      const answer = await this.call<BatchView>('POST', '/batches', body, header ? { 'Idempotency-Key': header } : {});
      return { batch: answer.body, replayed: answer.headers.get('Idempotent-Replayed') === 'true' };
    } catch (err) {
      // The hub names the key as the header carried it (mcp-sha256-…): the model is told its own words.
      if (err instanceof HubError && header !== undefined && header !== idempotencyKey && err.detail.includes(header)) {
        throw new HubError(err.status, err.code, err.detail.split(header).join(clip(idempotencyKey!, 200)), err.findings, err.items);
      }
      throw err;
    }
  }

  revertBatch(id: number, dryRun: boolean, leavePending?: string): Promise<RevertView> {
    const query = [dryRun ? 'dry_run=true' : '', leavePending === undefined ? '' : `leave_pending=${encodeURIComponent(leavePending)}`].filter(Boolean).join('&');
    return this.json('POST', `/batches/${id}/revert${query ? `?${query}` : ''}`);
  }

  getBatch(id: number): Promise<BatchView> {
    return this.json('GET', `/batches/${id}`);
  }

  listBatches(q: BatchQuery): Promise<BatchSummary[]> {
    return this.json('GET', `/batches${query(q)}`);
  }

  cancelBatch(id: number): Promise<BatchView & { cancelled_now?: number }> {
    return this.json('POST', `/batches/${id}/cancel`);
  }

  cancelCommand(id: number): Promise<CommandView> {
    return this.json('POST', `/commands/${id}/cancel`, {});
  }

  getCommand(id: number): Promise<CommandView> {
    return this.json('GET', `/commands/${id}`);
  }

  retryCommand(id: number): Promise<BatchView> {
    return this.json('POST', `/commands/${id}/retry`);
  }

  agentStatus(): Promise<AgentStatusView> {
    return this.json('GET', '/agent');
  }

  async listIssues(q: IssueQuery): Promise<IssuePage> {
    const answer = await this.call<IssuePage['items']>('GET', `/issues${query({ ...q, fold: true, count: true })}`);
    const total = answer.headers.get('X-Total-Count');
    return { items: answer.body, total: total === null ? null : Number(total) };
  }

  getIssue(key: string): Promise<IssueDetailView> {
    return this.json('GET', `/issues/${seg(key)}`);
  }

  getNote(key: string): Promise<NoteView> {
    return this.json('GET', `/notes/${seg(key)}`);
  }

  putNote(key: string, change: NoteChange): Promise<NoteView> {
    return this.json('PUT', `/notes/${seg(key)}`, change);
  }

  async linkTypes(): Promise<Record<string, string>> {
    return (await this.json<{ link_types?: Record<string, string> }>('GET', '/settings')).link_types ?? {};
  }

  catalogue<T>(path: string, q: Record<string, string | number | undefined> = {}): Promise<T> {
    return this.json('GET', `/catalogue${path}${query(q)}`);
  }

  async recordToolCall(call: AuditCall): Promise<void> {
    if (this.options.recordToolCall) return this.options.recordToolCall(call);
    await this.call('POST', '/audit', call);
  }

  importPackage(files: PackageTexts): Promise<ImportReport> {
    return this.json('POST', '/import', packageForm(files));
  }

  planPackage(files: PackageTexts, name?: string): Promise<PackagePlanView> {
    return this.json('POST', '/packages/plan', packageForm(files, name));
  }

  applyPackage(files: PackageTexts, name?: string): Promise<ApplyView> {
    return this.json('POST', '/packages/apply', packageForm(files, name));
  }

  packageDrift(id: number): Promise<DriftView> {
    return this.json('GET', `/packages/${id}/drift`);
  }
}
