/**
 * The `dashboard` section of `npm run bench` (alone: `npm run bench:dashboard`): the dashboard's targets in Debian's
 * Chromium against a real hub on a temp-file database —
 * - the Queue page with 10,000 batches shows its first page in under 1 s (navigation to the first row);
 * - an event reaches an open page less than 200 ms after the commit that caused it (the bus's
 *   publication right after COMMIT, to the row in the page's DOM; both clocks are this machine's).
 * Reports one figure per target through bench/run.ts. Needs the built
 * dashboard (`npm run build`) and /usr/bin/chromium (or CHROMIUM_PATH).
 */
import 'reflect-metadata';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/common/config.js';
import { DASHBOARD_ROOT } from '../src/dashboard.js';
import { Db } from '../src/database/db.service.js';
import { EventBus } from '../src/events/event-bus.js';
import { BatchesService } from '../src/queue/batches.service.js';
import { DeliveryService } from '../src/delivery/delivery.service.js';
import { BatchRepository } from '../src/queue/batch.repository.js';
import type { CreateBatchDto } from '../src/queue/dto/create-batch.dto.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BATCHES = 10_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1];

/**
 * Notes in the page when each row `tr[attr]` (with `text` in it) first appears, by the page's clock
 * (a MutationObserver); `shownAt` waits for a row's time.
 */
async function watchRows(page: Page, attr: string, text: string): Promise<void> {
  await page.evaluate(
    ({ attr, text }) => {
      const seen: Record<string, number> = {};
      (window as unknown as { seen: Record<string, number> }).seen = seen;
      new MutationObserver(() => {
        for (const row of document.querySelectorAll(`tr[${attr}]`)) {
          const id = row.getAttribute(attr)!;
          if (!(id in seen) && row.textContent?.includes(text)) seen[id] = Date.now();
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    },
    { attr, text },
  );
}

async function shownAt(page: Page, id: number): Promise<number> {
  const handle = await page.waitForFunction((id) => (window as unknown as { seen: Record<string, number> }).seen[id], String(id), { polling: 5 });
  return Number(await handle.jsonValue());
}

/** How a figure is reported (bench/run.ts's `report`, in ms). */
export type DashboardReport = (name: string, value: number, ok: boolean, target: string) => void;

/** The dashboard's figures: the section `dashboard` of bench/run.ts. */
export async function dashboardBench(report: DashboardReport): Promise<void> {
  if (!existsSync(join(DASHBOARD_ROOT, 'index.html'))) throw new Error('the dashboard is not built: run npm run build');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}`);

  const dir = mkdtempSync(join(tmpdir(), 'jira-hub-bench-web-'));
  const app = await createApp(loadConfig({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_LOG_LEVEL: 'error' }), { logger: false });
  const profile = mkdtempSync(join(tmpdir(), 'jira-hub-bench-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1360, height: 860 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

    // 10,000 batches of two commands (the command and its tail refresh), all queued: the worst case
    // for the page's remaining_seconds.
    const t0 = performance.now();
    await app.get(Db).transaction(async (m) => {
      for (let i = 1; i <= BATCHES; i++) {
        const commands = [
          { type: 'ensure_fields', params: { key: `AURORA-${i}`, duedate: '2026-12-01' } },
          { type: 'refresh', params: { keys: [`AURORA-${i}`] } },
        ] as const;
        await app.get(BatchRepository).insert(m, { title: `Пакет ${i}`, author: 'bench', source: 'client', awaitingApproval: false, commands: commands.map((c) => ({ ...c, params: { ...c.params } })) }, new Date().toISOString());
      }
    });
    console.log(`context: ${BATCHES} batches inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const page = browser.pages()[0] ?? (await browser.newPage());
    const loads: number[] = [];
    for (let i = 0; i < 6; i++) {
      await page.goto('about:blank');
      const t = performance.now();
      await page.goto(`${base}/#/queue`);
      await page.locator(`tr[data-batch="${BATCHES}"]`).waitFor();
      loads.push(performance.now() - t);
    }
    loads.shift(); // the first load compiles the page's script cold
    report(`Queue page with ${BATCHES} batches: first page shown, median of ${loads.length}`, median(loads), median(loads) < 1000, '< 1000 ms');

    // Commit → row in the page. The page is open and live; each new batch is created in process, its
    // commit time taken by a bus listener (it runs right after COMMIT), its arrival by a MutationObserver.
    await page.getByText('обновляется само').waitFor();
    const committedAt = new Map<number, number>();
    app.get(EventBus).subscribe((e) => {
      if (e.kind === 'batch' && e.change === 'created') committedAt.set(e.batch_id, Date.now());
    });
    await watchRows(page, 'data-batch', '');
    const batches = app.get(BatchesService);
    const latencies: number[] = [];
    for (let i = 0; i < 30; i++) {
      const { view } = await batches.create({ title: `Живой ${i}`, commands: [{ type: 'ensure_fields', params: { key: 'AURORA-1', duedate: null } }] } as CreateBatchDto, { name: 'bench', source: 'client' });
      latencies.push((await shownAt(page, view.id)) - committedAt.get(view.id)!);
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(`context: commit → Queue page, median ${median(latencies).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms over ${latencies.length} new batches`);
    report(`a new batch reaches the open Queue page after its commit, p95 of ${latencies.length}`, p95(latencies), p95(latencies) < 200, '< 200 ms');

    // Progress: the agent's reports of the oldest batch, seen on its open Batch page.
    await page.goto(`${base}/#/batch/1`);
    await page.getByText('обновляется само').waitFor();
    const reportedAt = new Map<number, number>();
    app.get(EventBus).subscribe((e) => {
      if (e.kind === 'command' && e.change === 'reported') reportedAt.set(e.command_id, Date.now());
    });
    await watchRows(page, 'data-command', 'выполнена');
    const delivery = app.get(DeliveryService);
    const progress: number[] = [];
    for (let i = 0; i < 2; i++) {
      const { command } = await delivery.claim({ agent_version: 'bench' });
      await delivery.report(command!.id, { status: 'done', result: command!.type === 'refresh' ? { issues: [], links: [] } : {} });
      progress.push((await shownAt(page, command!.id)) - reportedAt.get(command!.id)!);
    }
    console.log(`context: commit of a report → Batch page: ${progress.map((x) => `${x.toFixed(0)} ms`).join(', ')}`);
    report('a report reaches the open Batch page after its commit, the slower of 2', Math.max(...progress), Math.max(...progress) < 200, '< 200 ms');
  } finally {
    await browser.close();
    await app.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}
