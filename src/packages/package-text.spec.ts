/** The drift's words (GET /packages/{id}/drift, `jira-hub` and MCP): what applying again can settle, and what only a person can. */
import { describe, expect, it } from '@jest/globals';
import { appliedPlanText, applyText, driftText, planSummary, planText } from './package-text.js';
import type { PackagePlanView } from './package.view.js';

const pkg = { id: 3, name: 'Спринт 2', created_at: '2026-12-02T10:00:00.000Z', batch_id: 9, applied_from: null };
const field = (f: string, wanted: string, actual: string) => ({ key: 'A-2', jira_key: 'A-2', row: 2, field: f, wanted, actual });

describe('driftText', () => {
  it('a field applying again brings back: the way back is offered', () => {
    const text = driftText({ package: pkg, fields: [field('duedate', '2026-12-01', '2026-12-20')], links: [], matches: false, batch_status: 'done' });
    expect(text).toContain('Вернуть: jira-hub apply <папка>');
    expect(text).not.toContain('вручную');
  });

  it('only a type or parent Jira changed: no way back is offered that could not settle it; a person changes them', () => {
    const text = driftText({ package: pkg, fields: [field('parent', 'A-1', 'A-7'), field('issue_type', 'Story', 'Bug')], links: [], matches: false, batch_status: 'done' });
    expect(text).not.toContain('jira-hub apply');
    expect(text.split('\n').at(-1)).toBe('Тип и родителя существующей задачи хаб не меняет (A-2): поменяйте их в Jira вручную или в пакете.');
  });

  it("a sprint's null is the backlog, as the plan and the dry run say it", () => {
    const text = driftText({ package: pkg, fields: [{ ...field('sprint', 'Спринт 2', 'x'), actual: null }], links: [], matches: false, batch_status: 'done' });
    expect(text).toContain('sprint: в пакете «Спринт 2», в Jira бэклог');
  });

  it('both: the way back for what it settles, and the words for the rest', () => {
    const text = driftText({ package: pkg, fields: [field('duedate', '2026-12-01', '2026-12-20'), field('parent', 'A-1', 'A-7')], links: [], matches: false, batch_status: 'done' });
    expect(text).toContain('Вернуть: jira-hub apply <папка>');
    expect(text).toContain('поменяйте их в Jira вручную');
  });
});

describe('an apply in words: its text, then the plan under it (CLI and MCP)', () => {
  const mirror = { keys: ['A-2'], missing_keys: ['A-50'], gone_keys: [], oldest_synced_at: null, age_seconds: null };
  const plan = { name: 'Спринт 2', empty: true, commands: [], findings: [], temp_keys: [], mirror, refresh: null, dry_run: null } as unknown as PackagePlanView;
  plan.text = planSummary(plan);

  it('nothing submitted: why is said once, by the apply, not again by the plan under it', () => {
    const lines = [applyText({ package: pkg, batch: null, replayed: false, plan }), appliedPlanText({ batch: null, plan })!].join('\n');
    expect(lines.match(/Команд нет, но сравнить с Jira удалось не всё/g)).toHaveLength(1);
    expect(lines).toContain('нет в зеркале: A-50');
  });

  it('a batch submitted: the plan keeps its first line (what the changes are)', () => {
    const withCommands = { ...plan, text: 'Изменений: 1 (поля: 1).' };
    expect(appliedPlanText({ batch: { id: 12 } as never, plan: withCommands })!.split('\n')[0]).toBe('Изменений: 1 (поля: 1).');
    expect(appliedPlanText({ batch: null, plan: null })).toBeUndefined();
  });
});

describe('planText: the refresh offered first, in words', () => {
  it('says what the refresh does and of how many keys, never the command\'s name', () => {
    const mirror = { keys: ['A-2', 'A-3', 'A-4'], missing_keys: [], gone_keys: [], oldest_synced_at: '2026-12-02T09:00:00.000Z', age_seconds: 3600 };
    const plan = { name: 'Спринт 2', text: 'Jira уже соответствует пакету: менять нечего.', empty: true, commands: [], findings: [], temp_keys: [], mirror, refresh: { type: 'refresh', params: { keys: mirror.keys } }, dry_run: null } as unknown as PackagePlanView;
    const lines = planText(plan).split('\n');
    expect(lines).toContain('Чтобы сравнить со свежими данными, сначала отправьте команду «обновить зеркало: 3 ключа» и постройте план снова.');
    expect(lines.join('\n')).not.toMatch(/refresh/);
  });
});
