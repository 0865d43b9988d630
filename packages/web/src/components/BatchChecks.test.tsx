import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BatchChecksPanel } from './BatchChecks';

describe('BatchChecksPanel', () => {
  it('names the commands nobody could judge and the warnings kept', () => {
    render(
      <BatchChecksPanel
        checks={{
          mode: 'warn',
          catalogue: { project_key: 'AURORA', synced_at: '2026-12-02T05:00:00Z', stale: false },
          counts: { will_change: 1, no_change: 0, will_fail: 1, unknown: 1 },
          commands: [
            { seq: 1, verdict: 'will_change', findings: [], notes: [] },
            {
              seq: 2,
              verdict: 'unknown',
              findings: [],
              notes: ['целевой статус «Done»: путь по статусам «Done» (маршрут неизвестен: агент попробует прямой переход)', 'в зеркале нет AURORA-9: тип задачи неизвестен (сначала обновите её в зеркале)'],
            },
            { seq: 3, verdict: 'will_fail', findings: [{ seq: 3, param: 'priority', detail: 'значения «Очень высокий» нет среди допустимых', suggestion: 'одно из: High, Low' }], notes: [] },
          ],
        }}
      />,
    );
    expect(screen.getByText(/Проверки плана по каталогу Jira AURORA: изменят Jira — 1, уже так — 0, не выполнятся — 1, не оценить — 1, с предупреждениями — 1/)).toBeTruthy();
    // The checks' notes as the hub words them: sentences for people, Jira's statuses in «…».
    expect(
      screen.getByText('шаг 2: не оценить — целевой статус «Done»: путь по статусам «Done» (маршрут неизвестен: агент попробует прямой переход); в зеркале нет AURORA-9: тип задачи неизвестен (сначала обновите её в зеркале)'),
    ).toBeTruthy();
    expect(screen.getByText('шаг 3: Приоритет: значения «Очень высокий» нет среди допустимых (одно из: High, Low)')).toBeTruthy();
  });

  it('says nothing for a batch without checks', () => {
    const { container } = render(<BatchChecksPanel checks={null} />);
    expect(container.textContent).toBe('');
  });
});
