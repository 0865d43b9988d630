import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { PlanPanel } from '../components/PlanView';
import { ErrorBox } from '../components/ui';
import { useHub } from '../context';
import { batchHref, go } from '../router';
import { plural } from '../format';
import type { BatchView, ExpectedLink, ImportReport } from '../types';
import { linkPhrase, linkWord } from '../words';

/**
 * The import report's next step: a batch that creates the links the plan has and Jira lacks. A dry run
 * first (what each command would do against the mirror), then the batch is created on a person's word.
 */
function MissingLinksStep({ links }: { links: ExpectedLink[] }) {
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const body = {
    title: `Недостающие связи из плана (${links.length})`,
    commands: links.map((l) => ({ type: 'ensure_link' as const, params: { source: l.source, target: l.target, link_type: l.link_type } })),
  };
  const create = async () => {
    setBusy(true);
    try {
      go(batchHref((await api.post<BatchView>('/batches', body)).id));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <div className="panel next-step" role="region" aria-label="Следующий шаг">
      <h2 className="panel-title">Следующий шаг: создать пакет для недостающих связей</h2>
      <p className="muted">
        Пакет из {links.length} {plural(links.length, 'команды', 'команд', 'команд')} «связь» добавит в Jira связи, которые есть в плане и которых нет в зеркале. Сначала — пробный прогон: он ничего не
        пишет и показывает, что изменится.
      </p>
      {!checking ? (
        <button type="button" className="btn btn-primary" onClick={() => setChecking(true)}>
          Проверить пакет (пробный прогон)
        </button>
      ) : (
        <>
          <PlanPanel body={body} title="Пробный прогон" />
          <ErrorBox error={error} />
          <div className="actions">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={create}>
              Создать пакет
            </button>
            <button type="button" className="btn" onClick={() => setChecking(false)}>
              Скрыть прогон
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function Links({ title, links, empty, hint, reversed }: { title: string; links: ExpectedLink[]; empty: string; hint?: string; reversed?: boolean }) {
  const { settings } = useHub();
  return (
    <div className="panel" role="region" aria-label={title}>
      <h2 className="panel-title">
        {title} <span className="count">{links.length}</span>
      </h2>
      {hint && links.length > 0 && <div className="muted small">{hint}</div>}
      {links.length === 0 ? (
        <div className="muted">{empty}</div>
      ) : (
        <table className="table responsive">
          <thead>
            <tr>
              <th>Откуда</th>
              <th>Тип</th>
              <th>Куда</th>
              {reversed && <th>В Jira</th>}
            </tr>
          </thead>
          <tbody>
            {links.map((l) => (
              <tr key={`${l.source} ${l.link_type} ${l.target}`}>
                <td data-label="Откуда">
                  <a href={`#/mirror/${l.source}`}>{l.source}</a>
                </td>
                <td data-label="Тип">{linkWord(l.link_type, settings.link_types)}</td>
                <td data-label="Куда">
                  <a href={`#/mirror/${l.target}`}>{l.target}</a>
                </td>
                {reversed && <td data-label="В Jira" className="muted">{linkPhrase(l.target, l.link_type, l.source, settings.link_types)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function FilePick({ name, label, file, onPick }: { name: string; label: string; file: File | null; onPick: (f: File | null) => void }) {
  return (
    <div className="field">
      <span>{label}</span>
      <label className="file">
        <input type="file" name={name} accept=".csv,text/csv" onChange={(e) => onPick(e.target.files?.[0] ?? null)} />
        <span className="btn btn-small">Выбрать файл</span>
        <span className={file ? '' : 'muted'}>{file ? `${file.name}, ${Math.max(1, Math.round(file.size / 1024))} КБ` : 'файл не выбран'}</span>
      </label>
    </div>
  );
}

/** Upload notes.csv and links.csv (SPEC 8); the report as tables. */
export function ImportPage() {
  const [notes, setNotes] = useState<File | null>(null);
  const [links, setLinks] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const form = new FormData();
    if (notes) form.append('notes', notes);
    if (links) form.append('links', links);
    setBusy(true);
    try {
      setReport(await api.upload<ImportReport>('/import', form));
      setError(null);
    } catch (err) {
      setError(err);
      setReport(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section>
      <header className="page-head">
        <h1>Импорт плана</h1>
      </header>
      <form className="panel form upload" onSubmit={submit}>
        <p className="muted">
          Пакет планирования — два CSV-файла: заметки к задачам (<code>notes.csv</code>) и ожидаемые связи (<code>links.csv</code>). Заметки
          сохраняются, связи сравниваются с зеркалом Jira.
        </p>
        <FilePick name="notes" label="Заметки — notes.csv" file={notes} onPick={setNotes} />
        <FilePick name="links" label="Связи — links.csv" file={links} onPick={setLinks} />
        <ErrorBox error={error} />
        <button className="btn btn-primary" type="submit" disabled={busy || (!notes && !links)}>
          Загрузить
        </button>
      </form>
      {report && (
        <div className="report">
          <div className="cards">
            <div className="card">
              <div className="label">Заметок сохранено</div>
              <span className="big">{report.notes}</span>
            </div>
            <div className="card">
              <div className="label">Связей в плане</div>
              <span className="big">{report.expected_links.length}</span>
            </div>
            <div className="card">
              <div className="label">Нет в Jira</div>
              <span className={report.missing_links.length ? 'big warn' : 'big'}>{report.missing_links.length}</span>
            </div>
            <div className="card">
              <div className="label">Связей наоборот</div>
              <span className={report.reversed_links.length ? 'big warn' : 'big'}>{report.reversed_links.length}</span>
            </div>
            <div className="card">
              <div className="label">Ключей нет в зеркале</div>
              <span className={report.missing_keys.length ? 'big warn' : 'big'}>{report.missing_keys.length}</span>
            </div>
          </div>
          <Links
            title="Связи наоборот"
            links={report.reversed_links}
            empty="Связей, которые в Jira направлены в другую сторону, нет."
            hint="В плане связь идёт так, а в Jira — в обратную сторону."
            reversed
          />
          <Links title="Связей нет в Jira" links={report.missing_links} empty="Все связи плана есть в Jira." />
          {report.missing_links.length > 0 && <MissingLinksStep links={report.missing_links} />}
          <div className="panel" role="region" aria-label="Ключей нет в зеркале">
            <h2 className="panel-title">
              Ключей нет в зеркале <span className="count">{report.missing_keys.length}</span>
            </h2>
            {report.missing_keys.length === 0 ? (
              <div className="muted">Все ключи плана есть в зеркале.</div>
            ) : (
              <div className="keys">
                {report.missing_keys.map((k) => (
                  <span className="tag" key={k}>
                    {k}
                  </span>
                ))}
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
