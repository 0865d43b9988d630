import { sleep as realSleep, type Sleep } from './sleep.js';
import type { AgentSettings, ClaimRequest, ClaimResponse, RefreshIssue as HubIssue, RefreshLink as HubLink, ReportAnswer, ReportBody } from '@jira-hub/contracts';

export type { ClaimRequest, ClaimResponse } from '@jira-hub/contracts';

export interface HubClientOptions {
  baseUrl: string;
  /** HUB_AGENT_TOKEN; omitted on a hub without auth. */
  token?: string;
  /** Ends the retries (HubStoppedError) and in-flight requests. */
  stopSignal?: AbortSignal;
  /** First back-off after a failed attempt (default 1000 ms), doubled up to retryMaxMs (default 30000 ms). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Timeout of one request, added to a claim's wait_seconds (default 30000 ms). */
  requestTimeoutMs?: number;
  sleep?: Sleep;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

/** The hub answered, but refused (4xx other than 408/429): retrying the same request will not help. */
export class HubHttpError extends Error {
  /** The hub's explanation: `detail` (else `error`) and the per-field `errors`, e.g. "плохо (result.issues: …)". */
  readonly detail: string | undefined;

  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const detail = hubErrorDetail(body);
    super(`хаб ответил HTTP ${status}${detail ? `: ${detail}` : ''}`);
    this.detail = detail;
  }
}

function hubErrorDetail(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { detail?: unknown; error?: unknown; errors?: unknown };
  const main = typeof b.detail === 'string' ? b.detail : typeof b.error === 'string' ? b.error : undefined;
  const fields = Array.isArray(b.errors)
    ? b.errors.map((e: { field?: unknown; detail?: unknown }) => (e && typeof e === 'object' ? `${String(e.field ?? '')}: ${String(e.detail ?? '')}` : String(e))).join('; ')
    : '';
  if (!fields) return main;
  return main ? `${main} (${fields})` : fields;
}

/** The stop signal fired while the hub was being retried. */
export class HubStoppedError extends Error {
  constructor() {
    super('агент остановлен');
  }
}

/**
 * Client of the hub's agent API (SPEC 6.2, 6.5, 9). An unreachable hub, a 5xx, 408 or 429 is retried with
 * exponential back-off until it answers or the stop signal fires; other 4xx throw HubHttpError.
 */
export class HubClient {
  private readonly baseUrl: string;
  private readonly sleep: Sleep;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: HubClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.sleep = options.sleep ?? realSleep;
    this.fetchFn = options.fetch ?? fetch;
  }

  /**
   * POST /agent/claim; with wait_seconds > 0 the hub holds the request until a command is available.
   * `endSignal` ends this claim alone (HubStoppedError) — the agent's stop ends an idle long poll at once,
   * while a report in flight is still finished. A command the hub handed out as the claim was cut off stays
   * claimed and is handed out again (SPEC 6.3), as when the agent stops right after a claim.
   */
  claim(request: ClaimRequest, endSignal?: AbortSignal): Promise<ClaimResponse> {
    return this.call<ClaimResponse>('POST', '/agent/claim', request, (request.wait_seconds ?? 0) * 1000, endSignal);
  }

  /**
   * POST /agent/commands/{id}/result → the command view (with `next` when the body carried `claim`). Sent
   * again after a lost answer, it goes without `claim`: the hub may have taken the first one and handed out
   * the next command, and each repeat would hand it out again — a delivery counted every time, up to the
   * limit, for a command the agent never saw. The answer then has no `next`, and the agent claims it.
   */
  report(commandId: number, body: ReportBody): Promise<ReportAnswer> {
    const { claim, ...plain } = body;
    return this.call<ReportAnswer>('POST', `/agent/commands/${commandId}/result`, body, 0, undefined, claim === undefined ? undefined : plain);
  }

  /**
   * One part of a large refresh result (SPEC 15.5): POST /agent/commands/{id}/result {status: "partial", part,
   * result} → the command view. Retried like a report: a part sent again after a lost answer changes nothing.
   */
  reportPart(commandId: number, part: number, result: { issues: HubIssue[]; links: HubLink[] }): Promise<{ status?: string }> {
    return this.call('POST', `/agent/commands/${commandId}/result`, { status: 'partial', part, result }, 0);
  }

  /** GET /agent/settings. */
  settings(): Promise<AgentSettings> {
    return this.call<AgentSettings>('GET', '/agent/settings', undefined, 0);
  }

  /** `retryBody`: what an attempt after the first sends instead of `body`. */
  private async call<T>(method: string, path: string, body: unknown, extraTimeoutMs: number, endSignal?: AbortSignal, retryBody?: unknown): Promise<T> {
    const stopSignal = endSignal && this.options.stopSignal ? AbortSignal.any([this.options.stopSignal, endSignal]) : (endSignal ?? this.options.stopSignal);
    const base = this.options.retryBaseMs ?? 1000;
    const max = this.options.retryMaxMs ?? 30_000;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      if (stopSignal?.aborted) throw new HubStoppedError();
      let problem: string;
      try {
        const timeout = AbortSignal.timeout((this.options.requestTimeoutMs ?? 30_000) + extraTimeoutMs);
        const signal = stopSignal ? AbortSignal.any([stopSignal, timeout]) : timeout;
        const sent = attempt > 0 && retryBody !== undefined ? retryBody : body;
        const response = await this.fetchFn(this.baseUrl + path, { method, headers, body: sent === undefined ? undefined : JSON.stringify(sent), signal });
        const text = await response.text();
        const parsed = parseJson(text);
        if (response.ok) return parsed as T;
        if (response.status < 500 && response.status !== 408 && response.status !== 429) throw new HubHttpError(response.status, parsed);
        problem = `HTTP ${response.status}`;
      } catch (error) {
        if (error instanceof HubHttpError) throw error;
        if (stopSignal?.aborted) throw new HubStoppedError();
        problem = (error as Error).message;
      }
      const delay = Math.min(base * 2 ** Math.min(attempt, 20), max);
      this.options.log?.(`hub ${method} ${path} failed (${problem}); retry in ${Math.round(delay / 1000)} s`);
      await this.sleep(delay, stopSignal);
    }
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
