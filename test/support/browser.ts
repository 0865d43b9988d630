import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export type { Browser };

/**
 * Debian's Chromium: its headless shell (package chromium-headless-shell, built from the same sources)
 * when installed, else the full browser in its headless mode. The shell renders the page with the same
 * engine but without the browser's own windows and their WebUI renderers: the browser files take half
 * the CPU (decision 1414). CHROMIUM_PATH names another.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'artifacts', 'screenshots');

/** Debian's Chromium, headless; nothing is downloaded. One per test file: each test takes a fresh context. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium-headless-shell or chromium, or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A fresh context (its own storage, like a new profile) with one page. */
export async function openPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'ru-RU', timezoneId: 'UTC', reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page };
}

/**
 * Whether the pictures are taken (decision 1405): in CI's full run (HUB_TEST_FULL=1), when the browser
 * files are run on their own (`npm test -- test/dashboard`), or with HUB_TEST_SCREENSHOTS=1 — not in the
 * everyday grouped `npm test`, where the full-page captures were a third of the browser files' CPU.
 */
export const TAKE_SCREENSHOTS = process.env.HUB_TEST_FULL === '1' || process.env.HUB_TEST_SCREENSHOTS === '1' || process.env.HUB_TEST_GROUPED !== '1';

/** The page as it is now, scrolled to the top, to artifacts/screenshots/<name>.png; the scroll happens whether or not the picture is taken. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0)); // the menu is sticky: a scrolled page would shift it in a full-page shot
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The phone and laptop widths the dashboard is checked at (issue 23). */
export const WIDTHS = { laptop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

/**
 * Screenshots of the page at 1440 and at 390 px wide (artifacts/screenshots/<name>-1440.png, -390.png);
 * the viewport is left at 1440. The page goes through both widths even when no picture is taken, so the
 * tests see the same page either way.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  for (const [, size] of Object.entries(WIDTHS).reverse()) {
    await page.setViewportSize(size);
    await screenshot(page, `${name}-${size.width}`);
  }
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * An automated accessibility pass (axe-core from node_modules, run in the page): the violations of impact
 * serious or critical on the page as it is now.
 */
export async function axe(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the hub's Content-Security-Policy (script-src 'self') refuses an injected <script>.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const violations: AxeViolation[] = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (o: object) => Promise<{ violations: AxeViolation[] }> } }).axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
