import { describe, expect, it } from '@jest/globals';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import {
  checkTempKeys,
  duplicateSummaries,
  duplicateSummaryDetail,
  pauseSum,
  tailRefreshKeys,
  usedBeforeDefinerDetail,
  withTailRefresh,
  type CommandInput,
} from './batch-rules.js';
import type { CommandType } from '@jira-hub/contracts/catalogue';

const issue = (temp_key: string, summary: string, parent?: string): CommandInput => ({
  type: 'ensure_issue',
  params: { temp_key, issue_type: 'Task', summary, ...(parent ? { parent } : {}) },
});
const fields = (key: string): CommandInput => ({ type: 'ensure_fields', params: { key, summary: 'x' } });
const comment = (key: string): CommandInput => ({ type: 'ensure_comment', params: { key, body: 'b' } });
const link = (source: string, target: string): CommandInput => ({ type: 'ensure_link', params: { source, target, link_type: 'Blocks' } });
const refresh = (keys: string[]): CommandInput => ({ type: 'refresh', params: { keys } });
const refreshJql = (jql: string): CommandInput => ({ type: 'refresh', params: { jql } });

describe('duplicateSummaries (SPEC 5)', () => {
  it.each([
    ['trimmed duplicates are found (SPEC 13 scenario 2)', [issue('new:1', 'Отчёт'), issue('new:2', ' Отчёт ')], ['Отчёт']],
    ['tabs and spaces trimmed', [issue('new:1', '\tПлан'), issue('new:2', 'План  ')], ['План']],
    ['case differences are different summaries', [issue('new:1', 'Отчёт'), issue('new:2', 'отчёт')], []],
    ['inner spaces are kept', [issue('new:1', 'Мой отчёт'), issue('new:2', 'Мой  отчёт')], []],
    ['no duplicates', [issue('new:1', 'А'), issue('new:2', 'Б')], []],
    [
      'several duplicates, in order of first appearance, each once',
      [issue('new:1', 'Б'), issue('new:2', 'А'), issue('new:3', 'Б'), issue('new:4', 'А '), issue('new:5', 'Б'), issue('new:6', 'В')],
      ['Б', 'А'],
    ],
    [
      'other command types with the same summary do not count',
      [issue('new:1', 'Отчёт'), { type: 'ensure_fields', params: { key: 'A-1', summary: 'Отчёт' } }],
      [],
    ],
    ['empty batch', [], []],
    // the agent takes two Unicode spellings of a summary for one (comparableText): «ё» composed and as «е» + U+0308
    ['the same summary in two Unicode spellings', [issue('new:1', 'Отчёт'), issue('new:2', 'Отче\u0308т')], ['Отчёт']],
  ] as [string, CommandInput[], string[]][])('%s', (_name, commands, expected) => {
    expect(duplicateSummaries(commands)).toEqual(expected);
  });
});

describe('duplicateSummaryDetail (SPEC 12)', () => {
  it.each([
    [['Отчёт'], 'повторяется тема ensure_issue: «Отчёт»'],
    [['Отчёт', 'План'], 'повторяется тема ensure_issue: «Отчёт», повторяется тема ensure_issue: «План»'],
  ])('%p → %s', (summaries, detail) => {
    expect(duplicateSummaryDetail(summaries)).toBe(detail);
  });

  it('names every repeated summary found in a batch', () => {
    const detail = duplicateSummaryDetail(duplicateSummaries([issue('new:1', 'Отчёт'), issue('new:2', ' Отчёт '), issue('new:3', 'План'), issue('new:4', 'План')]));
    expect(detail).toContain('повторяется тема ensure_issue: «Отчёт»');
    expect(detail).toContain('повторяется тема ensure_issue: «План»');
  });
});

