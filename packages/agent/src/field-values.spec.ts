import { describe, expect, it } from '@jest/globals';
import { encodeValue, fieldKind, readOptionIds, readValue, sameValue, type FieldKind, type ResolvedField } from './field-values.js';
import { JiraApi } from './jira-api.js';
import { JiraClient, type JiraFlavor } from './jira-client.js';

const apiOf = (flavor: JiraFlavor): JiraApi =>
  JiraApi.for(
    new JiraClient({
      baseUrl: 'http://127.0.0.1:9',
      flavor,
      auth: { kind: 'bearer', token: 'unused' },
      fetch: () => Promise.reject(new Error('no network in this spec')),
    }),
  );

const SYSTEM = 'com.atlassian.jira.plugin.system.customfieldtypes:';
const field = (kind: FieldKind): ResolvedField => ({ name: `My ${kind}`, id: 'customfield_10999', kind });
const adf = (...lines: string[]) => ({
  type: 'doc',
  version: 1,
  content: lines.map((line) => ({ type: 'paragraph', content: line === '' ? [] : [{ type: 'text', text: line }] })),
});
const ACCOUNT = '557058:f0000000-0000-0000-0000-000000000002';

describe('fieldKind from GET /field schema', () => {
  it.each([
    [{ type: 'option', custom: `${SYSTEM}select` }, 'option'],
    [{ type: 'option', custom: `${SYSTEM}radiobuttons` }, 'option'],
    [{ type: 'array', items: 'option', custom: `${SYSTEM}multiselect` }, 'options'],
    [{ type: 'array', items: 'option', custom: `${SYSTEM}multicheckboxes` }, 'options'],
    [{ type: 'user', custom: `${SYSTEM}userpicker` }, 'user'],
    [{ type: 'number', custom: `${SYSTEM}float` }, 'number'],
    [{ type: 'string', custom: `${SYSTEM}textfield` }, 'string'],
    [{ type: 'date', custom: `${SYSTEM}datepicker` }, 'date'],
    [{ type: 'string', custom: `${SYSTEM}textarea` }, 'textarea'],
    [{ type: 'option-with-child', custom: `${SYSTEM}cascadingselect` }, 'raw'],
    [{ type: 'array', items: 'user', custom: `${SYSTEM}multiuserpicker` }, 'users'],
    [{ type: 'array', items: 'component', system: 'components' }, 'named'],
    [{ type: 'array', items: 'version', system: 'fixVersions' }, 'named'],
    [{ type: 'array', items: 'version', custom: `${SYSTEM}multiversion` }, 'named'],
    [{ type: 'version', custom: `${SYSTEM}version` }, 'version'],
    [{ type: 'string', system: 'environment' }, 'textarea'],
    [{ type: 'string', system: 'description' }, 'textarea'],
    [{ type: 'string', system: 'summary' }, 'string'],
    [{ type: 'array', items: 'json', custom: 'com.pyxis.greenhopper.jira:gh-sprint' }, 'raw'],
    [undefined, 'raw'],
  ] as const)('%j → %s', (schema, kind) => {
    expect(fieldKind(schema === undefined ? undefined : { schema })).toBe(kind);
  });
});

