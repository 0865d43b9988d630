import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { DASHBOARD_ROOT } from '../../src/dashboard.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'artifacts', 'screenshots');

function newest(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  return Math.max(0, ...readdirSync(path).map((e) => newest(join(path, e))));
}

/** The tests run against the built dashboard: build it when it is missing or older than its sources. */
export function ensureDashboardBuilt(): void {
  const index = join(DASHBOARD_ROOT, 'index.html');
  const web = join(DASHBOARD_ROOT, '..');
  if (existsSync(index) && newest(join(web, 'src')) <= statSync(index).mtimeMs) return;
  execSync('npm run build -w @jira-hub/web', { stdio: 'ignore' });
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with a fresh profile; nothing is downloaded. */
export async function openBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  const profile = mkdtempSync(join(tmpdir(), 'jira-hub-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1360, height: 860 },
    locale: 'ru-RU',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0)); // the menu is sticky: a scrolled page would shift it in a full-page shot
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
