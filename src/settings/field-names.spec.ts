import { describe, expect, it } from '@jest/globals';
import { checkParams, COMMAND_TYPES, keyParams, STANDARD_FIELDS } from '@jira-hub/contracts/catalogue';
import { STANDARD_FIELDS as AGENT_STANDARD_FIELDS } from '@jira-hub/agent';
import { BUILT_IN_KEYS } from '../common/index.js';
import { customFieldNameProblems, RESERVED_FIELD_NAMES } from './field-names.js';

describe('RESERVED_FIELD_NAMES', () => {
  it('holds the key params, temp_key, refresh keys and every standard field', () => {
    for (const type of COMMAND_TYPES) for (const name of keyParams(type)) expect(RESERVED_FIELD_NAMES.has(name)).toBe(true);
    for (const name of ['temp_key', 'keys', 'jql', ...Object.keys(STANDARD_FIELDS), ...AGENT_STANDARD_FIELDS]) {
      expect(RESERVED_FIELD_NAMES.has(name)).toBe(true);
    }
  });

  it('holds every param the catalogue requires of some command type', () => {
    for (const type of COMMAND_TYPES) {
      const required = checkParams(type, {}).problems.filter((p) => p.detail === 'обязательный параметр').map((p) => p.param);
      for (const name of required) expect(RESERVED_FIELD_NAMES.has(name)).toBe(true);
    }
  });

  it('holds only names the catalogue knows as params, and the built-in members the validation refuses as keys', () => {
    const known = (name: string) =>
      COMMAND_TYPES.some((type) => !checkParams(type, { [name]: 'x' }).problems.some((p) => p.param === name && p.detail === 'неизвестный параметр'));
    for (const name of RESERVED_FIELD_NAMES) if (!BUILT_IN_KEYS.has(name)) expect([name, known(name)]).toEqual([name, true]);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']) expect(RESERVED_FIELD_NAMES.has(name)).toBe(true);
  });
});

describe('customFieldNameProblems', () => {
  it.each([[[]], [['Story Points', 'customfield_10042']], [['Key', 'Summary', 'parent link', 'keys2']]])('%p → null', (names) => {
    expect(customFieldNameProblems(names)).toBeNull();
  });

  it('names each reserved name once, in the order given', () => {
    expect(customFieldNameProblems(['summary', 'Story Points', 'key', 'summary'])).toBe(
      'имя стандартного параметра команд не может быть именем поля: «summary», «key»',
    );
  });

  it('names each repeated name once', () => {
    expect(customFieldNameProblems(['A', 'B', 'A', 'B', 'A', 'C'])).toBe('повторяется имя поля: «A», «B»');
  });

  it('names both kinds in one sentence', () => {
    expect(customFieldNameProblems(['parent', 'X', 'X', '__proto__', 'constructor'])).toBe(
      'имя стандартного параметра команд не может быть именем поля: «parent»; ' +
        'так называются встроенные свойства объектов, поле с таким именем задать нельзя: «__proto__», «constructor»; повторяется имя поля: «X»',
    );
  });

  it('compares exactly, as the catalogue compares param names', () => {
    expect(customFieldNameProblems(['Story points', 'Story Points', 'Key'])).toBeNull();
  });
});
