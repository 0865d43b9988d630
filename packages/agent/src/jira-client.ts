import { jiraRefusalText } from '@jira-hub/contracts/jira-failure';
import { sleep as realSleep, type Sleep } from './sleep.js';

export type JiraFlavor = 'cloud' | 'dc';

/** Cloud: basic auth with the account e-mail and an API token; DC: bearer personal access token. */
export type JiraAuth = { kind: 'basic'; email: string; apiToken: string } | { kind: 'bearer'; token: string } | { kind: 'none' };

export interface JiraClientOptions {
  baseUrl: string;
  flavor: JiraFlavor;
  auth: JiraAuth;
  /** Tries per request, the first included, before a network failure or a 500/502/504 is given up (default 5). */
  maxTries?: number;
  /** Floor of the wait after a 429/503, and the first back-off step when Jira names no wait (default 5000 ms; Retry-After: 0 happens). */
  minRetryAfterMs?: number;
  /** Ceiling of one back-off wait after a 429/503 without a hint (default 300000 ms = 5 min); Jira's own hint is honoured past it, up to the budget. */
  maxRetryAfterMs?: number;
  /**
   * Total time one request may spend waiting out 429/503 answers (default 1800000 ms = 30 min); the wait that
   * would pass it is shortened to end at the budget, and a 429 after that is thrown (JiraHttpError).
   */
  rateLimitBudgetMs?: number;
  /** One line per rate-limit wait (default: none). */
  log?: (line: string) => void;
  /** Jitter source for back-off without a server hint (default Math.random; tests pass a fixed one). */
  random?: () => number;
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

/**
 * The rate-limit rule's numbers (the options' defaults), as docs/agent-jira.md states them: a wait after a
 * 429/503 is Jira's hint (Retry-After, else X-RateLimit-Reset) but at least `floorMs`, times 1 + up to
 * `hintJitter`; without a hint `floorMs` doubling, times 1 + up to `backoffJitter`, at most `ceilingMs`; every
 * wait cut to end at `budgetMs` of waiting per request.
 */
export const RATE_LIMIT_DEFAULTS = { floorMs: 5000, ceilingMs: 300_000, budgetMs: 30 * 60_000, hintJitter: 0.1, backoffJitter: 0.2 } as const;

/** What a refusal's message names besides Jira's answer (jiraRefusalText words it). */
export interface JiraRefusalContext {
  /** What the request was about (an issue key, «A-1 → A-2», a project key). */
  subject?: string;
  /** The issues the request named: a 404 then says the issue is gone or hidden. */
  issueKeys?: readonly string[];
  /** The fields Jira's `errors` object named. */
  fields?: readonly string[];
  /** A 429/503 given up: the rate-limit waiting spent, in ms. */
  waitedMs?: number;
}

/**
 * A Jira answer other than 2xx; the message says in Russian what happened and what to do, then Jira's own
 * answer: «Jira: задачи A-1 нет … (HTTP 404: Issue does not exist …)» (@jira-hub/contracts/jira-failure).
 */
export class JiraHttpError extends Error {
  readonly subject: string | undefined;
  readonly issueKeys: readonly string[];

  constructor(
    readonly status: number,
    readonly jiraMessage: string,
    context: JiraRefusalContext = {},
  ) {
    super(jiraRefusalText({ status, jiraMessage, ...context }));
    this.subject = context.subject;
    this.issueKeys = context.issueKeys ?? [];
  }
}

/** Codes of Node's network errors in words. */
const NETWORK_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'соединение отклонено — по этому адресу и порту никто не слушает',
  ECONNRESET: 'соединение оборвано',
  ENOTFOUND: 'имя сервера не найдено (DNS)',
  EAI_AGAIN: 'имя сервера не удалось найти (DNS не ответил)',
  ETIMEDOUT: 'соединение не установилось вовремя',
  EHOSTUNREACH: 'сервер недостижим',
  ENETUNREACH: 'сеть недостижима',
  UND_ERR_CONNECT_TIMEOUT: 'соединение не установилось вовремя',
  UND_ERR_SOCKET: 'соединение оборвано',
  CERT_HAS_EXPIRED: 'сертификат TLS сервера просрочен',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'сертификат TLS сервера самоподписан',
  SELF_SIGNED_CERT_IN_CHAIN: 'в цепочке сертификатов TLS самоподписанный сертификат',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'сертификат TLS сервера не удалось проверить',
  ERR_TLS_CERT_ALTNAME_INVALID: 'сертификат TLS выдан на другое имя',
};

/**
 * Why fetch failed, in words: fetch says only «fetch failed» and keeps the reason in `cause` (a Node error
 * code); a request past its time is a TimeoutError. The code stays beside the words, for a search.
 */
