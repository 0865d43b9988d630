import { useCallback, useEffect, useState, type DragEvent, type FormEvent } from 'react';
import { api } from '../api';
import { ErrorBox } from '../components/ui';
import { go } from '../router';

/** The answers of /packages (SPEC 18), as far as this page reads them. */
interface PackageCommand {
  seq: number;
  type: string;
  params: Record<string, unknown>;
  file: string;
  row: number;
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
  age_seconds: number | null;
}
export interface PackagePlan {
  name: string;
  empty: boolean;
  text: string;
  commands: PackageCommand[];
  findings: PackageFinding[];
  mirror: MirrorAge;
  refresh: { type: string; params: { keys: string[] } } | null;
  dry_run: { awaiting_approval: boolean; estimate_seconds: number } | null;
}
interface PackageRow {
  id: number;
  name: string;
  created_at: string;
  batch_id: number | null;
}
interface Applied {
  package: PackageRow;
  batch: { id: number } | null;
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

const shown = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : Array.isArray(v) ? v.join(' ') : String(v));
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

export function PlanTables({ plan }: { plan: PackagePlan }) {
  return (
    <>
      <div className="panel" aria-label="План">
        <h3>
          Команды <span className="count">{plan.commands.length}</span>
        </h3>
        {plan.commands.length === 0 ? (
          <div className="muted">Jira уже соответствует пакету: менять нечего.</div>
        ) : (
          <table className="table">
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
              {plan.commands.map((c) => (
                <tr key={c.seq}>
                  <td>{c.seq}</td>
                  <td>
                    <code>{c.type}</code> {shown(c.params.key ?? c.params.temp_key ?? c.params.source)}
                  </td>
                  <td>{c.changes.map((x) => `${x.field}: ${shown(x.from)} → ${shown(x.to)}`).join('; ')}</td>
                  <td className="muted">
                    {c.file}, строка {c.row}
                  </td>
                  <td className="muted small">{c.verdict_text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {plan.findings.length > 0 && (
        <div className="panel" aria-label="Замечания">
          <h3>
            Замечания <span className="count">{plan.findings.length}</span>
          </h3>
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

function AppliedNote({ applied }: { applied: Applied }) {
  return (
    <div className="panel" role="status">
      {applied.text} {applied.batch && <a href={`#/batches/${applied.batch.id}`}>Открыть пакет команд #{applied.batch.id}</a>}
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
  const [busy, setBusy] = useState(false);
  const [list, setList] = useState<PackageRow[]>([]);
  const load = useCallback(() => api.get<PackageRow[]>('/packages').then(setList, setError), []);
  useEffect(() => void load(), [load]);

  const form = () => {
    const f = new FormData();
    for (const name of FILES) if (files[name]) f.append(name, files[name]!);
    return f;
  };
  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    try {
      await what();
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const planIt = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      setApplied(null);
      setPlan(await api.upload<PackagePlan>('/packages/plan', form()));
    });
  };
  const applyIt = () =>
    run(async () => {
      setApplied(await api.upload<Applied>('/packages/apply', form()));
      await load();
    });
  const refreshFirst = () =>
    run(async () => {
      const batch = await api.post<{ id: number }>('/batches', { title: 'Обновить задачи пакета перед планом', commands: [plan!.refresh] });
      go(`#/batches/${batch.id}`);
    });
  const picked = FILES.filter((n) => files[n]);

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
          void droppedFiles(e).then((dropped) => setFiles(pickPackage(dropped)), setError);
        }}
        aria-label="Пакет"
      >
        <p className="muted">
          Перетащите сюда папку пакета или файлы <code>issues.csv</code>, <code>links.csv</code>, <code>notes.csv</code> — или выберите их. План
          покажет только то, чем Jira отличается от пакета.
        </p>
        <label className="file">
          <input type="file" multiple accept=".csv,text/csv" onChange={(e) => setFiles(pickPackage([...(e.target.files ?? [])]))} />
          <span className="btn btn-small">Выбрать файлы</span>
          <span className={picked.length ? '' : 'muted'}>{picked.length ? picked.map((n) => `${n}.csv`).join(', ') : 'файлы не выбраны'}</span>
        </label>
        <label className="file">
          <input type="file" {...{ webkitdirectory: '' }} onChange={(e) => setFiles(pickPackage([...(e.target.files ?? [])]))} />
          <span className="btn btn-small">Выбрать папку</span>
        </label>
        <ErrorBox error={error} />
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
              {plan.mirror.missing_keys.length ? `; нет в зеркале: ${plan.mirror.missing_keys.join(', ')}` : ''}.
            </div>
            {plan.refresh && (
              <button className="btn btn-small" onClick={refreshFirst} disabled={busy}>
                Сначала обновить эти задачи ({plan.refresh.params.keys.length})
              </button>
            )}
            {!plan.empty && (
              <button className="btn btn-primary" onClick={applyIt} disabled={busy}>
                Применить{plan.dry_run?.awaiting_approval ? ' (будет ждать одобрения)' : ''}
              </button>
            )}
          </div>
          <PlanTables plan={plan} />
        </div>
      )}
      {applied && <AppliedNote applied={applied} />}
      <div className="panel" aria-label="Применённые пакеты">
        <h3>Применённые пакеты</h3>
        {list.length === 0 ? (
          <div className="muted">Пакетов пока не применяли.</div>
        ) : (
          <table className="table">
            <tbody>
              {list.map((p) => (
                <tr key={p.id}>
                  <td>#{p.id}</td>
                  <td>{p.name}</td>
                  <td className="muted">{p.created_at}</td>
                  <td>{p.batch_id ? <a href={`#/batches/${p.batch_id}`}>пакет команд #{p.batch_id}</a> : <span className="muted">без изменений</span>}</td>
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
  const [drift, setDrift] = useState<Drift | null>(null);
  const [plan, setPlan] = useState<PackagePlan | null>(null);
  const [applied, setApplied] = useState<Applied | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void api.get<Drift>(`/packages/${id}/drift`).then(setDrift, setError), [id]);
  const back = () => api.post<PackagePlan>(`/packages/${id}/plan`).then(setPlan, setError);
  const apply = () => api.post<Applied>(`/packages/${id}/apply`).then(setApplied, setError);
  return (
    <section>
      <header className="page-head">
        <h1>Расхождения с пакетом #{id}</h1>
        <a href="#/packages">← все пакеты</a>
      </header>
      <ErrorBox error={error} />
      {drift && (
        <>
          <div className="panel">
            <strong>{drift.matches ? 'Jira соответствует пакету.' : `Jira отошла от пакета «${drift.package.name}»: полей ${drift.fields.length}, связей ${drift.links.length}.`}</strong>
            {drift.batch_status && <div className="muted">Пакет команд #{drift.package.batch_id}: {drift.batch_status}</div>}
            {!drift.matches && (
              <button className="btn btn-primary" onClick={back}>
                Вернуть к пакету (построить план)
              </button>
            )}
          </div>
          {drift.fields.length > 0 && (
            <div className="panel" aria-label="Поля">
              <table className="table">
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
                      <td>{f.jira_key ? <a href={`#/mirror/${f.jira_key}`}>{f.jira_key}</a> : f.key}</td>
                      <td>{f.field}</td>
                      <td>{shown(f.wanted)}</td>
                      <td className="warn">{shown(f.actual)}</td>
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
                    {l.source} {l.link_type} {l.target}: {l.state === 'missing' ? 'нет в Jira' : 'в Jira в обратную сторону'}
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
            {!plan.empty && (
              <button className="btn btn-primary" onClick={apply}>
                Применить
              </button>
            )}
          </div>
          <PlanTables plan={plan} />
        </div>
      )}
      {applied && <AppliedNote applied={applied} />}
    </section>
  );
}
