import { describe, expect, it } from '@jest/globals';
import type { MirrorIssue, MirrorLookup } from '../../mirror/index.js';
import type { CommandType, Params } from '@jira-hub/contracts/catalogue';
import { changesAgainstMirror, isConfirmedByState } from './confirmation.js';
import type { Resolution } from './temp-keys.js';
import { ageText, verdictOf, verdictText } from './verdict.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');

const issueAt = (syncedAt: string, over: Partial<MirrorIssue> = {}): MirrorIssue => ({
  status: 'To Do',
  sprint: null,
  summary: 's',
  duedate: null,
  labels: [],
  assignee: null,
  priority: null,
  fields: {},
  synced_at: syncedAt,
  ...over,
});

const mirror: MirrorLookup = {
  issue: (key) =>
    ({
      'A-1': issueAt('2026-11-30T11:55:00.000Z', { status: 'Done', sprint: 'S2', labels: ['x'] }),
      'A-2': issueAt('2026-11-30T10:00:00.000Z'),
      'A-9': issueAt('2026-11-29T12:00:00.000Z', { status: 'Done' }),
      'A-5': issueAt('2026-11-30T11:00:00.000Z', { status: 'Done' }),
      'A-6': issueAt('2026-11-30T11:00:00.000Z'),
    })[key],
  hasLink: (s, t, type) => `${s}|${t}|${type}` === 'A-1|A-2|Blocks' || `${s}|${t}|${type}` === 'A-1|A-5|Blocks',
  /** a run by keys did not get them back after the mirror read them (Jira no longer has them) */
  gone: (key) => ({ 'A-5': 7, 'A-6': 8 })[key],
};

/** new:1 is this batch's own, new:2 was created by an earlier batch as A-9. */
const tempKey = (t: string): Resolution => (t === 'new:2' ? { state: 'resolved', key: 'A-9' } : { state: 'pending' });
const verdict = (type: CommandType, params: Params) => verdictOf(type, params, mirror, tempKey, NOW);

