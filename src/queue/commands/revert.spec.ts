import { describe, expect, it } from '@jest/globals';
import type { MirrorIssue, MirrorLookup } from '../../mirror/index.js';
import { buildRevert, PENDING_TOKEN, pendingChanges, pendingToken, REVERTED_LABEL, staleLabels, writtenBy, type RecordedChange, type RevertOptions } from './revert.js';

const issue = (over: Partial<MirrorIssue> = {}): MirrorIssue => ({
  status: 'Done',
  sprint: 'Спринт 2',
  summary: 'Отчёт',
  description: null,
  duedate: '2026-12-20',
  labels: ['отчёты'],
  assignee: 'ivanov',
  priority: 'High',
  fields: { Team: 'Core' },
  ...over,
});

function mirrorOf(issues: Record<string, MirrorIssue>, links: string[] = []): MirrorLookup {
  const set = new Set(links);
  return { issue: (key) => issues[key], hasLink: (s, t, type) => set.has(`${s}|${t}|${type}`) };
}

const OPTIONS: RevertOptions = { createdIssueStatus: 'Done', deleteCreated: false };
const ch = (command_id: number, c: Omit<RecordedChange, 'command_id'>): RecordedChange => ({ command_id, ...c });

/** The batch of the acceptance: two created issues, fields, a status walk, a sprint, two links, a comment. */
const BATCH: RecordedChange[] = [
  ch(1, { key: 'A-10', what: 'issue', after: { key: 'A-10', summary: 'Новая 1' } }),
  ch(2, { key: 'A-11', what: 'issue', after: { key: 'A-11', summary: 'Новая 2' } }),
  ch(3, { key: 'A-1', what: 'field:duedate', before: null, after: '2026-12-20' }),
  ch(3, { key: 'A-1', what: 'field:labels', before: [], after: ['отчёты'] }),
  ch(3, { key: 'A-1', what: 'field:priority', before: 'Medium', after: 'High' }),
  ch(4, { key: 'A-1', what: 'field:Team', before: null, after: 'Core' }),
  ch(4, { key: 'A-1', what: 'field:assignee', before: null, after: 'ivanov' }),
  ch(5, { key: 'A-1', what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'] }),
  ch(6, { key: 'A-1', what: 'sprint', before: 'Спринт 1', after: 'Спринт 2' }),
  ch(7, { key: 'A-1', what: 'link', after: { source: 'A-1', target: 'A-10', link_type: 'Blocks', id: '20001' } }),
  ch(8, { key: 'A-1', what: 'link', after: { source: 'A-1', target: 'A-2', link_type: 'Relates', id: '20002' } }),
  ch(9, { key: 'A-1', what: 'comment', after: { id: '30001', body: 'Готово' } }),
  ch(10, { key: 'A-10', what: 'field:duedate', before: null, after: '2026-12-01' }),
];

const CREATED = { 'A-10': issue({ status: 'To Do', summary: 'Новая 1', labels: [] }), 'A-11': issue({ status: 'In Progress', summary: 'Новая 2', labels: ['x'] }) };
const MIRROR = mirrorOf(
  { 'A-1': issue(), 'A-2': issue({ status: 'To Do' }), ...CREATED },
  ['A-1|A-10|Blocks', 'A-1|A-2|Relates'],
);

describe('buildRevert (SPEC 17.2)', () => {
  it('inverts every change, newest first; created issues get the label and the status; fields of one command merge', () => {
    expect(buildRevert(BATCH, MIRROR, OPTIONS)).toEqual({
      commands: [
        { type: 'remove_comment', params: { key: 'A-1', comment_id: '30001' } },
        { type: 'remove_link', params: { source: 'A-1', target: 'A-2', link_type: 'Relates' } },
        { type: 'remove_link', params: { source: 'A-1', target: 'A-10', link_type: 'Blocks' } },
        { type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 1' } },
        { type: 'ensure_status', params: { key: 'A-1', to: 'To Do' } },
        { type: 'ensure_fields', params: { key: 'A-1', assignee: null, Team: null } },
        { type: 'ensure_fields', params: { key: 'A-1', priority: 'Medium', labels: [], duedate: null } },
        { type: 'ensure_fields', params: { key: 'A-11', labels: ['x', REVERTED_LABEL] } },
        { type: 'ensure_status', params: { key: 'A-11', to: 'Done' } },
        { type: 'ensure_fields', params: { key: 'A-10', labels: [REVERTED_LABEL] } },
        { type: 'ensure_status', params: { key: 'A-10', to: 'Done' } },
      ],
      conflicts: [],
    });
  });

  it('delete_created: a summary recorded decomposed and kept composed by the mirror is the same summary', () => {
    const batch = [ch(1, { key: 'A-12', what: 'issue', after: { key: 'A-12', summary: 'Новыи\u0306' } })];
    const plan = buildRevert(batch, mirrorOf({ 'A-12': issue({ summary: 'Новый' }) }), { ...OPTIONS, deleteCreated: true });
    expect(plan).toEqual({ commands: [{ type: 'delete_issue', params: { key: 'A-12', summary: 'Новыи\u0306' } }], conflicts: [] });
  });

  it('delete_created: delete_issue with the created summary; links to created issues go with them', () => {
    const plan = buildRevert(BATCH, MIRROR, { ...OPTIONS, deleteCreated: true });
    expect(plan.commands.filter((c) => c.type === 'delete_issue' || c.type === 'remove_link')).toEqual([
      { type: 'remove_link', params: { source: 'A-1', target: 'A-2', link_type: 'Relates' } },
      { type: 'delete_issue', params: { key: 'A-11', summary: 'Новая 2' } },
      { type: 'delete_issue', params: { key: 'A-10', summary: 'Новая 1' } },
    ]);
  });

  it('delete_created, a created issue someone renamed since: kept (a conflict), and its links and comments are removed as anywhere', () => {
    const batch = [...BATCH, ch(11, { key: 'A-10', what: 'comment', after: { id: '30002', body: 'Старт' } })];
    const mirror = mirrorOf({ 'A-1': issue(), 'A-2': issue({ status: 'To Do' }), ...CREATED, 'A-10': issue({ status: 'To Do', summary: 'Чужая теперь', labels: [] }) }, ['A-1|A-10|Blocks', 'A-1|A-2|Relates']);
    const plan = buildRevert(batch, mirror, { ...OPTIONS, deleteCreated: true });
    expect(plan.commands.filter((c) => ['delete_issue', 'remove_link', 'remove_comment'].includes(c.type))).toEqual([
      { type: 'remove_comment', params: { key: 'A-10', comment_id: '30002' } },
      { type: 'remove_comment', params: { key: 'A-1', comment_id: '30001' } },
      { type: 'remove_link', params: { source: 'A-1', target: 'A-2', link_type: 'Relates' } },
      { type: 'remove_link', params: { source: 'A-1', target: 'A-10', link_type: 'Blocks' } },
      { type: 'delete_issue', params: { key: 'A-11', summary: 'Новая 2' } },
    ]);
    expect(plan.conflicts).toEqual([expect.objectContaining({ key: 'A-10', what: 'issue', actual: 'Чужая теперь' })]);
  });

  it('a comment the batch added to an issue it created: removed when the issue stays (label and status), gone with it when deleted', () => {
    const batch = [...BATCH, ch(11, { key: 'A-10', what: 'comment', after: { id: '30002', body: 'Старт' } })];
    expect(buildRevert(batch, MIRROR, OPTIONS).commands[0]).toEqual({ type: 'remove_comment', params: { key: 'A-10', comment_id: '30002' } });
    expect(buildRevert(batch, MIRROR, { ...OPTIONS, deleteCreated: true }).commands).not.toContainEqual(expect.objectContaining({ type: 'remove_comment', params: expect.objectContaining({ key: 'A-10' }) }));
  });

  it.each([
    ['labels', 'field:labels', { type: 'ensure_status', params: { key: 'A-11', to: 'Done' } }],
    ['the status', 'status', { type: 'ensure_fields', params: { key: 'A-11', labels: ['x', REVERTED_LABEL] } }],
  ])('a created issue whose %s a batch not yet finished changes: a conflict, not a snapshot that would overwrite them', (_, what, kept) => {
    const pendingBy = (key: string, w: string) => (key === 'A-11' && w === what ? 42 : undefined);
    const plan = buildRevert(BATCH, MIRROR, { ...OPTIONS, pendingBy });
    expect(plan.conflicts).toEqual([expect.objectContaining({ key: 'A-11', what, detail: expect.stringContaining('пакет #42, он ещё не выполнен'), retry_later: true })]);
    expect(plan.commands.filter((c) => c.params.key === 'A-11')).toEqual([kept]);
  });

  it('delete_created without the permission to delete: the label and the status instead', () => {
    const plan = buildRevert(BATCH, MIRROR, { ...OPTIONS, deleteCreated: true, mayDelete: false });
    expect(plan.commands.some((c) => c.type === 'delete_issue')).toBe(false);
    expect(plan.commands).toContainEqual({ type: 'ensure_fields', params: { key: 'A-10', labels: [REVERTED_LABEL] } });
  });

  it.each<[string, Record<string, MirrorIssue>, string[], { what: string; actual?: unknown }]>([
    ['a field changed since', { 'A-1': issue({ priority: 'Low' }) }, ['A-1|A-10|Blocks', 'A-1|A-2|Relates'], { what: 'field:priority', actual: 'Low' }],
    ['labels changed since (compared as sets)', { 'A-1': issue({ labels: ['другое'] }) }, ['A-1|A-10|Blocks', 'A-1|A-2|Relates'], { what: 'field:labels', actual: ['другое'] }],
    ['a custom field changed since', { 'A-1': issue({ fields: { Team: 'Web' } }) }, ['A-1|A-10|Blocks', 'A-1|A-2|Relates'], { what: 'field:Team', actual: 'Web' }],
    ['the status moved on', { 'A-1': issue({ status: 'In Progress' }) }, ['A-1|A-10|Blocks', 'A-1|A-2|Relates'], { what: 'status', actual: 'In Progress' }],
    ['the sprint moved on', { 'A-1': issue({ sprint: null }) }, ['A-1|A-10|Blocks', 'A-1|A-2|Relates'], { what: 'sprint', actual: null }],
    ['a link is gone', { 'A-1': issue() }, ['A-1|A-10|Blocks'], { what: 'link', actual: null }],
  ])('%s → a conflict, listed and left alone; everything else reverts', (_, issues, links, expected) => {
    const mirror = mirrorOf({ ...CREATED, ...issues }, links);
    const plan = buildRevert(BATCH, mirror, OPTIONS);
    expect(plan.conflicts).toEqual([expect.objectContaining({ key: 'A-1', ...expected, detail: expect.any(String), retry_later: false })]);
    const all = buildRevert(BATCH, MIRROR, OPTIONS).commands;
    // The conflicting change alone is left: the rest of the plan is the full one without it.
    const touches = (c: { type: string; params: Record<string, unknown> }) =>
      expected.what.startsWith('field:') ? c.type === 'ensure_fields' && c.params.key === 'A-1' && expected.what.slice(6) in c.params
        : expected.what === 'link' ? c.type === 'remove_link' && c.params.target === 'A-2'
          : c.type === (expected.what === 'status' ? 'ensure_status' : 'ensure_sprint') && c.params.key === 'A-1';
    expect(plan.commands.some(touches)).toBe(false);
    expect(all.filter(touches)).toHaveLength(1);
    // A field's ensure_fields stays with the command's other fields; any other kind loses its one command.
    expect(plan.commands).toHaveLength(expected.what.startsWith('field:') ? all.length : all.length - 1);
  });

  it('an issue the mirror lacks: its changes are conflicts, to retry once it is read (decision 1467)', () => {
    const plan = buildRevert([ch(1, { key: 'A-5', what: 'field:duedate', before: null, after: '2026-01-01' })], mirrorOf({}), OPTIONS);
    expect(plan).toEqual({ commands: [], conflicts: [expect.objectContaining({ key: 'A-5', what: 'field:duedate', retry_later: true })] });
  });

  it('an issue Jira no longer has (the mirror\'s gone): its changes and links to it are conflicts, a created one\'s once; a deleted issue keeps its own words', () => {
    const gone = { ...MIRROR, gone: (key: string) => (key === 'A-2' || key === 'A-10' ? 7 : undefined) };
    const plan = buildRevert(
      [...BATCH, ch(11, { key: 'A-2', what: 'field:duedate', before: null, after: '2026-12-20' }), ch(12, { key: 'A-2', what: 'issue_deleted', before: { key: 'A-2', summary: 'x' } })],
      { ...gone, issue: (key) => (key === 'A-2' ? issue({ duedate: '2026-12-20' }) : MIRROR.issue(key)) },
      OPTIONS,
    );
    const why = (key: string) => `не откатываем: задачи ${key} в Jira больше нет — Jira её не нашла (чтение #7 в /sync-runs); если она вернулась, обновите её в зеркале и запросите откат заново`;
    expect(plan.conflicts.map((c) => c.detail)).toEqual([
      'A-2 удалена в Jira: удалённую задачу не вернуть',
      `A-2: срок ${why('A-2')}`,
      `связь A-1 → A-2 (Relates) ${why('A-2')}`,
      `A-10: созданную пакетом задачу ${why('A-10')}`,
    ]);
    // Final: nothing a refresh or another batch would change (decision 1467).
    expect(plan.conflicts.map((c) => c.retry_later)).toEqual([false, false, false, false]);
    // Nothing on the gone issues: no label, status, field, comment or link command (the link A-1 → A-10 went with A-10).
    expect(JSON.stringify(plan.commands)).not.toMatch(/"A-(2|10)"/);
    expect(plan.commands.filter((c) => c.type === 'remove_link')).toEqual([]);
  });

  it('a change the mirror has not seen yet (read before it was recorded) is a conflict that says so, not someone else\'s edit', () => {
    const change = ch(1, { key: 'A-1', what: 'field:duedate', before: null, after: '2027-05-05', recorded_at: '2026-12-06T10:00:00.000Z' });
    const unseen = mirrorOf({ 'A-1': issue({ duedate: null, synced_at: '2026-12-06T09:59:00.000Z' }) });
    expect(buildRevert([change], unseen, OPTIONS).conflicts.map((c) => [c.detail, c.retry_later])).toEqual([
      ['A-1: срок — зеркало ещё не видело изменения пакета (задачу читали до него); обновите её в зеркале и повторите откат', true],
    ]);
    // Read after it, the mirror's other value is someone's edit: final.
    const edited = mirrorOf({ 'A-1': issue({ duedate: null, synced_at: '2026-12-06T10:01:00.000Z' }) });
    expect(buildRevert([change], edited, OPTIONS).conflicts.map((c) => [c.detail, c.retry_later])).toEqual([['A-1: срок с тех пор изменили — сейчас пусто, пакет оставил «2027-05-05»; не откатываем', false]]);
    // Shown as the batch left it: reverted, whenever it was read.
    expect(buildRevert([change], mirrorOf({ 'A-1': issue({ duedate: '2027-05-05', synced_at: '2026-12-06T09:59:00.000Z' }) }), OPTIONS).commands).toEqual([{ type: 'ensure_fields', params: { key: 'A-1', duedate: null } }]);
  });

  it('a link change the mirror has not seen (neither end read since it was recorded) is a conflict that says so, not «уже нет» or «уже снова есть»', () => {
    const at = '2026-12-06T10:00:00.000Z';
    const made = ch(1, { key: 'A-1', what: 'link', after: { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, recorded_at: at });
    const removed = ch(2, { key: 'A-1', what: 'link_removed', before: { source: 'A-1', target: 'A-3', link_type: 'Blocks' }, recorded_at: at });
    const read = (a1: string, a2: string) =>
      mirrorOf({ 'A-1': issue({ synced_at: a1 }), 'A-2': issue({ synced_at: a2 }), 'A-3': issue({ synced_at: a1 }) }, ['A-1|A-3|Blocks']);
    const unseen = 'зеркало ещё не видело изменения пакета (обе задачи читали до него); обновите их в зеркале и повторите откат';
    expect(buildRevert([made, removed], read('2026-12-06T09:59:00.000Z', '2026-12-06T09:58:00.000Z'), OPTIONS).conflicts.map((c) => [c.detail, c.retry_later])).toEqual([
      [`удалённая связь A-1 → A-3 (Blocks) — ${unseen}`, true],
      [`связь A-1 → A-2 (Blocks) — ${unseen}`, true],
    ]);
    // One end read after it: the mirror has the links touching it, and what it shows is someone's edit.
    expect(buildRevert([made], read('2026-12-06T09:59:00.000Z', '2026-12-06T10:01:00.000Z'), OPTIONS).conflicts.map((c) => [c.detail, c.retry_later])).toEqual([
      ['связи A-1 → A-2 (Blocks) в зеркале уже нет; не откатываем', false],
    ]);
    expect(buildRevert([removed], read('2026-12-06T10:01:00.000Z', '2026-12-06T10:01:00.000Z'), OPTIONS).conflicts.map((c) => c.detail)).toEqual([
      'связь A-1 → A-3 (Blocks) уже снова есть',
    ]);
  });

  it('a conflict shows a list of labels as words, not JSON, and a link gone from the mirror ends as the others do', () => {
    const labels = buildRevert([ch(1, { key: 'A-1', what: 'field:labels', before: [], after: ['q4'] })], mirrorOf({ 'A-1': issue({ labels: ['k1', 'human'] }) }), OPTIONS);
    expect(labels.conflicts.map((c) => c.detail)).toEqual(['A-1: метки с тех пор изменили — сейчас «k1», «human», пакет оставил «q4»; не откатываем']);
    const link = buildRevert([ch(1, { key: 'A-1', what: 'link', after: { source: 'A-1', target: 'A-2', link_type: 'Blocks', id: '1' } })], mirrorOf({ 'A-1': issue() }), OPTIONS);
    expect(link.conflicts.map((c) => c.detail)).toEqual(['связи A-1 → A-2 (Blocks) в зеркале уже нет; не откатываем']);
  });

  it('a conflict names a field as Jira shows it in Russian, a custom one by the name the catalogue gives it', () => {
    const changes = [
      ch(1, { key: 'A-1', what: 'field:priority', before: 'Medium', after: 'Highest' }),
      ch(1, { key: 'A-1', what: 'field:assignee', before: null, after: 'petrov' }),
      ch(2, { key: 'A-1', what: 'field:customfield_10020', before: null, after: 5 }),
      ch(3, { key: 'A-1', what: 'field:Team', before: null, after: 'Platform' }),
    ];
    const mirror = mirrorOf({ 'A-1': issue({ fields: { Team: 'Core', customfield_10020: 3 } }) });
    const fields = [{ id: 'customfield_10020', name: 'Story Points' }, { id: 'customfield_10030', name: 'Team' }];
    const details = (options: RevertOptions) => buildRevert(changes, mirror, options).conflicts.map((c) => c.detail.slice(0, c.detail.indexOf(' с тех пор')));
    expect(details({ ...OPTIONS, fields })).toEqual(['A-1: поле «Team»', 'A-1: поле «Story Points»', 'A-1: исполнитель', 'A-1: приоритет']);
    // Without a catalogue (or one that does not know the field): by the name the batch gave it.
    expect(details(OPTIONS)).toEqual(['A-1: поле «Team»', 'A-1: поле «customfield_10020»', 'A-1: исполнитель', 'A-1: приоритет']);
  });

  it('labels recorded as null before (no labels) go back to an empty list, not a conflict', () => {
    const plan = buildRevert([ch(1, { key: 'A-1', what: 'field:labels', before: null, after: ['отчёты'] })], MIRROR, OPTIONS);
    expect(plan).toEqual({ commands: [{ type: 'ensure_fields', params: { key: 'A-1', labels: [] } }], conflicts: [] });
  });

  it('a value ensure_fields cannot take back (an empty priority) is a conflict, not an invalid command', () => {
    const plan = buildRevert([ch(1, { key: 'A-1', what: 'field:priority', before: null, after: 'High' })], MIRROR, OPTIONS);
    expect(plan.commands).toEqual([]);
    expect(plan.conflicts).toEqual([expect.objectContaining({ what: 'field:priority' })]);
  });

  // A report's change record may be incomplete (its `key` is optional): such a change is a conflict, never a
  // command the batch's creation would then refuse (the dry run and the revert agree).
  it.each([
    ['a created issue without a key, deleted', ch(1, { what: 'issue', after: { summary: 'Новая' } }), { deleteCreated: true }, /задача: в записи изменения нет ключа задачи/],
    ['a field without a key', ch(1, { what: 'field:duedate', before: null, after: '2026-12-20' }), {}, /^срок: в записи изменения нет ключа задачи/],
    ['a comment without a key', ch(1, { what: 'comment', after: { id: '30001' } }), {}, /комментарий: в записи изменения нет ключа задачи/],
    ['a comment whose id is not a string or a number', ch(1, { key: 'A-1', what: 'comment', after: { id: { x: 1 } } }), {}, /A-1: Jira не сообщила id комментария/],
    // What is not undone and why, in words: no API param names (`summary`, `link_type`) in the sentence.
    ['a created issue deleted without its summary', ch(1, { key: 'A-12', what: 'issue', after: {} }), { deleteCreated: true }, /^A-12: созданную пакетом задачу не удалить — в записи изменения тема: нужна непустая строка$/],
    ['a removed link of a link type with no name', ch(1, { what: 'link_removed', before: { source: 'A-1', target: 'A-2', link_type: '' } }), {}, /^удалённую связь A-1 → A-2 не вернуть — в записи изменения тип связи: нужна непустая строка$/],
    ['a status that was blank before', ch(1, { key: 'A-1', what: 'status', before: ' ', after: 'Done' }), {}, /^A-1: статус не вернуть к « » — в записи изменения целевой статус: нужна непустая строка$/],
  ])('%s: a conflict, no command', (_name, change, options, detail) => {
    const plan = buildRevert([change], mirrorOf({ 'A-1': issue(), 'A-10': issue() }), { ...OPTIONS, ...options });
    expect(plan.commands).toEqual([]);
    expect(plan.conflicts).toEqual([expect.objectContaining({ detail: expect.stringMatching(detail) })]);
  });

  it('a created issue renamed since is not deleted', () => {
    const mirror = mirrorOf({ 'A-10': issue({ summary: 'Переименована' }) });
    const plan = buildRevert([ch(1, { key: 'A-10', what: 'issue', after: { key: 'A-10', summary: 'Новая 1' } })], mirror, { ...OPTIONS, deleteCreated: true });
    expect(plan.commands).toEqual([]);
    expect(plan.conflicts).toEqual([expect.objectContaining({ key: 'A-10', what: 'issue', actual: 'Переименована' })]);
  });

  it('the revert of a revert: removed links and comments come back, back to the batch’s values', () => {
    const revert: RecordedChange[] = [
      ch(1, { key: 'A-1', what: 'comment_removed', before: { id: '30001', body: 'Готово' } }),
      ch(2, { key: 'A-1', what: 'link_removed', before: { source: 'A-1', target: 'A-2', link_type: 'Relates', id: '20002' } }),
      ch(3, { key: 'A-1', what: 'sprint', before: 'Спринт 2', after: 'Спринт 1' }),
      ch(4, { key: 'A-1', what: 'status', before: 'Done', after: 'To Do', transitions: ['Reopen'] }),
      ch(5, { key: 'A-1', what: 'field:duedate', before: '2026-12-20', after: null }),
      ch(6, { key: 'A-9', what: 'issue_deleted', before: { key: 'A-9', summary: 'x' } }),
    ];
    const mirror = mirrorOf({ 'A-1': issue({ status: 'To Do', sprint: 'Спринт 1', duedate: null }) });
    expect(buildRevert(revert, mirror, OPTIONS)).toEqual({
      commands: [
        { type: 'ensure_fields', params: { key: 'A-1', duedate: '2026-12-20' } },
        { type: 'ensure_status', params: { key: 'A-1', to: 'Done' } },
        { type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 2' } },
        { type: 'ensure_link', params: { source: 'A-1', target: 'A-2', link_type: 'Relates' } },
        { type: 'ensure_comment', params: { key: 'A-1', body: 'Готово' } },
      ],
      conflicts: [expect.objectContaining({ key: 'A-9', what: 'issue_deleted' })],
    });
  });

  it('a sprint before the batch of none goes back to the backlog', () => {
    const plan = buildRevert([ch(1, { key: 'A-1', what: 'sprint', before: null, after: 'Спринт 2' })], MIRROR, OPTIONS);
    expect(plan.commands).toEqual([{ type: 'ensure_sprint', params: { key: 'A-1', sprint: null } }]);
  });

  it('nothing changed → nothing to do', () => {
    expect(buildRevert([], MIRROR, OPTIONS)).toEqual({ commands: [], conflicts: [] });
  });
});

describe('buildRevert: a sprint by its id and board (decision 1430)', () => {
  // «Спринт 2» is sprint 2 of board 1 and sprint 7 of board 2.
  const [a2, b2] = [{ id: 2, name: 'Спринт 2', board_id: 1 }, { id: 7, name: 'Спринт 2', board_id: 2 }];
  const inSprint = (s: { id: number; name: string; board_id: number | null }) => issue({ sprint: s.name, sprint_id: s.id, sprint_board_id: s.board_id });

  it("a move between two boards' «Спринт 2» goes back to the first board's, named by its board", () => {
    const plan = buildRevert([ch(1, { key: 'A-1', what: 'sprint', before: b2, after: a2 })], mirrorOf({ 'A-1': inSprint(a2) }), OPTIONS);
    expect(plan).toEqual({ commands: [{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 2', board: 2 } }], conflicts: [] });
  });

  it('a move out of a sprint whose name is on several boards: back with its board, so the name is not ambiguous', () => {
    const plan = buildRevert([ch(1, { key: 'A-1', what: 'sprint', before: b2, after: { id: 1, name: 'Спринт 1', board_id: 1 } })], mirrorOf({ 'A-1': issue({ sprint: 'Спринт 1', sprint_id: 1, sprint_board_id: 1 }) }), OPTIONS);
    expect(plan.commands).toEqual([{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 2', board: 2 } }]);
  });

  it("the mirror in the other board's sprint of the same name: someone moved it since, a conflict that names the boards", () => {
    const plan = buildRevert([ch(1, { key: 'A-1', what: 'sprint', before: { id: 1, name: 'Спринт 1', board_id: 1 }, after: a2 })], mirrorOf({ 'A-1': inSprint(b2) }), OPTIONS);
    expect(plan.commands).toEqual([]);
    expect(plan.conflicts).toEqual([
      { key: 'A-1', what: 'sprint', expected: a2, actual: b2, detail: 'A-1: спринт с тех пор изменили — сейчас «Спринт 2» (доска 2), пакет оставил «Спринт 2» (доска 1); не откатываем', retry_later: false },
    ]);
  });

  it("the conflict names the boards as the catalogue does, and by id a board it does not know", () => {
    const change = ch(1, { key: 'A-1', what: 'sprint', before: { id: 1, name: 'Спринт 1', board_id: 1 }, after: a2 });
    const detail = (boards: RevertOptions['boards']) => buildRevert([change], mirrorOf({ 'A-1': inSprint(b2) }), { ...OPTIONS, ...(boards ? { boards } : {}) }).conflicts.map((c) => c.detail);
    expect(detail([{ id: 1, name: 'AURORA board' }, { id: 2, name: 'Команда А' }])).toEqual([
      'A-1: спринт с тех пор изменили — сейчас «Спринт 2» (доска «Команда А»), пакет оставил «Спринт 2» (доска «AURORA board»); не откатываем',
    ]);
    expect(detail([{ id: 1, name: 'AURORA board' }])).toEqual(['A-1: спринт с тех пор изменили — сейчас «Спринт 2» (доска 2), пакет оставил «Спринт 2» (доска «AURORA board»); не откатываем']);
    expect(detail([])).toEqual(['A-1: спринт с тех пор изменили — сейчас «Спринт 2» (доска 2), пакет оставил «Спринт 2» (доска 1); не откатываем']);
  });

  it('a mirror without sprint ids (an older agent refreshed it) compares the name, as before', () => {
    const plan = buildRevert([ch(1, { key: 'A-1', what: 'sprint', before: b2, after: { id: 1, name: 'Спринт 1', board_id: 1 } })], mirrorOf({ 'A-1': issue({ sprint: 'Спринт 1' }) }), OPTIONS);
    expect(plan.commands).toEqual([{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 2', board: 2 } }]);
  });

  it('a sprint shown on several boards goes back named with the board the catalogue lists it under, which the checks find it on', () => {
    // «Спринт 5» is sprint 25 of board 2 (Jira's boardId), also shown on board 1: the catalogue lists it under board 1.
    const back = (openSprint?: RevertOptions['openSprint']) =>
      buildRevert([ch(1, { key: 'A-1', what: 'sprint', before: { id: 25, name: 'Спринт 5', board_id: 2 }, after: null })], mirrorOf({ 'A-1': issue({ sprint: null }) }), { ...OPTIONS, ...(openSprint ? { openSprint } : {}) }).commands;
    expect(back((id) => (id === 25 ? { name: 'Спринт 5', board_id: 1 } : undefined))).toEqual([{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 5', board: 1 } }]);
    // renamed since: by its name now, which the checks and the agent find it by
    expect(back((id) => (id === 25 ? { name: 'Спринт 5 — релиз', board_id: 1 } : undefined))).toEqual([{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 5 — релиз', board: 1 } }]);
    // no catalogue: the record's board
    expect(back()).toEqual([{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 5', board: 2 } }]);
    // a catalogue that lists it among no open sprints (closed or deleted since): a conflict, nothing to send
    expect(back(() => undefined)).toEqual([]);
  });

  it("there and back between two boards' «Спринт 2» in one batch is no net change; a record without a board goes back by name", () => {
    const there = ch(1, { key: 'A-1', what: 'sprint', before: b2, after: a2 });
    expect(buildRevert([there, ch(2, { key: 'A-1', what: 'sprint', before: a2, after: b2 })], mirrorOf({ 'A-1': inSprint(b2) }), OPTIONS)).toEqual({ commands: [], conflicts: [] });
    const noBoard = buildRevert([ch(1, { key: 'A-1', what: 'sprint', before: { id: 7, name: 'Спринт 2', board_id: null }, after: 'Спринт 3' })], mirrorOf({ 'A-1': issue({ sprint: 'Спринт 3' }) }), OPTIONS);
    expect(noBoard.commands).toEqual([{ type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 2' } }]);
  });
});

describe('buildRevert: a subject changed more than once in the batch reverts its net change (decision 1410)', () => {
  const LINK = { source: 'A-1', target: 'A-2', link_type: 'Relates' };
  const linked = (...kinds: ('link' | 'link_removed')[]): RecordedChange[] =>
    kinds.map((what, i) => ch(i + 1, what === 'link' ? { key: 'A-1', what, after: { ...LINK, id: null } } : { key: 'A-1', what, before: { ...LINK, id: String(20000 + i) } }));
  const WALK: RecordedChange[] = [
    ch(1, { key: 'A-1', what: 'field:duedate', before: null, after: '2026-12-01' }),
    ch(1, { key: 'A-1', what: 'field:priority', before: 'Medium', after: 'High' }),
    ch(2, { key: 'A-1', what: 'field:duedate', before: '2026-12-01', after: '2026-12-05' }),
    ch(3, { key: 'A-1', what: 'status', before: 'To Do', after: 'In Progress', transitions: ['Start'] }),
    ch(4, { key: 'A-1', what: 'status', before: 'In Progress', after: 'Done', transitions: ['Finish'] }),
  ];
  const walked = (over: Partial<MirrorIssue> = {}) => mirrorOf({ 'A-1': issue({ status: 'Done', duedate: '2026-12-05', priority: 'High', ...over }) });

  it.each<[string, RecordedChange[], MirrorLookup, Pick<ReturnType<typeof buildRevert>, 'commands'> & { conflicts: unknown[] }]>([
    // a link the batch created and removed never existed before it: nothing to re-create, the mirror's lack of it is no conflict
    ['a link created, then removed', linked('link', 'link_removed'), mirrorOf({ 'A-1': issue() }), { commands: [], conflicts: [] }],
    ['a link removed, then created again', linked('link_removed', 'link'), mirrorOf({ 'A-1': issue() }, ['A-1|A-2|Relates']), { commands: [], conflicts: [] }],
    [
      'a link created, removed and created again: removed once',
      linked('link', 'link_removed', 'link'),
      mirrorOf({ 'A-1': issue() }, ['A-1|A-2|Relates']),
      { commands: [{ type: 'remove_link', params: LINK }], conflicts: [] },
    ],
    [
      'a link removed, created and removed again: created once',
      linked('link_removed', 'link', 'link_removed'),
      mirrorOf({ 'A-1': issue() }),
      { commands: [{ type: 'ensure_link', params: LINK }], conflicts: [] },
    ],
    [
      'the same link in another case of its type and keys is the same subject',
      [ch(1, { key: 'A-1', what: 'link', after: { source: 'A-1', target: 'a-2', link_type: 'relates' } }), ch(2, { key: 'A-1', what: 'link_removed', before: { ...LINK, id: '1' } })],
      mirrorOf({ 'A-1': issue() }),
      { commands: [], conflicts: [] },
    ],
    [
      'fields over two commands and a status walked in two: back to the first before, compared with the last after',
      WALK,
      walked(),
      {
        commands: [
          { type: 'ensure_status', params: { key: 'A-1', to: 'To Do' } },
          { type: 'ensure_fields', params: { key: 'A-1', duedate: null } },
          { type: 'ensure_fields', params: { key: 'A-1', priority: 'Medium' } },
        ],
        conflicts: [],
      },
    ],
    [
      'the status changed since the last step: a conflict against the last after',
      WALK,
      walked({ status: 'In Progress' }),
      {
        commands: [
          { type: 'ensure_fields', params: { key: 'A-1', duedate: null } },
          { type: 'ensure_fields', params: { key: 'A-1', priority: 'Medium' } },
        ],
        conflicts: [{ key: 'A-1', what: 'status', expected: 'Done', actual: 'In Progress', detail: 'A-1: статус с тех пор изменили — сейчас «In Progress», пакет оставил «Done»; не откатываем', retry_later: false }],
      },
    ],
    [
      'a due date showing an earlier step of the batch is a change since',
      WALK,
      walked({ duedate: '2026-12-01' }),
      {
        commands: [
          { type: 'ensure_status', params: { key: 'A-1', to: 'To Do' } },
          { type: 'ensure_fields', params: { key: 'A-1', priority: 'Medium' } },
        ],
        conflicts: [expect.objectContaining({ key: 'A-1', what: 'field:duedate', expected: '2026-12-05', actual: '2026-12-01' })],
      },
    ],
    [
      'a sprint from the backlog through two sprints: back to the backlog',
      [ch(1, { key: 'A-1', what: 'sprint', before: null, after: 'Спринт 1' }), ch(2, { key: 'A-1', what: 'sprint', before: 'Спринт 1', after: 'Спринт 2' })],
      MIRROR,
      { commands: [{ type: 'ensure_sprint', params: { key: 'A-1', sprint: null } }], conflicts: [] },
    ],
    [
      'a status walked back to where it was: nothing, whatever the mirror shows now',
      [ch(1, { key: 'A-1', what: 'status', before: 'To Do', after: 'In Progress' }), ch(2, { key: 'A-1', what: 'status', before: 'In Progress', after: 'To Do' })],
      mirrorOf({ 'A-1': issue({ status: 'Done' }) }),
      { commands: [], conflicts: [] },
    ],
    [
      'a field put back within the batch: nothing; another field of the same command still reverts',
      [
        ch(1, { key: 'A-1', what: 'field:duedate', before: '2026-12-20', after: '2027-01-01' }),
        ch(1, { key: 'A-1', what: 'field:Team', before: null, after: 'Core' }),
        ch(2, { key: 'A-1', what: 'field:duedate', before: '2027-01-01', after: '2026-12-20' }),
      ],
      MIRROR,
      { commands: [{ type: 'ensure_fields', params: { key: 'A-1', Team: null } }], conflicts: [] },
    ],
    [
      'labels back to the same set in another order: nothing (labels as sets, as confirmation reads them)',
      [ch(1, { key: 'A-1', what: 'field:labels', before: ['a', 'b'], after: [] }), ch(2, { key: 'A-1', what: 'field:labels', before: null, after: ['b', 'a'] })],
      MIRROR,
      { commands: [], conflicts: [] },
    ],
    [
      'the same field of two issues: two subjects',
      [ch(1, { key: 'A-1', what: 'sprint', before: 'Спринт 1', after: 'Спринт 2' }), ch(2, { key: 'A-2', what: 'sprint', before: 'Спринт 2', after: 'Спринт 1' })],
      mirrorOf({ 'A-1': issue({ sprint: 'Спринт 2' }), 'A-2': issue({ sprint: 'Спринт 1' }) }),
      {
        commands: [
          { type: 'ensure_sprint', params: { key: 'A-2', sprint: 'Спринт 2' } },
          { type: 'ensure_sprint', params: { key: 'A-1', sprint: 'Спринт 1' } },
        ],
        conflicts: [],
      },
    ],
  ])('%s', (_name, changes, mirror, expected) => {
    expect(buildRevert(changes, mirror, OPTIONS)).toEqual(expected);
  });

  it('a subject of an unfinished batch is a conflict once, against the last after', () => {
    const plan = buildRevert(WALK, walked(), { ...OPTIONS, pendingBy: (_key, what) => (what === 'status' ? 12 : undefined) });
    expect(plan.conflicts).toEqual([expect.objectContaining({ key: 'A-1', what: 'status', expected: 'Done', detail: expect.stringContaining('меняет и пакет #12'), retry_later: true })]);
    expect(plan.commands.map((c) => c.type)).toEqual(['ensure_fields', 'ensure_fields']);
  });
});

describe('what unfinished batches will write (decision 0120)', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['ensure_fields', { key: 'A-1', duedate: '2026-12-01', labels: ['x'] }, ['field:duedate', 'field:labels']],
    ['ensure_status', { key: 'A-1', to: 'Done' }, ['status']],
    ['ensure_sprint', { key: 'A-1', sprint: 'Спринт 2' }, ['sprint']],
    ['ensure_comment', { key: 'A-1', body: 'x' }, []],
    ['ensure_link', { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, []],
  ])('%s writes %j', (type, params, what) => {
    expect(writtenBy(type, params as never)).toEqual(what);
  });

  it('names the first batch that writes each subject; a delete covers every subject of its issue; temp keys are read as their Jira keys', () => {
    const pendingBy = pendingChanges(
      [
        { batch_id: 7, type: 'ensure_fields', params: { key: 'new:1', duedate: '2026-12-01' } },
        { batch_id: 8, type: 'ensure_fields', params: { key: 'A-1', duedate: '2026-12-02' } },
        { batch_id: 9, type: 'delete_issue', params: { key: 'A-3' } },
      ],
      (key) => (key === 'new:1' ? 'A-1' : undefined),
    );
    expect([pendingBy('A-1', 'field:duedate'), pendingBy('A-1', 'status'), pendingBy('A-3', 'sprint'), pendingBy('A-2', 'field:duedate')]).toEqual([7, undefined, 9, undefined]);
  });
});

describe('staleLabels: a waiting revert whose labels the mirror no longer leads to (approval, decision 0120)', () => {
  const waiting = [
    { type: 'ensure_fields' as const, params: { key: 'A-10', labels: ['x', REVERTED_LABEL] } },
    { type: 'ensure_status' as const, params: { key: 'A-10', to: 'Done' } },
  ];
  it.each<[string, { type: 'ensure_fields'; params: Record<string, unknown> }[], string[]]>([
    ['the same labels now', [{ type: 'ensure_fields', params: { key: 'A-10', labels: ['x', REVERTED_LABEL] } }], []],
    ['a label added since', [{ type: 'ensure_fields', params: { key: 'A-10', labels: ['x', 'y', REVERTED_LABEL] } }], ['A-10: метки с тех пор изменили — сейчас «x», «y», а откат поставил бы «x», «hub-reverted»']],
    ['no labels command now (a conflict instead, told by the conflicts)', [], []],
  ])('%s', (_, fresh, expected) => {
    expect(staleLabels(waiting, { commands: fresh, conflicts: [] })).toEqual(expected);
  });
});

describe('pendingToken (decision 1491)', () => {
  const conflict = (key: string | null, what: string, retry_later: boolean, expected: unknown = 'x') => ({ key, what, expected, detail: `${key} ${what}`, retry_later });
  const a = conflict('A-1', 'field:duedate', true, '2026-12-20');
  const b = conflict('A-2', 'status', true, 'Done');
  const final = conflict('A-3', 'field:priority', false);

  it('is null without retry_later conflicts, final ones aside', () => {
    expect(pendingToken([])).toBeNull();
    expect(pendingToken([final])).toBeNull();
  });

  it('is short hex, the same for the same set in any order and whatever the final conflicts and the words are', () => {
    const token = pendingToken([a, b, final])!;
    expect(token).toMatch(PENDING_TOKEN);
    expect(pendingToken([b, a])).toBe(token);
    expect(pendingToken([{ ...a, detail: 'другие слова' }, b])).toBe(token);
  });

  it.each([
    ['one more', [a, b, conflict('A-4', 'sprint', true)]],
    ['one fewer', [a]],
    ['another subject of the same issue', [a, conflict('A-2', 'field:labels', true)]],
    ['the same key and what, another change (two links of one issue share them)', [conflict('A-1', 'field:duedate', true, '2027-01-01'), b]],
    ['a final conflict that became pending', [a, b, { ...final, retry_later: true }]],
  ])('differs for a different set: %s', (_, conflicts) => {
    expect(pendingToken(conflicts)).not.toBe(pendingToken([a, b]));
  });
});
