import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, renderWithHub } from '../test/support';
import { PlanPanel, planHeadline, type PlannedCommand } from './PlanView';

afterEach(() => vi.unstubAllGlobals());

const command = (seq: number, verdict: string, check?: string): PlannedCommand => ({ seq, type: 'ensure_fields', params: { key: `A-${seq}` }, verdict, ...(check ? { check } : {}) });

describe('planHeadline: the dry run in a sentence, in words and in Russian numbers', () => {
  it.each([
    [[command(1, 'would_change')], 'Из 1 команды: изменят Jira — 1.'],
    [[command(1, 'would_change'), command(2, 'holds')], 'Из 2 команд: изменят Jira — 1; уже выполнены — 1.'],
    [[command(1, 'holds')], 'Команда уже выполнена по данным зеркала: менять в Jira нечего.'],
    [[command(1, 'holds'), command(2, 'holds'), command(3, 'holds')], 'Все 3 команды уже выполнены по данным зеркала: менять в Jira нечего.'],
    [[command(1, 'cannot_judge', 'unknown')], 'Из 1 команды: не проверить заранее — 1. По каталогу Jira не оценить: 1.'],
  ])('%j → %s', (commands, text) => {
    expect(planHeadline({ commands }, [])).toBe(text);
  });

  it('findings come first, neutral: a batch submitted with warnings has them too', () => {
    expect(planHeadline({ commands: [command(1, 'would_change', 'will_fail')] }, [{ seq: 1, param: 'priority', code: 'value_not_allowed', detail: 'нет такого приоритета' }])).toBe(
      'Проверка по каталогу Jira нашла замечания: 1, они отмечены у команд ниже. Из 1 команды: изменят Jira — 1.',
    );
  });
});

describe('PlanPanel: the alert says when to look', () => {
  const body = { title: 'П', commands: [{ type: 'ensure_fields' as const, params: { key: 'A-1' } }] };
  const answer = (awaiting: boolean) => ({ estimate_seconds: 120, awaiting_approval: awaiting, commands: [{ ...command(1, 'cannot_judge', 'unknown') }], findings: [] });

  it.each([
    [true, 'Проверьте перед одобрением'],
    [false, 'Проверьте перед отправкой'],
  ])('awaiting approval: %s → «%s»', async (awaiting, words) => {
    fakeFetch({ 'POST /batches/plan': answer(awaiting) });
    renderWithHub(<PlanPanel body={body} />);
    expect(await screen.findByText(new RegExp(`^${words}:`))).toBeTruthy();
  });
});

describe('PlanPanel: the differences in words', () => {
  it("a sprint's null is the backlog, as the change record says, not «пусто»", async () => {
    const changes = [{ field: 'sprint', from: 'Спринт 1', to: null }];
    fakeFetch({ 'POST /batches/plan': { estimate_seconds: 0, commands: [{ seq: 1, type: 'ensure_sprint', params: { key: 'A-1', sprint: null }, verdict: 'would_change', changes }], findings: [] } });
    renderWithHub(<PlanPanel body={{ title: 'П', commands: [{ type: 'ensure_sprint', params: { key: 'A-1', sprint: null } }] }} />);
    expect(await screen.findByText('→ бэклог')).toBeTruthy();
  });
});

describe('PlanPanel: what the checks stored otherwise', () => {
  it('shows the notes as the hub words them: sentences for people, not params', async () => {
    const notes = ['тип связи «блокирует» записан как «Blocks»'];
    const route = ['целевой статус «Done»: путь по статусам «In Progress» → «Done» (из «To Do»)'];
    fakeFetch({
      'POST /batches/plan': {
        estimate_seconds: 0,
        commands: [
          { seq: 1, type: 'ensure_link', params: { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, verdict: 'would_change', check: 'will_change', notes },
          { seq: 2, type: 'ensure_status', params: { key: 'A-1', path: ['In Progress', 'Done'] }, verdict: 'would_change', check: 'will_change', notes: route },
        ],
        findings: [],
      },
    });
    const body = { title: 'П', commands: [{ type: 'ensure_link' as const, params: { source: 'A-1', target: 'A-2', link_type: 'блокирует' } }, { type: 'ensure_status' as const, params: { key: 'A-1', to: 'Done' } }] };
    renderWithHub(<PlanPanel body={body} />);
    expect(await screen.findByText(notes[0]!)).toBeTruthy();
    expect(screen.getByText(route[0]!)).toBeTruthy();
  });
});
