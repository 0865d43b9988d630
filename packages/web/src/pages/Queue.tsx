import { useCallback, useEffect, useRef, useState } from 'react';
import { api, query } from '../api';
import { BatchChip, Empty, ErrorBox, Progress } from '../components/ui';
import { useLive } from '../context';
import { eta, when } from '../format';
import type { BatchStatus, BatchSummary } from '../types';
import { BATCH_STATUS, SOURCE } from '../words';

export const PAGE_SIZE = 25;
const FILTERS: (BatchStatus | '')[] = ['', 'awaiting_approval', 'queued', 'running', 'done', 'cancelled'];

function approvalText(b: BatchSummary): string {
  if (b.rejected_reason) return `отклонён: ${b.rejected_reason}`;
  if (b.status === 'awaiting_approval') return 'ждёт одобрения';
  if (b.approved_by) return `одобрил ${b.approved_by}`;
  return b.source === 'assistant' ? 'без одобрения' : '—';
}

/** Batches newest first, a page at a time; live: a new batch appears on the first page, rows update in place. */
export function QueuePage() {
  const [status, setStatus] = useState<BatchStatus | ''>('');
  const [cursors, setCursors] = useState<number[]>([]); // before_id of each page after the first
  const [rows, setRows] = useState<BatchSummary[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const before = cursors.at(-1);
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const load = useCallback(async () => {
    try {
      const page = await api.get<BatchSummary[]>(`/batches${query({ status, limit: PAGE_SIZE + 1, before_id: before })}`);
      setRows(page.slice(0, PAGE_SIZE));
      setHasMore(page.length > PAGE_SIZE);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [status, before]);

  useEffect(() => {
    void load();
    return () => clearTimeout(reloadTimer.current);
  }, [load]);

  useLive((m) => {
    if (m.event === 'resync') return void load();
    const batch: BatchSummary | null | undefined = m.data?.batch;
    if ((m.event !== 'batch' && m.event !== 'command') || !batch) return;
    setRows((current) => {
      if (!current) return current;
      const i = current.findIndex((b) => b.id === batch.id);
      const fits = !status || batch.status === status;
      if (i >= 0) return fits ? current.map((b) => (b.id === batch.id ? batch : b)) : current.filter((b) => b.id !== batch.id);
      const newest = current.length === 0 || batch.id > current[0].id;
      return fits && before === undefined && newest ? [batch, ...current].slice(0, PAGE_SIZE) : current;
    });
    // The ETA of the batches behind a changed one moves too: read the page again once things settle.
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(() => void load(), 1500);
  });

  return (
    <section>
      <header className="page-head">
        <h1>Очередь</h1>
        <div className="filters" role="group" aria-label="Фильтр по статусу">
          {FILTERS.map((s) => (
            <button
              key={s || 'all'}
              type="button"
              className={`filter${s === status ? ' filter-on' : ''}`}
              onClick={() => {
                setStatus(s);
                setCursors([]);
              }}
            >
              {s ? BATCH_STATUS[s] : 'все'}
            </button>
          ))}
        </div>
      </header>
      <ErrorBox error={error} />
      {rows && rows.length === 0 && <Empty>{status ? `Пакетов в статусе «${BATCH_STATUS[status]}» нет.` : 'Пакетов пока нет.'}</Empty>}
      {rows && rows.length > 0 && (
        <table className="table batches">
          <thead>
            <tr>
              <th>№</th>
              <th>Пакет</th>
              <th>Статус</th>
              <th className="w-progress">Ход</th>
              <th>Осталось</th>
              <th>Источник и автор</th>
              <th>Одобрение</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.id} data-batch={b.id}>
                <td className="muted">#{b.id}</td>
                <td>
                  <a href={`#/batch/${b.id}`} className="strong">
                    {b.title}
                  </a>
                  <div className="muted small">{when(b.created_at)}</div>
                </td>
                <td>
                  <BatchChip status={b.status} />
                </td>
                <td>
                  <Progress batch={b} />
                </td>
                <td className="nowrap">{b.status === 'awaiting_approval' ? 'после одобрения' : eta(b.remaining_seconds)}</td>
                <td>
                  {b.source && <span className={`tag tag-${b.source}`}>{SOURCE[b.source] ?? b.source}</span>} {b.author}
                </td>
                <td className="small">{approvalText(b)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager">
        <button type="button" className="btn" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
          ← Новее
        </button>
        <span className="muted">страница {cursors.length + 1}</span>
        <button type="button" className="btn" disabled={!hasMore || !rows?.length} onClick={() => rows && setCursors((c) => [...c, rows[rows.length - 1].id])}>
          Старее →
        </button>
      </nav>
    </section>
  );
}
