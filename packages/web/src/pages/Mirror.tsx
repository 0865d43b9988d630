import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, query } from '../api';
import { Empty, ErrorBox } from '../components/ui';
import { useHub } from '../context';
import { when } from '../format';
import { go } from '../router';
import type { Issue, IssueDetail, Note } from '../types';
import { linkWord } from '../words';

function NoteEditor({ issueKey, note, onSaved }: { issueKey: string; note: Note | null; onSaved: (n: Note) => void }) {
  const [fact, setFact] = useState(note?.fact_status ?? '');
  const [comment, setComment] = useState(note?.comment ?? '');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setFact(note?.fact_status ?? '');
    setComment(note?.comment ?? '');
  }, [note]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    try {
      onSaved(await api.put<Note>(`/notes/${encodeURIComponent(issueKey)}`, { fact_status: fact.trim() || null, comment: comment.trim() || null }));
      setError(null);
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form className="panel form" onSubmit={save} aria-label="Заметка">
      <h3>Заметка</h3>
      <label className="field">
        <span>Фактический статус</span>
        <input value={fact} onChange={(e) => setFact(e.target.value)} />
      </label>
      <label className="field">
        <span>Комментарий (внутренний)</span>
        <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={3} />
      </label>
      <ErrorBox error={error} />
      <div className="actions">
        <button className="btn btn-primary" type="submit">
          Сохранить заметку
        </button>
        {saved && <span className="ok">Сохранено</span>}
        {note?.updated_at && (
          <span className="muted small">
            изменена {when(note.updated_at)} ({note.source})
          </span>
        )}
      </div>
    </form>
  );
}

function IssueCard({ issueKey }: { issueKey: string }) {
  const { settings } = useHub();
  const [issue, setIssue] = useState<IssueDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setIssue(null);
    api.get<IssueDetail>(`/issues/${encodeURIComponent(issueKey)}`).then(
      (i) => (setIssue(i), setError(null)),
      setError,
    );
  }, [issueKey]);
  if (error) return <ErrorBox error={error} />;
  if (!issue) return <div className="muted">Загрузка…</div>;
  const word = (t: string) => linkWord(t, settings.link_types);
  return (
    <div className="issue">
      <h2>
        {issue.key} <span className="muted">{issue.summary}</span>
      </h2>
      <div className="cards">
        {(
          [
            ['Тип', issue.issue_type],
            ['Статус', issue.status],
            ['Спринт', issue.sprint],
            ['Исполнитель', issue.assignee],
            ['Срок', issue.duedate],
            ['Синхронизирована', when(issue.synced_at)],
          ] as const
        ).map(([label, v]) => (
          <div className="card" key={label}>
            <div className="label">{label}</div>
            {v ?? '—'}
          </div>
        ))}
      </div>
      <div className="two">
        <div className="panel">
          <h3>Связи</h3>
          {issue.links_out.length + issue.links_in.length === 0 && <div className="muted">Связей нет.</div>}
          <ul className="links">
            {issue.links_out.map((l) => (
              <li key={`o${l.target_key}${l.link_type}`}>
                {issue.key} {word(l.link_type)} <a href={`#/mirror/${l.target_key}`}>{l.target_key}</a>
              </li>
            ))}
            {issue.links_in.map((l) => (
              <li key={`i${l.source_key}${l.link_type}`}>
                <a href={`#/mirror/${l.source_key}`}>{l.source_key}</a> {word(l.link_type)} {issue.key}
              </li>
            ))}
          </ul>
        </div>
        <NoteEditor issueKey={issue.key} note={issue.note} onSaved={(note) => setIssue({ ...issue, note })} />
      </div>
    </div>
  );
}

/** The mirror: issues by status, sprint and text; an issue with its links both ways and its note. */
export function MirrorPage({ issueKey }: { issueKey?: string }) {
  const [filters, setFilters] = useState({ status: '', sprint: '', q: '' });
  const [issues, setIssues] = useState<Issue[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const search = useCallback(async (f: typeof filters) => {
    try {
      setIssues(await api.get<Issue[]>(`/issues${query({ ...f, limit: 100 })}`));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void search({ status: '', sprint: '', q: '' }), [search]);
  const set = (k: keyof typeof filters) => (e: { target: { value: string } }) => setFilters({ ...filters, [k]: e.target.value });
  return (
    <section>
      <header className="page-head">
        <h1>Зеркало Jira</h1>
      </header>
      <form
        className="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search(filters);
        }}
      >
        <input placeholder="Текст в названии" aria-label="Текст" value={filters.q} onChange={set('q')} />
        <input placeholder="Статус" aria-label="Статус" value={filters.status} onChange={set('status')} />
        <input placeholder="Спринт" aria-label="Спринт" value={filters.sprint} onChange={set('sprint')} />
        <button className="btn btn-primary" type="submit">
          Найти
        </button>
      </form>
      <ErrorBox error={error} />
      <div className={issueKey ? 'split' : undefined}>
        <div>
          {issues && issues.length === 0 && <Empty>Ничего не найдено. Зеркало наполняют команды обновления (refresh).</Empty>}
          {issues && issues.length > 0 && (
            <table className="table">
              <thead>
                <tr>
                  <th>Ключ</th>
                  <th>Название</th>
                  <th>Статус</th>
                  <th>Спринт</th>
                </tr>
              </thead>
              <tbody>
                {issues.map((i) => (
                  <tr key={i.key} className={i.key === issueKey ? 'row-active clickable' : 'clickable'} onClick={() => go(`#/mirror/${i.key}`)}>
                    <td>
                      <a href={`#/mirror/${i.key}`}>{i.key}</a>
                    </td>
                    <td>{i.summary}</td>
                    <td>{i.status ?? '—'}</td>
                    <td>{i.sprint ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        {issueKey && <IssueCard issueKey={issueKey} />}
      </div>
    </section>
  );
}
