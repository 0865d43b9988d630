import { describe, expect, it } from '@jest/globals';
import { clip } from '../common/index.js';
import { overCapText } from '../packages/index.js';
import { ANSWER_CAP, DETAIL_CAP, fitAnswer, fitDetail, STRING_CAP } from './answer-size.js';
import { fenced } from './fence.js';
import type { BatchView, CommandView, DriftView, HubApi, PackagePlanView, PlannedCommandView, PlanView, RevertView } from './hub-api.js';
import type { ToolAnswer, ToolDef } from './tool.js';
import { BATCH_TOOLS } from './tools/batches.js';
import { PACKAGE_TOOLS } from './tools/packages.js';
import { REVERT_TOOLS } from './tools/revert.js';

describe('fitAnswer', () => {
  it('leaves a small answer as it is', () => {
    expect(fitAnswer({ text: 'Пакет #1', data: { id: 1, list: [1, 2] } })).toEqual({ text: 'Пакет #1', data: { id: 1, list: [1, 2] } });
  });

  it('cuts long strings in the data and halves the longest list until the answer fits, saying so', () => {
    const items = Array.from({ length: 400 }, (_, i) => ({ i, text: 'я'.repeat(300) }));
    const fitted = fitAnswer({ text: 'Ответ', data: { items, note: 'ю'.repeat(STRING_CAP + 10) } }, 30_000);
    const data = fitted.data as { items: unknown[]; note: string };
    expect(data.note).toBe(clip('ю'.repeat(STRING_CAP + 10), STRING_CAP));
    expect(data.items.length).toBeLessThan(400);
    expect(fitted.text.length + JSON.stringify(fitted.data).length).toBeLessThanOrEqual(30_000);
    expect(fitted.text).toMatch(/^Ответ\nВ данных items сокращено: оставлено \d+ из 400 \(ответ ограничен по размеру\); сузьте запрос\.$/);
  });

  it('cuts a long text at a line and says how to get the rest', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `строка ${i}`).join('\n');
    const fitted = fitAnswer({ text, data: {} }, 10_000);
    expect(fitted.text.length).toBeLessThan(5_200);
    expect(fitted.text).toMatch(/\nТекст ответа сокращён до \d+ символов \(ответ ограничен по размеру\); сузьте запрос\.$/);
  });

  it('a cut inside fenced Jira text closes the fence: the hub\'s note after it is not read as data', () => {
    const text = `Задача A-1 ${fenced('связи: '.concat('A-2 блокирует A-3; '.repeat(2_000)))}\nЗаметка команды: ${fenced('срочно')}`;
    const fitted = fitAnswer({ text, data: {} }, 10_000);
    const [body, note] = [fitted.text.slice(0, fitted.text.lastIndexOf('\n')), fitted.text.slice(fitted.text.lastIndexOf('\n') + 1)];
    expect(body.endsWith('</jira-data>')).toBe(true);
    expect(body.match(/<jira-data>/g)).toHaveLength(1);
    expect(body.match(/<\/jira-data>/g)).toHaveLength(1);
    expect(note).toMatch(/^Текст ответа сокращён/);
  });
});

/**
 * The tools' answers on large synthetic views, fitted as the server fits them: every one under the cap,
 * the data's paging right after the last item given, text and data showing the same items, and each cut
 * saying where the rest is in words true for that tool.
 */
