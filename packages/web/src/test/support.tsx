import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { Hub } from '../context';
import type { LiveClient, LiveMessage } from '../live';
import type { Settings } from '../types';

export const SETTINGS: Settings = {
  version: 3,
  pacing: { ensure_issue: 180, ensure_fields: 120, ensure_status: 120, ensure_link: 90, ensure_sprint: 120, ensure_comment: 150, refresh: 60, remove_link: 90, remove_comment: 150, delete_issue: 180 },
  link_types: { блокирует: 'Blocks', связанные: 'Relates' },
  fields: [],
  auto_refresh: { interval_minutes: 0, jql: null },
  backup_keep: 20,
  agent_offline_seconds: 120,
  approval: { assistant: true, client: false, hub: false },
  catalogue_max_age_minutes: 1440,
  audit_retention_days: 90,
  revert: { created_issue_status: 'Done', delete_created: false },
};

/** A live stream the test drives by hand. */
export class FakeLive {
  private readonly listeners = new Set<(m: LiveMessage) => void>();
  subscribe(l: (m: LiveMessage) => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  send(event: string, data: unknown) {
    for (const l of this.listeners) l({ event, data });
  }
}

export function renderWithHub(ui: ReactNode, settings = SETTINGS) {
  const live = new FakeLive();
  const view = render(<Hub.Provider value={{ live: live as unknown as LiveClient, settings }}>{ui}</Hub.Provider>);
  return { ...view, live };
}

type Route = (init: RequestInit | undefined, url: string) => { status?: number; body: unknown };

/** fetch answered by `routes` ("GET /batches?…" → answer); every call is recorded. */
export function fakeFetch(routes: Record<string, Route | unknown>) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
    const key = Object.keys(routes).find((k) => k === `${method} ${url}` || k === `${method} ${url.split('?')[0]}`);
    if (!key) return new Response(JSON.stringify({ error: 'not_found', detail: `нет маршрута ${method} ${url}` }), { status: 404 });
    const route = routes[key];
    const answer = typeof route === 'function' ? (route as Route)(init, url) : { body: route };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

export const summary = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Пакет ${id}`,
  author: 'api',
  created_at: '2026-11-30T10:00:00.000Z',
  cancelled_at: null,
  status: 'queued',
  estimate_seconds: 180,
  remaining_seconds: 180,
  counts: { queued: 2, claimed: 0, done: 0, failed: 0, cancelled: 0, skipped: 0, confirmed_by_state: 0 },
  source: 'client',
  ...extra,
});

/** A package plan as POST /packages/plan answers it: one change to AURORA-2, one finding, a refresh offered. */
export const PACKAGE_PLAN = {
  name: 'Спринт 2',
  empty: false,
  text: 'Изменений: 1 (поля: 1). Замечаний: 1.',
  commands: [{ seq: 1, type: 'ensure_fields', params: { key: 'AURORA-2', duedate: '2026-12-20' }, file: 'issues.csv', row: 3, changes: [{ field: 'duedate', from: '2026-12-01', to: '2026-12-20' }], verdict_text: 'Изменит' }],
  findings: [{ file: 'links.csv', row: 2, code: 'reversed_link', detail: 'в Jira связь Blocks идёт в обратную сторону' }],
  mirror: { keys: ['AURORA-2'], missing_keys: [], age_seconds: 300 },
  refresh: { type: 'refresh', params: { keys: ['AURORA-2'] } },
  dry_run: { awaiting_approval: false, estimate_seconds: 180 },
};
