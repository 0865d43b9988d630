import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseHash } from '../router';
import { fakeFetch, PACKAGE_PLAN, renderWithHub, summary } from '../test/support';
import { PackagesPage, pickPackage, type PackagePlan } from './Packages';

afterEach(() => vi.unstubAllGlobals());

const plan = PACKAGE_PLAN;

/** Package 3, applied by batch 9: AURORA-2's due date moved in Jira since. */
const drifted = {
  package: { id: 3, name: 'Спринт 2', created_at: '2026-12-01T10:00:00.000Z', batch_id: 9 },
  batch_status: 'done',
  matches: false,
  fields: [{ key: 'AURORA-2', jira_key: 'AURORA-2', row: 3, field: 'duedate', wanted: '2026-12-20', actual: '2026-12-24' }],
  links: [],
  text: '',
};

describe('pickPackage', () => {
  it('takes issues.csv, links.csv and notes.csv of a folder in any letter case, and nothing else', () => {
    const file = (name: string) => new File(['x'], name);
    expect(Object.keys(pickPackage([file('Issues.CSV'), file('links.csv'), file('readme.md'), file('notes.csv')])).sort()).toEqual(['issues', 'links', 'notes']);
  });
});

describe('PackagesPage', () => {
  it('plans the picked files and shows the changes, the findings and the age of the mirror', async () => {
    const calls = fakeFetch({ 'GET /packages': [], 'POST /packages/plan': plan });
    renderWithHub(<PackagesPage />);
    const input = (await screen.findByText('Выбрать файлы')).parentElement!.querySelector('input')!;
    fireEvent.change(input, { target: { files: [new File(['Ключ\nAURORA-2'], 'issues.csv')] } });
    fireEvent.click(screen.getByText('Построить план'));
    await screen.findByText(plan.text);
    expect(screen.getByText(/^Срок: 1 дек\.( 2026 г\.)? → 20 дек\.( 2026 г\.)?$/)).toBeTruthy(); // the year only when it is not this one
    expect(screen.getByText(/идёт в обратную сторону/)).toBeTruthy();
    expect(screen.getByText(/самые старые данные — 5 мин назад/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toBeInstanceOf(FormData);
  });

  it('names an assignee as the catalogue does, not by account id', async () => {
    const anna = '557058:f0000000-0000-0000-0000-000000000003';
    const assigned = { ...plan, commands: [{ ...plan.commands[0], params: { key: 'AURORA-2', assignee: anna }, changes: [{ field: 'assignee', from: null, to: anna }] }] };
    fakeFetch({ 'GET /packages': [], 'POST /packages/plan': assigned, 'GET /catalogue': { catalogue: { assignable: [{ id: anna, display_name: 'Анна Петрова' }] } } });
    renderWithHub(<PackagesPage />);
    const input = (await screen.findByText('Выбрать файлы')).parentElement!.querySelector('input')!;
    fireEvent.change(input, { target: { files: [new File(['Ключ\nAURORA-2'], 'issues.csv')] } });
    fireEvent.click(screen.getByText('Построить план'));
    expect(await screen.findByText('Исполнитель: — → Анна Петрова')).toBeTruthy();
  });

  it('an empty plan whose issues are gone from Jira says so, never «Jira уже соответствует»', async () => {
    const gone = { ...plan, empty: true, text: 'Команд нет, но сравнить с Jira удалось не всё: задач AURORA-3 в Jira больше нет.', commands: [], findings: [], mirror: { keys: [], missing_keys: [], gone_keys: ['AURORA-3'], age_seconds: null } };
    fakeFetch({ 'GET /packages': [], 'POST /packages/plan': gone });
    renderWithHub(<PackagesPage />);
    const input = (await screen.findByText('Выбрать файлы')).parentElement!.querySelector('input')!;
    fireEvent.change(input, { target: { files: [new File(['Ключ\nAURORA-3'], 'issues.csv')] } });
    fireEvent.click(screen.getByText('Построить план'));
    await screen.findByText(gone.text);
    expect(screen.getByText('Команд нет, но сравнить удалось не всё: задач AURORA-3 в Jira больше нет — уберите их строки из пакета.')).toBeTruthy();
    expect(screen.getByText(/; в Jira больше нет: AURORA-3/)).toBeTruthy();
    expect(screen.queryByText(/Jira уже соответствует пакету/)).toBeNull();
  });

  it('shows the drift of an applied package per issue and field, and plans the way back', async () => {
    fakeFetch({ 'GET /packages/3/drift': drifted, 'POST /packages/3/plan': plan });
    renderWithHub(<PackagesPage id="3" />);
    await screen.findByText(/^24 дек\./);
    fireEvent.click(screen.getByText('Вернуть к пакету (построить план)'));
    await screen.findByText(plan.text);
  });

  it('the way back applied: «Применить» goes (the plan is spent), and the drift is read again as that batch finishes', async () => {
    let drift: object = drifted;
    const applied = { package: { id: 4, name: 'Спринт 2', created_at: '2026-12-02T10:00:00.000Z', batch_id: 12 }, batch: { id: 12, status: 'queued', commands: [] }, text: 'ok' };
    const calls = fakeFetch({
      'GET /packages/3/drift': () => ({ body: drift }),
      'POST /packages/3/plan': { ...plan, dry_run: { ...plan.dry_run, ok: true, findings: [], commands: [] } },
      'POST /packages/3/apply': applied,
    });
    const { live } = renderWithHub(<PackagesPage id="3" />);
    fireEvent.click(await screen.findByText('Вернуть к пакету (построить план)'));
    fireEvent.click(await screen.findByRole('button', { name: /^Применить/ }));
    await screen.findByText('Открыть пакет команд #12');
    expect(screen.queryByRole('button', { name: /^Применить/ })).toBeNull();
    drift = { ...drifted, matches: true, fields: [] };
    live.send('batch', { change: 'updated', batch_id: 12, batch: { id: 12, status: 'done' } });
    await screen.findByText('Jira соответствует пакету.');
    expect(calls.filter((c) => c.url === '/packages/3/apply')).toHaveLength(1);
  });

  it('drift only in an issue\'s type or parent: no way back is offered that could not settle it, and the page says who can', async () => {
    fakeFetch({
      'GET /packages/3/drift': { ...drifted, fields: [{ key: 'AURORA-2', jira_key: 'AURORA-2', row: 3, field: 'parent', wanted: 'AURORA-1', actual: 'AURORA-7' }] },
    });
    renderWithHub(<PackagesPage id="3" />);
    await screen.findByText('Тип и родителя существующей задачи хаб не меняет: поменяйте их в Jira вручную или в пакете.');
    expect(screen.queryByText('Вернуть к пакету (построить план)')).toBeNull();
  });

  it('a package applied elsewhere (the assistant, another tab) joins the list as its batch is created, and the list is read again when the stream reopens', async () => {
    const row = { id: 5, name: 'Спринт ассистента', created_at: '2026-12-01T10:00:00.000Z', batch_id: 21 };
    let list: object[] = [];
    fakeFetch({ 'GET /packages': () => ({ body: list }) });
    const { live } = renderWithHub(<PackagesPage />);
    await screen.findByText('Пакетов пока не применяли.');
    list = [row];
    act(() => live.send('batch', { change: 'created', batch_id: 21, batch: summary(21, { status: 'awaiting_approval' }) }));
    expect(await screen.findByRole('link', { name: 'пакет команд #21' })).toBeTruthy();
    list = [{ ...row, id: 6, batch_id: null }, row];
    act(() => live.send('resync', null));
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Расхождения с Jira' })).toHaveLength(2));
  });

  it('files picked again after a plan take the plan and its «Применить» away: apply never sends files whose plan was not shown', async () => {
    await planned({ ...plan, dry_run: { ...plan.dry_run, ok: true, findings: [] } });
    expect(screen.getByRole('button', { name: /^Применить/ })).toBeTruthy();
    const input = screen.getByText('Выбрать файлы').parentElement!.querySelector('input')!;
    fireEvent.change(input, { target: { files: [new File(['Ключ\nAURORA-9'], 'issues.csv')] } });
    expect(screen.queryByText(plan.text)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Применить/ })).toBeNull();
    expect((screen.getByRole('button', { name: 'Построить план' }) as HTMLButtonElement).disabled).toBe(false); // the new files, to be planned
  });
});

