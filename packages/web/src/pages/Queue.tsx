import { useCallback, useEffect, useRef, useState } from 'react';
import { api, query } from '../api';
import { useNow } from '../clock';
import { Eta, timed, type Timed } from '../components/Eta';
import { commandsNameAssignee, useCataloguePeople } from '../components/Changes';
import { BatchChip, Empty, ErrorBox, FilterButton, Loading, Progress } from '../components/ui';
import { useCoalesced, useHub, useLive } from '../context';
import { ago, when } from '../format';
import { batchHref, go, useRoute } from '../router';
import type { BatchStatus, BatchSummary, Command } from '../types';
import { authorName, COMMAND_TYPE, describeCommand, outcomeOf, OUTCOME_TEXT, personName, SOURCE } from '../words';

export const PAGE_SIZE = 25;
/** A tab of the list: a batch status, the done batches with a failed or skipped command (GET /batches?status=done_with_errors), or all. */
type Filter = BatchStatus | 'done_with_errors' | '';
const FILTERS: Filter[] = ['', 'awaiting_approval', 'queued', 'running', 'done', 'done_with_errors', 'cancelled'];
const FILTER_TEXT: Record<Filter, string> = {
  '': 'все',
  awaiting_approval: 'ждут одобрения',
  queued: 'в очереди',
  running: 'выполняются',
  done: 'завершены',
  done_with_errors: 'с ошибками',
  cancelled: 'отменены',
};

export interface BatchCounts extends Record<BatchStatus, number> {
  all: number;
  done_with_errors: number;
  failed_commands: number;
}

type FailedCommand = Command & { batch_title: string };

function approvalText(b: BatchSummary): string {
  if (b.rejected_reason) return `отклонён: ${b.rejected_reason}`;
  if (b.status === 'awaiting_approval') return 'ждёт одобрения';
  if (b.approved_by) return `одобрил ${personName(b.approved_by)}`;
  return b.source === 'assistant' ? 'без одобрения' : '—';
}

