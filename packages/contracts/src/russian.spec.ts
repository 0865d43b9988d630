import { describe, expect, it } from '@jest/globals';
import { AGENT_QUIET_WARNING, agentQuietWarning, boardWords, catalogueFieldName, fieldLabel, fieldWords, namesSprintBoard, plural, refreshWords } from './russian.js';

describe('plural', () => {
  it.each([
    [0, 'команд'],
    [1, 'команда'],
    [2, 'команды'],
    [4, 'команды'],
    [5, 'команд'],
    [11, 'команд'],
    [12, 'команд'],
    [14, 'команд'],
    [21, 'команда'],
    [22, 'команды'],
    [101, 'команда'],
    [111, 'команд'],
    [112, 'команд'],
    [1000, 'команд'],
    [-1, 'команда'],
    [-12, 'команд'],
  ])('%d %s', (n, form) => {
    expect(plural(n, 'команда', 'команды', 'команд')).toBe(form);
  });

  it.each([
    [1n, 'команда'],
    [3n, 'команды'],
    [13n, 'команд'],
    [9007199254740993n, 'команды'],
    [-21n, 'команда'],
  ])('%s (bigint) %s', (n, form) => {
    expect(plural(n, 'команда', 'команды', 'команд')).toBe(form);
  });
});

describe('boardWords', () => {
  const boards = [
    { id: 1, name: 'AURORA board' },
    { id: 2, name: 'Команда А' },
  ];

  it('names a board the catalogue knows by its name', () => {
    expect(boardWords(2, boards)).toBe('доска «Команда А»');
  });

  it('says the id of a board the catalogue does not know, or without a catalogue', () => {
    expect(boardWords(7, boards)).toBe('доска 7');
    expect(boardWords(2, undefined)).toBe('доска 2');
    expect(boardWords(2, null)).toBe('доска 2');
    expect(boardWords(2, [])).toBe('доска 2');
  });

  it('takes a board given by its name as it is, and a quote of its own', () => {
    expect(boardWords('Поддержка', boards)).toBe('доска «Поддержка»');
    expect(boardWords(1, boards, (name) => `<${name}>`)).toBe('доска <AURORA board>');
  });
});

describe('namesSprintBoard', () => {
  it('is true for a sprint change that names its board by id, before or after', () => {
    expect(namesSprintBoard([{ what: 'sprint', before: null, after: { id: 7, name: 'Спринт 2', board_id: 2 } }])).toBe(true);
    expect(namesSprintBoard([{ what: 'status', before: 'To Do', after: 'Done' }, { what: 'sprint', before: { id: 7, name: 'Спринт 2', board_id: 2 }, after: null }])).toBe(true);
  });

  it('is false for sprints by name (an older agent), without a board, and for other changes', () => {
    expect(namesSprintBoard([{ what: 'sprint', before: 'Спринт 1', after: null }, { what: 'sprint', before: { id: 7, name: 'Спринт 2', board_id: null }, after: null }])).toBe(false);
    expect(namesSprintBoard([{ what: 'field:board', before: null, after: { board_id: 2 } }])).toBe(false);
    expect(namesSprintBoard([])).toBe(false);
  });
});

describe('agentQuietWarning', () => {
  it('is found by AGENT_QUIET_WARNING whatever the age, among the other warnings, and only it', () => {
    const quiet = agentQuietWarning('1 ч');
    expect(quiet).toBe('Агент не выходил на связь уже 1 ч, а в очереди есть команды.');
    const warning = `Jira отвергает учётные данные агента. ${agentQuietWarning('5 мин')} Агент работает с настройками версии 2, а текущая версия — 3.`;
    expect(warning.replace(AGENT_QUIET_WARNING, agentQuietWarning('6 мин'))).toBe(
      `Jira отвергает учётные данные агента. ${agentQuietWarning('6 мин')} Агент работает с настройками версии 2, а текущая версия — 3.`,
    );
    expect(AGENT_QUIET_WARNING.test('Агент ещё ни разу не выходил на связь, а в очереди есть команды.')).toBe(false);
  });
});

describe('fields in words', () => {
  const fields = [
    { id: 'duedate', name: 'Due date' },
    { id: 'customfield_10020', name: 'Story Points' },
    { id: 'customfield_10030', name: 'Team' },
    { id: 'customfield_10031', name: 'Team' },
  ];

  it('names the standard fields as Jira shows them in Russian, whatever the catalogue says', () => {
    expect(['priority', 'duedate', 'assignee', 'labels', 'sprint', 'status', 'description', 'summary'].map((f) => fieldWords(f, fields))).toEqual([
      'приоритет',
      'срок',
      'исполнитель',
      'метки',
      'спринт',
      'статус',
      'описание',
      'тема',
    ]);
    expect(['duedate', 'priority', 'labels', 'summary'].map((f) => fieldLabel(f))).toEqual(['Срок', 'Приоритет', 'Метки', 'Тема']);
  });

  it('names a custom field by the name the catalogue gives it: by its id, or by its name in any letter case', () => {
    expect(fieldWords('customfield_10020', fields)).toBe('поле «Story Points»');
    expect(fieldWords(' story points', fields)).toBe('поле «Story Points»');
    expect(fieldLabel('customfield_10020', fields)).toBe('Story Points');
    expect(fieldWords('customfield_10020', fields, (name) => `<${name}>`)).toBe('поле <Story Points>');
  });

  it('keeps the own name of a custom field where the catalogue does not know it, has none, or has two of that name', () => {
    expect(fieldWords('customfield_10099', fields)).toBe('поле «customfield_10099»');
    expect(fieldWords('customfield_10020')).toBe('поле «customfield_10020»');
    expect(fieldWords('customfield_10020', null)).toBe('поле «customfield_10020»');
    expect(fieldWords('team', fields)).toBe('поле «team»');
    expect(catalogueFieldName('team', fields)).toBeUndefined();
    expect(fieldLabel('customfield_10099', fields)).toBe('customfield_10099');
  });

  it('takes no member of Object.prototype for the Russian name of a field', () => {
    expect(fieldWords('constructor')).toBe('поле «constructor»');
    expect(fieldLabel('toString')).toBe('toString');
  });
});

describe('refreshWords', () => {
  it('says what a refresh of keys does, with the count in its form', () => {
    expect([1, 3, 5, 21].map(refreshWords)).toEqual(['обновить зеркало: 1 ключ', 'обновить зеркало: 3 ключа', 'обновить зеркало: 5 ключей', 'обновить зеркало: 21 ключ']);
  });
});
