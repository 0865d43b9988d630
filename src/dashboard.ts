import type { DynamicModule } from '@nestjs/common';
import { ServeStaticModule } from '@nestjs/serve-static';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isFileUnder } from './allowed-methods.js';

/** The built dashboard (packages/web/dist), from src/, from dist/src/ and from the bundle in dist/hub/ (scripts/bundle.js) alike. */
export const DASHBOARD_ROOT = fileURLToPath(new URL(/\/dist\/(src|hub)\//.test(import.meta.url) ? '../../packages/web/dist' : '../packages/web/dist', import.meta.url));

/** Routes of the API that the dashboard's index.html never answers. */
export const API_ROUTES = ['/batches', '/commands', '/agent', '/issues', '/notes', '/import', '/settings', '/sync-runs', '/events', '/metrics', '/health', '/docs', '/mcp'];

/** The dashboard is built (`npm run build`): served at `/`. */
const built = (): boolean => existsSync(`${DASHBOARD_ROOT}/index.html`);

/**
 * A path the dashboard answers a GET for: `/` (index.html) or one of its files, as serve-static finds them
 * (the path decoded; no dotfile or `..`, no folder). Another method there is a 405 (allowed-methods.ts).
 */
export function dashboardServes(path: string): boolean {
  if (!built()) return false;
  return path === '/' || isFileUnder(DASHBOARD_ROOT, path);
}

/**
 * The dashboard at `/`: its built files, served by the hub itself (nothing from outside the machine).
 * Only `/` renders index.html (the pages are addressed by the hash), so an unknown API path keeps its
 * JSON 404. Not built (`npm run build` builds it; tests of the API need not): not served.
 */
export function dashboardModules(): DynamicModule[] {
  if (!built()) return [];
  return [
    ServeStaticModule.forRoot({
      rootPath: DASHBOARD_ROOT,
      renderPath: '/',
      exclude: API_ROUTES.map((r) => `${r}/{*rest}`),
      // `redirect: false`: a folder (`/assets`) is no page — the API's JSON 404, not a redirect to `/assets/` and a 404 there.
      serveStaticOptions: { index: false, fallthrough: true, maxAge: 0, redirect: false },
    }),
  ];
}