// [kind, flavor, hub value, sent to Jira, Jira's answer, read back]
const ROUND_TRIPS: Array<[FieldKind, JiraFlavor, unknown, unknown, unknown, unknown]> = [
  ['option', 'cloud', 'High', { value: 'High' }, { self: 'x', value: 'High', id: '10001' }, 'High'],
  ['option', 'dc', 'High', { value: 'High' }, { self: 'x', value: 'High', id: '10001' }, 'High'],
  ['option', 'cloud', null, null, null, null],
  ['options', 'cloud', ['a', 'b'], [{ value: 'a' }, { value: 'b' }], [{ value: 'a', id: '1' }, { value: 'b', id: '2' }], ['a', 'b']],
  ['options', 'dc', ['a', 'b'], [{ value: 'a' }, { value: 'b' }], [{ value: 'a', id: '1' }, { value: 'b', id: '2' }], ['a', 'b']],
  ['options', 'dc', [], [], null, []],
  ['user', 'cloud', ACCOUNT, { accountId: ACCOUNT }, { accountId: ACCOUNT, displayName: 'Иван' }, ACCOUNT],
  ['user', 'dc', 'ivanov', { name: 'ivanov' }, { name: 'ivanov', key: 'ivanov', displayName: 'Иван' }, 'ivanov'],
  ['user', 'cloud', null, null, null, null],
  ['number', 'cloud', 3.5, 3.5, 3.5, 3.5],
  ['number', 'dc', 3, 3, 3, 3],
  ['string', 'cloud', 'Альфа', 'Альфа', 'Альфа', 'Альфа'],
  ['string', 'dc', 'Альфа', 'Альфа', 'Альфа', 'Альфа'],
  ['date', 'cloud', '2026-10-13', '2026-10-13', '2026-10-13', '2026-10-13'],
  ['date', 'dc', '', null, null, null],
  ['textarea', 'cloud', 'Строка 1\nСтрока 2', adf('Строка 1', 'Строка 2'), adf('Строка 1', 'Строка 2'), 'Строка 1\nСтрока 2'],
  ['textarea', 'dc', 'Строка 1\nСтрока 2', 'Строка 1\nСтрока 2', 'Строка 1\nСтрока 2', 'Строка 1\nСтрока 2'],
  ['textarea', 'cloud', null, null, null, null],
  ['raw', 'cloud', { value: 'x', child: { value: 'y' } }, { value: 'x', child: { value: 'y' } }, { value: 'x', child: { value: 'y' } }, { value: 'x', child: { value: 'y' } }],
  ['raw', 'dc', 'as is', 'as is', 'as is', 'as is'],
];

describe.each(ROUND_TRIPS)('%s on %s: %j', (kind, flavor, hub, sent, answer, read) => {
  const api = apiOf(flavor);
  it('encodes to Jira\'s shape', () => {
    expect(encodeValue(api, field(kind), hub)).toEqual(sent);
  });
  it('decodes Jira\'s answer to the plain form', () => {
    expect(readValue(api, field(kind), answer)).toEqual(read);
  });
  it('the read-back value equals the hub value', () => {
    expect(sameValue(field(kind), readValue(api, field(kind), answer), hub)).toBe(true);
  });
});

describe('objects are sent as given', () => {
  it.each([
    ['option', { id: '10001' }],
    ['user', { accountId: ACCOUNT }],
    ['textarea', adf('готовый документ')],
    ['options', [{ id: '1' }, 'b']],
  ] as const)('%s %j', (kind, value) => {
    const expected = kind === 'options' ? [{ id: '1' }, { value: 'b' }] : value;
    expect(encodeValue(apiOf('cloud'), field(kind), value)).toEqual(expected);
  });
});

// [kind, current (plain, as read), desired (hub), same?]
const COMPARISONS: Array<[FieldKind, unknown, unknown, boolean]> = [
  ['option', 'High', 'High', true],
  ['option', 'High', { value: 'High' }, true],
  ['option', 'High', 'Low', false],
  ['option', null, '', true],
  ['option', null, 'High', false],
  ['options', ['a', 'b'], ['b', 'a'], true],
  ['options', ['a', 'b'], [{ value: 'b' }, { value: 'a' }], true],
  ['options', ['a'], ['a', 'b'], false],
  ['options', [], null, true],
  ['user', 'ivanov', 'ivanov', true],
  ['user', 'ivanov', { name: 'ivanov' }, true],
  ['user', 'ivanov', 'petrova', false],
  ['user', null, '', true],
  ['number', 3, 3, true],
  ['number', 3, '3', true],
  ['number', 3, 4, false],
  ['number', null, null, true],
  ['string', 'a', 'a', true],
  ['string', 'a', 'A', false],
  ['string', null, '', true],
  ['string', '5', 5, true],
  ['string', 5, '5', true],
  ['string', '5', 6, false],
  ['number', 3.5, ' 3.5 ', true],
  ['date', '2026-10-13', '2026-10-13', true],
  ['date', '2026-10-13', '2026-10-14', false],
  ['textarea', 'a\nb', 'a\r\nb\n', true],
  ['textarea', 'a', 'b', false],
  ['textarea', null, '', true],
  ['raw', { value: 'x' }, 'x', true],
  ['raw', [{ value: 'x' }], ['x'], true],
  ['raw', 5, 6, false],
];