export function networkProblem(error: unknown, timeoutMs: number): string {
  if ((error as { name?: unknown } | null)?.name === 'TimeoutError') return `нет ответа за ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} с` : `${timeoutMs} мс`}`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : typeof (error as { code?: unknown } | null)?.code === 'string' ? String((error as { code: string }).code) : undefined;
  if (code) return NETWORK_WORDS[code] ? `${NETWORK_WORDS[code]} (${code})` : `сетевая ошибка ${code}`;
  const message = typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error);
  // fetch never connects to the ports of the WHATWG «bad ports» list (9, 6000, 10080, …).
  if (message === 'bad port') return 'этот порт fetch не открывает (порт из списка «bad ports» WHATWG): укажите адрес Jira с другим портом';
  return `сетевая ошибка: ${message}`;
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
  /** What the request is about (an issue key, "A-1 → A-2", a project key): named in the error message of a refusal. */
  subject?: string;
  /**
   * The issues the request names (its path's issue, a link's two), when a 404 means one of them is missing:
   * the refusal then says so and suggests refreshing it in the mirror. Not for requests about a sprint or a
   * comment, whose 404 means that is missing.
   */
  issueKeys?: readonly string[];
}

/** Jira's hint how long to wait after a 429/503, in ms from `nowMs`; null when it gives none that parses. */
export function serverWaitMs(headers: { get(name: string): string | null }, nowMs: number): { ms: number; source: string } | null {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    // RFC 9110: delay-seconds or an HTTP-date.
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return { ms: Number(retryAfter) * 1000, source: 'Retry-After' };
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return { ms: Math.max(0, at - nowMs), source: 'Retry-After' };
  }
  const reset = headers.get('x-ratelimit-reset')?.trim();
  if (reset) {
    // Cloud sends an ISO 8601 timestamp; some proxies epoch seconds.
    const at = /^\d{9,}$/.test(reset) ? Number(reset) * 1000 : Date.parse(reset);
    if (Number.isFinite(at)) return { ms: Math.max(0, at - nowMs), source: 'X-RateLimit-Reset' };
  }
  return null;
}

/** Rate limiting: retried for every method (Jira refused before doing anything) and counted in rateLimited. */
const RATE_LIMITED = new Set([429, 503]);
/** Jira's 409 to a write that met another one at the same moment ("conflicting update"): retried, bounded by maxTries. */
const CONFLICTING_UPDATE = /conflicting update|conflict/i;
/**
 * Server and gateway errors: retried (bounded) for idempotent requests only, not counted as rate limiting.
 * To a write they leave it unknown whether Jira carried it out (the answer, not the request, may have failed):
 * its caller looks at what Jira shows (ensure_issue, ensure_status).
 */
export const SERVER_ERRORS: ReadonlySet<number> = new Set([500, 502, 504]);

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
  private readonly rateLimitBudgetMs: number;
  private readonly log: ((line: string) => void) | undefined;
  private readonly random: () => number;
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
    this.minRetryAfterMs = options.minRetryAfterMs ?? RATE_LIMIT_DEFAULTS.floorMs;
    this.maxRetryAfterMs = Math.max(this.minRetryAfterMs, options.maxRetryAfterMs ?? RATE_LIMIT_DEFAULTS.ceilingMs);
    this.rateLimitBudgetMs = options.rateLimitBudgetMs ?? RATE_LIMIT_DEFAULTS.budgetMs;
    this.log = options.log;
    this.random = options.random ?? Math.random;
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
   * Sends one request. 429 and 503 (rate limiting) are retried for every method: after Retry-After (seconds or
   * an HTTP date), else X-RateLimit-Reset, else an exponential back-off with jitter (minRetryAfterMs doubling, at
   * most maxRetryAfterMs); each wait at least minRetryAfterMs, one log line each; once rateLimitBudgetMs of
   * waiting is spent, the refusal is thrown (JiraHttpError, its message saying how long the agent waited). 500, 502, 504 and network failures are retried
   * (bounded by maxTries) for idempotent requests only (a lost answer to a write may hide a write that
   * happened), then thrown as JiraHttpError or as JiraNetworkError. 2xx bodies are parsed as JSON
   * when present. The stop signal ends a wait or a request in flight with JiraStoppedError.
   */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.authHeader) headers.Authorization = this.authHeader;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const idempotent = options.idempotent ?? (method === 'GET' || method === 'PUT' || method === 'DELETE');

    let failures = 0;
    let rateLimitWaits = 0;
    let waitedMs = 0;
    for (;;) {
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
        if (idempotent && ++failures < this.maxTries) {
          await this.retrySleep(this.minRetryAfterMs, method, url);
          continue;
        }
        throw new JiraNetworkError(`Jira недоступна (${method} ${url.pathname}): ${networkProblem(error, this.timeoutMs)}`);
      }
      this.lastCallAt = this.now();
      if (response.ok) return parseAnswer<T>(text, response, method, url);
      if (RATE_LIMITED.has(response.status)) {
        this.rateLimited++;
        const remaining = this.rateLimitBudgetMs - waitedMs;
        if (remaining > 0) {
          const hint = serverWaitMs(response.headers, this.now());
          // Jira's hint is honoured even past maxRetryAfterMs (up to the budget): asking again earlier only
          // earns another 429. Hinted waits get up to 10 % jitter on top, so several clients do not come back
          // at the same instant; the back-off has its own.
          const ms = hint
            ? Math.min(Math.max(hint.ms, this.minRetryAfterMs) * (1 + RATE_LIMIT_DEFAULTS.hintJitter * this.random()), remaining)
            : Math.min(Math.max(this.backoffMs(rateLimitWaits), this.minRetryAfterMs), this.maxRetryAfterMs, remaining);
          rateLimitWaits++;
          waitedMs += ms;
          this.log?.(
            `Jira answered ${response.status} to ${method} ${url.pathname}; waiting ${(ms / 1000).toFixed(1)} s ` +
              `(${hint ? hint.source : 'back-off'}), wait ${rateLimitWaits}, ${Math.round(waitedMs / 1000)} s of the ${Math.round(this.rateLimitBudgetMs / 1000)} s budget used`,
          );
          await this.retrySleep(ms, method, url);
          continue;
        }
      } else if (idempotent && SERVER_ERRORS.has(response.status) && ++failures < this.maxTries) {
        await this.retrySleep(this.minRetryAfterMs, method, url);
        continue;
      } else if (response.status === 409 && CONFLICTING_UPDATE.test(text) && ++failures < this.maxTries) {
        // Jira refused the write as a conflicting update (another edit of the issue at the same moment):
        // nothing was written, so any method may be sent again, after a back-off.
        const ms = this.backoffMs(failures - 1);
        this.log?.(`Jira answered 409 (conflicting update) to ${method} ${url.pathname}; trying again in ${(ms / 1000).toFixed(1)} s`);
        await this.retrySleep(ms, method, url);
        continue;
      }
      const context: JiraRefusalContext = { subject: options.subject, issueKeys: options.issueKeys, fields: jiraErrorFields(text) };
      if (RATE_LIMITED.has(response.status)) context.waitedMs = waitedMs;
      throw new JiraHttpError(response.status, jiraErrorText(text, response.statusText), context);
    }
  }

  /** Exponential back-off with up to 20 % jitter: minRetryAfterMs · 2^n, at most maxRetryAfterMs. */
  private backoffMs(previousWaits: number): number {
    const base = this.minRetryAfterMs * 2 ** Math.min(previousWaits, 30);
    return Math.min(this.maxRetryAfterMs, base * (1 + RATE_LIMIT_DEFAULTS.backoffJitter * this.random()));
  }

  private async retrySleep(ms: number, method: string, url: URL): Promise<void> {
    await this.sleep(ms, this.stopSignal);
    this.throwIfStopped(method, url);
  }

  private throwIfStopped(method: string, url: URL): void {
    if (this.stopSignal?.aborted) throw new JiraStoppedError(`остановлено во время запроса к Jira (${method} ${url.pathname})`);
  }
}

/**
 * A 2xx body: JSON, or nothing (204). Anything else did not come from Jira's REST API — a login page of a
 * proxy or SSO in front of Jira, a web site at a wrong JIRA_URL that answers every path with its page — and is
 * an outage in words (JiraNetworkError, decision 1498), never JSON.parse's English: the command is run again,
 * and `--check` shows the line.
 */
function parseAnswer<T>(text: string, response: Response, method: string, url: URL): T {
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    const type = response.headers.get('content-type')?.split(';')[0]?.trim() || 'ответом без Content-Type';
    const shown = text.trim().replace(/\s+/g, ' ');
    const start = shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
    throw new JiraNetworkError(
      `Jira недоступна (${method} ${url.pathname}): по этому адресу отвечает не Jira — HTTP ${response.status} с ${type} вместо JSON («${start}»); ` +
        'проверьте JIRA_URL и нет ли перед Jira прокси или страницы входа',
    );
  }
}

/** The fields Jira's `errors` object names (its keys), in its order; none when the body is not such JSON. */
export function jiraErrorFields(body: string): string[] {
  try {
    const errors = (JSON.parse(body) as { errors?: unknown } | null)?.errors;
    return errors && typeof errors === 'object' && !Array.isArray(errors) ? Object.keys(errors) : [];
  } catch {
    return [];
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
