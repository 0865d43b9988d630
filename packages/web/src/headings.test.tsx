/**
 * The pages' headings never skip a level (axe's `heading-order`): a section after the page's h1 is an h2,
 * not an h3 — a screen reader's list of headings reads the page's outline from them.
 */
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchPage } from './pages/Batch';
import { ImportPage } from './pages/Import';
import { PackagesPage } from './pages/Packages';
import { SettingsPage } from './pages/Settings';
import { fakeFetch, PACKAGE_PLAN, renderWithHub, SETTINGS, summary } from './test/support';

afterEach(() => vi.unstubAllGlobals());

/** The page's headings as `h<level> text`, in document order. */
const headings = (root: HTMLElement) => [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => `${h.tagName.toLowerCase()} ${h.textContent?.trim()}`);

/** Each heading goes at most one level deeper than the one before it, from the page's one h1. */
function expectNoSkippedLevel(root: HTMLElement) {
  const list = headings(root);
  expect(list[0]).toMatch(/^h1 /);
  list.slice(1).forEach((heading, i) => {
    const [before, level] = [Number(list[i][1]), Number(heading[1])];
    expect({ after: list[i], heading, skips: level > before + 1 }).toEqual({ after: list[i], heading, skips: false });
  });
}

const link = { source: 'A-1', target: 'A-2', link_type: 'Blocks' };
const command = { id: 11, batch_id: 1, seq: 1, type: 'ensure_link', params: link, status: 'done', deliveries: 1, pause_seconds: null, claimed_at: null, finished_at: null, result: null, error: null, jira_calls: 1, rate_limited: 0, retry_of: null };
const changes = { 'A-1': [{ what: 'link', before: null, after: link, command_id: 11, delivery_n: 1, recorded_at: '2026-11-30T10:01:00Z' }] };

const plan = PACKAGE_PLAN;
const applied = { id: 3, name: 'Спринт 1', created_at: '2026-12-01T10:00:00.000Z', batch_id: 9 };

describe('no page skips a heading level (axe heading-order)', () => {
  it('a finished batch: what changed in Jira, then its commands', async () => {
    fakeFetch({ 'GET /batches/1': { ...summary(1, { title: 'Спринт 2', status: 'done' }), commands: [command], changes } });
    const { container } = renderWithHub(<BatchPage id={1} />);
    await screen.findByText('Что изменено в Jira', { selector: 'h1, h2, h3' });
    expectNoSkippedLevel(container);
  });

  it('a batch awaiting approval: its plan, what changed, its commands', async () => {
    fakeFetch({
      'GET /batches/1': { ...summary(1, { title: 'Спринт 2', status: 'awaiting_approval' }), commands: [{ ...command, status: 'queued' }], changes },
      'POST /batches/plan': { ok: true, findings: [], estimate_seconds: 90, commands: [{ seq: 1, type: 'ensure_link', params: link, verdict: 'would_change', check: 'will_change', findings: [] }] },
    });
    const { container } = renderWithHub(<BatchPage id={1} />);
    await screen.findByText('Что изменено в Jira', { selector: 'h1, h2, h3' });
    await screen.findByLabelText('План пакета');
    expectNoSkippedLevel(container);
  });

  it('Packages: a plan with its commands and findings, and the packages applied', async () => {
    fakeFetch({ 'GET /packages': [applied], 'POST /packages/plan': plan });
    const { container } = renderWithHub(<PackagesPage />);
    const input = (await screen.findByText('Выбрать файлы')).parentElement!.querySelector('input')!;
    fireEvent.change(input, { target: { files: [new File(['Ключ\nAURORA-2'], 'issues.csv')] } });
    fireEvent.click(screen.getByText('Построить план'));
    await screen.findByText(plan.text);
    expect(headings(container)).toEqual(expect.arrayContaining([expect.stringMatching(/ Команды/), expect.stringMatching(/ Замечания/), expect.stringMatching(/ Применённые пакеты/)]));
    expectNoSkippedLevel(container);
  });

  it('Packages: the drift of an applied package and the plan back to it', async () => {
    const drift = { package: applied, batch_status: 'done', matches: false, fields: [{ key: 'AURORA-2', jira_key: 'AURORA-2', row: 3, field: 'duedate', wanted: '2026-12-20', actual: '2026-12-24' }], links: [], text: '' };
    fakeFetch({ 'GET /packages/3/drift': drift, 'POST /packages/3/plan': plan });
    const { container } = renderWithHub(<PackagesPage id="3" />);
    fireEvent.click(await screen.findByText('Вернуть к пакету (построить план)'));
    await screen.findByText(plan.text);
    expectNoSkippedLevel(container);
  });

  it('Import: the report\'s panels and the next step after the page\'s title', async () => {
    fakeFetch({ 'POST /import': { notes: 1, expected_links: [link], missing_keys: ['A-9'], missing_links: [link], reversed_links: [], skipped_links: [] } });
    const { container } = renderWithHub(<ImportPage />);
    const input = container.querySelector('input[name="links"]')!;
    fireEvent.change(input, { target: { files: [new File(['Откуда;Тип;Куда\nA-1;блокирует;A-2'], 'links.csv')] } });
    fireEvent.click(screen.getByText('Загрузить'));
    await screen.findByText(/Следующий шаг/);
    expect(headings(container)).toEqual(expect.arrayContaining([expect.stringMatching(/^h2 Связи наоборот/), expect.stringMatching(/^h2 Ключей нет в зеркале/)]));
    expectNoSkippedLevel(container);
  });

  it('a confirmation dialog: its title is the level under the page\'s', async () => {
    fakeFetch({ 'GET /batches/1': { ...summary(1, { title: 'Спринт 2', status: 'queued' }), commands: [{ ...command, status: 'queued' }], changes: {} } });
    renderWithHub(<BatchPage id={1} />);
    fireEvent.click(await screen.findByText('Отменить пакет'));
    const dialog = await screen.findByRole('dialog');
    expect(headings(dialog)).toEqual([expect.stringMatching(/^h2 /)]);
  });

  it('Settings: each section of the form', async () => {
    fakeFetch({});
    const { container } = renderWithHub(<SettingsPage onSaved={() => undefined} />, SETTINGS);
    expect(headings(container)).toHaveLength(6);
    expectNoSkippedLevel(container);
  });
});
