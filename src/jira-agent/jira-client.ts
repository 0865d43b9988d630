import { sleep as realSleep, type Sleep } from './sleep.js';

export type JiraFlavor = 'cloud' | 'dc';

/** Cloud: basic auth with the account e-mail and an API token; DC: bearer personal access token. */
export type JiraAuth = { kind: 'basic'; email: string; apiToken: string } | { kind: 'bearer'; token: string } | { kind: 'none' };

export interface JiraClientOptions {
  baseUrl: string;
  flavor: JiraFlavor;
  auth: JiraAuth;
  /** Tries per request, the first included, before a 429/503 is given up (default 5). */
  maxTries?: number;
  /** Floor of the wait after a 429/503 (default 5000 ms; Retry-After: 0 happens). */
  minRetryAfterMs?: number;
  /** Ceiling of the wait after a 429/503 (default 300000 ms). */
  maxRetryAfterMs?: number;
  /** Per-request timeout (default 60000 ms). */
  timeoutMs?: number;
  /**
   * The agent's stop signal: ends a retry wait and aborts a request in flight; the request then throws
   * JiraStoppedError (the command is neither reported nor retried: the hub hands it out again).
   */
  stopSignal?: AbortSignal;
  sleep?: Sleep;
  fetch?: typeof fetch;
  now?: () => number;
}

/** A Jira answer other than 2xx; the message is `HTTP <code>: <Jira's message>`, as the hub shows it. */
export class JiraHttpError extends Error {
  constructor(
    readonly status: number,
    readonly jiraMessage: string,
  ) {
    super(`HTTP ${status}: ${jiraMessage}`);
  }
}

/** Jira could not be reached at all (no HTTP status). */
export class JiraNetworkError extends Error {}

/** The stop signal ended a request (in flight or waiting to be retried); whether a write took effect is unknown. */
export class JiraStoppedError extends Error {}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /**
   * Safe to send twice (default: GET, PUT and DELETE; reads sent as POST, like searches, say so). Only such
   * requests are retried after a network failure or a 500/502/504, which may hide a write that happened.
   */
  idempotent?: boolean;
}

/** Rate limiting: retried for every method (Jira refused before doing anything) and counted in rateLimited. */
const RATE_LIMITED = new Set([429, 503]);
/** Server and gateway errors: retried (bounded) for idempotent requests only, not counted as rate limiting. */
const SERVER_ERRORS = new Set([500, 502, 504]);

/** Small fetch-based Jira REST transport: auth, JSON, counters, and the 429/503 retry policy. */
export class JiraClient {
  readonly flavor: JiraFlavor;
  /** Every HTTP request sent, retries included. */
  jiraCalls = 0;
  /** Answers 429/503 received. */
  rateLimited = 0;
  /** Epoch ms when the answer (or the failure) of the last request arrived, null before the first. */
  lastCallAt: number | null = null;

  private readonly baseUrl: string;
  private readonly maxTries: number;
  private readonly minRetryAfterMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly timeoutMs: number;
  private readonly stopSignal: AbortSignal | undefined;
  private readonly sleep: Sleep;
  private readonly fetchFn: typeof fetch;
  private readonly now: () => number;
  private readonly authHeader: string | undefined;

  constructor(options: JiraClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.flavor = options.flavor;
    this.maxTries = Math.max(1, options.maxTries ?? 5);
    this.minRetryAfterMs = options.minRetryAfterMs ?? 5000;
    this.maxRetryAfterMs = Math.max(this.minRetryAfterMs, options.maxRetryAfterMs ?? 300_000);
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.stopSignal = options.stopSignal;
    this.sleep = options.sleep ?? realSleep;
    this.fetchFn = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    const auth = options.auth;
    this.authHeader =
      auth.kind === 'basic' ? `Basic ${Buffer.from(`${auth.email}:${auth.apiToken}`).toString('base64')}` : auth.kind === 'bearer' ? `Bearer ${auth.token}` : undefined;
  }

  /** /rest/api/3 on Cloud, /rest/api/2 on DC. */
  get apiPrefix(): string {
    return this.flavor === 'cloud' ? '/rest/api/3' : '/rest/api/2';
  }