/** Picks issues.csv and builds the plan; answers with `answer`. */
async function planned(answer: unknown, routes: Record<string, unknown> = {}) {
  const calls = fakeFetch({ 'GET /packages': [], 'POST /packages/plan': answer, ...routes });
  renderWithHub(<PackagesPage />);
  const input = (await screen.findByText('Выбрать файлы')).parentElement!.querySelector('input')!;
  fireEvent.change(input, { target: { files: [new File(['Ключ\nAURORA-2'], 'issues.csv')] } });
  fireEvent.click(screen.getByText('Построить план'));
  await screen.findByText((answer as PackagePlan).text);
  return calls;
}

const finding = { seq: 1, param: 'parent', code: 'parent_type', detail: 'AURORA-5 — Task, а родителем задачи типа Story может быть только эпик', suggestion: 'укажите другого родителя или другой тип задачи' };
/** A plan the dry run refuses: the checks found an error in command 1 (as the hub answers it, SPEC 16.2). */
const refused = {
  ...plan,
  text: 'Изменений: 2. Применить пакет нельзя: проверка по каталогу Jira нашла ошибки (1, отмечены ✗) — хаб откажет (422), пока их не исправить в файлах пакета.',
  commands: [
    { seq: 1, type: 'ensure_issue', params: { temp_key: 'new:2', issue_type: 'Story', summary: 'Собрать данные', parent: 'AURORA-5' }, file: 'issues.csv', row: 7, changes: [{ field: 'issue', from: null, to: 'Собрать данные' }], verdict_text: 'Не проверить заранее: в команде ошибки — см. замечания проверки.' },
    plan.commands[0]!,
  ].map((c, i) => ({ ...c, seq: i + 1 })),
  findings: [],
  dry_run: { ...plan.dry_run, ok: false, findings: [finding], commands: [{ seq: 1, findings: [finding] }, { seq: 2, findings: [] }] },
};