describe('number and text custom fields convert between numbers and strings', () => {
  it('a numeric string for a number field is sent as a number; a non-number fails in Russian', () => {
    const api = apiOf('cloud');
    expect(encodeValue(api, field('number'), '3.5')).toBe(3.5);
    expect(encodeValue(api, field('number'), ' 8 ')).toBe(8);
    expect(encodeValue(api, field('number'), 8)).toBe(8);
    expect(encodeValue(api, field('number'), '')).toBeNull();
    expect(() => encodeValue(api, field('number'), 'восемь')).toThrow('поле «My number» числовое, а значение «восемь» не число');
    // JSON has no Infinity: sent, it would arrive as null and clear the field.
    expect(() => encodeValue(api, field('number'), 'Infinity')).toThrow('поле «My number» числовое, а значение «Infinity» не число');
  });

  it('a number for a text field is sent as its text', () => {
    expect(encodeValue(apiOf('dc'), field('string'), 42)).toBe('42');
    expect(encodeValue(apiOf('dc'), field('string'), 'x')).toBe('x');
  });
});

describe('sameValue', () => {
  it.each(COMPARISONS)('%s: %j vs %j → %s', (kind, current, desired, same) => {
    expect(sameValue(field(kind), current, desired)).toBe(same);
  });
});

// A desired value already in Jira's shape against the value read back: [kind, flavor, Jira's answer, desired, same?]
const JIRA_SHAPED: Array<[FieldKind, JiraFlavor, unknown, unknown, boolean]> = [
  ['textarea', 'cloud', adf('Строка 1', 'Строка 2'), adf('Строка 1', 'Строка 2'), true],
  ['textarea', 'cloud', adf('Строка 1', 'Строка 2'), adf('Строка 1', 'Другая'), false],
  ['textarea', 'dc', 'Строка 1\nСтрока 2', adf('Строка 1', 'Строка 2'), true],
  ['textarea', 'cloud', null, adf(''), true],
  ['option', 'cloud', { self: 'x', value: 'High', id: '10001' }, { value: 'High' }, true],
  ['option', 'cloud', { self: 'x', value: 'High', id: '10001' }, { value: 'Low' }, false],
  ['option', 'cloud', { self: 'x', value: 'High', id: '10001' }, { id: '10001' }, true],
  ['option', 'dc', { self: 'x', value: 'High', id: '10001' }, { id: 10001 }, true],
  ['option', 'cloud', { self: 'x', value: 'High', id: '10001' }, { id: '10002' }, false],
  ['option', 'cloud', null, { id: '10001' }, false],
  ['options', 'cloud', [{ value: 'a', id: '1' }, { value: 'b', id: '2' }], [{ id: '2' }, { id: '1' }], true],
  ['options', 'dc', [{ value: 'a', id: '1' }, { value: 'b', id: '2' }], [{ id: '1' }, { value: 'b' }], true],
  ['options', 'cloud', [{ value: 'a', id: '1' }, { value: 'b', id: '2' }], [{ id: '1' }, { id: '3' }], false],
  ['options', 'cloud', [{ value: 'a', id: '1' }], [{ id: '1' }, 'b'], false],
];

describe('a desired value in Jira\'s shape equals the plain value read back', () => {
  it.each(JIRA_SHAPED)('%s on %s: %j vs %j → %s', (kind, flavor, answer, desired, same) => {
    const api = apiOf(flavor);
    expect(sameValue(field(kind), readValue(api, field(kind), answer), desired, readOptionIds(answer))).toBe(same);
  });

  it('readOptionIds keeps the ids Jira returned (id → value)', () => {
    expect(readOptionIds({ self: 'x', value: 'High', id: '10001' })).toEqual(new Map([['10001', 'High']]));
    expect(readOptionIds([{ value: 'a', id: '1' }, { value: 'b', id: 2 }])).toEqual(new Map<string, unknown>([['1', 'a'], ['2', 'b']]));
    expect(readOptionIds(null)).toEqual(new Map());
    expect(readOptionIds('text')).toEqual(new Map());
  });
});
