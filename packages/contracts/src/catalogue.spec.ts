import { describe, expect, it } from '@jest/globals';
import {
  checkParams,
  COMMAND_TYPES,
  isCommandType,
  keyParams,
  keysNamed,
  STANDARD_PARAM_NAMES,
  summaryTooLong,
  tempKeysNeeded,
  type CommandType,
  type Params,
} from './catalogue.js';

/** The params named by the problems of one check, in order. */
const problemParams = (type: CommandType, params: Params) => checkParams(type, params).problems.map((p) => p.param);

describe('isCommandType', () => {
  it.each([...COMMAND_TYPES])('accepts %s', (t) => {
    expect(isCommandType(t)).toBe(true);
  });
  it.each([['ensure_foo'], ['Refresh'], [''], [null], [undefined], [1]])('rejects %p', (t) => {
    expect(isCommandType(t)).toBe(false);
  });
});

describe('checkParams: valid params (SPEC 4)', () => {
  const valid: [string, CommandType, Params][] = [
    ['ensure_issue minimal', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт' }],
    [
      'ensure_issue with every optional param',
      'ensure_issue',
      { temp_key: 'new:12', issue_type: 'Sub-task', summary: ' Отчёт ', description: '', parent: 'AURORA-1', fields: { customfield_1: 3 } },
    ],
    ['ensure_issue with a temp key parent', 'ensure_issue', { temp_key: 'new:2', issue_type: 'Task', summary: 'x', parent: 'new:1' }],
    ['ensure_fields one standard field', 'ensure_fields', { key: 'AURORA-1', summary: 'Новая тема' }],
    ['ensure_fields on a temp key', 'ensure_fields', { key: 'new:3', priority: 'High' }],
    ['ensure_fields duedate date', 'ensure_fields', { key: 'A-1', duedate: '2026-02-28' }],
    ['ensure_fields duedate leap day', 'ensure_fields', { key: 'A-1', duedate: '2028-02-29' }],
    ['ensure_fields duedate null', 'ensure_fields', { key: 'A-1', duedate: null }],
    ['ensure_fields labels', 'ensure_fields', { key: 'A-1', labels: ['a', 'b'] }],
    ['ensure_fields empty labels', 'ensure_fields', { key: 'A-1', labels: [] }],
    ['ensure_fields assignee null', 'ensure_fields', { key: 'A-1', assignee: null }],
    ['ensure_fields description null', 'ensure_fields', { key: 'A-1', description: null }],
    ['ensure_fields every standard field', 'ensure_fields', { key: 'A_B2-10', summary: 's', description: 'd', duedate: '2026-12-31', labels: ['x'], assignee: 'u', priority: 'Low' }],
    ['ensure_status', 'ensure_status', { key: 'AURORA-1', path: ['В работе', 'Готово'] }],
    ['ensure_status one step', 'ensure_status', { key: 'new:1', path: ['Готово'] }],
    ['ensure_link', 'ensure_link', { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }],
    ['ensure_link with temp keys', 'ensure_link', { source: 'new:1', target: 'new:2', link_type: 'Relates' }],
    ['ensure_sprint', 'ensure_sprint', { key: 'AURORA-1', sprint: 'Спринт 2' }],
    ['ensure_sprint with a board name', 'ensure_sprint', { key: 'AURORA-1', sprint: 'Спринт 2', board: 'AURORA board' }],
    ['ensure_sprint with a board id', 'ensure_sprint', { key: 'AURORA-1', sprint: 'Спринт 2', board: 7 }],
    ['ensure_comment', 'ensure_comment', { key: 'AURORA-1', body: 'Текст' }],
    ['ensure_comment with marker', 'ensure_comment', { key: 'AURORA-1', body: 'Текст', marker: '[hub:1]' }],
    ['refresh keys', 'refresh', { keys: ['AURORA-1', 'new:1'] }],
    ['refresh jql', 'refresh', { jql: 'project = AURORA' }],
  ];
  it.each(valid)('%s', (_name, type, params) => {
    expect(checkParams(type, params)).toEqual({ problems: [], customFields: [] });
  });
});

describe('checkParams: 422 rules (SPEC 4)', () => {
  const invalid: [string, CommandType, Params, string[]][] = [
    // unknown and missing params
    ['ensure_issue unknown param', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'x', colour: 'red' }, ['colour']],
    ['ensure_issue missing temp_key', 'ensure_issue', { issue_type: 'Task', summary: 'x' }, ['temp_key']],
    ['ensure_issue missing issue_type and summary', 'ensure_issue', { temp_key: 'new:1' }, ['issue_type', 'summary']],
    ['ensure_issue blank summary', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: '   ' }, ['summary']],
    ['ensure_issue summary not a string', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 5 }, ['summary']],
    ['ensure_issue fields not an object', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'x', fields: ['a'] }, ['fields']],
    ['ensure_issue fields null', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'x', fields: null }, ['fields']],
    ['ensure_issue bad parent', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'x', parent: 'aurora-1' }, ['parent']],
    // bad temp keys
    ['ensure_issue temp_key is a Jira key', 'ensure_issue', { temp_key: 'AURORA-1', issue_type: 'Task', summary: 'x' }, ['temp_key']],
    ['ensure_issue temp_key new:0', 'ensure_issue', { temp_key: 'new:0', issue_type: 'Task', summary: 'x' }, ['temp_key']],
    ['ensure_issue temp_key new:01', 'ensure_issue', { temp_key: 'new:01', issue_type: 'Task', summary: 'x' }, ['temp_key']],
    ['ensure_issue temp_key NEW:1', 'ensure_issue', { temp_key: 'NEW:1', issue_type: 'Task', summary: 'x' }, ['temp_key']],
    ['ensure_issue temp_key new:x', 'ensure_issue', { temp_key: 'new:x', issue_type: 'Task', summary: 'x' }, ['temp_key']],
    ['ensure_issue temp_key a number', 'ensure_issue', { temp_key: 1, issue_type: 'Task', summary: 'x' }, ['temp_key']],
    // bad keys
    ['ensure_status lower-case key', 'ensure_status', { key: 'aurora-1', path: ['Готово'] }, ['key']],
    ['ensure_status key number 0', 'ensure_status', { key: 'AURORA-0', path: ['Готово'] }, ['key']],
    ['ensure_status key starting with a digit', 'ensure_status', { key: '1A-5', path: ['Готово'] }, ['key']],
    ['ensure_status key without number', 'ensure_status', { key: 'AURORA', path: ['Готово'] }, ['key']],
    ['ensure_sprint key with spaces', 'ensure_sprint', { key: ' AURORA-1', sprint: 'S' }, ['key']],
    ['ensure_comment key not a string', 'ensure_comment', { key: 12, body: 'b' }, ['key']],
    ['ensure_link bad source', 'ensure_link', { source: 'A-1x', target: 'A-2', link_type: 'Blocks' }, ['source']],
    ['ensure_link bad target', 'ensure_link', { source: 'A-1', target: 'new:', link_type: 'Blocks' }, ['target']],
    // ensure_status path
    ['ensure_status empty path', 'ensure_status', { key: 'A-1', path: [] }, ['path']],
    ['ensure_status path not an array', 'ensure_status', { key: 'A-1', path: 'Готово' }, ['path']],
    ['ensure_status path with a blank name', 'ensure_status', { key: 'A-1', path: ['В работе', ' '] }, ['path']],
    ['ensure_status path visiting a status twice', 'ensure_status', { key: 'A-1', path: ['В работе', 'К выполнению', 'в работе ', 'Готово'] }, ['path']],
    ['ensure_status missing path', 'ensure_status', { key: 'A-1' }, ['path']],
    // ensure_link
    ['ensure_link to itself', 'ensure_link', { source: 'A-1', target: 'A-1', link_type: 'Blocks' }, ['target']],
    ['ensure_link temp key to itself', 'ensure_link', { source: 'new:1', target: 'new:1', link_type: 'Blocks' }, ['target']],
    ['ensure_link missing link_type', 'ensure_link', { source: 'A-1', target: 'A-2' }, ['link_type']],
    ['ensure_link empty link_type', 'ensure_link', { source: 'A-1', target: 'A-2', link_type: '' }, ['link_type']],
    // ensure_sprint, ensure_comment
    ['ensure_sprint missing sprint', 'ensure_sprint', { key: 'A-1' }, ['sprint']],
    ['ensure_sprint unknown param', 'ensure_sprint', { key: 'A-1', sprint: 'S', team: 1 }, ['team']],
    ['ensure_sprint blank board', 'ensure_sprint', { key: 'A-1', sprint: 'S', board: ' ' }, ['board']],
    ['ensure_sprint board id 0', 'ensure_sprint', { key: 'A-1', sprint: 'S', board: 0 }, ['board']],
    ['ensure_sprint fractional board id', 'ensure_sprint', { key: 'A-1', sprint: 'S', board: 1.5 }, ['board']],
    ['ensure_sprint board as a list', 'ensure_sprint', { key: 'A-1', sprint: 'S', board: ['x'] }, ['board']],
    ['ensure_comment empty body', 'ensure_comment', { key: 'A-1', body: '' }, ['body']],
    ['ensure_comment empty marker', 'ensure_comment', { key: 'A-1', body: 'b', marker: '' }, ['marker']],
    ['ensure_comment missing key', 'ensure_comment', { body: 'b' }, ['key']],
    // ensure_fields
    ['ensure_fields with no field', 'ensure_fields', { key: 'A-1' }, ['params']],
    ['ensure_fields missing key', 'ensure_fields', { summary: 'x' }, ['key']],
    ['ensure_fields bad key', 'ensure_fields', { key: 'A1', summary: 'x' }, ['key']],
    ['ensure_fields bad date 2026-02-30', 'ensure_fields', { key: 'A-1', duedate: '2026-02-30' }, ['duedate']],
    ['ensure_fields bad date 2026-1-01', 'ensure_fields', { key: 'A-1', duedate: '2026-1-01' }, ['duedate']],
    ['ensure_fields bad date 2027-02-29', 'ensure_fields', { key: 'A-1', duedate: '2027-02-29' }, ['duedate']],
    ['ensure_fields bad date 2026-13-01', 'ensure_fields', { key: 'A-1', duedate: '2026-13-01' }, ['duedate']],
    ['ensure_fields date with time', 'ensure_fields', { key: 'A-1', duedate: '2026-10-13T00:00:00Z' }, ['duedate']],
    ['ensure_fields date as empty string', 'ensure_fields', { key: 'A-1', duedate: '' }, ['duedate']],
    ['ensure_fields labels not strings', 'ensure_fields', { key: 'A-1', labels: ['a', 1] }, ['labels']],
    ['ensure_fields labels a string', 'ensure_fields', { key: 'A-1', labels: 'a' }, ['labels']],
    ['ensure_fields labels null', 'ensure_fields', { key: 'A-1', labels: null }, ['labels']],
    ['ensure_fields blank summary', 'ensure_fields', { key: 'A-1', summary: ' ' }, ['summary']],
    ['ensure_fields description a number', 'ensure_fields', { key: 'A-1', description: 3 }, ['description']],
    ['ensure_fields several bad fields', 'ensure_fields', { key: 'A-1', duedate: '2026-1-01', labels: [1] }, ['duedate', 'labels']],
    // refresh
    ['refresh keys and jql together', 'refresh', { keys: ['A-1'], jql: 'project = A' }, ['params']],
    ['refresh neither keys nor jql', 'refresh', {}, ['params']],
    ['refresh empty keys array', 'refresh', { keys: [] }, ['keys']],
    ['refresh keys with a bad key', 'refresh', { keys: ['A-1', 'b-2'] }, ['keys']],
    ['refresh keys not an array', 'refresh', { keys: 'A-1' }, ['keys']],
    ['refresh empty jql', 'refresh', { jql: ' ' }, ['jql']],
    ['refresh jql over 10,000 characters', 'refresh', { jql: `project = A AND summary ~ "${'x'.repeat(10_000)}"` }, ['jql']],
    ['refresh unknown param', 'refresh', { jql: 'project = A', limit: 5 }, ['limit']],
    ['refresh unknown param only', 'refresh', { limit: 5 }, ['params', 'limit']],
  ];
  it.each(invalid)('%s', (_name, type, params, expected) => {
    const result = checkParams(type, params);
    expect(result.problems.map((p) => p.param)).toEqual(expected);
    for (const p of result.problems) expect(p.detail).toMatch(/\S/);
  });

  it.each([
    [[], 'нужен непустой массив ключей'],
    ['AURORA-1', 'нужен непустой массив ключей'],
    [['AURORA-1', 'AURORA-0', 'new:x', 5], 'нужны ключи Jira (ABC-123) или временные ключи (new:N), а не «AURORA-0», «new:x», 5'],
    [['a', 'b', 'c', 'd', 'e', 'f', 'g'], 'нужны ключи Jira (ABC-123) или временные ключи (new:N), а не «a», «b», «c», «d», «e» и ещё 2'],
  ])('refresh keys %j → %s', (keys, detail) => {
    expect(checkParams('refresh', { keys }).problems).toEqual([expect.objectContaining({ param: 'keys', detail })]);
  });

  it('reports keys+jql and neither with different details', () => {
    const both = checkParams('refresh', { keys: ['A-1'], jql: 'x' }).problems[0]!.detail;
    const neither = checkParams('refresh', {}).problems[0]!.detail;
    expect(both).not.toBe(neither);
  });
});