describe('fitAnswer on the tools of large batches and plans', () => {
  const DASHBOARD = 'http://hub.test';
  const context = { canSubmit: true, dashboard: DASHBOARD };
  const find = (tools: ToolDef[], name: string) => tools.find((t) => t.name === name)!;
  const call = async (t: ToolDef, api: Partial<HubApi>, args: Record<string, unknown>): Promise<ToolAnswer> =>
    fitAnswer(await t.run({ dashboard: DASHBOARD, ...api } as HubApi, t.input.parse(args), context));
  const size = (a: ToolAnswer) => a.text.length + JSON.stringify(a.data).length;
  const long = (n: number, i: number) => `Задача ${i} ${'я'.repeat(n)}`;

  /** A batch of `n` ensure_issue commands, every one done with a change recorded (SPEC 17.1). */
  function executedBatch(n: number): BatchView {
    const commands = Array.from({ length: n }, (_, i) => ({
      id: 1000 + i, batch_id: 5, seq: i + 1, type: 'ensure_issue', status: 'done', deliveries: 1, pause_seconds: 180,
      params: { temp_key: `new:${i + 1}`, issue_type: 'Task', summary: long(200, i), description: long(3000, i) },
      claimed_at: '2026-11-30T10:00:00.000Z', finished_at: '2026-11-30T10:01:00.000Z', result: { key: `AURORA-${i + 1}`, created: true },
      error: null, jira_calls: 2, rate_limited: 0, retry_of: null, history: [], changes: [],
    })) as unknown as CommandView[];
    const changes = Object.fromEntries(commands.map((c, i) => [`AURORA-${i + 1}`, [{ key: `AURORA-${i + 1}`, what: 'issue', after: { summary: long(300, i) } }]]));
    return {
      id: 5, title: 'Шестьсот задач', author: 'Иванов', created_at: '2026-11-30T10:00:00.000Z', cancelled_at: null, source: 'client',
      awaiting_approval_since: null, approved_by: null, approved_at: null, rejected_reason: null, runnable_at: null, status: 'done',
      estimate_seconds: 1000, remaining_seconds: 0, counts: { done: n }, revert_of: null, checks: null, changes, commands,
    } as unknown as BatchView;
  }
  const getBatch = find(BATCH_TOOLS, 'get_batch');
  const batchApi = { getBatch: async () => executedBatch(600) };

  it('get_batch summary of 600 executed commands fits, cutting the changes by issue and saying where the whole batch is', async () => {
    const answer = await call(getBatch, batchApi, { batch_id: 5 });
    expect(size(answer)).toBeLessThanOrEqual(ANSWER_CAP);
    const data = answer.data as { changes: object; created_keys: object };
    expect(Object.keys(data.changes).length).toBeGreaterThan(0);
    expect(Object.keys(data.changes).length).toBeLessThan(600);
    expect(answer.text).toMatch(new RegExp(`В данных changes сокращено: оставлено ${Object.keys(data.changes).length} из 600 \\(ответ ограничен по размеру\\); весь пакет — GET /batches/5 \\(REST хаба\\) или страница http://hub\\.test/#/batch/5`));
    expect(answer.text).not.toMatch(/запросите остальное через offset/);
  });

  it('get_batch commands with limit 5 keeps the 5 commands and cuts the changes instead', async () => {
    const answer = await call(getBatch, batchApi, { batch_id: 5, view: 'commands', limit: 5 });
    expect(size(answer)).toBeLessThanOrEqual(ANSWER_CAP);
    expect(answer.data).toMatchObject({ offset: 0, next_offset: 5, commands: expect.arrayContaining([]) });
    expect((answer.data as { commands: unknown[] }).commands).toHaveLength(5);
    expect(answer.text).toMatch(/Показаны команды 1–5 из 600; дальше — offset: 5\./);
    expect(answer.text).not.toMatch(/список commands сокращён/i);
    expect(answer.text).toMatch(/В данных changes сокращено: оставлено \d+ из 600/);
  });

  it('get_batch commands with limit 100 gives as many commands in the data as in the text, next_offset right after the last', async () => {
    const answer = await call(getBatch, batchApi, { batch_id: 5, view: 'commands', offset: 10, limit: 100 });
    expect(size(answer)).toBeLessThanOrEqual(ANSWER_CAP);
    const data = answer.data as { commands: { seq: number }[]; next_offset: number };
    const shown = data.commands.length;
    expect(shown).toBeGreaterThan(1);
    expect(shown).toBeLessThan(100);
    expect(data.next_offset).toBe(10 + shown);
    expect(data.commands.at(-1)!.seq).toBe(10 + shown);
    expect(answer.text.split('\n').filter((l) => /^#\d+ \(\d+\) ensure_issue/.test(l))).toHaveLength(shown);
    expect(answer.text).toContain(`Показаны команды 11–${10 + shown} из 600; дальше — offset: ${10 + shown}.`);
    expect(answer.text).toContain(`Список commands сокращён до ${shown} из 100 запрошенных (ответ ограничен по размеру); дальше — тот же вызов с offset: ${10 + shown}.`);
  });

  it('plan_batch of 600 long commands with limit 200: data and text show the same commands, next_offset right after them', async () => {
    const commands = Array.from({ length: 600 }, (_, i) => ({
      seq: i + 1, type: 'ensure_issue', params: { temp_key: `new:${i + 1}`, issue_type: 'Task', summary: `Задача ${i}`, description: long(3000, i) },
      check: 'unknown', findings: [], notes: [], tail_refresh: false, verdict: 'would_change', changes: [], unknown_keys: [], why: null, synced_at: null, age_seconds: null,
      text: `Создаст задачу «Задача ${i}».`,
    })) as unknown as PlannedCommandView[];
    const plan = { title: 'Большой', source: 'assistant', awaiting_approval: true, estimate_seconds: 600, remaining_seconds: 600, all_hold: false, counts: {}, ok: true, findings: [], checks: {}, catalogue: null, text: 'Изменит Jira: 600.', commands } as unknown as PlanView;
    const input = Array.from({ length: 600 }, (_, i) => ({ type: 'ensure_issue', params: { temp_key: `new:${i + 1}`, issue_type: 'Task', summary: `Задача ${i}`, description: long(3000, i) } }));
    const answer = await call(find(BATCH_TOOLS, 'plan_batch'), { planBatch: async () => plan }, { title: 'Большой', commands: input, limit: 200 });
    expect(size(answer)).toBeLessThanOrEqual(ANSWER_CAP);
    const data = answer.data as { commands: { seq: number }[]; next_offset: number };
    const shown = data.commands.length;
    expect(shown).toBeGreaterThan(1);
    expect(data.next_offset).toBe(shown);
    expect(data.commands.at(-1)!.seq).toBe(shown);
    expect(answer.text.split('\n').filter((l) => /^\(\d+\) ensure_issue/.test(l))).toHaveLength(shown);
    expect(answer.text).toContain(`Показаны команды 1–${shown} из 600; остальные — тот же вызов с offset: ${shown}.`);
  });

  it('revert_batch of 1,200 commands, which has no paging, says how many it shows and where the whole plan is', async () => {
    const view = {
      dry_run: true, revert_of: 5, title: 'Откат пакета #5', ok: true, findings: [], unchecked: [], conflicts: [], batch: null,
      commands: Array.from({ length: 1200 }, (_, i) => ({ type: 'ensure_fields', params: { key: `AURORA-${i + 1}`, description: long(300, i) } })),
    } as unknown as RevertView;
    const answer = await call(find(REVERT_TOOLS, 'revert_batch'), { revertBatch: async () => view }, { batch_id: 5 });
    expect(size(answer)).toBeLessThanOrEqual(ANSWER_CAP);
    const shown = (answer.data as { commands: unknown[] }).commands.length;
    expect(shown).toBeLessThan(1200);
    expect(answer.text.split('\n').filter((l) => /^\d+\. ensure_fields/.test(l))).toHaveLength(shown);
    expect(answer.text).toContain(
      `Список commands сокращён: показаны первые ${shown} из 1200 (ответ ограничен по размеру); весь план — POST /batches/5/revert?dry_run=true (REST хаба) или кнопка «Откатить…» на странице http://hub.test/#/batch/5.`,
    );
    expect(answer.text).not.toMatch(/offset/);
  });

  it('plan_package of 600 rows, which has no paging, says how many it shows and where the whole plan is', async () => {
    const plan = {
      name: 'Спринт 2', empty: false, text: 'Изменений: 600.', findings: [], refresh: null, dry_run: null,
      mirror: { keys: [], missing_keys: [], gone_keys: [], oldest_synced_at: null, age_seconds: null },
      commands: Array.from({ length: 600 }, (_, i) => ({
        seq: i + 1, type: 'ensure_fields', params: { key: `AURORA-${i + 1}`, summary: long(250, i) }, file: 'issues.csv', row: i + 2,
        changes: [{ field: 'summary', from: long(250, i + 1), to: long(250, i) }], verdict: 'would_change', verdict_text: 'изменит Jira',
      })),
    } as unknown as PackagePlanView;
    const answer = await call(find(PACKAGE_TOOLS, 'plan_package'), { planPackage: async () => plan }, { issues_csv: 'key\n' });
    expect(size(answer)).toBeLessThanOrEqual(ANSWER_CAP);
    const shown = (answer.data as { commands: unknown[] }).commands.length;
    expect(shown).toBeLessThan(600);
    expect(answer.text).toContain(`Список commands сокращён: показаны первые ${shown} из 600 (ответ ограничен по размеру); весь план — POST /packages/plan с теми же файлами (REST хаба) или jira-hub plan <папка> --json.`);
    expect(answer.text).not.toMatch(/offset/);
  });

  it('plan_package over the batch cap: its first line says so and what to do, the cut list inside the cap', async () => {
    const text = `Изменений: 33000 (новые задачи: 33000). ${overCapText(33_000).replace(/^п/, 'П')}. Показаны первые 5000 команд из 33000.`;
    const plan = {
      name: 'Выгрузка', empty: false, text, findings: [], refresh: null, dry_run: null, temp_keys: [],
      over_cap: { commands: 33_000, max_commands: 1000, parts: 33, listed: 5000 },
      mirror: { keys: [], missing_keys: [], gone_keys: [], oldest_synced_at: null, age_seconds: null },
      commands: Array.from({ length: 5000 }, (_, i) => ({
        seq: i + 1, type: 'ensure_issue', params: { temp_key: `new:${i + 1}`, issue_type: 'Task', summary: long(100, i) }, file: 'issues.csv', row: i + 2,
        changes: [{ field: 'issue', from: null, to: long(100, i) }], verdict: null, verdict_text: null,
      })),
    } as unknown as PackagePlanView;
    const answer = await call(find(PACKAGE_TOOLS, 'plan_package'), { planPackage: async () => plan }, { issues_csv: 'key\n' });
    expect(size(answer)).toBeLessThanOrEqual(ANSWER_CAP);
    expect(answer.text.split('\n')[0]).toBe(text);
    expect(answer.text).toContain('хотя бы на 33 части');
    expect(answer.text).not.toContain('После отправки');
    // The cut counts against the whole plan, as the first line does, and says the hub's answer lists only 5000.
    const shown = (answer.data as { commands: unknown[] }).commands.length;
    expect(shown).toBeLessThan(5000);
    expect(answer.text).toContain(
      `Список commands сокращён: показаны первые ${shown} из 33000 (ответ ограничен по размеру; ответ хаба перечисляет только первые 5000); весь план — POST /packages/plan с теми же файлами (REST хаба) или jira-hub plan <папка> --json.`,
    );
  });

  it('plan_package and package_drift of a package with more findings than the hub lists: a further cut counts against findings_total', async () => {
    const findings = Array.from({ length: 1000 }, (_, i) => ({ file: 'issues.csv', row: i + 2, column: 'Тема', code: 'summary_exists', detail: `в зеркале уже есть задача с темой «${long(150, i)}»: AURORA-${i}` }));
    const mirror = { keys: [], missing_keys: [], gone_keys: [], oldest_synced_at: null, age_seconds: null };
    const plan = {
      name: 'Выгрузка', empty: false, text: 'Изменений: 1 (поля: 1). Замечаний: 33000 (показаны первые 1000 из 33000 замечаний).', findings, findings_total: 33_000,
      refresh: null, dry_run: null, temp_keys: [], over_cap: null, mirror,
      commands: [{ seq: 1, type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-01' }, file: 'issues.csv', row: 2, changes: [], verdict: null, verdict_text: null }],
    } as unknown as PackagePlanView;
    const planned = await call(find(PACKAGE_TOOLS, 'plan_package'), { planPackage: async () => plan }, { issues_csv: 'key\n' });
    expect(size(planned)).toBeLessThanOrEqual(ANSWER_CAP);
    const kept = (planned.data as { findings: unknown[] }).findings.length;
    expect(kept).toBeLessThan(1000);
    expect(planned.text).toContain(`В данных findings сокращено: оставлено ${kept} из 33000 (ответ ограничен по размеру; ответ хаба перечисляет только первые 1000)`);
    const drift = {
      package: { id: 3, name: 'Выгрузка', created_at: '2026-11-30T10:00:00.000Z', batch_id: null, applied_from: null },
      batch_status: null, matches: false, fields: [], links: [], findings, findings_total: 33_000, mirror, text: '',
    } as unknown as DriftView;
    const drifted = await call(find(PACKAGE_TOOLS, 'package_drift'), { packageDrift: async () => drift }, { id: 3 });
    expect(size(drifted)).toBeLessThanOrEqual(ANSWER_CAP);
    const left = (drifted.data as { findings: unknown[] }).findings.length;
    expect(drifted.text).toContain('Замечаний к пакету: 33000, показаны первые 1000 из 33000 замечаний.');
    expect(drifted.text).toContain(`В данных findings сокращено: оставлено ${left} из 33000 (ответ ограничен по размеру; ответ хаба перечисляет только первые 1000)`);
  });
});

describe('fitDetail', () => {
  const how = 'исправьте показанные и повторите вызов';

  it('leaves a short detail as it is', () => {
    expect(fitDetail('a: плохо; b: плохо', how, 2)).toBe('a: плохо; b: плохо');
  });

  it('cuts a long list at a joint of findings and says how many there are and how to see them', () => {
    const detail = Array.from({ length: 100 }, (_, i) => `commands.${i}: плохо`).join('; ');
    const fitted = fitDetail(detail, how, 100, 200);
    expect(fitted.length).toBeLessThan(200 + 120);
    expect(fitted).toMatch(/^commands\.0: плохо; .*commands\.\d+: плохо; … Замечаний всего: 100, показаны первые \(ответ ограничен по размеру\); исправьте показанные и повторите вызов\.$/);
  });

  it('cuts one long finding with a note of how much is left out', () => {
    expect(fitDetail('я'.repeat(500), how, undefined, 100)).toBe(`${clip('я'.repeat(500), 100)}; ${how}.`);
  });

  it('counts the detail as JSON carries it: quotes and backslashes twice, so an error answer stays under the cap', () => {
    const detail = Array.from({ length: 300 }, (_, i) => `шаг ${i + 1}: priority: значения «${'"\\'.repeat(150)}${i}» нет`).join('; ');
    const fitted = fitDetail(detail, how, 300);
    expect(JSON.stringify(fitted).length).toBeLessThan(DETAIL_CAP + 500);
    // the text and the data's detail together, as an error answer carries it
    expect(2 * JSON.stringify(fitted).length).toBeLessThan(ANSWER_CAP);
    expect(fitted).toMatch(/; … Замечаний всего: 300, показаны первые/);
  });

  it('fences the findings (quote), and leaves the note of the cut outside the fence', () => {
    const fence = (t: string) => `<jira-data>${t}</jira-data>`;
    const detail = Array.from({ length: 100 }, (_, i) => `commands.${i}: плохо`).join('; ');
    const fitted = fitDetail(detail, how, 100, 200, fence);
    expect(fitted).toMatch(/^<jira-data>commands\.0: плохо; .*commands\.\d+: плохо<\/jira-data>; … Замечаний всего: 100, показаны первые \(ответ ограничен по размеру\); исправьте показанные и повторите вызов\.$/);
    expect(fitDetail('a: плохо', how, 1, 200, fence)).toBe('<jira-data>a: плохо</jira-data>');
  });
});

describe('fitAnswer: a text with one huge line', () => {
  it('is cut inside the line rather than losing everything after its first line', () => {
    const text = `Первая строка.\n${'AURORA-1, '.repeat(20_000)}\nПоследняя строка.`;
    const fitted = fitAnswer({ text, data: {} });
    expect(fitted.text.length).toBeLessThan(ANSWER_CAP);
    expect(fitted.text.length).toBeGreaterThan(ANSWER_CAP / 4);
    expect(fitted.text).toMatch(/^Первая строка\.\nAURORA-1, AURORA-1, /);
    expect(fitted.text).toMatch(/Текст ответа сокращён до \d+ символов/);
  });
});
