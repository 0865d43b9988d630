import type { Finding } from '@jira-hub/contracts';
import { TAIL_REFRESH_WORDS } from '@jira-hub/contracts/russian';
import { Fragment, useCallback, useEffect, useState, type DragEvent, type FormEvent } from 'react';
import { api } from '../api';
import { ErrorBox } from '../components/ui';
import { VERDICT } from '../components/PlanView';
import { useCataloguePeople, type People } from '../components/Changes';
import { useCoalesced, useHub, useLive } from '../context';
import { day, plural, when } from '../format';
import { batchHref, go } from '../router';
import type { BatchStatus } from '../types';
import { BATCH_STATUS, COMMAND_TYPE, fieldLabel, linkPhrase, paramLabel, personWords } from '../words';

/** The answers of /packages (SPEC 18), as far as this page reads them. */
interface PackageCommand {
  seq: number;
  type: string;
  params: Record<string, unknown>;
  file: string;
  row: number;
  column?: string;
  changes: { field: string; from: unknown; to: unknown }[];
  verdict_text: string | null;
}
interface PackageFinding {
  file: string;
  row: number;
  column?: string;
  code: string;
  detail: string;
}
interface MirrorAge {
  keys: string[];
  missing_keys: string[];
  /** keys a refresh no longer found in Jira (deleted or moved) */
  gone_keys?: string[];
  age_seconds: number | null;
}
export interface PackagePlan {
  name: string;
  empty: boolean;
  text: string;
  commands: PackageCommand[];
  /** the first findings in file and row order (at most 1,000) */
  findings: PackageFinding[];
  /** all the plan's findings (an older hub does not say: then `findings` are all) */
  findings_total?: number;
  mirror: MirrorAge;
  refresh: { type: string; params: { keys: string[] } } | null;
  /**
   * The hub's dry run of the batch apply would submit; `ok` false: the checks against Jira's catalogue (SPEC
   * 16.2) refuse it, with `findings` (each names its command's `seq`), and apply would be answered 422.
   */
  dry_run: {
    awaiting_approval: boolean;
    estimate_seconds: number;
    ok?: boolean;
    findings?: Finding[];
    commands?: { seq: number; verdict?: string; findings?: Finding[] }[];
  } | null;
  /**
   * More commands than one batch may hold: apply is answered 422 until the files are split into `parts`
   * (the plan's `text` says how); no dry run then. `listed`: how many of the commands the answer lists.
   */
  over_cap?: { commands: number; max_commands: number; parts: number; listed: number } | null;
}
/** What no command of the hub changes on an existing issue: drift in these only is settled by a person. */
const BY_HAND = new Set(['issue_type', 'parent']);

interface PackageRow {
  id: number;
  name: string;
  created_at: string;
  batch_id: number | null;
  /** the stored package this one applied again («Вернуть к пакету») */
  applied_from?: number | null;
}
interface Applied {
  package: PackageRow;
  batch: { id: number; status: BatchStatus; commands: unknown[] } | null;
  /** the same files were applied before and that batch still runs */
  replayed?: boolean;
  text: string;
}
export interface Drift {
  package: PackageRow;
  batch_status: string | null;
  matches: boolean;
  fields: { key: string; jira_key: string | null; row: number; field: string; wanted: unknown; actual: unknown }[];
  links: { row: number; source: string; target: string; link_type: string; state: string }[];
  text: string;
}

const FILES = ['issues', 'links', 'notes'] as const;
type FileName = (typeof FILES)[number];
type Picked = Partial<Record<FileName, File>>;

/** A value of a field as the dashboard shows it: «—» for nothing, dates as «20 дек.», lists joined, an assignee by the name `people` give. */
const shown = (v: unknown, field = '', people?: People) =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)
    ? '—'
    : field === 'assignee' && typeof v === 'string'
      ? personWords(v, people)
      : Array.isArray(v)
        ? v.join(', ')
        : field === 'duedate' && typeof v === 'string'
          ? day(v)
          : typeof v === 'object'
            ? JSON.stringify(v)
            : String(v);