  stats(): { jiraCalls: number; rateLimited: number } {
    return { jiraCalls: this.jiraCalls, rateLimited: this.rateLimited };
  }

  /** A platform REST call: `path` relative to /rest/api/{3|2}. */
  api<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>(method, `${this.apiPrefix}${path}`, options);
  }

  /** An Agile REST call: `path` relative to /rest/agile/1.0. */
  agile<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>(method, `/rest/agile/1.0${path}`, options);
  }

  /**
   * Sends one request. 429 and 503 are retried after Retry-After (at least minRetryAfterMs) up to maxTries,
   * then reported as `HTTP 429: …`. 500, 502, 504 and network failures are retried the same way (bounded by
   * maxTries) for idempotent requests only (a lost answer to a write may hide a write that happened), then
   * reported as `HTTP 502: …` or thrown as JiraNetworkError. 2xx bodies are parsed as JSON when present.
   * The stop signal ends a retry wait or a request in flight with JiraStoppedError (none is sent once it fired).
   */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.authHeader) headers.Authorization = this.authHeader;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const idempotent = options.idempotent ?? (method === 'GET' || method === 'PUT' || method === 'DELETE');

    for (let attempt = 1; ; attempt++) {
      this.throwIfStopped(method, url);
      this.jiraCalls++;
      let response: Response;
      let text: string;
      try {
        const timeout = AbortSignal.timeout(this.timeoutMs);
        const signal = this.stopSignal ? AbortSignal.any([this.stopSignal, timeout]) : timeout;
        response = await this.fetchFn(url, { method, headers, body, signal });
        text = await response.text();
      } catch (error) {
        this.lastCallAt = this.now();
        this.throwIfStopped(method, url);
        if (idempotent && attempt < this.maxTries) {
          await this.retrySleep(this.minRetryAfterMs, method, url);
          continue;
        }
        throw new JiraNetworkError(`Jira недоступна (${method} ${url.pathname}): ${(error as Error).message}`);
      }
      this.lastCallAt = this.now();
      if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
      const rateLimited = RATE_LIMITED.has(response.status);
      if (rateLimited) this.rateLimited++;
      if ((rateLimited || (idempotent && SERVER_ERRORS.has(response.status))) && attempt < this.maxTries) {
        await this.retrySleep(this.retryDelayMs(response.headers.get('retry-after')), method, url);
        continue;
      }
      throw new JiraHttpError(response.status, jiraErrorText(text, response.statusText));
    }
  }

  private async retrySleep(ms: number, method: string, url: URL): Promise<void> {
    await this.sleep(ms, this.stopSignal);
    this.throwIfStopped(method, url);
  }

  private throwIfStopped(method: string, url: URL): void {
    if (this.stopSignal?.aborted) throw new JiraStoppedError(`остановлено во время запроса к Jira (${method} ${url.pathname})`);
  }

  private retryDelayMs(header: string | null): number {
    let asked = 0;
    if (header) {
      const seconds = Number(header);
      asked = Number.isFinite(seconds) ? seconds * 1000 : Math.max(0, Date.parse(header) - this.now());
      if (!Number.isFinite(asked)) asked = 0;
    }
    return Math.min(Math.max(asked, this.minRetryAfterMs), this.maxRetryAfterMs);
  }
}

/** Jira's error text: errorMessages and `field: message` pairs joined by "; ", else the raw body, else the status text. */
export function jiraErrorText(body: string, statusText: string): string {
  try {
    const parsed = JSON.parse(body) as { errorMessages?: unknown; errors?: unknown; message?: unknown };
    const parts: string[] = [];
    if (Array.isArray(parsed.errorMessages)) parts.push(...parsed.errorMessages.map(String));
    if (parsed.errors && typeof parsed.errors === 'object') {
      for (const [field, message] of Object.entries(parsed.errors as Record<string, unknown>)) parts.push(`${field}: ${String(message)}`);
    }
    if (typeof parsed.message === 'string') parts.push(parsed.message);
    if (parts.length > 0) return parts.join('; ');
  } catch {
    // not JSON: fall through
  }
  const raw = body.trim().replace(/\s+/g, ' ');
  if (raw) return raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  return statusText || 'без текста ответа';
}