describe('verdictOf (SPEC 15.4)', () => {
  it.each([
    ['ensure_status that holds', 'ensure_status', { key: 'A-1', path: ['Done'] }, 'holds', 300],
    ['ensure_sprint that holds', 'ensure_sprint', { key: 'A-1', sprint: 'S2' }, 'holds', 300],
    ['ensure_sprint with a board, the same sprint name: only Jira can tell', 'ensure_sprint', { key: 'A-1', sprint: 'S2', board: 'Поддержка' }, 'cannot_judge', 300],
    ['ensure_sprint with a board, another sprint name: a change', 'ensure_sprint', { key: 'A-1', sprint: 'S3', board: 'Поддержка' }, 'would_change', 300],
    ['ensure_fields that holds (labels as a set)', 'ensure_fields', { key: 'A-1', labels: ['x'] }, 'holds', 300],
    ['ensure_link that holds: the oldest of both issues', 'ensure_link', { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, 'holds', 7200],
    ['ensure_status that would change', 'ensure_status', { key: 'A-2', path: ['In Progress', 'Done'] }, 'would_change', 7200],
    ['a temp key of an earlier batch, judged as its key', 'ensure_status', { key: 'new:2', path: ['Done'] }, 'holds', 86400],
    ['a key the mirror lacks', 'ensure_sprint', { key: 'B-1', sprint: 'S2' }, 'unknown_key', null],
    ['a link to a key the mirror lacks', 'ensure_link', { source: 'A-1', target: 'B-1', link_type: 'Blocks' }, 'unknown_key', null],
    ['an issue Jira no longer has, its last copy showing the status', 'ensure_status', { key: 'A-5', path: ['Done'] }, 'cannot_judge', null],
    ['an issue Jira no longer has, its last copy lacking the change', 'ensure_fields', { key: 'A-5', duedate: '2026-12-01' }, 'cannot_judge', null],
    ['a link the last copy holds, to an issue Jira no longer has', 'ensure_link', { source: 'A-1', target: 'A-5', link_type: 'Blocks' }, 'cannot_judge', null],
    ['a temp key this batch creates', 'ensure_fields', { key: 'new:1', duedate: '2026-12-01' }, 'cannot_judge', null],
    ['ensure_issue', 'ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 's' }, 'cannot_judge', null],
    ['ensure_comment', 'ensure_comment', { key: 'A-1', body: 'b' }, 'cannot_judge', null],
    ['refresh', 'refresh', { keys: ['A-1'] }, 'cannot_judge', null],
  ] as const)('%s → %s', (_name, type, params, expected, age) => {
    const v = verdict(type, params as Params);
    expect(v.verdict).toBe(expected);
    expect(v.age_seconds).toBe(age);
    expect(v.text).toMatch(/^[А-Я][^.]*.*\.$/);
    if (expected === 'cannot_judge') expect(v.why).toEqual(expect.stringMatching(/[а-я]/));
  });

  it('would_change lists each difference from the mirror to the command, in words too', () => {
    const v = verdict('ensure_fields', { key: 'A-2', assignee: 'ivan', labels: ['a'], duedate: null });
    expect(v.changes).toEqual([
      { field: 'assignee', from: null, to: 'ivan' },
      { field: 'labels', from: [], to: ['a'] },
    ]);
    expect(v.text).toBe('Изменит (данные зеркала 2 ч назад): assignee: пусто → «ivan»; labels: пусто → ["a"].');
  });

  it("a sprint's null is the backlog in words, not «пусто»", () => {
    const v = verdict('ensure_sprint', { key: 'A-1', sprint: null });
    expect(v).toMatchObject({ verdict: 'would_change', changes: [{ field: 'sprint', from: 'S2', to: null }] });
    expect(v.text).toBe('Изменит (данные зеркала 5 мин назад): sprint: «S2» → бэклог.');
    expect(verdict('ensure_sprint', { key: 'A-2', sprint: 'S2' }).text).toBe('Изменит (данные зеркала 2 ч назад): sprint: бэклог → «S2».');
  });

  it('a very long board the dry run cannot judge is named by its first 100 characters in the reason, not whole', () => {
    const v = verdict('ensure_sprint', { key: 'A-1', sprint: 'S2', board: 'Д'.repeat(20_000) });
    expect(v.verdict).toBe('cannot_judge');
    expect(v.why).toContain(`доски «${'Д'.repeat(100)}… [обрезано: ещё 19900 символов]»`);
    expect(v.text.length).toBeLessThan(500);
  });

  it('a reversed link would change from the reversed one', () => {
    expect(verdict('ensure_link', { source: 'A-2', target: 'A-1', link_type: 'Blocks' }).changes).toEqual([
      { field: 'link', from: 'A-1 → A-2 (Blocks)', to: 'A-2 → A-1 (Blocks)' },
    ]);
  });

  it('an ensure_issue names the issues of the mirror with exactly its summary, trimmed', () => {
    const same = (summary: string) => (summary === 'Отчёт' ? ['A-5'] : []);
    const v = verdictOf('ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: ' Отчёт ' }, mirror, tempKey, NOW, same);
    expect(v).toMatchObject({ verdict: 'cannot_judge', why: expect.stringContaining('A-5') });
    // what the agent does, in words: the reason does not start with the command's name
    expect(v.why).toBe('при создании задачи агент ищет её по теме в самой Jira, зеркало этого не решает; в зеркале уже есть задача с такой темой: A-5 — агент возьмёт её, если она в том же проекте');
    expect(verdictOf('ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'План' }, mirror, tempKey, NOW, same).why).not.toContain('A-5');
    // another Unicode spelling of the summary (the mirror keeps NFC): the same issue, as the agent finds it
    expect(verdictOf('ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 'Отче\u0308т' }, mirror, tempKey, NOW, same).why).toContain('A-5');
  });

  it('an ensure_sprint with a board is judged by the sprint id where the mirror has it (decision 1430), else Jira settles it (1423)', () => {
    const ids: MirrorLookup = {
      ...mirror,
      issue: (key) => (key === 'A-3' ? issueAt('2026-11-30T11:55:00.000Z', { sprint: 'S2', sprint_id: 7, sprint_board_id: 2 }) : mirror.issue(key)),
      sprintsOnBoard: (board, name) => (name !== 'S2' ? [] : board === 'Поддержка' ? [7] : board === 'AURORA board' ? [2] : undefined),
      boards: () => [
        { id: 1, name: 'AURORA board' },
        { id: 2, name: 'Поддержка' },
      ],
    };
    const judge = (params: Params) => verdictOf('ensure_sprint', params, ids, tempKey, NOW);
    expect(judge({ key: 'A-3', sprint: 'S2', board: 'Поддержка' })).toMatchObject({ verdict: 'holds' });
    expect(judge({ key: 'A-3', sprint: 'S2', board: 'AURORA board' })).toMatchObject({
      verdict: 'would_change',
      // the mirror's board by the catalogue's name, not its id
      changes: [{ field: 'sprint', from: 'S2 (доска Поддержка)', to: 'S2 (доска AURORA board)' }],
      text: 'Изменит (данные зеркала 5 мин назад): sprint: «S2 (доска Поддержка)» → «S2 (доска AURORA board)».',
    });
    expect(judge({ key: 'A-3', sprint: 'S2', board: 'Склад' })).toMatchObject({ verdict: 'cannot_judge', why: expect.stringContaining('доски «Склад» нет в каталоге') });
    // A-1's row has no sprint id: refreshed by an older agent
    expect(judge({ key: 'A-1', sprint: 'S2', board: 'Поддержка' })).toMatchObject({ verdict: 'cannot_judge', why: expect.stringContaining('агент старой версии') });
  });

  it('a refresh is said in words, not by its name', () => {
    expect(verdict('refresh', { keys: ['A-1'] }).text).toBe('Не проверить заранее: обновление зеркала только читает Jira.');
  });

  it('an issue Jira no longer has is named with the run that found it gone, in the hub\'s own words', () => {
    const v = verdict('ensure_status', { key: 'A-5', path: ['Done'] });
    expect(v).toMatchObject({ verdict: 'cannot_judge', changes: [], unknown_keys: [], synced_at: null });
    const why = 'задачи A-5 в Jira больше нет: Jira её не нашла (чтение #7 в /sync-runs) — команда завершится ошибкой; уберите её из пакета или обновите задачу в зеркале, если она вернулась';
    expect(v.why).toBe(why);
    expect(v.text).toBe(`Не проверить заранее: ${why}.`);
    // MCP fences values of Jira and of commands as data; these words are the hub's own
    expect(verdictText(v, (x) => `<<${x}>>`)).toBe(`Не проверить заранее: ${why}.`);
    expect(verdict('ensure_link', { source: 'A-6', target: 'A-5', link_type: 'Blocks' }).why).toBe(
      'задач A-6, A-5 в Jira больше нет: Jira их не нашла (чтения #7, #8 в /sync-runs) — команда завершится ошибкой; уберите её из пакета или обновите эти задачи в зеркале, если они вернулись',
    );
    // a removal the agent takes as done when the issue is gone (remove.ts): said so, not as a failure
    const removal = verdict('remove_link', { source: 'A-5', target: 'A-1', link_type: 'Blocks' });
    expect(removal.why).toBe('задачи A-5 в Jira больше нет: Jira её не нашла (чтение #7 в /sync-runs) — агент сочтёт команду выполненной, ничего не удалив; уберите её из пакета или обновите задачу в зеркале, если она вернулась');
    expect(verdictText(removal, (x) => `<<${x}>>`)).toBe(`Не проверить заранее: ${removal.why}.`);
    // whatever the command: a comment on it, a new issue under it, an earlier batch's temp key that made it, its deletion
    const gone5 = 'задачи A-5 в Jira больше нет: Jira её не нашла (чтение #7 в /sync-runs)';
    expect(verdict('ensure_comment', { key: 'A-5', body: 'b' }).why).toBe(`${gone5} — команда завершится ошибкой; уберите её из пакета или обновите задачу в зеркале, если она вернулась`);
    expect(verdict('ensure_issue', { temp_key: 'new:1', issue_type: 'Sub-task', summary: 's', parent: 'A-5' }).why).toContain(`${gone5} — команда завершится ошибкой`);
    expect(verdict('delete_issue', { key: 'A-5', summary: 's' }).why).toContain(`${gone5} — агент сочтёт команду выполненной`);
    const goneBehindTempKey = verdictOf('ensure_status', { key: 'new:3', path: ['Done'] }, mirror, (t) => (t === 'new:3' ? { state: 'resolved', key: 'A-6' } : { state: 'pending' }), NOW);
    expect(goneBehindTempKey.why).toMatch(/^задачи A-6 в Jira больше нет: Jira её не нашла \(чтение #8/);
    // an ensure_issue's own temp key is no issue yet, and a refresh reads Jira: neither is gone
    expect(verdict('ensure_issue', { temp_key: 'new:1', issue_type: 'Task', summary: 's' }).why).not.toContain('больше нет');
    expect(verdict('refresh', { keys: ['A-5'] }).why).toBe('обновление зеркала только читает Jira');
    // without the runs read (an older caller), the last copy is judged as before
    expect(verdictOf('ensure_status', { key: 'A-5', path: ['Done'] }, { ...mirror, gone: undefined }, tempKey, NOW).verdict).toBe('holds');
  });

  it('unknown keys are named and ask for a refresh', () => {
    const v = verdict('ensure_link', { source: 'B-1', target: 'B-2', link_type: 'Blocks' });
    expect(v.unknown_keys).toEqual(['B-1', 'B-2']);
    expect(v.text).toBe('В зеркале нет B-1, B-2: обновите эти задачи в зеркале, чтобы судить.');
  });

  it('holds exactly when confirmation by state would confirm (one rule)', () => {
    const cases: [CommandType, Params][] = [
      ['ensure_status', { key: 'A-1', path: ['Done'] }],
      ['ensure_status', { key: 'A-2', path: ['Done'] }],
      ['ensure_link', { source: 'A-1', target: 'A-2', link_type: 'Blocks' }],
      ['ensure_link', { source: 'A-2', target: 'A-1', link_type: 'Blocks' }],
      ['ensure_fields', { key: 'A-1', labels: ['x', 'x'] }],
      ['ensure_sprint', { key: 'A-2', sprint: 'S2' }],
    ];
    for (const [type, params] of cases) {
      expect(verdict(type, params).verdict === 'holds').toBe(isConfirmedByState(type, params, mirror));
      expect(changesAgainstMirror(type, params, mirror)?.length === 0).toBe(isConfirmedByState(type, params, mirror));
    }
  });
});

describe('ageText', () => {
  it.each([
    [0, '0 с'],
    [59, '59 с'],
    [60, '1 мин'],
    [3599, '59 мин'],
    [3600, '1 ч'],
    [86399, '23 ч'],
    [86400, '1 дн'],
  ])('%d → %s', (s, text) => expect(ageText(s)).toBe(text));
});