/** Failed commands across batches, the latest first (the «Ошибки» tab). */
function FailedList() {
  const { settings } = useHub();
  const now = useNow();
  const [rows, setRows] = useState<FailedCommand[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => {
    api.get<FailedCommand[]>(`/commands${query({ status: 'failed', limit: 100 })}`).then(
      (r) => (setRows(r), setError(null)),
      setError,
    );
  }, []);
  useEffect(load, [load]);
  const reload = useCoalesced(load);
  useLive((m) => (m.event === 'resync' || m.event === 'command') && reload());
  const people = useCataloguePeople(commandsNameAssignee(rows ?? []));
  if (error) return <ErrorBox error={error} />;
  if (!rows) return <Loading />;
  if (rows.length === 0) return <Empty>Ошибок нет: ни одна команда не завершилась с ошибкой.</Empty>;
  return (
    <table className="table responsive failed">
      <thead>
        <tr>
          <th>Команда</th>
          <th>Ошибка</th>
          <th>Пакет</th>
          <th>Когда</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.id} data-command={c.id}>
            <td data-label="Команда">
              <div>{describeCommand(c, settings.link_types, undefined, people)}</div>
              <div className="muted small">
                команда #{c.id} · {COMMAND_TYPE[c.type] ?? c.type}
              </div>
            </td>
            <td data-label="Ошибка">
              <div className="cmd-error">{c.error}</div>
            </td>
            <td data-label="Пакет">
              <a href={batchHref(c.batch_id)}>{c.batch_title}</a> <span className="muted small">пакет #{c.batch_id}, шаг {c.seq}</span>
            </td>
            <td data-label="Когда" className="nowrap" title={when(c.finished_at, true)}>
              {ago(c.finished_at, now)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Batches newest first, a page at a time, with tabs per state and their counts; live: rows update in place. */
export function QueuePage() {
  const route = useRoute();
  const tab = route.params.get('tab') ?? '';
  const failedTab = tab === 'failed';
  const status = (FILTERS as string[]).includes(tab) ? (tab as Filter) : '';
  const now = useNow();
  const [cursors, setCursors] = useState<number[]>([]); // before_id of each page after the first
  const [rows, setRows] = useState<Timed<BatchSummary>[] | null>(null);
  const [counts, setCounts] = useState<BatchCounts | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const before = cursors.at(-1);
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const load = useCallback(async () => {
    api.get<BatchCounts>('/batches/counts').then(setCounts, () => undefined);
    if (failedTab) return;
    try {
      const page = await api.get<BatchSummary[]>(`/batches${query({ status, limit: PAGE_SIZE + 1, before_id: before })}`);
      const at = Date.now();
      setRows(page.slice(0, PAGE_SIZE).map((b) => timed(b, at)));
      setHasMore(page.length > PAGE_SIZE);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [status, before, failedTab]);

  useEffect(() => {
    void load();
    return () => clearTimeout(reloadTimer.current);
  }, [load]);

  // The tab already shown reads no other list, so nothing would fill a blanked one: it is kept (on a later
  // page, the first is read). Another tab blanks it until its own list comes.
  const choose = (t: string) => {
    if (t !== (failedTab ? 'failed' : status)) setRows(null);
    setCursors([]);
    go(t ? `#/queue?tab=${t}` : '#/queue');
  };

  useLive((m) => {
    if (m.event === 'resync') return void load();
    const batch: BatchSummary | null | undefined = m.data?.batch;
    if ((m.event !== 'batch' && m.event !== 'command') || !batch) return;
    setRows((current) => {
      if (!current) return current;
      const i = current.findIndex((b) => b.id === batch.id);
      const fits = !status || (status === 'done_with_errors' ? outcomeOf(batch) === status : batch.status === status);
      if (i >= 0) return fits ? current.map((b) => (b.id === batch.id ? timed(batch) : b)) : current.filter((b) => b.id !== batch.id);
      const newest = current.length === 0 || batch.id > current[0].id;
      return fits && before === undefined && newest ? [timed(batch), ...current].slice(0, PAGE_SIZE) : current;
    });
    // The ETA of the batches behind a changed one moves too, and the counts: read again once things settle.
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(() => void load(), 1500);
  });

  const countOf = (s: Filter): number | undefined => (counts ? (s ? counts[s] : counts.all) : undefined);

  return (
    <section>
      <header className="page-head">
        <h1>Очередь</h1>
      </header>
      <div className="filters" role="group" aria-label="Показать">
        <FilterButton on={failedTab} count={counts?.failed_commands} onClick={() => choose('failed')}>
          ошибки
        </FilterButton>
        {FILTERS.map((s) => (
          <FilterButton key={s || 'all'} on={!failedTab && s === status} count={countOf(s)} onClick={() => choose(s)}>
            {FILTER_TEXT[s]}
          </FilterButton>
        ))}
      </div>
      {failedTab ? (
        <FailedList />
      ) : (
        <>
          <ErrorBox error={error} />
          {!rows && !error && <Loading />}
          {rows && rows.length === 0 && <Empty>{status ? `Пакетов в статусе «${OUTCOME_TEXT[status]}» нет.` : 'Пакетов пока нет.'}</Empty>}
          {rows && rows.length > 0 && (
            <table className="table batches responsive">
              <thead>
                <tr>
                  <th>Пакет</th>
                  <th>Статус</th>
                  <th className="w-progress">Ход</th>
                  <th>Осталось</th>
                  <th>Кто</th>
                  <th>Одобрение</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((b) => (
                  <tr key={b.id} data-batch={b.id}>
                    <td data-label="Пакет">
                      <a href={batchHref(b.id)} className="strong">
                        {b.title}
                      </a>
                      <div className="muted small" title={when(b.created_at, true)}>
                        пакет #{b.id} · создан {ago(b.created_at, now)}
                      </div>
                    </td>
                    <td data-label="Статус">
                      <BatchChip batch={b} />
                    </td>
                    <td data-label="Ход">
                      <Progress batch={b} />
                    </td>
                    <td data-label="Осталось" className="nowrap">
                      <Eta batch={b} />
                    </td>
                    <td data-label="Кто">
                      {b.source && <span className={`tag tag-${b.source}`}>{SOURCE[b.source] ?? b.source}</span>} {authorName(b.author)}
                    </td>
                    <td data-label="Одобрение" className="small">
                      {approvalText(b)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {rows && (hasMore || cursors.length > 0) && (
            <nav className="pager" aria-label="Страницы">
              <button type="button" className="btn" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
                ← Новее
              </button>
              <span className="muted">страница {cursors.length + 1}</span>
              <button type="button" className="btn" disabled={!hasMore || !rows?.length} onClick={() => rows && setCursors((c) => [...c, rows[rows.length - 1].id])}>
                Старее →
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