describe('PackagesPage: the list of applied packages', () => {
  it('a package applied again names the one it applied again, with a link to it', async () => {
    fakeFetch({
      'GET /packages': [
        { id: 5, name: 'Спринт 2', created_at: '2026-12-02T10:00:00.000Z', batch_id: 14, applied_from: 3 },
        { id: 3, name: 'Спринт 2', created_at: '2026-12-01T10:00:00.000Z', batch_id: 9, applied_from: null },
      ],
    });
    renderWithHub(<PackagesPage />);
    const again = await screen.findByRole('link', { name: '#3' });
    expect(again.getAttribute('href')).toBe('#/packages/3');
    expect(again.closest('td')!.textContent).toBe('Спринт 2 · заново из #3');
    expect(screen.getAllByText(/заново из/)).toHaveLength(1);
  });
});

describe('PackagesPage: the plan', () => {
  it('marks the finding that blocks apply ✗ under its command, and «Применить» is disabled with the reason', async () => {
    const calls = await planned(refused);
    const row = screen.getByText('issues.csv, строка 7').closest('tr')!;
    expect(within(row).getByText(/Jira откажет/)).toBeTruthy();
    const findings = screen.getByRole('list', { name: 'Ошибки проверки, шаг 1' });
    expect(findings.textContent).toBe('✗ Родитель: AURORA-5 — Task, а родителем задачи типа Story может быть только эпик → укажите другого родителя или другой тип задачи');
    expect(row.nextElementSibling?.contains(findings)).toBe(true); // right under its command
    const apply = screen.getByRole('button', { name: /^Применить/ }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    expect(document.getElementById(apply.getAttribute('aria-describedby')!)?.textContent).toMatch(/^Применить нельзя: проверка по каталогу Jira нашла 1 ошибку/);
    fireEvent.click(apply);
    expect(calls.some((c) => c.url === '/packages/apply')).toBe(false);
  });

  it('«Проверка» says the dry run\'s verdict in words; the hub\'s sentence with the params\' names is only its tooltip', async () => {
    await planned({ ...plan, commands: [{ ...plan.commands[0]!, verdict_text: 'Изменит: duedate: «2026-12-01» → «2026-12-20».' }], dry_run: { ...plan.dry_run, ok: true, findings: [], commands: [{ seq: 1, verdict: 'would_change', findings: [] }] } });
    const row = screen.getByText('issues.csv, строка 3').closest('tr')!;
    const verdict = within(row).getByText('изменит Jira');
    expect(verdict.getAttribute('title')).toBe('Изменит: duedate: «2026-12-01» → «2026-12-20».');
    expect(within(row).queryByText(/duedate/)).toBeNull();
  });

  it('a plan over the batch cap shows its commands with the total, and «Применить» is disabled saying into how many parts to split the files', async () => {
    const commands = Array.from({ length: 3 }, (_, i) => ({ ...plan.commands[0]!, seq: i + 1, row: i + 2, verdict_text: null }));
    const text = 'Изменений: 5001 (поля: 5001). План пакета — 5001 команда, а в одном пакете команд их может быть не больше 1000: применить его одним пакетом команд нельзя.';
    const calls = await planned({ ...plan, text, commands, dry_run: null, over_cap: { commands: 5001, max_commands: 1000, parts: 6, listed: 3 } });
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByRole('heading', { name: /^Команды/ }).textContent).toBe('Команды 5001');
    expect(screen.getByText('Показаны первые 3 из 5001.')).toBeTruthy();
    expect(screen.getByText('issues.csv, строка 4')).toBeTruthy();
    const apply = screen.getByRole('button', { name: /^Применить/ }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    expect(document.getElementById(apply.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Применить нельзя: в плане 5001 команда, а в одном пакете команд — не больше 1000. Разделите файлы пакета хотя бы на 6 частей и стройте план каждой части.',
    );
    fireEvent.click(apply);
    expect(calls.some((c) => c.url === '/packages/apply')).toBe(false);
  });

  it('a plan with more findings than the hub lists shows the whole count and how many are listed', async () => {
    const findings = Array.from({ length: 3 }, (_, i) => ({ file: 'issues.csv', row: i + 2, code: 'summary_exists', detail: `в зеркале уже есть задача с темой «Т${i}»` }));
    await planned({ ...plan, findings, findings_total: 1500 });
    expect(screen.getByRole('heading', { name: /^Замечания/ }).textContent).toBe('Замечания 1500');
    expect(screen.getByText('Показаны первые 3 из 1500.')).toBeTruthy();
    expect(document.querySelector('[aria-label="Замечания"]')!.querySelectorAll('li')).toHaveLength(3);
  });

  it('a plan the checks pass can be applied', async () => {
    const calls = await planned({ ...plan, dry_run: { ...plan.dry_run, ok: true, findings: [], commands: [] } }, { 'POST /packages/apply': { package: { id: 4, name: 'Спринт 2', created_at: '2026-12-01T10:00:00.000Z', batch_id: 12 }, batch: null, text: 'ok' } });
    const apply = screen.getByRole('button', { name: /^Применить/ }) as HTMLButtonElement;
    expect(apply.disabled).toBe(false);
    expect(screen.queryByText(/Применить нельзя/)).toBeNull();
    fireEvent.click(apply);
    await vi.waitFor(() => expect(calls.some((c) => c.url === '/packages/apply')).toBe(true));
  });

  it('says fields and commands in Russian: «Срок», «Приоритет», «Метки», «поля», a link by its verb', async () => {
    await planned({
      ...plan,
      commands: [
        { seq: 1, type: 'ensure_fields', params: { key: 'AURORA-2', priority: 'High', labels: ['финансы'] }, file: 'issues.csv', row: 3, changes: [{ field: 'priority', from: 'Lowest', to: 'High' }, { field: 'labels', from: [], to: ['финансы'] }], verdict_text: null },
        { seq: 2, type: 'ensure_link', params: { source: 'AURORA-4', target: 'AURORA-2', link_type: 'Blocks' }, file: 'links.csv', row: 4, changes: [{ field: 'link', from: null, to: 'AURORA-4 Blocks AURORA-2' }], verdict_text: null },
      ],
    });
    const table = document.querySelector<HTMLElement>('[aria-label="План"] table')!;
    expect(within(table).getByText('Приоритет: Lowest → High; Метки: — → финансы')).toBeTruthy();
    expect(within(table).getByText('поля AURORA-2')).toBeTruthy();
    expect(within(table).getByText('Связь: AURORA-4 блокирует AURORA-2')).toBeTruthy();
    expect(table.textContent).not.toMatch(/ensure_|priority|labels|Blocks/);
  });
});

describe('PackagesPage: links to the batch page', () => {
  const applied = {
    package: { id: 4, name: 'Спринт 2', created_at: '2026-12-01T10:00:00.000Z', batch_id: 12 },
    batch: { ...summary(12, { status: 'queued' }), commands: [{}, {}] },
    replayed: false,
    text: 'Пакет #4 «Спринт 2» сохранён, пакет команд #12 в очереди (статус queued): команд 1 и обновление зеркала в конце.',
  };

  it('the applied note, the list of applied packages and «Сначала обновить» all lead to the batch’s page', async () => {
    await planned(plan);
    const calls = fakeFetch({ 'GET /packages': [applied.package], 'POST /packages/apply': applied, 'POST /batches': summary(13) });
    fireEvent.click(screen.getByRole('button', { name: /^Применить/ }));
    const note = await screen.findByRole('link', { name: 'Открыть пакет команд #12' });
    expect(parseHash(note.getAttribute('href')!)).toMatchObject({ page: 'batch', id: '12' });
    const listed = await screen.findByRole('link', { name: 'пакет команд #12' });
    expect(parseHash(listed.getAttribute('href')!)).toMatchObject({ page: 'batch', id: '12' });
    fireEvent.click(screen.getByRole('button', { name: /Сначала обновить эти задачи/ }));
    await vi.waitFor(() => expect(parseHash(window.location.hash)).toMatchObject({ page: 'batch', id: '13' }));
    expect(calls.find((c) => c.url === '/batches')?.body).toMatchObject({ commands: [plan.refresh] });
  });

  it('applied, the plan is spent: its «Применить» goes and the outcome shows, as on the drift page', async () => {
    await planned(plan);
    const calls = fakeFetch({ 'GET /packages': [applied.package], 'POST /packages/apply': applied });
    fireEvent.click(screen.getByRole('button', { name: /^Применить/ }));
    await screen.findByRole('link', { name: 'Открыть пакет команд #12' });
    expect(screen.getByText(plan.text)).toBeTruthy(); // the plan stays to read
    expect(screen.queryByRole('button', { name: /^Применить/ })).toBeNull();
    expect(calls.filter((c) => c.url === '/packages/apply')).toHaveLength(1);
  });

  it('the applied note and the list say the batch’s state and the time in Russian', async () => {
    await planned(plan);
    fakeFetch({ 'GET /packages': [applied.package], 'POST /packages/apply': applied });
    fireEvent.click(screen.getByRole('button', { name: /^Применить/ }));
    const note = (await screen.findByRole('link', { name: 'Открыть пакет команд #12' })).closest('[role="status"]')!;
    expect(note.textContent).toContain('пакет команд #12 — в очереди: 1 команда и обновление зеркала в конце.');
    expect(note.textContent).not.toMatch(/queued/);
    const row = (await screen.findByRole('link', { name: 'пакет команд #12' })).closest('tr')!;
    expect(row.textContent).not.toContain('2026-12-01T10:00:00.000Z');
    expect(within(row).getByText(/^1 дек\.( 2026 г\.)?, \d\d:\d\d$/)).toBeTruthy();
  });
});

describe('PackagesPage: the drift of an applied package', () => {
  const drift = {
    package: { id: 3, name: 'Спринт 2', created_at: '2026-12-01T10:00:00.000Z', batch_id: 7 },
    batch_status: 'done',
    matches: false,
    fields: [{ key: 'AURORA-2', jira_key: 'AURORA-2', row: 3, field: 'priority', wanted: 'High', actual: 'Lowest' }],
    links: [{ row: 2, source: 'AURORA-2', target: 'AURORA-3', link_type: 'Blocks', state: 'missing' }],
    text: '',
  };

  it('says the batch’s state, the field and the link in Russian', async () => {
    fakeFetch({ 'GET /packages/3/drift': drift });
    renderWithHub(<PackagesPage id="3" />);
    const batch = await screen.findByRole('link', { name: 'Пакет команд #7' });
    expect(batch.parentElement!.textContent).toBe('Пакет команд #7: завершён');
    expect(parseHash(batch.getAttribute('href')!)).toMatchObject({ page: 'batch', id: '7' });
    expect(within(document.querySelector<HTMLElement>('[aria-label="Поля"]')!).getByText('Приоритет')).toBeTruthy();
    expect(screen.getByText('AURORA-2 блокирует AURORA-3: нет в Jira')).toBeTruthy();
  });

  it("another batch changing Jira while the page is open reads the drift again: the page never says «соответствует» of a Jira that moved", async () => {
    let now: object = { ...drift, matches: true, fields: [], links: [] };
    fakeFetch({ 'GET /packages/3/drift': () => ({ body: now }) });
    const { live } = renderWithHub(<PackagesPage id="3" />);
    await screen.findByText('Jira соответствует пакету.');
    now = drift; // a batch of someone else's moved AURORA-2's priority, and its refresh brought that into the mirror
    act(() => live.send('batch', { change: 'progress', batch_id: 40, batch: summary(40, { status: 'done' }) }));
    expect(await screen.findByText(/^Jira отошла от пакета «Спринт 2»/)).toBeTruthy();
  });

  it('a double click plans once and applies once: the buttons wait for the answer', async () => {
    const calls = fakeFetch({
      'GET /packages/3/drift': drift,
      'POST /packages/3/plan': { ...plan, dry_run: { ...plan.dry_run, ok: true, findings: [] } },
      'POST /packages/3/apply': { package: drift.package, batch: { ...summary(8), commands: [{}, {}] }, replayed: false, text: '' },
    });
    renderWithHub(<PackagesPage id="3" />);
    const back = await screen.findByRole('button', { name: 'Вернуть к пакету (построить план)' });
    fireEvent.click(back);
    fireEvent.click(back);
    const apply = await screen.findByRole('button', { name: /^Применить/ });
    fireEvent.click(apply);
    fireEvent.click(apply);
    await screen.findByRole('link', { name: 'Открыть пакет команд #8' });
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/packages/3/plan', '/packages/3/apply']);
  });
});
