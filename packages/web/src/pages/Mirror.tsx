import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { api, ApiError, query } from '../api';
import { useNow } from '../clock';
import { Empty, ErrorBox, Loading } from '../components/ui';
import { IssueChanges } from '../components/IssueChanges';
import { useCataloguePeople } from '../components/Changes';
import { useHub } from '../context';
import { ago, day, when } from '../format';
import { go, useRoute } from '../router';
import type { Issue, IssueDetail, Note } from '../types';
import { fieldLabel, linkPhrase, NOTE_SOURCE, personWords } from '../words';

/**
 * The mirror's address with an issue's card open (or none): the filters of the address (`params`) go along,
 * so the list beside the card stays the one the person filtered.
 */
export const mirrorHref = (key: string | null, params: string): string => `#/mirror${key ? `/${encodeURIComponent(key)}` : ''}${params ? `?${params}` : ''}`;

/** The issue's sprint in words: a closed one is named so, since the issue is then in the backlog (decision 1434). */
export const sprintOf = (i: Pick<Issue, 'sprint' | 'sprint_state'>): string | null => (i.sprint === null ? null : i.sprint_state === 'closed' ? `${i.sprint} (закрыт)` : i.sprint);

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
            изменена {when(note.updated_at)}
            {note.source ? ` · ${NOTE_SOURCE[note.source] ?? note.source}` : ''}
          </span>
        )}
      </div>
    </form>
  );
}

function IssueCard({ issueKey, params }: { issueKey: string; params: string }) {
  const { settings } = useHub();
  const [issue, setIssue] = useState<IssueDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  // The answer for an issue left meanwhile (the next row clicked, Back) is dropped: coming last, it showed the
  // card of the issue left beside the row of the one opened, and a note typed there was saved to the wrong issue.
  // A «not in the mirror» of the previous key is not said of the next one while it loads.
  useEffect(() => {
    let current = true;
    setIssue(null);
    setError(null);
    api.get<IssueDetail>(`/issues/${encodeURIComponent(issueKey)}`).then(
      (i) => current && (setIssue(i), setError(null)),
      (err) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, [issueKey]);
  const people = useCataloguePeople(Boolean(issue?.assignee));
  // Below 900 px the card stands above the list: one opened from far down the list is brought into view
  // instead of opening off screen (beside the list, on a wide screen, it is in view already).
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    const top = box.current?.getBoundingClientRect().top;
    if (top !== undefined && (top < 0 || top > window.innerHeight)) box.current!.scrollIntoView({ block: 'start' });
  }, [issueKey]);
  const close = (
    <a href={mirrorHref(null, params)} className="small">
      Закрыть
    </a>
  );
  // The hub's 404 names its command («refresh»): the card says it in the dashboard's words, and closes.
  if (error instanceof ApiError && error.status === 404) {
    return (
      <article className="issue" aria-label={`Задача ${issueKey}`} ref={box}>
        <div className="result-line">
          <h2>{issueKey}</h2>
          {close}
        </div>
        <Empty>
          Задачи {issueKey} нет в зеркале: хаб ещё не читал её из Jira (или её там нет). Её прочитает обновление зеркала — например, хвостовое обновление пакета с
          командой для неё.
        </Empty>
      </article>
    );
  }
  if (error) return <div className="issue" ref={box as RefObject<HTMLDivElement>}><ErrorBox error={error} />{close}</div>;
  if (!issue) return <div className="issue" ref={box as RefObject<HTMLDivElement>}><Loading rows={3} /></div>;
  return (
    <article className="issue" aria-label={`Задача ${issue.key}`} ref={box}>
      <div className="result-line">
        <h2>
          {issue.key} <span className="muted">{issue.summary}</span>
        </h2>
        {close}
      </div>
      <div className="cards">
        {(
          [
            ['Тип', issue.issue_type],
            ['Статус', issue.status],
            ['Спринт', sprintOf(issue)],
            ['Исполнитель', issue.assignee && personWords(issue.assignee, people)],
            ['Срок', issue.duedate ? day(issue.duedate) : null],
            ['Синхронизирована', when(issue.synced_at)],
          ] as const
        ).map(([label, v]) => (
          <div className="card" key={label}>
            <div className="label">{label}</div>
            {v ?? '—'}
          </div>
        ))}
      </div>
      <div className="panel">
        <h3>Связи</h3>
        {issue.links_out.length + issue.links_in.length === 0 && <div className="muted">Связей нет.</div>}
        <ul className="links">
          {issue.links_out.map((l) => (
            <li key={`o${l.target_key}${l.link_type}`}>
              {linkPhrase(issue.key, l.link_type, '', settings.link_types)}
              <a href={mirrorHref(l.target_key, params)}>{l.target_key}</a>
            </li>
          ))}
          {issue.links_in.map((l) => (
            <li key={`i${l.source_key}${l.link_type}`}>
              <a href={mirrorHref(l.source_key, params)}>{l.source_key}</a>
              {linkPhrase('', l.link_type, issue.key, settings.link_types)}
            </li>
          ))}
        </ul>
      </div>
      <NoteEditor issueKey={issue.key} note={issue.note} onSaved={(note) => setIssue({ ...issue, note })} />
      <IssueChanges issueKey={issue.key} />
    </article>
  );
}

