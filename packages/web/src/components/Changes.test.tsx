import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchPage } from '../pages/Batch';
import { fakeFetch, renderWithHub, summary } from '../test/support';
import { changeValue } from './Changes';
import { IssueChanges } from './IssueChanges';

afterEach(() => vi.unstubAllGlobals());

const CHANGES = {
  'AURORA-1': [
    { key: 'AURORA-1', what: 'field:duedate', before: null, after: '2026-12-20', command_id: 11 },
    { key: 'AURORA-1', what: 'field:labels', before: ['old'], after: ['old', 'e2e'], command_id: 11 },
    { key: 'AURORA-1', what: 'status', before: 'To Do', after: 'Done', transitions: ['Start', 'Finish'], command_id: 12 },
    { key: 'AURORA-1', what: 'sprint', before: 'Спринт 1', after: null, command_id: 13 },
  ],
  'AURORA-9': [{ key: 'AURORA-9', what: 'issue', after: { key: 'AURORA-9', summary: 'Новая' }, command_id: 10 }],
};
const done = () => ({ ...summary(1, { title: 'Спринт 2', status: 'done' }), commands: [], changes: CHANGES });
const SPRINT_BACK = { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 1' } };
/** The revert dry run of batch 1 as the hub answers it: one inverse command, no conflict, accepted — or as `over` says. */
const revertPlan = (over: Record<string, unknown> = {}) => ({ dry_run: true, revert_of: 1, title: 'Откат пакета #1', commands: [SPRINT_BACK], conflicts: [], ok: true, findings: [], unchecked: [], batch: null, ...over });
/** POST /batches/1/revert answering the plan `over` describes: a dry run 200, the revert itself 201 with batch #2. */
const revertRoute = (over: Record<string, unknown>) => (_: unknown, url: string) => {
  const dry = url.includes('dry_run=true');
  return { status: dry ? 200 : 201, body: revertPlan({ ...over, dry_run: dry, batch: dry ? null : { id: 2 } }) };
};
/** The batch page of batch 1 with «Откатить…» pressed: the dialog. */
async function openRevert() {
  renderWithHub(<BatchPage id={1} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Откатить…' }));
  return screen.findByRole('dialog', { name: 'Откат пакета #1' });
}

describe('the change record on the batch page', () => {
  it('shows what the batch changed: Russian labels, dates as dates, the backlog, a created issue', async () => {
    fakeFetch({ 'GET /batches/1': done() });
    renderWithHub(<BatchPage id={1} />);
    const section = await screen.findByRole('region', { name: 'Что изменено в Jira' });
    const rows = within(section).getAllByRole('row').map((r) => r.textContent);
    expect(rows).toContain('AURORA-1Срокпусто → 20 декабря 2026 г.');
    expect(rows).toContain('Меткиold → old, e2e');
    expect(rows).toContain('СтатусTo Do → Done (переходы: Start, Finish)');
    expect(rows).toContain('СпринтСпринт 1 → бэклог');
    expect(rows).toContain('AURORA-9Задача созданаAURORA-9 «Новая»');
  });

  it("names a sprint's board as the catalogue does, reading it once for the whole list; by id a board it does not know", async () => {
    const moves = {
      'AURORA-1': [{ key: 'AURORA-1', what: 'sprint', before: { id: 10, name: 'Спринт 1', board_id: 1 }, after: { id: 50, name: 'Спринт 2', board_id: 5 }, command_id: 13 }],
      'AURORA-2': [{ key: 'AURORA-2', what: 'sprint', before: null, after: { id: 7, name: 'Спринт 2', board_id: 2 }, command_id: 14 }],
    };
    const calls = fakeFetch({
      'GET /batches/1': { ...done(), changes: moves },
      'GET /catalogue': { catalogue: { boards: [{ id: 1, name: 'AURORA board' }, { id: 2, name: 'Команда А' }] } },
    });
    renderWithHub(<BatchPage id={1} />);
    const section = await screen.findByRole('region', { name: 'Что изменено в Jira' });
    await within(section).findByText('Спринт 2 (доска «Команда А»)');
    const rows = within(section).getAllByRole('row').map((r) => r.textContent);
    expect(rows).toContain('AURORA-1СпринтСпринт 1 (доска «AURORA board») → Спринт 2 (доска 5)');
    expect(rows).toContain('AURORA-2Спринтбэклог → Спринт 2 (доска «Команда А»)');
    expect(calls.filter((c) => c.url === '/catalogue')).toHaveLength(1);
  });

  it("boards and people named by the same page's parts: one read of the catalogue, not one per list or part", async () => {
    const mixed = {
      'AURORA-1': [
        { key: 'AURORA-1', what: 'sprint', before: null, after: { id: 7, name: 'Спринт 2', board_id: 2 }, command_id: 13 },
        { key: 'AURORA-1', what: 'field:assignee', before: null, after: 'acc-1', command_id: 14 },
      ],
    };
    const calls = fakeFetch({
      'GET /batches/1': { ...done(), changes: mixed },
      'GET /catalogue': { catalogue: { boards: [{ id: 2, name: 'Команда А' }], assignable: [{ id: 'acc-1', display_name: 'Анна Петрова' }] } },
    });
    renderWithHub(<BatchPage id={1} />);
    const section = await screen.findByRole('region', { name: 'Что изменено в Jira' });
    await within(section).findByText('Спринт 2 (доска «Команда А»)');
    await within(section).findByText(/Анна Петрова/);
    expect(calls.filter((c) => c.url === '/catalogue')).toHaveLength(1);
  });

  it('no catalogue yet, or none to read: the boards by their ids; no sprint board in the changes: the catalogue is not read', async () => {
    const moved = { 'AURORA-1': [{ key: 'AURORA-1', what: 'sprint', before: null, after: { id: 7, name: 'Спринт 2', board_id: 2 }, command_id: 13 }] };
    const calls = fakeFetch({ 'GET /batches/1': { ...done(), changes: moved }, 'GET /catalogue': { catalogue: null } });
    const { unmount } = renderWithHub(<BatchPage id={1} />);
    const section = await screen.findByRole('region', { name: 'Что изменено в Jira' });
    await vi.waitFor(() => expect(calls.some((c) => c.url === '/catalogue')).toBe(true));
    expect(within(section).getAllByRole('row').map((r) => r.textContent)).toContain('AURORA-1Спринтбэклог → Спринт 2 (доска 2)');
    unmount();
    const plain = fakeFetch({ 'GET /batches/1': done() });
    renderWithHub(<BatchPage id={1} />);
    await screen.findByRole('region', { name: 'Что изменено в Jira' });
    expect(plain.some((c) => c.url === '/catalogue')).toBe(false);
  });

  it('revert: the dry run first, with its commands and conflicts; then the new batch', async () => {
    const calls = fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': revertRoute({
        conflicts: [{ key: 'AURORA-1', what: 'field:duedate', expected: '2026-12-20', actual: '2027-01-10', detail: 'AURORA-1: срок с тех пор изменили — сейчас 2027-01-10, пакет оставил 2026-12-20; не откатываем' }],
      }),
    });
    const dialog = await openRevert();
    expect(within(dialog).getByText('AURORA-1 → «Спринт 1»')).toBeTruthy();
    expect(within(dialog).getByText(/Хаб создаст пакет из 1 обратной команды/)).toBeTruthy();
    expect(within(dialog).getByText('AURORA-1: срок с тех пор изменили — сейчас 2027-01-10, пакет оставил 2026-12-20; не откатываем')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/batches/1/revert?dry_run=true']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Создать пакет отката' }));
    await vi.waitFor(() => expect(location.hash).toBe('#/batch/2'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/batches/1/revert?dry_run=true', '/batches/1/revert']);
  });

  it("revert: a conflict not yet decided (retry_later) is shown apart; the revert is made only when the person chooses to leave it, with the dry run's pending_token (decisions 1467, 1491)", async () => {
    const later = 'AURORA-1: срок меняет и пакет #7, он ещё не выполнен; не откатываем, чтобы не затереть его изменение (чтобы откатить и это, дождитесь пакета #7)';
    const edited = 'AURORA-9: тему с тех пор изменили на «Чужая» — задачу не удаляем';
    const calls = fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': revertRoute({
        retry_later: 1,
        pending_token: '0123456789abcdef',
        conflicts: [
          { key: 'AURORA-9', what: 'issue', expected: null, detail: edited, retry_later: false },
          { key: 'AURORA-1', what: 'field:duedate', expected: '2026-12-20', actual: '2026-12-20', detail: later, retry_later: true },
        ],
      }),
    });
    const dialog = await openRevert();
    expect(within(dialog).getByText(/^Пока не откатить — обновите эти задачи в зеркале или дождитесь названных пакетов/)).toBeTruthy();
    const laterList = dialog.querySelector('.revert-later')!;
    expect([...laterList.querySelectorAll('li')].map((li) => li.textContent)).toEqual([later]);
    expect([...dialog.querySelectorAll('.revert-conflicts li')].map((li) => li.textContent)).toEqual([edited]);
    const create = within(dialog).getByRole('button', { name: 'Создать пакет отката' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    const leave = within(dialog).getByRole('checkbox', { name: 'Откатить остальное сейчас, а это изменение оставить как есть' });
    fireEvent.click(leave);
    expect(create.disabled).toBe(false);
    fireEvent.click(create);
    await vi.waitFor(() => expect(location.hash).toBe('#/batch/2'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/batches/1/revert?dry_run=true', '/batches/1/revert?leave_pending=0123456789abcdef']);
  });

  it('revert: refused as the list not yet decided changed while the dialog was open (409), it shows the list as it is now, unticked, and the next choice sends its token (decision 1491)', async () => {
    const first = { key: 'AURORA-1', what: 'field:duedate', expected: '2026-12-20', detail: 'AURORA-1: срок меняет и пакет #7, он ещё не выполнен', retry_later: true };
    const added = { key: 'AURORA-2', what: 'field:duedate', expected: '2026-12-21', detail: 'AURORA-2: срок меняет и пакет #8, он ещё не выполнен', retry_later: true };
    let dryRuns = 0;
    const calls = fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': (_: unknown, url: string) => {
        if (url.includes('dry_run=true')) {
          dryRuns++;
          return { body: dryRuns === 1 ? revertPlan({ retry_later: 1, pending_token: 'aaaaaaaaaaaaaaaa', conflicts: [first] }) : revertPlan({ retry_later: 2, pending_token: 'bbbbbbbbbbbbbbbb', conflicts: [first, added] }) };
        }
        if (url.endsWith('leave_pending=aaaaaaaaaaaaaaaa')) {
          return { status: 409, body: { error: 'conflict', detail: 'откат пакета #1 не создан: список изменений, которые пока не откатить, изменился после пробного отката — теперь их 2 (AURORA-1, AURORA-2).' } };
        }
        return { status: 201, body: revertPlan({ dry_run: false, batch: { id: 2 } }) };
      },
    });
    const dialog = await openRevert();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Откатить остальное сейчас, а это изменение оставить как есть' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Создать пакет отката' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Пакет отката не создан: пока вы смотрели, список изменений, которые пока не откатить, изменился. Ниже — план, каким он стал; решите снова.',
    );
    expect([...dialog.querySelectorAll('.revert-later li')].map((li) => li.textContent)).toEqual([first.detail, added.detail]);
    const leave = within(dialog).getByRole('checkbox', { name: 'Откатить остальное сейчас, а эти изменения оставить как есть' }) as HTMLInputElement;
    expect(leave.checked).toBe(false);
    expect((within(dialog).getByRole('button', { name: 'Создать пакет отката' }) as HTMLButtonElement).disabled).toBe(true);
    expect(location.hash).not.toBe('#/batch/2');

    fireEvent.click(leave);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Создать пакет отката' }));
    await vi.waitFor(() => expect(location.hash).toBe('#/batch/2'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/batches/1/revert?dry_run=true',
      '/batches/1/revert?leave_pending=aaaaaaaaaaaaaaaa',
      '/batches/1/revert?dry_run=true',
      '/batches/1/revert?leave_pending=bbbbbbbbbbbbbbbb',
    ]);
  });

  it('revert: only conflicts not yet decided and nothing else: nothing to revert yet, no choice offered', async () => {
    fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': revertPlan({
        commands: [],
        retry_later: 1,
        conflicts: [{ key: 'AURORA-1', what: 'field:duedate', expected: '2026-12-20', detail: 'AURORA-1: срок — зеркало ещё не видело изменения пакета', retry_later: true }],
      }),
    });
    const dialog = await openRevert();
    expect(within(dialog).getByText('Откатывать пока нечего.')).toBeTruthy();
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    expect((within(dialog).getByRole('button', { name: 'Создать пакет отката' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("revert: an inverse ensure_sprint names its board as the catalogue does, as the conflicts beside it do; by id a board it does not know", async () => {
    fakeFetch({
      'GET /batches/1': done(),
      'GET /catalogue': { catalogue: { boards: [{ id: 1, name: 'AURORA board' }, { id: 2, name: 'Команда А' }] } },
      'POST /batches/1/revert': revertPlan({
        commands: [
          { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 2', board: 2 } },
          { type: 'ensure_sprint', params: { key: 'AURORA-2', sprint: 'Спринт 2', board: 5 } },
        ],
      }),
    });
    const dialog = await openRevert();
    expect(await within(dialog).findByText('AURORA-1 → «Спринт 2» (доска «Команда А»)')).toBeTruthy();
    expect(within(dialog).getByText('AURORA-2 → «Спринт 2» (доска 5)')).toBeTruthy();
  });

  it('revert: a dry run whose commands the checks refuse shows the findings, and the revert cannot be asked for', async () => {
    const calls = fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': revertPlan({ ok: false, findings: [{ seq: 1, code: 'unknown_sprint', param: 'sprint', detail: 'спринта «Спринт 1» нет среди активных и будущих' }] }),
    });
    const dialog = await openRevert();
    expect(within(dialog).getByText(/Хаб не примет этот откат/)).toBeTruthy();
    expect(within(dialog).getByText('шаг 1: спринта «Спринт 1» нет среди активных и будущих')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Создать пакет отката' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/batches/1/revert?dry_run=true']);
  });

  it('revert: the commands the checks could not judge are named with why, those of the same reason together; the revert can still be asked for', async () => {
    const route =
      'целевой статус «To Do»: путь по статусам «Reopened» → «To Do» (из «Done»; переходы из «Reopened» ещё не наблюдались: агент попробует прямой переход в «To Do», а если его нет, команда завершится ошибкой со списком доступных переходов — тогда укажите путь по шагам (path))';
    const stale = 'каталог Jira устарел';
    fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': revertPlan({
        commands: Array.from({ length: 14 }, (_, i) => ({ type: 'ensure_status', params: { key: `AURORA-${i + 1}`, to: 'To Do' } })),
        unchecked: [...Array.from({ length: 13 }, (_, i) => ({ seq: i + 1, notes: [stale] })), { seq: 14, notes: [route] }],
      }),
    });
    const dialog = await openRevert();
    expect(within(dialog).getByText(/По каталогу Jira не проверить 14 из 14 обратных команд: хаб примет откат/)).toBeTruthy();
    expect(within(dialog).getByText(`шаги 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 и ещё 3: ${stale}`)).toBeTruthy();
    expect(within(dialog).getByText(`шаг 14: ${route}`)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Создать пакет отката' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('revert: the inverse of a status and of a created issue ({key, to}, no route yet) is shown in words, not a blank page', async () => {
    fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': revertPlan({
        commands: [
          { type: 'ensure_fields', params: { key: 'AURORA-9', labels: ['hub-reverted'] } },
          { type: 'ensure_status', params: { key: 'AURORA-9', to: 'Done' } },
          { type: 'ensure_status', params: { key: 'AURORA-1', to: 'To Do' } },
        ],
      }),
    });
    const dialog = await openRevert();
    expect(within(dialog).getByText('AURORA-9 → статус «Done»')).toBeTruthy();
    expect(within(dialog).getByText('AURORA-1 → статус «To Do»')).toBeTruthy();
    expect(within(dialog).getByText(/пакет из 3 обратных команд/)).toBeTruthy();
  });

  it('revert: a conflict says the hub’s own reason — a waiting batch changes the subject — not «сейчас X, пакет оставил X»', async () => {
    const detail = 'AURORA-1: приоритет меняет и пакет #7, он ещё не выполнен; не откатываем, чтобы не затереть его изменение (чтобы откатить и это, дождитесь пакета #7)';
    fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': revertPlan({ conflicts: [{ key: 'AURORA-1', what: 'field:priority', expected: 'Lowest', actual: 'Lowest', detail }] }),
    });
    const dialog = await openRevert();
    expect(within(dialog).getByText(detail)).toBeTruthy();
    expect(within(dialog).queryByText(/сейчас Lowest, пакет оставил Lowest/)).toBeNull();
  });

  it('revert: the dialog is a modal — focus inside, Escape closes it, «Не откатывать» closes it, the focus goes back to «Откатить…»', async () => {
    fakeFetch({
      'GET /batches/1': done(),
      'POST /batches/1/revert': revertPlan(),
    });
    renderWithHub(<BatchPage id={1} />);
    const opener = await screen.findByRole('button', { name: 'Откатить…' });
    fireEvent.click(opener);
    let dialog = await screen.findByRole('dialog', { name: 'Откат пакета #1' });
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['Не откатывать', 'Создать пакет отката']);
    // The dialog moves the focus in its effect, which may run just after the render findByRole saw.
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    fireEvent.click(opener);
    dialog = await screen.findByRole('dialog', { name: 'Откат пакета #1' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Не откатывать' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('no revert button while the batch runs or when it changed nothing', async () => {
    fakeFetch({ 'GET /batches/1': { ...done(), status: 'running' } });
    renderWithHub(<BatchPage id={1} />);
    await screen.findByRole('region', { name: 'Что изменено в Jira' });
    expect(screen.queryByRole('button', { name: 'Откатить…' })).toBeNull();
  });

  it('a cancelled batch that changed Jira before it was cancelled can be reverted too', async () => {
    const calls = fakeFetch({ 'GET /batches/1': { ...done(), status: 'cancelled' }, 'POST /batches/1/revert': revertPlan() });
    const dialog = await openRevert();
    expect(within(dialog).getByText(/пакет из 1 обратной команды/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/batches/1/revert?dry_run=true']);
  });
});

describe('IssueChanges', () => {
  it('lists every change the hub made to the issue, newest first, with batch, author and approver', async () => {
    fakeFetch({
      'GET /issues/AURORA-1/changes': [
        { key: 'AURORA-1', what: 'field:priority', before: 'Medium', after: 'High', batch_id: 1, batch_title: 'План', author: 'ivanov', source: 'assistant', approved_by: 'petrova', approved_at: null, command_type: 'ensure_fields', recorded_at: '2026-11-30T10:00:00.000Z' },
        { key: 'AURORA-1', what: 'field:priority', before: 'High', after: 'Medium', batch_id: 2, batch_title: 'Откат пакета #1', author: 'ivanov', source: 'client', approved_by: null, approved_at: null, command_type: 'ensure_fields', recorded_at: '2026-11-30T11:00:00.000Z' },
      ],
    });
    renderWithHub(<IssueChanges issueKey="AURORA-1" />);
    const section = await screen.findByRole('region', { name: 'Изменения хаба' });
    await within(section).findByText('#2 Откат пакета #1');
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('#2 Откат пакета #1человек · ivanov—ПриоритетHigh → Medium');
    expect(rows[1]!.textContent).toContain('#1 Планассистент · ivanovpetrova');
  });

  it('is a table that becomes labelled cards on a phone, as the other tables are: none of its six columns is cut off', async () => {
    fakeFetch({
      'GET /issues/AURORA-1/changes': [
        { key: 'AURORA-1', what: 'field:priority', before: 'Medium', after: 'High', batch_id: 1, batch_title: 'План', author: 'ivanov', source: 'client', approved_by: null, approved_at: null, command_type: 'ensure_fields', recorded_at: '2026-11-30T10:00:00.000Z' },
      ],
    });
    renderWithHub(<IssueChanges issueKey="AURORA-1" />);
    const section = await screen.findByRole('region', { name: 'Изменения хаба' });
    await within(section).findByText('#1 План');
    expect(within(section).getByRole('table').classList.contains('responsive')).toBe(true);
    const labels = [...section.querySelectorAll('tbody td')].map((td) => td.getAttribute('data-label'));
    expect(labels).toEqual(['Когда', 'Пакет', 'Автор', 'Одобрил', 'Что', 'Было → стало']);
  });

  it('a role\'s default id is said in words: «api» approved is a person, an assistant\'s batch its word', async () => {
    fakeFetch({
      'GET /issues/AURORA-1/changes': [
        { key: 'AURORA-1', what: 'field:priority', before: 'Medium', after: 'High', batch_id: 1, batch_title: 'План', author: 'assistant', source: 'assistant', approved_by: 'api', approved_at: null, command_type: 'ensure_fields', recorded_at: '2026-11-30T10:00:00.000Z' },
      ],
    });
    renderWithHub(<IssueChanges issueKey="AURORA-1" />);
    const section = await screen.findByRole('region', { name: 'Изменения хаба' });
    await within(section).findByText('#1 План');
    expect(within(section).getAllByRole('row')[1]!.textContent).toContain('#1 Планассистентчеловек');
  });

  it("an issue's history names a sprint's board as the catalogue does", async () => {
    fakeFetch({
      'GET /issues/AURORA-1/changes': [
        { key: 'AURORA-1', what: 'sprint', before: null, after: { id: 7, name: 'Спринт 2', board_id: 2 }, batch_id: 1, batch_title: 'План', author: 'ivanov', source: 'client', approved_by: null, approved_at: null, command_type: 'ensure_sprint', recorded_at: '2026-11-30T10:00:00.000Z' },
      ],
      'GET /catalogue': { catalogue: { boards: [{ id: 2, name: 'Команда А' }] } },
    });
    renderWithHub(<IssueChanges issueKey="AURORA-1" />);
    const section = await screen.findByRole('region', { name: 'Изменения хаба' });
    expect(await within(section).findByText('Спринт 2 (доска «Команда А»)')).toBeTruthy();
  });

  it('values: dates as dates, lists, empty, a link', () => {
    expect(changeValue('2026-12-20')).toBe('20 декабря 2026 г.');
    expect(changeValue([])).toBe('пусто');
    expect(changeValue(null, 'sprint')).toBe('бэклог');
    // a sprint by its id and board (the hub's decision 1430): its name and board, as names repeat across boards
    expect(changeValue({ id: 7, name: 'Спринт 2', board_id: 2 }, 'sprint')).toBe('Спринт 2 (доска 2)');
    expect(changeValue({ id: 7, name: 'Спринт 2', board_id: null }, 'sprint')).toBe('Спринт 2');
    // the board by its name where the catalogue's boards know it
    expect(changeValue({ id: 7, name: 'Спринт 2', board_id: 2 }, 'sprint', [{ id: 2, name: 'Команда А' }])).toBe('Спринт 2 (доска «Команда А»)');
    expect(changeValue({ id: 7, name: 'Спринт 2', board_id: 2 }, 'sprint', [{ id: 1, name: 'AURORA board' }])).toBe('Спринт 2 (доска 2)');
    expect(changeValue({ source: 'A-1', target: 'A-2', link_type: 'Blocks' })).toBe('A-1 → A-2 (Blocks)');
    // an assignee by the name the catalogue's assignable people give; an account id they do not know stays
    expect(changeValue('acc-1', 'field:assignee', undefined, [{ id: 'acc-1', display_name: 'Анна Петрова' }])).toBe('Анна Петрова');
    expect(changeValue('acc-2', 'field:assignee', undefined, [{ id: 'acc-1', display_name: 'Анна Петрова' }])).toBe('acc-2');
  });
});
