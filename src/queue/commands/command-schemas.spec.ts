/**
 * The hub's rules — the catalogue's validator (@jira-hub/contracts/catalogue) and Jira's limits among the plan checks
 * (catalogue/content-checks.ts, the one place they live on the hub) — and the command schemas of
 * @jira-hub/contracts/commands (the MCP input schemas, OpenAPI) agree: the same params are accepted or
 * refused by both, and a refusal names the same param. The shapes other command types add
 * (refresh_catalogue, remove_link, …; ensure_status {to}, ensure_sprint null) are checked on the
 * schema side only until the hub's catalogue knows them.
 */
import { describe, expect, it } from '@jest/globals';
import { COMMAND, COMMAND_EXAMPLES, LIMITS, PARAMS, SCHEMA_COMMAND_TYPES } from '@jira-hub/contracts/commands';
import { checkContent, LABEL_MAX, SUMMARY_MAX, TEXT_MAX, type CommandCheck } from '../../catalogue/index.js';
import { checkParams, isCommandType, type Params } from '@jira-hub/contracts/catalogue';

const long = (n: number) => 'я'.repeat(n);

/** [type, params, the param a refusal names (null: accepted)] */
const CASES: [string, Params, string | null][] = [
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт' }, null],
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: long(255), description: long(32_767), parent: 'AURORA-1', fields: {} }, null],
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: long(256) }, 'summary'],
  // Jira counts UTF-16 units: 130 emoji are 260 (refused), 127 emoji and a letter are 255 (taken)
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: '\u{1F600}'.repeat(130) }, 'summary'],
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: `${'\u{1F600}'.repeat(127)}!` }, null],
  ['ensure_fields', { key: 'AURORA-1', summary: '\u{1F600}'.repeat(130) }, 'summary'],
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: '   ' }, 'summary'],
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'x', description: long(32_768) }, 'description'],
  ['ensure_issue', { temp_key: 'AURORA-1', issue_type: 'Task', summary: 'x' }, 'temp_key'],
  ['ensure_issue', { temp_key: 'new:1', summary: 'x' }, 'issue_type'],
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'x', parent: 'aurora-1' }, 'parent'],
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'x', fields: [] }, 'fields'],
  ['ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'x', colour: 'red' }, 'colour'],
  ['ensure_fields', { key: 'AURORA-1', duedate: '2026-12-01' }, null],
  ['ensure_fields', { key: 'AURORA-1', duedate: null, labels: ['backend', long(255)], assignee: null, description: null }, null],
  ['ensure_fields', { key: 'AURORA-1', duedate: '2026-02-30' }, 'duedate'],
  ['ensure_fields', { key: 'AURORA-1', labels: ['два слова'] }, 'labels'],
  ['ensure_fields', { key: 'AURORA-1', labels: [long(256)] }, 'labels'],
  ['ensure_fields', { key: 'AURORA-1', summary: long(256) }, 'summary'],
  ['ensure_fields', { key: 'AURORA-1', description: long(32_768) }, 'description'],
  ['ensure_fields', { key: 'AURORA-1', priority: '' }, 'priority'],
  ['ensure_fields', { key: 'AURORA-1' }, 'params'],
  ['ensure_fields', { duedate: null }, 'key'],
  ['ensure_status', { key: 'AURORA-1', path: ['In Progress', 'Done'] }, null],
  ['ensure_status', { key: 'AURORA-1', path: [] }, 'path'],
  ['ensure_status', { key: 'new:2', path: ['Done', ' '] }, 'path'],
  ['ensure_link', { source: 'AURORA-1', target: 'new:1', link_type: 'Blocks' }, null],
  ['ensure_link', { source: 'AURORA-1', target: 'AURORA-1', link_type: 'Blocks' }, 'target'],
  ['ensure_link', { source: 'AURORA-1', target: 'AURORA-2' }, 'link_type'],
  ['ensure_sprint', { key: 'AURORA-1', sprint: 'Спринт 2', board: 7 }, null],
  ['ensure_sprint', { key: 'AURORA-1', sprint: 'Спринт 2', board: 'Доска' }, null],
  ['ensure_sprint', { key: 'AURORA-1', sprint: 'Спринт 2', board: 0 }, 'board'],
  ['ensure_sprint', { key: 'AURORA-1', sprint: '' }, 'sprint'],
  ['ensure_comment', { key: 'AURORA-1', body: long(32_767), marker: 'm' }, null],
  ['ensure_comment', { key: 'AURORA-1', body: long(32_768) }, 'body'],
  ['ensure_comment', { key: 'AURORA-1', body: 'x', marker: '' }, 'marker'],
  ['refresh', { keys: ['AURORA-1', 'new:1'] }, null],
  ['refresh', { jql: 'project = AURORA' }, null],
  ['refresh', { keys: [] }, 'keys'],
  ['refresh', { keys: ['AURORA-1'], jql: 'x' }, 'params'],
  ['refresh', {}, 'params'],
  ['delete_issue', { key: 'AURORA-1', summary: long(255) }, null],
  ['delete_issue', { key: 'AURORA-1', summary: long(256) }, 'summary'],
  ['delete_issue', { key: 'AURORA-1', summary: long(100_000) }, 'summary'],
];

