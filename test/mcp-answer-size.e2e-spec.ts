/**
 * The answer cap (docs/assistant.md, «Размер ответов») on large batches and plans through a real hub and
 * the SDK's client: every answer under the cap, the data's next_offset right after the last item given,
 * text and data showing the same items, and each cut naming where the rest is in words true for its tool
 * (offset only where the tool pages).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ClaimService } from '../src/delivery/claim.service.js';
import { agentOf, issue, refreshResult, startHub, type TestHub } from './support/app.js';
import { connect, type McpUnderTest } from './support/mcp.js';

const CAP = 60_000;
const size = (r: { content: unknown; structuredContent?: unknown }) => JSON.stringify(r.content).length + JSON.stringify(r.structuredContent ?? {}).length;
const long = (n: number, i: number) => `Задача ${i} ${'я'.repeat(n)}`;

describe('MCP answers of large batches and plans stay under the cap', () => {
  let hub: TestHub;
  let mcp: McpUnderTest;
  let batchId: number;

  beforeAll(async () => {
    hub = await startHub();
    mcp = await connect('http', hub.url);
    // 600 ensure_issue commands, every one done and its created issue recorded (SPEC 17.1), then the tail refresh.
    const commands = Array.from({ length: 600 }, (_, i) => issue(`new:${i + 1}`, long(200, i), { description: long(3000, i) }));
    batchId = (await hub.http.post('/batches').send({ title: 'Шестьсот задач', commands }).expect(201)).body.id;
    // Each report claims the next command (the merged call), through the delivery service: the setup of
    // this file, whose HTTP path the agent's own tests walk (600 requests were most of the file's CPU).
    const claims = hub.app.get(ClaimService);
    let { command } = await agentOf(hub).claim();
    for (let i = 0; i < 600; i++) {
      const key = `AURORA-${i + 1}`;
      const report = { status: 'done' as const, result: { key, created: true }, changes: [{ key, what: 'issue', after: { summary: long(200, i) } }] };
      command = (await claims.reportAndClaim(command.id, report, {})).next.command!;
    }
    await agentOf(hub).done(command.id, refreshResult(Array.from({ length: 600 }, (_, i) => ({ key: `AURORA-${i + 1}`, summary: long(200, i) }))));
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await hub?.close();
  });

  it('get_batch on 600 executed commands: the summary and a page of 5 fit, the changes cut with where the whole batch is', async () => {
    const summary = await mcp.call('get_batch', { batch_id: batchId });
    expect(summary.isError).toBeFalsy();
    expect(size(summary)).toBeLessThan(CAP);
    expect(mcp.text(summary)).toMatch(new RegExp(`В данных changes сокращено: оставлено \\d+ из 600 \\(ответ ограничен по размеру\\); весь пакет — GET /batches/${batchId} \\(REST хаба\\) или страница http://\\S+/#/batch/${batchId}`));

    const page = await mcp.call('get_batch', { batch_id: batchId, view: 'commands', limit: 5 });
    expect(size(page)).toBeLessThan(CAP);
    expect(page.structuredContent).toMatchObject({ offset: 0, next_offset: 5, commands_total: 601 });
    expect(page.structuredContent!.commands).toHaveLength(5);
    expect(mcp.text(page)).toContain('Показаны команды 1–5 из 601; дальше — offset: 5.');
    expect(mcp.text(page)).not.toMatch(/список commands сокращён/i);
  });

  it('get_batch with limit 100 and plan_batch with limit 200: next_offset right after the last item given, the text showing the same items', async () => {
    const page = await mcp.call('get_batch', { batch_id: batchId, view: 'commands', limit: 100 });
    expect(size(page)).toBeLessThan(CAP);
    const given = page.structuredContent!.commands as { seq: number }[];
    expect(given.length).toBeGreaterThan(1);
    expect(page.structuredContent!.next_offset).toBe(given.length);
    expect(given.at(-1)!.seq).toBe(given.length);
    expect(mcp.text(page).split('\n').filter((l) => /^#\d+ \(\d+\) ensure_issue/.test(l))).toHaveLength(given.length);
    expect(mcp.text(page)).toContain(`Показаны команды 1–${given.length} из 601; дальше — offset: ${given.length}.`);

    const commands = Array.from({ length: 600 }, (_, i) => issue(`new:${i + 1}`, `План ${i}`, { description: long(3000, i) }));
    const plan = await mcp.call('plan_batch', { title: 'План', commands, limit: 200 });
    expect(plan.isError).toBeFalsy();
    expect(size(plan)).toBeLessThan(CAP);
    const planned = plan.structuredContent!.commands as { seq: number }[];
    expect(plan.structuredContent!.next_offset).toBe(planned.length);
    expect(planned.at(-1)!.seq).toBe(planned.length);
    expect(mcp.text(plan).split('\n').filter((l) => /^\(\d+\) ensure_issue/.test(l))).toHaveLength(planned.length);
    expect(mcp.text(plan)).toContain(`Показаны команды 1–${planned.length} из 601; остальные — тот же вызов с offset: ${planned.length}.`);
  });

  it('revert_batch and plan_package, which take no offset, say how many they show and where the whole plan is', async () => {
    const revert = await mcp.call('revert_batch', { batch_id: batchId });
    expect(revert.isError).toBeFalsy();
    expect(size(revert)).toBeLessThan(CAP);
    const inverse = (await hub.http.post(`/batches/${batchId}/revert?dry_run=true`).expect(200)).body.commands.length;
    const shown = (revert.structuredContent!.commands as unknown[]).length;
    expect(shown).toBeLessThan(inverse);
    expect(mcp.text(revert)).toContain(
      `Список commands сокращён: показаны первые ${shown} из ${inverse} (ответ ограничен по размеру); весь план — POST /batches/${batchId}/revert?dry_run=true (REST хаба) или кнопка «Откатить…» на странице`,
    );
    expect(mcp.text(revert)).not.toMatch(/offset/);

    const rows = Array.from({ length: 600 }, (_, i) => `new:${i + 1};Task;Новая ${long(200, i)}`);
    const plan = await mcp.call('plan_package', { issues_csv: ['Ключ;Тип;Тема', ...rows].join('\n') });
    expect(plan.isError).toBeFalsy();
    expect(size(plan)).toBeLessThan(CAP);
    const planned = (plan.structuredContent!.commands as unknown[]).length;
    expect(mcp.text(plan)).toContain(`Список commands сокращён: показаны первые ${planned} из 600 (ответ ограничен по размеру); весь план — POST /packages/plan с теми же файлами (REST хаба) или jira-hub plan <папка> --json.`);
    expect(mcp.text(plan)).not.toMatch(/offset/);
  });

  it('list_batches with limit 100 over the cap: text, data and next_before_id on the same batches', async () => {
    for (let i = 0; i < 100; i++) {
      await hub.http.post('/batches').send({ title: long(480, i), commands: [{ type: 'refresh', params: { keys: ['AURORA-1'] } }] }).expect(201);
    }
    const list = await mcp.call('list_batches', { limit: 100 });
    expect(size(list)).toBeLessThan(CAP);
    const given = list.structuredContent!.batches as { id: number }[];
    expect(given.length).toBeLessThan(100);
    expect(list.structuredContent!.next_before_id).toBe(given.at(-1)!.id);
    const lines = mcp.text(list).split('\n').filter((l) => /^Пакет #\d+ /.test(l));
    expect(lines.map((l) => Number(/^Пакет #(\d+)/.exec(l)![1]))).toEqual(given.map((b) => b.id));
    expect(mcp.text(list)).toContain(`Есть ещё: list_batches с before_id: ${given.at(-1)!.id}.`);
    expect(mcp.text(list)).toContain(`Список batches сокращён: показаны первые ${given.length} из 100 (ответ ограничен по размеру); следующие — list_batches с before_id`);
  });
});
