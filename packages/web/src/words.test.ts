import { describe, expect, it } from 'vitest';
import { countsText, describeCommand, fieldLabel, linkPhrase, linkWord, outcomeOf, personName, whoMade } from './words';

const LINKS = { блокирует: 'Blocks', связанные: 'Relates' };

describe('describeCommand', () => {
  it.each([
    [{ type: 'ensure_link', params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' } }, 'AURORA-1 блокирует AURORA-2'],
    [{ type: 'ensure_link', params: { source: 'AURORA-1', target: 'new:2', link_type: 'Cloners' } }, 'AURORA-1 клонирует new:2'],
    [{ type: 'ensure_sprint', params: { key: 'AURORA-7', sprint: 'Спринт 2' } }, 'AURORA-7 → «Спринт 2»'],
    [{ type: 'ensure_sprint', params: { key: 'AURORA-7', sprint: 'Спринт 2', board: 12 } }, 'AURORA-7 → «Спринт 2» (доска 12)'],
    [{ type: 'ensure_status', params: { key: 'AURORA-3', path: ['In Progress', 'Done'] } }, 'AURORA-3 → статус «Done» (через In Progress)'],
    // as a revert or a package submits it: the target status, no route yet
    [{ type: 'ensure_status', params: { key: 'AURORA-3', to: 'To Do' } }, 'AURORA-3 → статус «To Do»'],
    [{ type: 'ensure_status', params: { key: 'AURORA-3', to: 'Done', path: ['In Progress', 'Done'] } }, 'AURORA-3 → статус «Done» (через In Progress)'],
    [{ type: 'ensure_fields', params: { key: 'AURORA-4', duedate: '2026-12-01', labels: ['a', 'b'] } }, 'AURORA-4: срок = 1 дек.; метки = a, b'],
    [{ type: 'ensure_fields', params: { key: 'AURORA-4', duedate: null } }, 'AURORA-4: срок = пусто'],
    [{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Выгрузка', parent: 'AURORA-1' } }, 'Задача new:1: «Выгрузка» (Task) в AURORA-1'],
    [{ type: 'ensure_comment', params: { key: 'AURORA-5', body: 'Готово' } }, 'Комментарий к AURORA-5: «Готово»'],
    [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }, 'Обновить зеркало: AURORA-1, AURORA-2'],
    [{ type: 'refresh', params: { jql: 'project = AURORA' } }, 'Обновить зеркало по JQL: project = AURORA'],
  ])('%j → %s', (command, words) => {
    expect(describeCommand(command, LINKS)).toBe(words);
  });

  it('names fields as the pages do: «Срок», «Приоритет»; a custom field by its own name', () => {
    expect(['duedate', 'priority', 'labels', 'status', 'summary', 'customfield_10010'].map(fieldLabel)).toEqual(['Срок', 'Приоритет', 'Метки', 'Статус', 'Тема', 'customfield_10010']);
  });

  it('names a link type by its package name whatever the letter case', () => {
    expect(linkWord('blocks', LINKS)).toBe('блокирует');
    expect(linkWord('Duplicate', LINKS)).toBe('Duplicate');
  });
});

describe('outcomes, counts and who', () => {
  const counts = { queued: 0, claimed: 0, done: 4, failed: 1, cancelled: 0, skipped: 1, confirmed_by_state: 0 };
  it('a finished batch with a failure is «done with errors»; a rejected one is rejected', () => {
    expect(outcomeOf({ status: 'done', counts, rejected_reason: null })).toBe('done_with_errors');
    expect(outcomeOf({ status: 'done', counts: { done: 3 }, rejected_reason: null })).toBe('done');
    expect(outcomeOf({ status: 'cancelled', counts: { cancelled: 2 }, rejected_reason: 'нет' })).toBe('rejected');
  });
  it('counts per row', () => {
    expect(countsText(counts)).toBe('4 ✓ · 1 ✗ · 1 пропущена');
    expect(countsText({ cancelled: 2, queued: 5 })).toBe('2 отменены · 5 в очереди');
  });
  it('never repeats the source in the author', () => {
    expect(whoMade({ source: 'assistant', author: 'assistant' })).toBe('ассистент');
    expect(whoMade({ source: 'client', author: 'api' })).toBe('человек');
    expect(whoMade({ source: 'client', author: 'Анна' })).toBe('человек · Анна');
  });
  it('a link type that is no verb reads as a link, not as a verb', () => {
    expect(linkPhrase('AURORA-2', 'Relates', 'AURORA-1', LINKS)).toBe('AURORA-2 связана с AURORA-1');
    expect(linkPhrase('A-1', 'Depends', 'A-2', { зависит: 'Depends' })).toBe('A-1 —«зависит»→ A-2');
  });
});

describe('personName: a stored approver or author in words', () => {
  it.each([
    ['api', 'человек'],
    ['client', 'человек'],
    ['assistant', 'ассистент'],
    ['Анна', 'Анна'],
    ['ivanov', 'ivanov'],
  ])('%s → %s', (name, words) => {
    expect(personName(name)).toBe(words);
  });
});