const age = (s: number | null) => (s === null ? 'нет данных' : s < 60 ? `${s} с` : s < 3600 ? `${Math.floor(s / 60)} мин` : s < 86400 ? `${Math.floor(s / 3600)} ч` : `${Math.floor(s / 86400)} дн`);

/** The package files among picked or dropped ones (issues.csv, links.csv, notes.csv, any letter case). */
export function pickPackage(files: readonly File[]): Picked {
  const out: Picked = {};
  for (const f of files) {
    const name = f.name.toLowerCase().replace(/\.csv$/, '');
    if ((FILES as readonly string[]).includes(name)) out[name as FileName] = f;
  }
  return out;
}

/** The files of a dropped folder (or dropped files), through the entries API where the browser has it. */
async function droppedFiles(e: DragEvent): Promise<File[]> {
  const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry?.()).filter((x): x is FileSystemEntry => !!x);
  if (!entries.length) return [...e.dataTransfer.files];
  const out: File[] = [];
  const walk = async (entry: FileSystemEntry): Promise<void> => {
    if (entry.isFile) out.push(await new Promise<File>((ok, fail) => (entry as FileSystemFileEntry).file(ok, fail)));
    else if (entry.isDirectory) {
      const entries = await new Promise<FileSystemEntry[]>((ok, fail) => (entry as FileSystemDirectoryEntry).createReader().readEntries(ok, fail));
      for (const child of entries) await walk(child);
    }
  };
  for (const entry of entries) await walk(entry);
  return out;
}

/** The dry run's findings of the checks (SPEC 16.2) for command `seq`: apply is refused while any exists. */
function checkFindings(plan: PackagePlan, seq: number): Finding[] {
  const run = plan.dry_run;
  if (!run) return [];
  const all = run.findings ?? run.commands?.flatMap((c) => c.findings ?? []) ?? [];
  return all.filter((f) => f.seq === seq);
}

/** The hub would refuse apply (422): the dry run's checks found errors. */
const refused = (plan: PackagePlan): boolean => plan.dry_run?.ok === false;

/** A finding of the checks as the CLI writes it: «parent: AURORA-5 — Task, … → укажите другого родителя». */
const findingText = (f: Finding) => `${paramLabel(f.param)}: ${f.detail}${f.suggestion ? ` → ${f.suggestion}` : ''}`;

/** What a command of the plan changes, in words: «Срок: 1 дек. → 20 дек.», a link by its verb. */
function changeWords(c: PackageCommand, linkTypes: Record<string, string>, people: People): string {
  return c.changes
    .map((x) => {
      if (x.field === 'link' && c.type === 'ensure_link') return `${fieldLabel('link')}: ${linkPhrase(String(c.params.source), String(c.params.link_type), String(c.params.target), linkTypes)}`;
      return `${fieldLabel(x.field)}: ${shown(x.from, x.field, people)} → ${shown(x.to, x.field, people)}`;
    })
    .join('; ');
}

/**
 * The dry run's verdict of a command in words (as the batch page says it); what it changes is in the
 * column before, so the hub's sentence, which repeats it with the params' own names, is only its tooltip.
 */
function Verdict({ plan, command }: { plan: PackagePlan; command: PackageCommand }) {
  const verdict = plan.dry_run?.commands?.find((d) => d.seq === command.seq)?.verdict;
  const words = verdict ? VERDICT[verdict] : undefined;
  if (!words) return <>{command.verdict_text}</>;
  return (
    <span className={`chip verdict-${words.tone}`} title={command.verdict_text ?? undefined}>
      {words.text}
    </span>
  );
}