describe('checkParams: custom fields of ensure_fields', () => {
  it.each([
    ['one custom field', { key: 'A-1', 'Story Points': 5 }, ['Story Points']],
    ['custom beside standard', { key: 'A-1', summary: 'x', customfield_10016: 8, Team: 'Core' }, ['customfield_10016', 'Team']],
    ['standard only', { key: 'A-1', summary: 'x', labels: [] }, []],
  ] as [string, Params, string[]][])('%s', (_name, params, custom) => {
    const result = checkParams('ensure_fields', params);
    expect(result.customFields).toEqual(custom);
    expect(result.problems).toEqual([]);
  });

  it('counts a custom field as a field to set (no "at least one field" problem)', () => {
    expect(problemParams('ensure_fields', { key: 'A-1', Team: null })).toEqual([]);
  });

  it.each(['ensure_issue', 'ensure_status', 'ensure_link', 'ensure_sprint', 'ensure_comment', 'refresh'] as CommandType[])(
    '%s never reports custom fields: an unknown name is a problem',
    (type) => {
      const result = checkParams(type, { Team: 'Core' });
      expect(result.customFields).toEqual([]);
      expect(result.problems.map((p) => p.param)).toContain('Team');
    },
  );
});

describe('checkParams: names of Object.prototype members are params like any other', () => {
  /** One valid params object per type. */
  const VALID: Record<CommandType, Params> = {
    ensure_issue: { temp_key: 'new:1', issue_type: 'Task', summary: 'x' },
    ensure_fields: { key: 'A-1', summary: 'x' },
    ensure_status: { key: 'A-1', path: ['Готово'] },
    ensure_link: { source: 'A-1', target: 'A-2', link_type: 'Blocks' },
    ensure_sprint: { key: 'A-1', sprint: 'S' },
    ensure_comment: { key: 'A-1', body: 'b' },
    refresh: { keys: ['A-1'] },
    refresh_catalogue: {},
    remove_link: { source: 'A-1', target: 'A-2', link_type: 'Blocks' },
    remove_comment: { key: 'A-1', comment_id: '30001' },
    delete_issue: { key: 'A-1', summary: 'x' },
  };
  const BUILT_IN = ['constructor', 'hasOwnProperty', 'valueOf', 'toString', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__'];
  const OTHER_TYPES = COMMAND_TYPES.filter((t) => t !== 'ensure_fields');

  it.each(OTHER_TYPES.flatMap((t) => BUILT_IN.map((name) => [t, name] as const)))('%s + own %s → unknown param', (type, name) => {
    const result = checkParams(type, { ...VALID[type], [name]: 'x' });
    expect(result.problems).toEqual([{ param: name, detail: 'неизвестный параметр' }]);
    expect(result.customFields).toEqual([]);
  });

  it.each(BUILT_IN)('ensure_fields + own %s → a custom field for settings to allow, never a standard field check', (name) => {
    expect(checkParams('ensure_fields', { key: 'A-1', [name]: 'x' })).toEqual({ problems: [], customFields: [name] });
  });

  it.each(COMMAND_TYPES.map((t) => [t] as const))('%s + own "__proto__" (as JSON.parse makes it) → unknown param', (type) => {
    const params = JSON.parse(`{"__proto__": {"key": "A-1", "polluted": 1}}`) as Params;
    Object.assign(params, VALID[type]);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    const result = checkParams(type, params);
    expect(result.problems).toEqual([{ param: '__proto__', detail: 'неизвестный параметр' }]);
    expect(result.customFields).toEqual([]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('ensure_fields with only "__proto__" besides key: no field to set, and an unknown param', () => {
    expect(problemParams('ensure_fields', JSON.parse('{"key": "A-1", "__proto__": {"summary": "x"}}') as Params)).toEqual(['params', '__proto__']);
  });

  it('params inherited from the prototype do not count', () => {
    const inherited = (own: Params, proto: Params): Params => Object.assign(Object.create(proto) as Params, own);
    expect(problemParams('ensure_status', inherited({ key: 'A-1' }, { path: ['Готово'] }))).toEqual(['path']);
    expect(problemParams('ensure_fields', inherited({ summary: 'x' }, { key: 'A-1' }))).toEqual(['key']);
    expect(problemParams('refresh', inherited({}, { jql: 'x' }))).toEqual(['params']);
  });
});

describe('STANDARD_PARAM_NAMES', () => {
  it('lists every standard param of every type once, in catalogue order', () => {
    expect(STANDARD_PARAM_NAMES).toEqual([
      'temp_key',
      'issue_type',
      'summary',
      'description',
      'parent',
      'fields',
      'key',
      'duedate',
      'labels',
      'assignee',
      'priority',
      'path',
      'to',
      'source',
      'target',
      'link_type',
      'sprint',
      'board',
      'body',
      'marker',
      'keys',
      'jql',
      'comment_id',
    ]);
    expect(Object.isFrozen(STANDARD_PARAM_NAMES)).toBe(true);
  });
});

describe('keyParams: the key params depend on the type (SPEC 4)', () => {
  it.each([
    ['ensure_issue', ['parent']],
    ['ensure_fields', ['key']],
    ['ensure_status', ['key']],
    ['ensure_link', ['source', 'target']],
    ['ensure_sprint', ['key']],
    ['ensure_comment', ['key']],
    ['refresh', []],
  ] as [CommandType, string[]][])('%s → %p', (type, names) => {
    expect(keyParams(type)).toEqual(names);
  });
});

describe('keysNamed', () => {
  it.each([
    ['ensure_issue: temp_key then parent', 'ensure_issue', { temp_key: 'new:2', issue_type: 'T', summary: 's', parent: 'new:1' }, ['new:2', 'new:1']],
    ['ensure_issue without parent', 'ensure_issue', { temp_key: 'new:2', issue_type: 'T', summary: 's' }, ['new:2']],
    ['ensure_fields', 'ensure_fields', { key: 'A-1', summary: 'x' }, ['A-1']],
    ['ensure_status', 'ensure_status', { key: 'new:1', path: ['Готово'] }, ['new:1']],
    ['ensure_link source then target', 'ensure_link', { source: 'A-2', target: 'new:1', link_type: 'Blocks' }, ['A-2', 'new:1']],
    ['ensure_sprint', 'ensure_sprint', { key: 'A-3', sprint: 'S' }, ['A-3']],
    ['ensure_comment', 'ensure_comment', { key: 'A-4', body: 'b' }, ['A-4']],
    ['refresh keys with repeats kept', 'refresh', { keys: ['A-1', 'new:1', 'A-1'] }, ['A-1', 'new:1', 'A-1']],
    ['refresh jql names nothing', 'refresh', { jql: 'key = A-1' }, []],
    ['ensure_fields custom fields named parent/source/target are values', 'ensure_fields', { key: 'A-1', parent: 'hello world', source: 'A-7', target: 'new:2' }, ['A-1']],
  ] as [string, CommandType, Params, string[]][])('%s', (_name, type, params, keys) => {
    expect(keysNamed(type, params)).toEqual(keys);
  });
});

describe('tempKeysNeeded', () => {
  it.each([
    ['ensure_issue own temp_key is not a need', 'ensure_issue', { temp_key: 'new:2', issue_type: 'T', summary: 's' }, []],
    ['ensure_issue parent temp key is a need', 'ensure_issue', { temp_key: 'new:2', issue_type: 'T', summary: 's', parent: 'new:1' }, ['new:1']],
    ['ensure_issue Jira parent', 'ensure_issue', { temp_key: 'new:2', issue_type: 'T', summary: 's', parent: 'A-1' }, []],
    ['ensure_fields on a temp key', 'ensure_fields', { key: 'new:3', summary: 'x' }, ['new:3']],
    ['ensure_fields on a Jira key', 'ensure_fields', { key: 'A-1', summary: 'x' }, []],
    ['ensure_link both temp, in order', 'ensure_link', { source: 'new:2', target: 'new:1', link_type: 'Blocks' }, ['new:2', 'new:1']],
    ['ensure_link mixed', 'ensure_link', { source: 'A-1', target: 'new:1', link_type: 'Blocks' }, ['new:1']],
    ['refresh keys without repeats', 'refresh', { keys: ['new:1', 'A-1', 'new:2', 'new:1'] }, ['new:1', 'new:2']],
    ['refresh jql', 'refresh', { jql: 'x' }, []],
    ['ensure_fields custom field parent holding a temp key is no need', 'ensure_fields', { key: 'A-1', parent: 'new:5', source: 'new:6' }, []],
    ['ensure_fields key beside a custom field parent', 'ensure_fields', { key: 'new:1', parent: 'new:5' }, ['new:1']],
  ] as [string, CommandType, Params, string[]][])('%s', (_name, type, params, needed) => {
    expect(tempKeysNeeded(type, params)).toEqual(needed);
  });
});

describe('checkParams: the commands of a revert (SPEC 17.2) and the backlog', () => {
  const problems = (type: CommandType, params: Params) => checkParams(type, params).problems;
  it.each<[CommandType, Params, string[]]>([
    ['remove_link', { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, []],
    ['remove_link', { source: 'A-1', target: 'A-1', link_type: 'Blocks' }, ['target']],
    ['remove_link', { source: 'A-1', target: 'A-2' }, ['link_type']],
    ['remove_comment', { key: 'A-1', comment_id: '30001' }, []],
    ['remove_comment', { key: 'A-1', comment_id: 30001 }, []],
    ['remove_comment', { key: 'A-1', comment_id: 'abc' }, ['comment_id']],
    ['remove_comment', { key: 'A-1', comment_id: 0 }, ['comment_id']],
    ['remove_comment', { key: 'A-1' }, ['comment_id']],
    ['delete_issue', { key: 'A-1', summary: 'Отчёт' }, []],
    ['delete_issue', { key: 'A-1', summary: '  ' }, ['summary']],
    ['delete_issue', { key: 'A-1' }, ['summary']],
    ['ensure_sprint', { key: 'A-1', sprint: null }, []],
    ['ensure_sprint', { key: 'A-1', sprint: '' }, ['sprint']],
    ['ensure_sprint', { key: 'A-1', sprint: 5 }, ['sprint']],
  ])('%s %j → problems in %j', (type, params, expected) => {
    expect(problems(type, params).map((p) => p.param)).toEqual(expected);
  });
});

describe('summaryTooLong: Jira\'s limit in UTF-16 units, as Java\'s String.length() counts (SPEC 16.2)', () => {
  const emoji = (n: number) => '\u{1F600}'.repeat(n);
  it.each<[string, string, string | null]>([
    ['255 letters', 'я'.repeat(255), null],
    ['256 letters', 'я'.repeat(256), 'тема длиннее 255 символов (256)'],
    ['127 emoji and a letter: 255 units', `${emoji(127)}я`, null],
    ['128 emoji: 128 characters, 256 units', emoji(128), 'тема длиннее 255 знаков, как их считает Jira (эмодзи — за два): 256'],
    ['130 emoji', emoji(130), 'тема длиннее 255 знаков, как их считает Jira (эмодзи — за два): 260'],
  ])('%s', (_name, summary, problem) => {
    expect(summaryTooLong(summary)).toBe(problem);
  });
});
