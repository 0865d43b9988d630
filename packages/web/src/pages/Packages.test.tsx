import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, renderWithHub } from '../test/support';
import { PackagesPage, pickPackage } from './Packages';

afterEach(() => vi.unstubAllGlobals());

const plan = {
  name: 'Спринт 2',
  empty: false,
  text: 'Изменений: 1 (ensure_fields: 1). Замечаний: 1.',
  commands: [{ seq: 1, type: 'ensure_fields', params: { key: 'AURORA-2', duedate: '2026-12-20' }, file: 'issues.csv', row: 3, changes: [{ field: 'duedate', from: '2026-12-01', to: '2026-12-20' }], verdict_text: 'Изменит' }],
  findings: [{ file: 'links.csv', row: 2, code: 'reversed_link', detail: 'в Jira связь Blocks идёт в обратную сторону' }],
  mirror: { keys: ['AURORA-2'], missing_keys: [], age_seconds: 300 },
  refresh: { type: 'refresh', params: { keys: ['AURORA-2'] } },
  dry_run: { awaiting_approval: false, estimate_seconds: 180 },
};

describe('pickPackage', () => {
  it('takes issues.csv, links.csv and notes.csv of a folder in any letter case, and nothing else', () => {
    const file = (name: string) => new File(['x'], name);
    expect(Object.keys(pickPackage([file('Issues.CSV'), file('links.csv'), file('readme.md'), file('notes.csv')])).sort()).toEqual(['issues', 'links', 'notes']);
  });
});

describe('PackagesPage', () => {
  it('plans the picked files and shows the changes, the findings and the age of the mirror', async () => {
    const calls = fakeFetch({ 'GET /packages': [], 'POST /packages/plan': plan });
    renderWithHub(<PackagesPage />);
    const input = (await screen.findByText('Выбрать файлы')).parentElement!.querySelector('input')!;
    fireEvent.change(input, { target: { files: [new File(['Ключ\nAURORA-2'], 'issues.csv')] } });
    fireEvent.click(screen.getByText('Построить план'));
    await screen.findByText(plan.text);
    expect(screen.getByText('duedate: 2026-12-01 → 2026-12-20')).toBeTruthy();
    expect(screen.getByText(/идёт в обратную сторону/)).toBeTruthy();
    expect(screen.getByText(/самые старые данные — 5 мин назад/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toBeInstanceOf(FormData);
  });

  it('shows the drift of an applied package per issue and field, and plans the way back', async () => {
    fakeFetch({
      'GET /packages/3/drift': {
        package: { id: 3, name: 'Спринт 2', created_at: '2026-12-01T10:00:00.000Z', batch_id: 9 },
        batch_status: 'done',
        matches: false,
        fields: [{ key: 'AURORA-2', jira_key: 'AURORA-2', row: 3, field: 'duedate', wanted: '2026-12-20', actual: '2026-12-24' }],
        links: [],
        text: '',
      },
      'POST /packages/3/plan': plan,
    });
    renderWithHub(<PackagesPage id="3" />);
    await screen.findByText('2026-12-24');
    fireEvent.click(screen.getByText('Вернуть к пакету (построить план)'));
    await screen.findByText(plan.text);
  });
});
