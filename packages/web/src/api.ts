/** The hub's REST API from the page: the client token (when the hub has tokens) and the API's Russian errors. */
const TOKEN_KEY = 'jira-hub-token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The client token, kept for this tab only (sessionStorage). */
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export function authHeaders(): Record<string, string> {
  const t = token.get();
  return t ? { authorization: `Bearer ${t}` } : {};
}

type Listener = (e: ApiError) => void;
const unauthorized = new Set<Listener>();

/** Called when the hub answers 401 (the token is missing or no longer valid): the app shows the sign-in screen. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorized.add(listener);
  return () => unauthorized.delete(listener);
}

async function errorOf(res: Response): Promise<ApiError> {
  let body: { error?: string; detail?: string } = {};
  try {
    body = await res.json();
  } catch {
    // not JSON: a proxy or a dead hub
  }
  return new ApiError(res.status, body.error ?? 'http_error', body.detail ?? `хаб ответил ${res.status} ${res.statusText}`.trim());
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: { ...authHeaders(), ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'хаб недоступен: проверьте, что он запущен');
  }
  if (!res.ok) {
    const err = await errorOf(res);
    if (res.status === 401) for (const l of unauthorized) l(err);
    throw err;
  }
  return (await res.json()) as T;
}

/**
 * Whether the hub lets this caller open `path` (a stream: only its status is read, then it is
 * closed). The dashboard asks GET /events, which only the client token opens: the assistant's token
 * reads the API too, and must still be refused here.
 */
export async function probe(path: string): Promise<void> {
  const controller = new AbortController();
  let res: Response;
  try {
    res = await fetch(path, { headers: authHeaders(), signal: controller.signal });
  } catch {
    throw new ApiError(0, 'network', 'хаб недоступен: проверьте, что он запущен');
  }
  controller.abort();
  if (!res.ok) throw await errorOf(res);
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  upload: <T>(path: string, form: FormData) => request<T>('POST', path, form),
};

/** A query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