export function PlanTables({ plan }: { plan: PackagePlan }) {
  const { settings } = useHub();
  const people = useCataloguePeople(plan.commands.some((c) => c.changes.some((x) => x.field === 'assignee')));
  return (
    <>
      <div className="panel" aria-label="План">
        <h2 className="panel-title">
          Команды <span className="count">{plan.over_cap?.commands ?? plan.commands.length}</span>
        </h2>
        {plan.over_cap && plan.over_cap.listed < plan.over_cap.commands && (
          <p className="muted">
            Показаны первые {plan.over_cap.listed} из {plan.over_cap.commands}.
          </p>
        )}
        {plan.commands.length === 0 ? (
          <div className="muted">
            {plan.mirror.missing_keys.length || plan.mirror.gone_keys?.length
              ? [
                  'Команд нет, но сравнить удалось не всё:',
                  plan.mirror.missing_keys.length ? ` задач ${plan.mirror.missing_keys.join(', ')} нет в зеркале — сначала обновите их.` : '',
                  plan.mirror.gone_keys?.length ? ` задач ${plan.mirror.gone_keys.join(', ')} в Jira больше нет — уберите их строки из пакета.` : '',
                ].join('')
              : 'Jira уже соответствует пакету: менять нечего.'}
          </div>
        ) : (
          <table className="table responsive package-plan">
            <thead>
              <tr>
                <th>#</th>
                <th>Команда</th>
                <th>Что изменится</th>
                <th>Откуда</th>
                <th>Проверка</th>
              </tr>
            </thead>
            <tbody>
              {plan.commands.map((c) => {
                const found = checkFindings(plan, c.seq);
                return (
                  <Fragment key={c.seq}>
                    <tr data-seq={c.seq} className={found.length ? 'row-refused' : undefined}>
                      <td data-label="#">{c.seq}</td>
                      <td data-label="Команда">
                        {COMMAND_TYPE[c.type] ?? c.type} {shown(c.params.key ?? c.params.temp_key ?? c.params.source)}
                      </td>
                      <td data-label="Что изменится">{changeWords(c, settings.link_types, people)}</td>
                      <td data-label="Откуда" className="muted">
                        {c.file}, строка {c.row}
                        {c.column ? `, «${c.column}»` : ''}
                      </td>
                      <td data-label="Проверка" className="muted small">
                        {found.length ? <span className="warn-text">✗ Jira откажет: {found.length} {plural(found.length, 'ошибка', 'ошибки', 'ошибок')}, см. ниже</span> : <Verdict plan={plan} command={c} />}
                      </td>
                    </tr>
                    {found.length > 0 && (
                      <tr className="row-detail row-refused">
                        <td colSpan={5}>
                          <ul className="findings check-findings" aria-label={`Ошибки проверки, шаг ${c.seq}`}>
                            {found.map((f, i) => (
                              <li key={i}>✗ {findingText(f)}</li>
                            ))}
                          </ul>
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      {plan.findings.length > 0 && (
        <div className="panel" aria-label="Замечания">
          <h2 className="panel-title">
            Замечания <span className="count">{plan.findings_total ?? plan.findings.length}</span>
          </h2>
          {(plan.findings_total ?? 0) > plan.findings.length && (
            <p className="muted">
              Показаны первые {plan.findings.length} из {plan.findings_total}.
            </p>
          )}
          <ul>
            {plan.findings.map((f) => (
              <li key={`${f.file}:${f.row}:${f.code}:${f.column ?? ''}`}>
                <span className="muted">
                  {f.file}, строка {f.row}
                  {f.column ? `, «${f.column}»` : ''}:
                </span>{' '}
                {f.detail}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/**
 * «Применить», and why it cannot be pressed while the dry run's checks refuse the plan (the hub would answer
 * 422): the findings are marked ✗ under their commands.
 */
function ApplyButton({ plan, busy, onApply }: { plan: PackagePlan; busy: boolean; onApply: () => void }) {
  if (plan.empty) return null;
  const cap = plan.over_cap;
  if (cap) {
    return (
      <>
        <button className="btn btn-primary" disabled aria-describedby="apply-refused">
          Применить
        </button>
        <p className="warn-text" id="apply-refused">
          Применить нельзя: в плане {cap.commands} {plural(cap.commands, 'команда', 'команды', 'команд')}, а в одном пакете команд — не больше {cap.max_commands}. Разделите файлы пакета хотя бы на {cap.parts}{' '}
          {plural(cap.parts, 'часть', 'части', 'частей')} и стройте план каждой части.
        </p>
      </>
    );
  }
  const blocked = refused(plan);
  const n = plan.commands.reduce((sum, c) => sum + checkFindings(plan, c.seq).length, 0);
  return (
    <>
      <button className="btn btn-primary" onClick={onApply} disabled={busy || blocked} aria-describedby={blocked ? 'apply-refused' : undefined}>
        Применить{plan.dry_run?.awaiting_approval ? ' (будет ждать одобрения)' : ''}
      </button>
      {blocked && (
        <p className="warn-text" id="apply-refused">
          Применить нельзя: проверка по каталогу Jira нашла {n ? `${n} ${plural(n, 'ошибку', 'ошибки', 'ошибок')}` : 'ошибки'} — {n === 1 ? 'она отмечена' : 'они отмечены'} ✗ в плане ниже. Исправьте файлы
          пакета и постройте план снова.
        </p>
      )}
    </>
  );
}

/** What apply did, in words (the hub's `text` names the batch's status by its code). */
function appliedText(a: Applied): string {
  if (!a.batch) return a.text;
  const state = a.batch.status === 'awaiting_approval' ? 'ждёт одобрения человека' : (BATCH_STATUS[a.batch.status] ?? a.batch.status);
  if (a.replayed) return `Эти же файлы уже применены: пакет #${a.package.id}, его пакет команд #${a.batch.id} ещё не завершён (${state}).`;
  const n = Math.max(0, a.batch.commands.length - 1); // the tail refresh aside
  return `Пакет #${a.package.id} «${a.package.name}» сохранён, пакет команд #${a.batch.id} — ${state}: ${n} ${plural(n, 'команда', 'команды', 'команд')} и ${TAIL_REFRESH_WORDS}.`;
}

function AppliedNote({ applied }: { applied: Applied }) {
  return (
    <div className="panel" role="status">
      {appliedText(applied)} {applied.batch && <a href={batchHref(applied.batch.id)}>Открыть пакет команд #{applied.batch.id}</a>}
    </div>
  );
}

/** Plan and apply a planning package (SPEC 18): pick or drop the files or the folder; the packages applied, with their drift. */
export function PackagesPage({ id }: { id?: string }) {
  if (id) return <DriftPage id={Number(id)} />;
  return <PlanPage />;
}

function PlanPage() {
  const [files, setFiles] = useState<Picked>({});
  const [plan, setPlan] = useState<PackagePlan | null>(null);
  const [applied, setApplied] = useState<Applied | null>(null);
  const [error, setError] = useState<unknown>(null);
  /** where the error shows: under the files, or beside «Применить» (an answer to apply or refresh) */
  const [errorAt, setErrorAt] = useState<'files' | 'plan'>('files');
  const [busy, setBusy] = useState(false);
  const [list, setList] = useState<PackageRow[]>([]);
  const load = useCallback(
    () =>
      api.get<PackageRow[]>('/packages').then(setList, (err: unknown) => {
        setErrorAt('files');
        setError(err);
      }),
    [],
  );
  useEffect(() => void load(), [load]);
  // A package applied elsewhere (the assistant, the CLI, another tab) submits its batch: the list reads it then,
  // and again whenever the stream opens anew. (A package Jira already matched submits none: it shows on the next read.)
  const reloadSoon = useCoalesced(() => void load());
  useLive((m) => {
    if (m.event === 'resync') return void load();
    if (m.event === 'batch' && m.data?.change === 'created') reloadSoon();
  });

  const form = () => {
    const f = new FormData();
    for (const name of FILES) if (files[name]) f.append(name, files[name]!);
    return f;
  };
  const run = async (at: 'files' | 'plan', what: () => Promise<void>) => {
    setBusy(true);
    try {
      await what();
      setError(null);
    } catch (err) {
      setErrorAt(at);
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const planIt = (e: FormEvent) => {
    e.preventDefault();
    void run('files', async () => {
      setApplied(null);
      setPlan(await api.upload<PackagePlan>('/packages/plan', form()));
    });
  };
  const applyIt = () =>
    run('plan', async () => {
      setApplied(await api.upload<Applied>('/packages/apply', form()));
      await load();
    });
  const refreshFirst = () =>
    run('plan', async () => {
      const batch = await api.post<{ id: number }>('/batches', { title: 'Обновить задачи пакета перед планом', commands: [plan!.refresh] });
      go(batchHref(batch.id));
    });
  const picked = FILES.filter((n) => files[n]);
  // Other files make the plan on the page another package's: «Применить» would send the new files, unseen.
  const pick = (next: Picked) => {
    setFiles(next);
    setPlan(null);
    setError(null);
  };

  return (
    <section>
      <header className="page-head">
        <h1>Пакеты планирования</h1>
      </header>
      <form
        className="panel form upload"
        onSubmit={planIt}
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          void droppedFiles(e).then(
            (dropped) => pick(pickPackage(dropped)),
            (err: unknown) => {
              setErrorAt('files');
              setError(err);
            },
          );
        }}
        aria-label="Пакет"
      >
        <p className="muted">
          Перетащите сюда папку пакета или файлы <code>issues.csv</code>, <code>links.csv</code>, <code>notes.csv</code> — или выберите их. План
          покажет только то, чем Jira отличается от пакета.
        </p>
        <label className="file">
          <input type="file" multiple accept=".csv,text/csv" onChange={(e) => pick(pickPackage([...(e.target.files ?? [])]))} />
          <span className="btn btn-small">Выбрать файлы</span>
          <span className={picked.length ? '' : 'muted'}>{picked.length ? picked.map((n) => `${n}.csv`).join(', ') : 'файлы не выбраны'}</span>
        </label>
        <label className="file">
          <input type="file" {...{ webkitdirectory: '' }} onChange={(e) => pick(pickPackage([...(e.target.files ?? [])]))} />
          <span className="btn btn-small">Выбрать папку</span>
        </label>
        {errorAt === 'files' && <ErrorBox error={error} />}
        <button className="btn btn-primary" type="submit" disabled={busy || picked.length === 0}>
          Построить план
        </button>
      </form>
      {plan && (
        <div className="report">
          <div className="panel">
            <strong>{plan.text}</strong>
            <div className="muted">
              Сравнено с зеркалом задач: {plan.mirror.keys.length}, самые старые данные — {age(plan.mirror.age_seconds)} назад
              {plan.mirror.missing_keys.length ? `; нет в зеркале: ${plan.mirror.missing_keys.join(', ')}` : ''}
              {plan.mirror.gone_keys?.length ? `; в Jira больше нет: ${plan.mirror.gone_keys.join(', ')}` : ''}.
            </div>
            {plan.refresh && (
              <button className="btn btn-small" onClick={refreshFirst} disabled={busy}>
                Сначала обновить эти задачи ({plan.refresh.params.keys.length})
              </button>
            )}
            {/* Applied, the plan is spent (as on the drift page): another apply would only replay it. */}
            {!applied && <ApplyButton plan={plan} busy={busy} onApply={applyIt} />}
            {errorAt === 'plan' && <ErrorBox error={error} />}
          </div>
          <PlanTables plan={plan} />
        </div>
      )}
      {applied && <AppliedNote applied={applied} />}
      <div className="panel" aria-label="Применённые пакеты">
        <h2 className="panel-title">Применённые пакеты</h2>
        {list.length === 0 ? (
          <div className="muted">Пакетов пока не применяли.</div>
        ) : (
          <table className="table responsive">
            <thead>
              <tr>
                <th>#</th>
                <th>Название</th>
                <th>Применён</th>
                <th>Пакет команд</th>
                <th>
                  <span className="sr-only">Расхождения</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.id}>
                  <td data-label="#">#{p.id}</td>
                  <td data-label="Название">
                    {p.name}
                    {p.applied_from ? <span className="muted"> · заново из <a href={`#/packages/${p.applied_from}`}>#{p.applied_from}</a></span> : null}
                  </td>
                  <td data-label="Применён" className="muted" title={when(p.created_at, true)}>
                    {when(p.created_at)}
                  </td>
                  <td data-label="Пакет команд">{p.batch_id ? <a href={batchHref(p.batch_id)}>пакет команд #{p.batch_id}</a> : <span className="muted">без изменений</span>}</td>
                  <td>
                    <a href={`#/packages/${p.id}`}>Расхождения с Jira</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

/** Where Jira drifted from an applied package, and the way back in one click (plan, then apply). */
function DriftPage({ id }: { id: number }) {
  const { settings } = useHub();
  const [drift, setDrift] = useState<Drift | null>(null);
  const [plan, setPlan] = useState<PackagePlan | null>(null);
  const [applied, setApplied] = useState<Applied | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const reload = useCallback(() => void api.get<Drift>(`/packages/${id}/drift`).then(setDrift, setError), [id]);
  useEffect(reload, [reload]);
  // The drift is the mirror against the package: it is read again as any batch moves on — the package's own,
  // the one «Вернуть к пакету» submitted, or another that changed Jira and refreshed the mirror.
  const reloadSoon = useCoalesced(reload);
  useLive((m) => {
    if (m.event === 'resync') return reload();
    if (m.event === 'batch') reloadSoon();
  });
  /** One request at a time: the buttons are disabled while it runs, so a double click acts once. */
  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const back = () =>
    run(async () => {
      setApplied(null);
      setPlan(await api.post<PackagePlan>(`/packages/${id}/plan`));
    });
  const apply = () => run(async () => setApplied(await api.post<Applied>(`/packages/${id}/apply`)));
  const people = useCataloguePeople(Boolean(drift?.fields.some((f) => f.field === 'assignee')));
  return (
    <section>
      <header className="page-head">
        <h1>Расхождения с пакетом #{id}</h1>
        <a href="#/packages">← все пакеты</a>
      </header>
      {!plan && <ErrorBox error={error} />}
      {drift && (
        <>
          <div className="panel">
            <strong>{drift.matches ? 'Jira соответствует пакету.' : `Jira отошла от пакета «${drift.package.name}»: полей ${drift.fields.length}, связей ${drift.links.length}.`}</strong>
            {drift.batch_status && drift.package.batch_id && (
              <div className="muted">
                <a href={batchHref(drift.package.batch_id)}>Пакет команд #{drift.package.batch_id}</a>: {BATCH_STATUS[drift.batch_status as BatchStatus] ?? drift.batch_status}
              </div>
            )}
            {!drift.matches && (drift.links.length > 0 || drift.fields.some((f) => !BY_HAND.has(f.field))) && (
              <button className="btn btn-primary" onClick={back} disabled={busy}>
                Вернуть к пакету (построить план)
              </button>
            )}
            {drift.fields.some((f) => BY_HAND.has(f.field)) && (
              <div className="muted">Тип и родителя существующей задачи хаб не меняет: поменяйте их в Jira вручную или в пакете.</div>
            )}
          </div>
          {drift.fields.length > 0 && (
            <div className="panel" aria-label="Поля">
              <table className="table responsive">
                <thead>
                  <tr>
                    <th>Задача</th>
                    <th>Поле</th>
                    <th>В пакете</th>
                    <th>В Jira</th>
                  </tr>
                </thead>
                <tbody>
                  {drift.fields.map((f) => (
                    <tr key={`${f.key}:${f.field}`}>
                      <td data-label="Задача">{f.jira_key ? <a href={`#/mirror/${f.jira_key}`}>{f.jira_key}</a> : f.key}</td>
                      <td data-label="Поле">{fieldLabel(f.field)}</td>
                      <td data-label="В пакете">{shown(f.wanted, f.field, people)}</td>
                      <td data-label="В Jira" className="warn">
                        {shown(f.actual, f.field, people)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {drift.links.length > 0 && (
            <div className="panel" aria-label="Связи">
              <ul>
                {drift.links.map((l) => (
                  <li key={`${l.source}:${l.target}:${l.link_type}`}>
                    {linkPhrase(l.source, l.link_type, l.target, settings.link_types)}: {l.state === 'missing' ? 'нет в Jira' : 'в Jira в обратную сторону'}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
      {plan && (
        <div className="report">
          <div className="panel">
            <strong>{plan.text}</strong>
            {/* Applied, the plan is spent: the way back is asked for anew from the drift read then. */}
            {!applied && <ApplyButton plan={plan} busy={busy} onApply={apply} />}
            <ErrorBox error={error} />
          </div>
          <PlanTables plan={plan} />
        </div>
      )}
      {applied && <AppliedNote applied={applied} />}
    </section>
  );
}
