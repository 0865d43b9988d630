/**
 * Issue 27 in real Chromium: a page on another origin that frames the dashboard gets nothing rendered
 * (clickjacking onto «Одобрить»), and the dashboard and Swagger UI work under the hub's
 * Content-Security-Policy with no violation reported.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { fields, startHub, type TestHub } from './support/app.js';
import { launchChromium, openPage, type Browser } from './support/browser.js';

/** A site of its own (another port: another origin) serving one page. */
async function site(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the hub under its security headers, in Chromium', () => {
  let hub: TestHub;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Content-Security-Policy violations the pages reported, and the browser's console lines about CSP or framing. */
  let violations: string[];

  beforeAll(async () => {
    browser = await launchChromium();
    hub = await startHub();
  }, 120_000);
  beforeEach(async () => {
    ({ context, page } = await openPage(browser));
    violations = [];
    await context.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(t: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI} at ${e.documentURI}`),
      );
    });
    page.on('console', (m) => {
      if (/Content Security Policy|X-Frame-Options|frame-ancestors/i.test(m.text())) violations.push(m.text());
    });
  });
  afterEach(() => context.close());
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('a page on another origin that frames the dashboard gets nothing rendered; its own frame renders', async () => {
    const evil = await site(
      `<!doctype html><h1>Выиграйте приз</h1>
       <iframe id="hub" src="${hub.url}/" width="900" height="600"></iframe>
       <iframe id="own" srcdoc="<p>своя рамка</p>"></iframe>`,
    );
    try {
      await page.goto(evil.url); // waits for the frames' load too
      // The harness sees what a frame renders: the page's own frame shows its text.
      await page.frameLocator('#own').getByText('своя рамка').waitFor();
      const hubFrame = (await (await page.$('#hub'))!.contentFrame())!;
      expect(hubFrame.url()).not.toBe(`${hub.url}/`);
      expect(await hubFrame.locator('#root').count()).toBe(0);
      expect(await hubFrame.getByRole('heading', { name: 'Очередь' }).count()).toBe(0);
      expect(violations.join('\n')).toMatch(/frame-ancestors 'none'/);
    } finally {
      evil.server.close();
    }
  }, 60_000);

  it('the dashboard works under the CSP: live updates over /events, an approval sent from the page', async () => {
    await page.goto(`${hub.url}/`);
    await page.getByRole('heading', { name: 'Очередь' }).waitFor();
    const batch = (
      await hub.http.post('/batches').set('X-Hub-Source', 'assistant').send({ title: 'Под заголовками', commands: [fields('AURORA-1')] }).expect(201)
    ).body;
    await page.getByRole('link', { name: 'Под заголовками' }).click(); // arrived live over /events
    await page.getByRole('button', { name: 'Одобрить' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Одобрить' }).click(); // a POST with the page's Origin
    await page.locator('.card', { hasText: 'Одобрил' }).waitFor();
    expect((await hub.http.get(`/batches/${batch.id}`).expect(200)).body.status).not.toBe('awaiting_approval');
    // The stylesheet applied (the progress track is a flex box; its parts' widths are style properties, allowed).
    expect(await page.locator('.progress-track').first().evaluate((e) => getComputedStyle(e).display)).toBe('flex');
    expect(violations).toEqual([]);
  }, 60_000);

  it('Swagger UI at /docs renders under its CSP and runs a request (Try it out)', async () => {
    await page.goto(`${hub.url}/docs`);
    await page.locator('.swagger-ui .info .title', { hasText: 'Jira Hub' }).waitFor();
    // The page's inline <style> applied (body margin 0), and the SVG sprite is hidden by its style attribute.
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    expect(await page.locator('svg').first().evaluate((e) => e.getBoundingClientRect().height)).toBe(0);
    const health = page.locator('.opblock', { hasText: '/health' }).first();
    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    await health.locator('.responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    expect(violations).toEqual([]);
  }, 60_000);
});