interface Facets {
  total: number;
  statuses: { value: string; n: number }[];
  sprints: { value: string; n: number }[];
  last_synced_at: string | null;
}

const LIMIT = 100;
type Filters = { status: string; sprint: string; q: string };

/** The stored value a typed one stands for, whatever its letter case («in progress» → «In Progress»). */
export function matchChoice(typed: string, choices: { value: string }[]): string {
  const t = typed.trim().toLowerCase();
  return choices.find((c) => c.value.toLowerCase() === t)?.value ?? typed.trim();
}

/**
 * The address's query for a search (`status=…&sprint=…&q=…`, the filled ones): a search is written into the
 * address, so a reload, Back and Forward, and a return from a batch's page show the same list (decision 1503).
 */
export function searchParams(f: Filters, choices: Facets | null): string {
  const value = (typed: string, list: { value: string }[] | undefined) => (list ? matchChoice(typed, list) : typed.trim());
  const p = new URLSearchParams();
  for (const [k, v] of [
    ['status', value(f.status, choices?.statuses)],
    ['sprint', value(f.sprint, choices?.sprints)],
    ['q', f.q.trim()],
  ] as const)
    if (v) p.set(k, v);
  return p.toString();
}

/** The mirror: issues by status, sprint and text; the issue card beside the list; counts and the last refresh. */
export function MirrorPage({ issueKey }: { issueKey?: string }) {
  const route = useRoute();
  const now = useNow();
  const [facets, setFacets] = useState<Facets | null>(null);
  const params = route.params.toString();
  const initial = useMemo<Filters>(() => { const p = new URLSearchParams(params); return { status: p.get("status") ?? "", sprint: p.get("sprint") ?? "", q: p.get("q") ?? "" }; }, [params]);
  const [filters, setFilters] = useState<Filters>(initial);
  useEffect(() => setFilters(initial), [initial]);
  const [issues, setIssues] = useState<Issue[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [readAt, setReadAt] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  // Each search (a Back or Forward, a second «Найти» before the first answered) is numbered: only the latest one's
  // answers are shown. Coming last, an older answer showed a list that matched neither the fields nor the address.
  const latest = useRef(0);
  const search = useCallback(async (f: Filters, choices: Facets | null, n = ++latest.current) => {
    setBusy(true);
    try {
      const status = choices ? matchChoice(f.status, choices.statuses) : f.status;
      const sprint = choices ? matchChoice(f.sprint, choices.sprints) : f.sprint;
      const found = await api.get<Issue[]>(`/issues${query({ status, sprint, q: f.q.trim(), limit: LIMIT })}`);
      if (n !== latest.current) return;
      setIssues(found);
      setReadAt(Date.now());
      setError(null);
    } catch (err) {
      if (n === latest.current) setError(err);
    } finally {
      if (n === latest.current) setBusy(false);
    }
  }, []);
  const refresh = useCallback(
    async (f: Filters) => {
      const n = ++latest.current;
      let choices: Facets | null = null;
      try {
        choices = await api.get<Facets>('/issues/facets');
        if (n !== latest.current) return;
        setFacets(choices);
      } catch {
        // the list below says what went wrong
      }
      if (n === latest.current) await search(f, choices, n);
    },
    [search],
  );
  useEffect(() => void refresh(initial), [refresh, initial]);
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setFilters({ ...filters, [k]: e.target.value });
  const filtered = Boolean(filters.status || filters.sprint || filters.q.trim());
  const emptyMirror = facets?.total === 0;

  return (
    <section>
      <header className="page-head">
        <h1>Зеркало Jira</h1>
        <div className="actions">
          <span className="muted small" aria-live="polite">
            {facets?.last_synced_at ? `последнее обновление из Jira ${ago(facets.last_synced_at, now)} (${when(facets.last_synced_at)})` : 'из Jira ещё ничего не читалось'}
            {readAt ? ` · список прочитан ${ago(new Date(readAt).toISOString(), now)}` : ''}
          </span>
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void refresh(filters)}>
            Обновить список
          </button>
        </div>
      </header>
      <form
        className="search"
        onSubmit={(e) => {
          e.preventDefault();
          // A new search goes into the address (the page then reads it from there); the same one is read again here.
          const next = searchParams(filters, facets);
          if (next === params) void search(filters, facets);
          else go(mirrorHref(issueKey ?? null, next));
        }}
      >
        <input placeholder="Текст в теме" aria-label="Текст" value={filters.q} onChange={set('q')} />
        <select aria-label="Статус" value={facets ? matchChoice(filters.status, facets.statuses) : filters.status} onChange={set('status')}>
          <option value="">любой статус</option>
          {facets?.statuses.map((c) => (
            <option key={c.value} value={c.value}>
              {c.value} ({c.n})
            </option>
          ))}
          {filters.status && facets && !facets.statuses.some((c) => c.value.toLowerCase() === filters.status.trim().toLowerCase()) && (
            <option value={filters.status}>{filters.status} (0)</option>
          )}
        </select>
        <select aria-label="Спринт" value={facets ? matchChoice(filters.sprint, facets.sprints) : filters.sprint} onChange={set('sprint')}>
          <option value="">любой спринт</option>
          {facets?.sprints.map((c) => (
            <option key={c.value} value={c.value}>
              {c.value} ({c.n})
            </option>
          ))}
          {filters.sprint && facets && !facets.sprints.some((c) => c.value.toLowerCase() === filters.sprint.trim().toLowerCase()) && (
            <option value={filters.sprint}>{filters.sprint} (0)</option>
          )}
        </select>
        <button className="btn btn-primary" type="submit" disabled={busy}>
          Найти
        </button>
      </form>
      <ErrorBox error={error} />
      <div className={issueKey ? 'mirror-split' : undefined}>
        <div>
          {!issues && !error && <Loading />}
          {issues && (
            <div className="result-line muted small" role="status">
              {emptyMirror
                ? ''
                : issues.length >= LIMIT
                  ? `Показаны первые ${LIMIT} из ${filtered ? 'найденных' : facets?.total ?? 'всех'}; уточните поиск.`
                  : `Найдено: ${issues.length}${facets && filtered ? ` из ${facets.total}` : ''}.`}
            </div>
          )}
          {issues && issues.length === 0 && emptyMirror && (
            <Empty>
              Зеркало пока пустое: в нём появятся задачи, когда агент обновит зеркало — например, в конце любого пакета
              или автообновление из <a href="#/settings">настроек</a>.
            </Empty>
          )}
          {issues && issues.length === 0 && !emptyMirror && <Empty>По этим условиям задач нет. Статус и спринт ищутся без учёта регистра.</Empty>}
          {issues && issues.length > 0 && (
            <table className="table responsive">
              <thead>
                <tr>
                  <th>Ключ</th>
                  <th>{fieldLabel('summary')}</th>
                  <th>Статус</th>
                  <th>Спринт</th>
                </tr>
              </thead>
              <tbody>
                {issues.map((i) => (
                  <tr key={i.key} className={i.key === issueKey ? 'row-active clickable' : 'clickable'} onClick={() => go(mirrorHref(i.key, params))}>
                    <td data-label="Ключ">
                      <a href={mirrorHref(i.key, params)} aria-current={i.key === issueKey ? 'true' : undefined}>
                        {i.key}
                      </a>
                    </td>
                    <td data-label={fieldLabel('summary')}>{i.summary}</td>
                    <td data-label="Статус">{i.status ?? '—'}</td>
                    <td data-label="Спринт">{sprintOf(i) ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        {issueKey && <IssueCard issueKey={issueKey} params={params} />}
      </div>
    </section>
  );
}