/** The param a zod refusal names: the first path step below `params`, or `params` for the object itself. */
function zodParam(type: string, params: Params): string | null {
  const r = COMMAND.safeParse({ type, params });
  if (r.success) return null;
  const first = r.error.issues[0];
  if (first.code === 'unrecognized_keys' && first.path.length === 1) return first.keys[0];
  return String(first.path[1] ?? 'params');
}

/** The param the hub refuses: the validator's first problem, else the first of Jira's limits the checks find. */
function hubParam(type: string, params: Params): string | null {
  const problem = checkParams(type as never, params).problems[0];
  if (problem) return problem.param;
  const check: CommandCheck = { seq: 1, type: type as never, params, findings: [], notes: [], unknown: [] };
  checkContent(check);
  return check.findings[0]?.param ?? null;
}

describe('the hub and the command schemas agree', () => {
  it.each(CASES)('%s, case %#', (type, params, refused) => {
    expect(isCommandType(type)).toBe(true);
    expect(hubParam(type, params)).toBe(refused);
    expect(zodParam(type, params)).toBe(refused);
  });

  it.each(['ensure_issue', 'ensure_fields', 'delete_issue'] as const)('%s: a summary with a line break is refused (Jira answers 400 to it)', (type) => {
    const base = { ensure_issue: { temp_key: 'new:1', issue_type: 'Task' }, ensure_fields: { key: 'AURORA-1' }, delete_issue: { key: 'AURORA-1' } }[type];
    for (const summary of ['две\nстроки', 'возврат\rкаретки', 'в конце\r\n']) {
      const r = PARAMS[type].safeParse({ ...base, summary });
      expect(r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['summary', 'тема — одна строка: в Jira у задачи не бывает темы с переводом строки']]);
    }
    expect(PARAMS[type].safeParse({ ...base, summary: 'одна строка\tс табуляцией' }).success).toBe(true);
  });

  it.each(['ensure_issue', 'ensure_fields', 'delete_issue'] as const)('%s: a summary of 130 emoji (260 units, as Jira counts) is refused saying how Jira counts it', (type) => {
    const base = { ensure_issue: { temp_key: 'new:1', issue_type: 'Task' }, ensure_fields: { key: 'AURORA-1' }, delete_issue: { key: 'AURORA-1' } }[type];
    const r = PARAMS[type].safeParse({ ...base, summary: '\u{1F600}'.repeat(130) });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['summary', 'тема длиннее 255 знаков, как их считает Jira (эмодзи — за два): 260']]);
    expect(PARAMS[type].safeParse({ ...base, summary: `${'\u{1F600}'.repeat(127)}!` }).success).toBe(true);
  });

  it('limits are the same numbers', () => {
    expect({ summary: SUMMARY_MAX, text: TEXT_MAX, label: LABEL_MAX }).toEqual({ summary: LIMITS.summary, text: LIMITS.text, label: LIMITS.label });
  });

  it('every schema type has an example that the schema accepts; the hub accepts it too where it knows the type', () => {
    for (const type of SCHEMA_COMMAND_TYPES) {
      const example = COMMAND_EXAMPLES[type];
      expect(COMMAND.safeParse(example).success).toBe(true);
      if (isCommandType(type)) expect(checkParams(type, example.params).problems).toEqual([]);
    }
  });

  it.each<[string, Params, boolean]>([
    ['ensure_status', { key: 'AURORA-1', to: 'Done' }, true],
    ['ensure_status', { key: 'AURORA-1', to: 'Done', path: ['Done'] }, false],
    ['ensure_sprint', { key: 'AURORA-1', sprint: null }, true],
    ['refresh_catalogue', {}, true],
    ['refresh_catalogue', { keys: ['A-1'] }, false],
    ['remove_link', { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, true],
    ['remove_comment', { key: 'A-1', comment_id: '10001' }, true],
    ['remove_comment', { key: 'A-1' }, false],
    ['delete_issue', { key: 'A-1', summary: 'Отчёт' }, true],
    ['delete_issue', { key: 'A-1', summary: long(256) }, false],
  ])('the new shapes (SPEC 16.2, 17.2): %s %j → %s', (type, params, ok) => {
    expect(PARAMS[type as keyof typeof PARAMS].safeParse(params).success).toBe(ok);
  });
});