describe('checkTempKeys (SPEC 4)', () => {
  it.each([
    ['defined before use', [issue('new:1', 'a'), fields('new:1'), link('new:1', 'A-1')], 0, []],
    ['child defined after its parent', [issue('new:1', 'a'), issue('new:2', 'b', 'new:1')], 0, []],
    ['only Jira keys', [fields('A-1'), link('A-1', 'A-2')], 0, []],
    ['used before definition', [fields('new:1'), issue('new:1', 'a')], 1, []],
    ['used by a link before definition', [issue('new:2', 'b'), link('new:2', 'new:1'), issue('new:1', 'a')], 1, []],
    ['parent is its own temp key', [issue('new:1', 'a', 'new:1')], 1, []],
    ['defined twice', [issue('new:1', 'a'), issue('new:1', 'b')], 1, []],
    ['external keys, in order, without repeats', [fields('new:7'), link('new:3', 'new:7'), refresh(['new:3', 'A-1'])], 0, ['new:7', 'new:3']],
    ['external beside defined', [issue('new:1', 'a'), link('new:1', 'new:9')], 0, ['new:9']],
  ] as [string, CommandInput[], number, string[]][])('%s', (_name, commands, problemCount, external) => {
    const result = checkTempKeys(commands);
    expect(result.problems).toHaveLength(problemCount);
    expect(result.external).toEqual(external);
  });

  it('names the index and the key of a use before definition', () => {
    const { problems } = checkTempKeys([issue('new:2', 'b'), fields('new:1'), issue('new:1', 'a')]);
    expect(problems).toEqual([{ index: 1, param: 'key', detail: expect.stringContaining('new:1') }]);
  });

  it('names the param that holds the key: a link end, a parent, a refresh key list, the temp_key defined twice', () => {
    const { problems } = checkTempKeys([link('A-1', 'new:1'), refresh(['A-1', 'new:1']), issue('new:2', 'b', 'new:2'), issue('new:1', 'a'), issue('new:1', 'c')]);
    expect(problems.map((p) => [p.index, p.param])).toEqual([
      [0, 'target'],
      [1, 'keys'],
      [2, 'parent'],
      [4, 'temp_key'],
    ]);
  });

  it('a use before the definer explains why a key resolved by an earlier batch does not help, and names the definer', () => {
    const { problems, external } = checkTempKeys([fields('new:1'), comment('A-1'), issue('new:1', 'a')]);
    expect(external).toEqual([]);
    expect(problems).toEqual([{ index: 0, param: 'key', detail: usedBeforeDefinerDetail('new:1', 2) }]);
    expect(problems[0]!.detail).toBe(
      'временный ключ new:1 используется раньше, чем его создаёт ensure_issue (шаг 3); ' +
        'в пакете, который определяет new:1, этот ключ означает задачу из этой ensure_issue, даже если new:1 уже создан прошлым пакетом, — ' +
        'поставьте команду после ensure_issue или дайте новой задаче другой временный ключ',
    );
  });

  it('an ensure_issue whose parent is its own temp key says so', () => {
    expect(checkTempKeys([issue('new:1', 'a', 'new:1')]).problems).toEqual([{ index: 0, param: 'parent', detail: 'ensure_issue не может быть родителем самой себя: parent совпадает с её temp_key new:1' }]);
  });

  it('an ensure_fields custom field named parent is no temp-key use', () => {
    const custom: CommandInput = { type: 'ensure_fields', params: { key: 'A-1', parent: 'new:9', target: 'new:1' } };
    expect(checkTempKeys([custom, issue('new:1', 'a')])).toEqual({ problems: [], external: [] });
  });

  it('names the index and the key of the second definition', () => {
    const { problems } = checkTempKeys([issue('new:4', 'a'), fields('A-1'), issue('new:4', 'b')]);
    expect(problems).toEqual([{ index: 2, param: 'temp_key', detail: expect.stringContaining('new:4') }]);
  });
});

describe('tailRefreshKeys (SPEC 5)', () => {
  it.each([
    [
      'every key and temp key, in order of first appearance, without repeats',
      [issue('new:1', 'a', 'A-5'), fields('A-1'), link('new:1', 'A-2'), comment('A-1'), refresh(['A-3', 'A-5'])],
      ['new:1', 'A-5', 'A-1', 'A-2', 'A-3'],
    ],
    ['one key', [fields('A-1'), fields('A-1'), comment('A-1')], ['A-1']],
    ['a jql refresh names no key', [fields('A-1'), refreshJql('project = A')], ['A-1']],
    [
      'ensure_fields custom fields named like key params are no keys',
      [{ type: 'ensure_fields', params: { key: 'A-1', parent: 'hello world', source: 'A-9' } }, comment('A-2')],
      ['A-1', 'A-2'],
    ],
  ] as [string, CommandInput[], string[]][])('%s', (_name, commands, keys) => {
    expect(tailRefreshKeys(commands)).toEqual(keys);
  });
});

describe('withTailRefresh (SPEC 5)', () => {
  it.each([
    ['writes only', [fields('A-1'), comment('A-2')], true],
    ['writes and refreshes', [refresh(['A-1']), fields('A-1')], true],
    ['refreshes only', [refresh(['A-1']), refreshJql('project = A')], false],
    ['one refresh', [refreshJql('project = A')], false],
  ] as [string, CommandInput[], boolean][])('%s: tail appended = %p', (_name, commands, appended) => {
    const out = withTailRefresh(commands);
    expect(out.slice(0, commands.length)).toEqual(commands);
    if (appended) {
      expect(out).toHaveLength(commands.length + 1);
      expect(out[out.length - 1]).toEqual({ type: 'refresh', params: { keys: tailRefreshKeys(commands) } });
    } else {
      expect(out).toEqual(commands);
    }
  });

  it('does not change the given list', () => {
    const commands = [fields('A-1')];
    withTailRefresh(commands);
    expect(commands).toEqual([fields('A-1')]);
  });
});

describe('pauseSum (SPEC 5, 13 scenario 1)', () => {
  const pacing = DEFAULT_SETTINGS.pacing;

  it('3 ensure_fields + 2 ensure_comment + tail refresh on default pacing = 720', () => {
    const batch = withTailRefresh([fields('A-1'), fields('A-2'), fields('A-3'), comment('A-1'), comment('A-2')]);
    expect(batch).toHaveLength(6);
    expect(batch[5]!.type).toBe('refresh');
    expect(pauseSum(batch.map((c) => c.type), pacing)).toBe(720);
  });

  it.each([
    [[], 0],
    [['ensure_issue'], 180],
    [['ensure_link', 'ensure_link'], 180],
    [['ensure_status', 'ensure_sprint', 'refresh'], 300],
  ] as [CommandType[], number][])('%p → %p', (types, sum) => {
    expect(pauseSum(types, pacing)).toBe(sum);
  });

  it('follows the pacing given', () => {
    expect(pauseSum(['refresh', 'ensure_fields'], { ...pacing, refresh: 5, ensure_fields: 7 })).toBe(12);
  });
});
