import { describe, expect, it } from 'vitest';
import { describeCommand, linkWord } from './words';

const LINKS = { блокирует: 'Blocks', связанные: 'Relates' };

describe('describeCommand', () => {
  it.each([
    [{ type: 'ensure_link', params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' } }, 'AURORA-1 блокирует AURORA-2'],
    [{ type: 'ensure_link', params: { source: 'AURORA-1', target: 'new:2', link_type: 'Cloners' } }, 'AURORA-1 Cloners new:2'],
    [{ type: 'ensure_sprint', params: { key: 'AURORA-7', sprint: 'Спринт 2' } }, 'AURORA-7 → «Спринт 2»'],
    [{ type: 'ensure_sprint', params: { key: 'AURORA-7', sprint: 'Спринт 2', board: 12 } }, 'AURORA-7 → «Спринт 2» (доска 12)'],
    [{ type: 'ensure_status', params: { key: 'AURORA-3', path: ['In Progress', 'Done'] } }, 'AURORA-3 → статус «Done» (через In Progress)'],
    [{ type: 'ensure_fields', params: { key: 'AURORA-4', duedate: '2026-12-01', labels: ['a', 'b'] } }, 'AURORA-4: срок = 2026-12-01; метки = a, b'],
    [{ type: 'ensure_fields', params: { key: 'AURORA-4', duedate: null } }, 'AURORA-4: срок = пусто'],
    [{ type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Выгрузка', parent: 'AURORA-1' } }, 'Задача new:1: «Выгрузка» (Task) в AURORA-1'],
    [{ type: 'ensure_comment', params: { key: 'AURORA-5', body: 'Готово' } }, 'Комментарий к AURORA-5: «Готово»'],
    [{ type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } }, 'Обновить зеркало: AURORA-1, AURORA-2'],
    [{ type: 'refresh', params: { jql: 'project = AURORA' } }, 'Обновить зеркало по JQL: project = AURORA'],
  ])('%j → %s', (command, words) => {
    expect(describeCommand(command, LINKS)).toBe(words);
  });

  it('names a link type by its package name whatever the letter case', () => {
    expect(linkWord('blocks', LINKS)).toBe('блокирует');
    expect(linkWord('Duplicate', LINKS)).toBe('Duplicate');
  });
});
