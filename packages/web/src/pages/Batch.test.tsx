import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, renderWithHub, summary } from '../test/support';
import { BatchPage } from './Batch';

afterEach(() => vi.unstubAllGlobals());

const command = (id: number, seq: number, type: string, params: object, extra: object = {}) => ({
  id,
  batch_id: 1,
  seq,
  type,
  params,
  status: 'queued',
  deliveries: 0,
  pause_seconds: null,
  claimed_at: null,
  finished_at: null,
  result: null,
  error: null,
  jira_calls: 0,
  rate_limited: 0,
  retry_of: null,
  ...extra,
});

const batch = (extra: object = {}) => ({
  ...summary(1, { title: 'Спринт 2', source: 'assistant', status: 'awaiting_approval' }),
  commands: [
    command(11, 1, 'ensure_link', { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }),
    command(12, 2, 'ensure_sprint', { key: 'AURORA-7', sprint: 'Спринт 2' }, { status: 'failed', error: 'HTTP 404: AURORA-7 не найдена' }),
  ],
  ...extra,
});

describe('BatchPage', () => {
  it('describes commands in words, with status and error', async () => {
    fakeFetch({ 'GET /batches/1': batch() });
    renderWithHub(<BatchPage id={1} />);
    await screen.findByText('AURORA-1 блокирует AURORA-2');
    expect(screen.getByText('AURORA-7 → «Спринт 2»')).toBeTruthy();
    expect(screen.getByText('HTTP 404: AURORA-7 не найдена')).toBeTruthy();
  });

  it('a command handed out twice with no delivery rows reads «выдана 2 раза» (the plural agrees with the count)', async () => {
    const claimed = command(11, 1, 'ensure_fields', { key: 'AURORA-1', duedate: '2026-12-01' }, { status: 'claimed', deliveries: 2, claimed_at: '2026-12-01T10:00:00.000Z', history: [] });
    fakeFetch({ 'GET /batches/1': batch({ status: 'running', source: 'client', commands: [claimed] }) });
    renderWithHub(<BatchPage id={1} />);
    fireEvent.click(await screen.findByRole('button', { name: 'История выдач команды #11: 2' }));
    expect(await screen.findByText(/^выдана 2 раза, последний раз /)).toBeTruthy();
  });

  it("names a revert's sprint board as the catalogue does, in the commands and in the plan to approve", async () => {
    const sprintBack = command(13, 1, 'ensure_sprint', { key: 'AURORA-1', sprint: 'Спринт 2', board: 2 });
    fakeFetch({
      'GET /batches/1': batch({ commands: [sprintBack], revert_of: 5 }),
      'GET /catalogue': { catalogue: { boards: [{ id: 1, name: 'AURORA board' }, { id: 2, name: 'Команда А' }] } },
      'POST /batches/plan': { ok: true, findings: [], estimate_seconds: 0, commands: [{ seq: 1, type: 'ensure_sprint', params: sprintBack.params, verdict: 'would_change', check: 'will_change', findings: [] }] },
    });
    renderWithHub(<BatchPage id={1} />);
    await vi.waitFor(() => expect(screen.getAllByText('AURORA-1 → «Спринт 2» (доска «Команда А»)')).toHaveLength(2));
  });

  it('approves after a confirmation', async () => {
    const calls = fakeFetch({ 'GET /batches/1': batch(), 'POST /batches/1/approve': summary(1, { status: 'queued' }) });
    renderWithHub(<BatchPage id={1} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Одобрить' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Одобрить' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/batches/1/approve')).toBe(true));
  });

  it('rejects only with a reason, and sends it', async () => {
    const calls = fakeFetch({ 'GET /batches/1': batch(), 'POST /batches/1/reject': summary(1, { status: 'cancelled' }) });
    renderWithHub(<BatchPage id={1} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Отклонить' }));
    const dialog = screen.getByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Отклонить' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Причина'), { target: { value: 'не тот спринт' } });
    fireEvent.click(confirm);
    await vi.waitFor(() => expect(calls.find((c) => c.url === '/batches/1/reject')?.body).toEqual({ reason: 'не тот спринт' }));
  });

  it('shows the hub’s refusal in the dialog', async () => {
    fakeFetch({
      'GET /batches/1': batch({ status: 'queued', source: 'client' }),
      'POST /commands/11/cancel': () => ({ status: 409, body: { error: 'finished', detail: 'команда #11 уже завершена (статус done)' } }),
    });
    renderWithHub(<BatchPage id={1} />);
    const row = (await screen.findByText('AURORA-1 блокирует AURORA-2')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Отменить' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Отменить команду' }));
    expect((await screen.findByRole('alert')).textContent).toBe('команда #11 уже завершена (статус done)');
  });

  it('applies a command event in place', async () => {
    fakeFetch({ 'GET /batches/1': batch({ status: 'queued' }) });
    const { live } = renderWithHub(<BatchPage id={1} />);
    const row = (await screen.findByText('AURORA-1 блокирует AURORA-2')).closest('tr')!;
    act(() =>
      live.send('command', {
        change: 'claimed',
        command_id: 11,
        batch_id: 1,
        command: command(11, 1, 'ensure_link', { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }, { status: 'claimed', deliveries: 1 }),
        batch: summary(1, { title: 'Спринт 2', status: 'running', counts: { queued: 0, claimed: 1, failed: 1 } }),
      }),
    );
    expect(within(row).getByText('у агента')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Отменить принудительно' })).toBeTruthy();
    act(() => live.send('command', { change: 'claimed', command_id: 99, batch_id: 2, command: null, batch: summary(2) }));
    expect(screen.getByRole('heading', { name: /Спринт 2/ }).textContent).toBe('Спринт 2'); // another batch's event changes nothing here
    expect(within(row).getByText('у агента')).toBeTruthy();
  });

  it('commands finishing done one after another read the batch again at most once per wait, not once each', async () => {
    const calls = fakeFetch({ 'GET /batches/1': batch({ status: 'running' }) });
    const { live } = renderWithHub(<BatchPage id={1} />);
    await screen.findByText('AURORA-1 блокирует AURORA-2');
    const reads = () => calls.filter((c) => c.url === '/batches/1').length;
    expect(reads()).toBe(1);
    act(() => {
      for (let i = 0; i < 20; i++) {
        live.send('command', { change: 'done', command_id: 11, batch_id: 1, command: command(11, 1, 'ensure_link', { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' }, { status: 'done' }), batch: summary(1, { status: 'running' }) });
      }
    });
    expect(reads()).toBe(2); // the first at once; the other 19 wait for one read after RELOAD_MS
    await waitFor(() => expect(reads()).toBe(3));
  });

  it('a batch event (cancelled) reads the batch again: no row stays «в очереди» with an active «Отменить»', async () => {
    let cancelled = false;
    fakeFetch({
      'GET /batches/1': () => ({
        body: cancelled
          ? batch({ status: 'cancelled', cancelled_at: '2026-11-30T10:01:00Z', commands: [command(11, 1, 'ensure_link', { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, { status: 'cancelled' })] })
          : batch({ status: 'queued', commands: [command(11, 1, 'ensure_link', { source: 'A-1', target: 'A-2', link_type: 'Blocks' })] }),
      }),
    });
    const { live } = renderWithHub(<BatchPage id={1} />);
    const row = (await screen.findByText('A-1 блокирует A-2')).closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Отменить' })).toBeTruthy();
    cancelled = true;
    act(() => live.send('batch', { change: 'cancelled', batch_id: 1, batch: summary(1, { status: 'cancelled' }) }));
    await within(row).findByText('отменена');
    expect(within(row).queryByRole('button', { name: 'Отменить' })).toBeNull();
  });

  it('a batch that finishes while its page is open offers the revert, and the page stays up', async () => {
    let finished = false;
    const link = command(11, 1, 'ensure_link', { source: 'A-1', target: 'A-2', link_type: 'Blocks' });
    fakeFetch({
      'GET /batches/1': () => ({
        body: finished
          ? batch({ status: 'done', source: 'client', commands: [{ ...link, status: 'done' }], changes: { 'A-1': [{ what: 'link', before: null, after: { source: 'A-1', target: 'A-2', link_type: 'Blocks' }, command_id: 11, delivery_n: 1, recorded_at: '2026-11-30T10:01:00Z' }] } })
          : batch({ status: 'running', source: 'client', commands: [{ ...link, status: 'claimed' }], changes: {} }),
      }),
    });
    const { live } = renderWithHub(<BatchPage id={1} />);
    await screen.findByText('A-1 блокирует A-2');
    expect(screen.queryByRole('button', { name: 'Откатить…' })).toBeNull();
    finished = true;
    act(() => live.send('batch', { change: 'done', batch_id: 1, batch: summary(1, { status: 'done' }) }));
    expect(await screen.findByRole('button', { name: 'Откатить…' })).toBeTruthy();
    expect(screen.getByText('A-1 блокирует A-2')).toBeTruthy();
  });

  it("an awaiting batch's plan says to look before approving, though the dashboard's own dry run would not wait", async () => {
    fakeFetch({
      'GET /batches/1': batch({ commands: [command(11, 1, 'ensure_link', { source: 'AURORA-1', target: 'AURORA-9', link_type: 'Blocks' })] }),
      // The hub answers the dry run for its caller, the dashboard, whose own batches need no approval.
      'POST /batches/plan': { estimate_seconds: 90, awaiting_approval: false, findings: [], commands: [{ seq: 1, type: 'ensure_link', params: {}, verdict: 'unknown_key', check: 'unknown', unknown_keys: ['AURORA-9'] }] },
    });
    renderWithHub(<BatchPage id={1} />);
    expect((await screen.findByRole('note')).textContent).toMatch(/^Проверьте перед одобрением:/);
  });

  it('names an assignee as the catalogue does, in the commands and in the plan to approve, not by account id', async () => {
    const anna = '557058:f0000000-0000-0000-0000-000000000003';
    fakeFetch({
      'GET /batches/1': batch({ commands: [command(11, 1, 'ensure_fields', { key: 'AURORA-1', assignee: anna })] }),
      'GET /catalogue': { catalogue: { boards: [], assignable: [{ id: anna, display_name: 'Анна Петрова' }] } },
      'POST /batches/plan': {
        estimate_seconds: 120,
        findings: [],
        commands: [{ seq: 1, type: 'ensure_fields', params: { key: 'AURORA-1', assignee: anna }, verdict: 'would_change', check: 'will_change', changes: [{ field: 'assignee', from: null, to: anna }] }],
      },
    });
    renderWithHub(<BatchPage id={1} />);
    await vi.waitFor(() => expect(screen.getAllByText('AURORA-1: исполнитель = Анна Петрова')).toHaveLength(2));
    expect(screen.getByText('→ Анна Петрова')).toBeTruthy();
    expect(screen.queryByText(new RegExp(anna))).toBeNull();
  });

  it('an awaiting batch shows the dry run: verdicts, from → to, unknown keys and findings, and remembers the approver', async () => {
    localStorage.setItem('jira-hub-approver', 'Анна');
    const calls = fakeFetch({
      'GET /batches/1': batch({ commands: [command(11, 1, 'ensure_fields', { key: 'AURORA-1', duedate: '2026-12-02' }), command(12, 2, 'ensure_link', { source: 'AURORA-1', target: 'AURORA-9', link_type: 'Blocks' }), command(13, 3, 'refresh', { keys: ['AURORA-1'] })] }),
      'POST /batches/plan': {
        estimate_seconds: 270,
        text: 'Из 2 команд изменят Jira: 1.',
        commands: [
          { seq: 1, type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-02' }, verdict: 'would_change', check: 'will_change', changes: [{ field: 'duedate', from: null, to: '2026-12-02' }] },
          { seq: 2, type: 'ensure_link', params: { source: 'AURORA-1', target: 'AURORA-9', link_type: 'Blocks' }, verdict: 'unknown_key', check: 'unknown', unknown_keys: ['AURORA-9'] },
        ],
        findings: [{ seq: 2, param: 'target', code: 'unknown_issue', detail: 'задачи AURORA-9 нет в зеркале', suggestion: 'AURORA-8' }],
      },
      'POST /batches/1/approve': summary(1, { status: 'queued' }),
    });
    renderWithHub(<BatchPage id={1} />);
    const plan = await screen.findByRole('region', { name: 'План пакета' });
    await within(plan).findByText('изменит Jira');
    expect(calls.find((c) => c.url === '/batches/plan')?.body).toEqual({
      title: 'Спринт 2',
      commands: [
        { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-02' } },
        { type: 'ensure_link', params: { source: 'AURORA-1', target: 'AURORA-9', link_type: 'Blocks' } },
      ],
    });
    expect(within(plan).getByText('проверка: неизвестно')).toBeTruthy();
    expect(within(plan).getByText('ключа нет в зеркале')).toBeTruthy();
    expect(within(plan).getByText('пусто')).toBeTruthy();
    expect(within(plan).getByRole('cell', { name: 'Срок' })).toBeTruthy(); // the field as the dashboard names it, not «duedate»
    expect(within(plan).queryByText('duedate')).toBeNull();
    expect(within(plan).getByText(/задачи AURORA-9 нет в зеркале/)).toBeTruthy();
    expect(within(plan).getByText(/Оценка: 5 мин/)).toBeTruthy();
    // The headline in words from the verdicts and findings, not the API's text (which names params and JSON fields).
    expect(within(plan).getByText(/Оценка: 5 мин/).textContent).toMatch(
      /^Проверка по каталогу Jira нашла замечания: 1, они отмечены у команд ниже\. Из 2 команд: изменят Jira — 1; называют задачи, которых нет в зеркале \(сначала обновите зеркало\) — 1\. Оценка/,
    );
    expect(within(plan).getByText('Куда')).toBeTruthy(); // the finding's param in words, not «target»
    expect((screen.getByLabelText(/Кто одобряет/) as HTMLInputElement).value).toBe('Анна');
    fireEvent.click(screen.getByRole('button', { name: 'Одобрить' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Одобрить' }));
    await vi.waitFor(() => expect(calls.find((c) => c.url === '/batches/1/approve')?.body).toEqual({ by: 'Анна' }));
    localStorage.clear();
  });

  it('a dialog takes the focus, keeps Tab inside, closes on Escape and gives the focus back', async () => {
    fakeFetch({ 'GET /batches/1': batch({ status: 'queued' }) });
    renderWithHub(<BatchPage id={1} />);
    const opener = await screen.findByRole('button', { name: 'Отменить пакет' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog');
    const [dismiss, confirm] = within(dialog).getAllByRole('button');
    expect(dismiss.textContent).toBe('Не отменять');
    expect(document.activeElement).toBe(dismiss);
    confirm.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(dismiss);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it.each([
    ['Одобрить', 'approve', 'Пакет одобрен.', 'queued'],
    ['Отклонить', 'reject', 'Пакет отклонён.', 'cancelled'],
  ])('after «%s» the buttons are gone and the focus is on the line that says what happened, not on <body>', async (button, route, said, status) => {
    let decided = false;
    fakeFetch({
      'GET /batches/1': () => ({ body: decided ? batch({ status, ...(route === 'reject' ? { rejected_reason: 'не тот спринт' } : {}) }) : batch() }),
      [`POST /batches/1/${route}`]: () => ((decided = true), { body: summary(1, { status }) }),
    });
    const { live } = renderWithHub(<BatchPage id={1} />);
    const opener = await screen.findByRole('button', { name: button });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog');
    if (route === 'reject') fireEvent.change(within(dialog).getByLabelText('Причина'), { target: { value: 'не тот спринт' } });
    fireEvent.click(within(dialog).getByRole('button', { name: button }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    act(() => live.send('batch', { change: route === 'approve' ? 'approved' : 'rejected', batch_id: 1 })); // as the hub tells every page
    await waitFor(() => expect(screen.queryByRole('button', { name: button })).toBeNull());
    await waitFor(() => expect(document.activeElement?.textContent).toBe(said));
    expect(document.activeElement?.getAttribute('role')).toBe('status');
  });

  it.each([
    ['after the dialog closed', false],
    ['while the dialog was open', true],
  ])('a command cancelled from the keyboard keeps the focus in its row when «Отменить» goes (the live event came %s), not on <body>', async (_, early) => {
    const link = { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' };
    fakeFetch({ 'GET /batches/1': batch({ status: 'queued', source: 'client' }), 'POST /commands/11/cancel': command(11, 1, 'ensure_link', link, { status: 'cancelled' }) });
    const { live } = renderWithHub(<BatchPage id={1} />);
    const row = (await screen.findByText('AURORA-1 блокирует AURORA-2')).closest('tr')!;
    const opener = within(row).getByRole('button', { name: 'Отменить' });
    opener.focus();
    fireEvent.click(opener);
    const cancelled = () =>
      act(() => live.send('command', { change: 'cancelled', command_id: 11, batch_id: 1, command: command(11, 1, 'ensure_link', link, { status: 'cancelled' }), batch: summary(1, { status: 'queued' }) }));
    if (early) cancelled();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Отменить команду' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    if (!early) {
      // The dialog gives the focus back in its effect's cleanup, which React runs after the dialog has left the page.
      await waitFor(() => expect(document.activeElement).toBe(opener));
      cancelled();
    }
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Отменить' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(within(row).getByRole('button', { name: 'Повторить' })));
  });

  it('a revert links the batch it reverts: «откат пакета #5» opens #/batch/5', async () => {
    fakeFetch({ 'GET /batches/1': batch({ title: 'Откат пакета #5', status: 'queued', source: 'client', revert_of: 5 }) });
    renderWithHub(<BatchPage id={1} />);
    const link = await screen.findByRole('link', { name: '#5' });
    expect(link.getAttribute('href')).toBe('#/batch/5');
    expect(link.parentElement?.textContent).toBe('пакет #1 · откат пакета #5');
  });

  it('a batch that reverts nothing names no other batch', async () => {
    fakeFetch({ 'GET /batches/1': batch({ status: 'queued', source: 'client', revert_of: null }) });
    renderWithHub(<BatchPage id={1} />);
    await screen.findByText('пакет #1');
    expect(screen.queryByText(/откат пакета/)).toBeNull();
  });
});
