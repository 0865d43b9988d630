/**
 * The dashboard in real Chromium (Debian's package, driven by playwright-core) against a real hub:
 * live updates without reload, actions with confirmation, import, sign-in. Screenshots of each page
 * go to artifacts/screenshots/ (git-ignored) when taken (decision 1405).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { agentOf, fields, refreshResult, startHub, tempDir, type TestHub } from './support/app.js';
import { axe, launchChromium, openPage, screenshot, screenshots, WIDTHS, type Browser } from './support/browser.js';

const TOKENS = { HUB_CLIENT_TOKEN: 'client-secret', HUB_AGENT_TOKEN: 'agent-secret', HUB_ASSISTANT_TOKEN: 'assistant-secret' };

describe('the dashboard in Chromium', () => {
  let hub: TestHub;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  const outside: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  }, 120_000);
  beforeEach(async () => {
    ({ context, page } = await openPage(browser));
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:')) outside.push(r.url());
    });
  });
  afterEach(async () => {
    await context.close();
    await hub?.close();
    expect(outside).toEqual([]); // nothing is loaded from outside the machine
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(env: Record<string, string> = {}, path = '/') {
    hub = await startHub(env);
    base = hub.url;
    await page.goto(`${base}${path}`);
  }
  const post = (path: string, body: object = {}) => hub.http.post(path).send(body);
  const progress = (p: Page) => p.getByRole('progressbar').first();

  it('is served at / by the hub, and the API keeps its own answers', async () => {
    await open();
    const index = await hub.http.get('/').expect(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.text).toContain('<div id="root">');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index.text)![1];
    await hub.http.get(asset).expect(200).expect('content-type', /javascript/);
    expect((await hub.http.get('/no-such-page').expect(404)).body).toMatchObject({ error: 'not_found' });
    expect((await hub.http.get('/batches').expect(200)).body).toEqual([]);
    await hub.http.get('/docs/json').expect(200);
    await page.getByRole('heading', { name: 'Очередь' }).waitFor();
  }, 60_000);

  it('a batch submitted through the API appears on the open Queue page without reload', async () => {
    await open();
    await page.getByText('Пакетов пока нет.').waitFor();
    await page.getByText('обновляется само').waitFor();
    await post('/batches', { title: 'Спринт 2: сроки', author: 'Анна', commands: [fields('AURORA-1'), fields('AURORA-2')] }).expect(201);
    await page.getByRole('link', { name: 'Спринт 2: сроки' }).waitFor();
    const row = page.locator('tr', { hasText: 'Спринт 2: сроки' });
    await expect(row.getByText('в очереди', { exact: true }).count()).resolves.toBe(1);
    await expect(row.getByText('Анна').count()).resolves.toBe(1);
    await expect(row.getByRole('progressbar').getAttribute('aria-valuemax')).resolves.toBe('3');
    // A filter shows only what fits, and a new batch of another status does not join it.
    await page.getByRole('button', { name: /^завершены/ }).click();
    await page.getByText('Пакетов в статусе «завершён» нет.').waitFor();
    await page.getByRole('button', { name: /^все/ }).click();
    await page.getByRole('link', { name: 'Спринт 2: сроки' }).waitFor();
    await screenshot(page, 'queue');
  }, 60_000);

  it('a planning package the assistant applies joins the open Packages page’s list without reload', async () => {
    await open({}, '/#/packages');
    const agent = agentOf(hub); // the mirror holds AURORA-1, so the package changes it
    await post('/batches', { title: 'Зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-1'] } }] }).expect(201);
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'AURORA-1' }]));
    await page.getByText('Пакетов пока не применяли.').waitFor();
    await page.getByText('обновляется само').waitFor();
    const issues = Buffer.from('Ключ;Срок\nAURORA-1;2026-12-20');
    const applied = (await hub.http.post('/packages/apply').set('X-Hub-Source', 'assistant').attach('issues', issues, 'issues.csv').field('name', 'Спринт ассистента').expect(200)).body;
    await page.getByRole('link', { name: `пакет команд #${applied.batch.id}` }).waitFor();
    await expect(page.getByText('Спринт ассистента', { exact: true }).count()).resolves.toBe(1);
  }, 60_000);

  it('an assistant’s batch is approved from the Batch page, and a fake agent drains it while the progress reaches 100 % live', async () => {
    await open();
    const agent = agentOf(hub);
    const batch = (
      await post('/batches', { title: 'План ассистента', commands: [fields('AURORA-1'), fields('AURORA-2'), fields('AURORA-3')] })
        .set('X-Hub-Source', 'assistant')
        .expect(201)
    ).body;
    expect(batch.status).toBe('awaiting_approval');
    await page.getByRole('link', { name: 'План ассистента' }).waitFor();
    await expect(page.locator(`tr[data-batch="${batch.id}"]`).getByText('ассистент', { exact: true }).count()).resolves.toBe(1);
    await screenshot(page, 'queue-awaiting');
    await page.getByRole('link', { name: 'План ассистента' }).click();
    await page.getByRole('heading', { name: /План ассистента/ }).waitFor();
    expect((await agent.claim()).command).toBeNull(); // the claim never takes a waiting batch's commands
    await screenshot(page, 'batch-awaiting');

    await page.getByRole('button', { name: 'Одобрить' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Одобрить' }).click();
    await page.locator('.card', { hasText: 'Одобрил' }).waitFor();
    await expect(progress(page).getAttribute('aria-valuenow')).resolves.toBe('0');
    const seen: string[] = [];
    for (let c = (await agent.claim()).command; c; c = (await agent.claim()).command) {
      await page.locator(`tr[data-command="${c.id}"]`).getByText('у агента').waitFor();
      seen.push((await progress(page).getAttribute('aria-valuenow'))!);
      await agent.done(c.id, c.type === 'refresh' ? refreshResult([{ key: 'AURORA-1' }]) : { changed: ['duedate'] });
    }
    expect(seen).toEqual(['0', '1', '2', '3']);
    await page.locator('.progress-text', { hasText: '4 ✓' }).waitFor();
    await page.getByText('завершён').first().waitFor();
    // The delivery history of a command, from the page.
    await page.locator(`tr[data-command="${batch.commands[0].id}"]`).getByRole('button', { name: /История выдач/ }).click();
    await page.getByRole('cell', { name: 'выполнена' }).first().waitFor();
    await screenshot(page, 'batch');
    await page.goto(`${base}/#/agent`);
    await page.getByText('на связи', { exact: true }).waitFor();
    await screenshot(page, 'agent');
  }, 60_000);

  it('a batch is rejected from the page with a reason', async () => {
    await open();
    const batch = (await post('/batches', { title: 'Лишний план', commands: [fields('AURORA-1')] }).set('X-Hub-Source', 'assistant').expect(201)).body;
    await page.goto(`${base}/#/batch/${batch.id}`);
    await page.getByRole('button', { name: 'Отклонить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Причина').fill('не тот спринт');
    await dialog.getByRole('button', { name: 'Отклонить' }).click();
    await page.locator('.card', { hasText: 'Отклонён' }).getByText('не тот спринт').waitFor();
    expect((await hub.http.get(`/batches/${batch.id}`).expect(200)).body).toMatchObject({ status: 'cancelled', rejected_reason: 'не тот спринт' });
  }, 60_000);

  it('cancel and retry from the page, with a confirmation, and the API’s refusal shown', async () => {
    await open();
    const batch = (await post('/batches', { title: 'Отмена и повтор', commands: [fields('AURORA-5'), fields('AURORA-6')] }).expect(201)).body;
    const [first, second] = batch.commands;
    await page.goto(`${base}/#/batch/${batch.id}`);
    const row = (id: number) => page.locator(`tr[data-command="${id}"]`);
    await row(first.id).getByRole('button', { name: 'Отменить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Агент её не получит').waitFor();
    await dialog.getByRole('button', { name: 'Отменить команду' }).click();
    await row(first.id).getByText('отменена').waitFor();

    // Refused: the command is cancelled meanwhile; the dialog shows the hub's Russian detail.
    await row(second.id).getByRole('button', { name: 'Отменить' }).click();
    await post(`/commands/${second.id}/cancel`).expect(200);
    await page.getByRole('dialog').getByRole('button', { name: 'Отменить команду' }).click();
    await page.getByRole('dialog').getByRole('alert').getByText(/уже завершена|cancelled/).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Не отменять' }).click();

    await row(first.id).getByRole('button', { name: 'Повторить' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Повторить' }).click();
    await page.getByRole('heading', { name: `Повтор команды #${first.id}` }).waitFor();
    await expect(page.url()).not.toContain(`/batch/${batch.id}`);
    await screenshot(page, 'retry');
  }, 60_000);

  it('an import shows a reversed link', async () => {
    await open();
    const agent = agentOf(hub);
    await post('/batches', { title: 'Зеркало', commands: [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }] }).expect(201);
    const { command } = await agent.claim();
    await agent.done(
      command.id,
      refreshResult(
        [
          { key: 'AURORA-1', summary: 'Выгрузка отчётов', status: 'In Progress', sprint: 'Спринт 2' },
          { key: 'AURORA-2', summary: 'Права доступа', status: 'To Do', sprint: 'Спринт 2' },
        ],
        [{ source_key: 'AURORA-2', target_key: 'AURORA-1', link_type: 'Blocks' }],
      ),
    );
    await page.goto(`${base}/#/import`);
    await page.locator('input[name="links"]').setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from('Откуда,Тип,Куда\nAURORA-1,блокирует,AURORA-2\n') });
    await page.locator('input[name="notes"]').setInputFiles({
      name: 'notes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Ключ,Факт. статус,Комментарий (внутр.)\nAURORA-1,в работе,ждём подрядчика\n'),
    });
    await page.getByRole('button', { name: 'Загрузить' }).click();
    const reversed = page.getByLabel('Связи наоборот');
    await reversed.getByRole('cell', { name: 'блокирует', exact: true }).waitFor();
    await reversed.getByRole('cell', { name: 'AURORA-2 блокирует AURORA-1' }).waitFor();
    await expect(reversed.getByRole('row').count()).resolves.toBe(2);
    await screenshot(page, 'import');

    await page.goto(`${base}/#/mirror/AURORA-1`);
    await page.getByText('AURORA-2 блокирует AURORA-1').waitFor();
    await page.getByLabel('Фактический статус').fill('почти готово');
    await page.getByRole('button', { name: 'Сохранить заметку' }).click();
    await page.getByText('Сохранено').waitFor();
    expect((await hub.http.get('/notes/AURORA-1').expect(200)).body).toMatchObject({ fact_status: 'почти готово', comment: 'ждём подрядчика' });
    await screenshot(page, 'mirror');
  }, 60_000);

  it('settings are saved from the page', async () => {
    await open({}, '/#/settings');
    const pacing = page.getByLabel('связь');
    await pacing.fill('45');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Сохранено, версия 2').waitFor();
    expect((await hub.http.get('/settings').expect(200)).body.pacing.ensure_link).toBe(45);
    // Refused by the hub: its Russian detail is shown, and nothing changes.
    await page.getByLabel('Имена полей через запятую').fill('summary');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByRole('alert').getByText(/summary/).waitFor();
    expect((await hub.http.get('/settings').expect(200)).body).toMatchObject({ version: 2, fields: [] });
    await screenshot(page, 'settings');
  }, 60_000);

  it('with tokens: sign-in takes the client token only', async () => {
    await open(TOKENS);
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    expect(await axe(page)).toEqual([]); // no serious accessibility violation on the sign-in page either
    await screenshots(page, 'signin');
    await page.setViewportSize(WIDTHS.laptop);
    const input = page.getByLabel('Токен клиента');
    await input.fill('wrong');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByText('Токен не подошёл').waitFor();
    for (const other of ['agent-secret', 'assistant-secret']) {
      await input.fill(other);
      await page.getByRole('button', { name: 'Войти' }).click();
      await page.getByText('Это не токен клиента').waitFor();
      await expect(page.getByRole('heading', { name: 'Вход' }).count()).resolves.toBe(1);
    }
    await screenshot(page, 'signin-refused');
    await input.fill('client-secret');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('heading', { name: 'Очередь' }).waitFor();
    await page.getByText('обновляется само').waitFor();
    await post('/batches', { title: 'С токеном', commands: [fields('AURORA-9')] }).set('authorization', 'Bearer client-secret').expect(201);
    await page.getByRole('link', { name: 'С токеном' }).waitFor();
    // The token is kept for the tab: a reload stays signed in.
    await page.reload();
    await page.getByRole('link', { name: 'С токеном' }).waitFor();
  }, 60_000);

  it('reconnects after a hub restart and applies the new hub’s events', async () => {
    const dir = tempDir();
    const env = { HUB_DB_PATH: join(dir, 'hub.sqlite') };
    await open(env);
    await page.getByText('обновляется само').waitFor();
    const port = new URL(base).port;
    await hub.close();
    await page.getByText('нет связи с хабом', { exact: true }).waitFor();
    hub = await startHub(env, undefined, Number(port));
    await page.getByText('обновляется само').waitFor({ timeout: 15_000 });
    await post('/batches', { title: 'После перезапуска', commands: [fields('AURORA-3')] }).expect(201);
    await page.getByRole('link', { name: 'После перезапуска' }).waitFor();
  }, 60_000);
});
