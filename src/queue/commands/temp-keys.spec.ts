import { describe, expect, it } from '@jest/globals';
import type { CommandType, Params } from '@jira-hub/contracts/catalogue';
import { notCreatedError, substitute, type Resolution, type Substitution } from './temp-keys.js';

/** new:1 → A-101, new:2 → A-102 resolved; new:3, new:4 pending; new:5, new:6 failed; others unknown. */
const TABLE: Record<string, Resolution> = {
  'new:1': { state: 'resolved', key: 'A-101' },
  'new:2': { state: 'resolved', key: 'A-102' },
  'new:3': { state: 'pending' },
  'new:4': { state: 'pending' },
  'new:5': { state: 'failed' },
  'new:6': { state: 'failed' },
};
const resolve = (t: string): Resolution => {
  const r = TABLE[t];
  if (!r) throw new Error(`asked for ${t}, which the test does not know`);
  return r;
};

describe('notCreatedError (SPEC 12)', () => {
  it.each([['new:1', 'задача new:1 не создана'], ['new:42', 'задача new:42 не создана']])('%s', (t, text) => {
    expect(notCreatedError(t)).toBe(text);
  });
});

describe('substitute (SPEC 6.3)', () => {
  it.each([
    ['ensure_fields key', 'ensure_fields', { key: 'new:1', summary: 'x' }, { key: 'A-101', summary: 'x' }],
    ['ensure_link source and target', 'ensure_link', { source: 'new:1', target: 'new:2', link_type: 'Blocks' }, { source: 'A-101', target: 'A-102', link_type: 'Blocks' }],
    ['ensure_link mixed', 'ensure_link', { source: 'A-7', target: 'new:2', link_type: 'Blocks' }, { source: 'A-7', target: 'A-102', link_type: 'Blocks' }],
    [
      'ensure_issue parent, own temp_key kept',
      'ensure_issue',
      { temp_key: 'new:9', issue_type: 'Sub-task', summary: 's', parent: 'new:1' },
      { temp_key: 'new:9', issue_type: 'Sub-task', summary: 's', parent: 'A-101' },
    ],
    ['ensure_status key', 'ensure_status', { key: 'new:2', path: ['Готово'] }, { key: 'A-102', path: ['Готово'] }],
    ['refresh keys in order', 'refresh', { keys: ['A-1', 'new:2', 'new:1'] }, { keys: ['A-1', 'A-102', 'A-101'] }],
  ] as [string, CommandType, Params, Params][])('resolved: %s', (_name, type, params, expected) => {
    expect(substitute(type, params, resolve)).toEqual({ kind: 'ready', params: expected });
  });

  it.each([
    ['ensure_fields', 'ensure_fields', { key: 'A-1', labels: ['new:1'] }],
    ['ensure_link', 'ensure_link', { source: 'A-1', target: 'B-2', link_type: 'Blocks' }],
    ['ensure_comment whose body names a temp key', 'ensure_comment', { key: 'A-1', body: 'new:5' }],
    ['refresh of Jira keys', 'refresh', { keys: ['A-1', 'A-2'] }],
    ['refresh jql', 'refresh', { jql: 'key = new:5' }],
  ] as [string, CommandType, Params][])('Jira keys untouched: %s', (_name, type, params) => {
    expect(substitute(type, params, resolve)).toEqual({ kind: 'ready', params });
  });

  it.each([
    ['custom fields parent/source/target', { key: 'new:1', parent: 'new:2', source: 'new:5', target: 'new:3' }, { key: 'A-101', parent: 'new:2', source: 'new:5', target: 'new:3' }],
    ['custom field parent beside a Jira key', { key: 'A-1', parent: 'new:4' }, { key: 'A-1', parent: 'new:4' }],
  ] as [string, Params, Params][])('ensure_fields: only `key` is a key, custom fields are values: %s', (_name, params, expected) => {
    expect(substitute('ensure_fields', params, resolve)).toEqual({ kind: 'ready', params: expected });
  });

  it('a `key` param inherited from the prototype is not substituted', () => {
    const params: Params = Object.assign(Object.create({ key: 'new:5' }) as Params, { source: 'new:1', target: 'A-2', link_type: 'Blocks' });
    expect(substitute('ensure_link', params, resolve)).toEqual({ kind: 'ready', params: { source: 'A-101', target: 'A-2', link_type: 'Blocks' } });
  });

  it('does not change the params given', () => {
    const params = { source: 'new:1', target: 'new:2', link_type: 'Blocks' };
    substitute('ensure_link', params, resolve);
    expect(params).toEqual({ source: 'new:1', target: 'new:2', link_type: 'Blocks' });
  });

  it.each([
    ['ensure_fields key pending', 'ensure_fields', { key: 'new:3', summary: 'x' }],
    ['ensure_link target pending', 'ensure_link', { source: 'new:1', target: 'new:4', link_type: 'Blocks' }],
    ['ensure_issue parent pending', 'ensure_issue', { temp_key: 'new:9', issue_type: 'T', summary: 's', parent: 'new:3' }],
    ['refresh with a pending key', 'refresh', { keys: ['new:1', 'new:3'] }],
    ['refresh with a pending key beside a failed one', 'refresh', { keys: ['new:5', 'new:4'] }],
  ] as [string, CommandType, Params][])('pending → wait: %s', (_name, type, params) => {
    expect(substitute(type, params, resolve)).toEqual({ kind: 'wait' });
  });

  it.each([
    ['ensure_fields key failed', 'ensure_fields', { key: 'new:5', summary: 'x' }, 'задача new:5 не создана'],
    ['ensure_link both failed: the first is named', 'ensure_link', { source: 'new:6', target: 'new:5', link_type: 'Blocks' }, 'задача new:6 не создана'],
    ['ensure_link target failed', 'ensure_link', { source: 'new:1', target: 'new:5', link_type: 'Blocks' }, 'задача new:5 не создана'],
    ['ensure_issue parent failed', 'ensure_issue', { temp_key: 'new:9', issue_type: 'T', summary: 's', parent: 'new:6' }, 'задача new:6 не создана'],
    ['refresh: every key dropped, the first failed is named', 'refresh', { keys: ['new:6', 'new:5'] }, 'задача new:6 не создана'],
  ] as [string, CommandType, Params, string][])('failed → skip: %s', (_name, type, params, error) => {
    expect(substitute(type, params, resolve)).toEqual({ kind: 'skip', error });
  });

  it.each([
    ['failed temp keys dropped', { keys: ['A-1', 'new:5', 'new:1'] }, ['A-1', 'A-101']],
    ['only one resolved remains', { keys: ['new:5', 'new:2', 'new:6'] }, ['A-102']],
    ['duplicates after substitution removed', { keys: ['A-101', 'new:1', 'A-2', 'new:1'] }, ['A-101', 'A-2']],
  ] as [string, Params, string[]][])('refresh keys: %s', (_name, params, keys) => {
    const result = substitute('refresh', params, resolve) as Extract<Substitution, { kind: 'ready' }>;
    expect(result.kind).toBe('ready');
    expect(result.params).toEqual({ keys });
  });
});
