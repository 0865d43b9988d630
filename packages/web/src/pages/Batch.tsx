import { Fragment, useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import { BatchChip, CommandChip, ConfirmButton, Empty, ErrorBox, Progress } from '../components/ui';
import { useHub, useLive } from '../context';
import { ago, eta, when } from '../format';
import { go } from '../router';
import type { BatchSummary, BatchView, Command } from '../types';
import { COMMAND_TYPE, describeCommand, OUTCOME, resultKey, SOURCE } from '../words';

const FINISHED = ['done', 'failed', 'cancelled', 'skipped', 'confirmed_by_state'];
const RETRYABLE = ['failed', 'cancelled', 'skipped'];

function CommandActions({ c }: { c: Command }) {
  const what = `команду #${c.id} (${COMMAND_TYPE[c.type] ?? c.type})`;
  return (
    <div className="actions">
        <ConfirmButton
          show={c.status === 'queued'}
          label="Отменить"
          className="btn btn-small"
          spec={{ title: 'Отменить команду?', text: `Отменить ${what}? Агент её не получит.`, confirm: 'Отменить команду', danger: true, run: () => api.post(`/commands/${c.id}/cancel`) }}
        />
        <ConfirmButton
          show={c.status === 'claimed'}
          label="Отменить принудительно"
          className="btn btn-small btn-danger-outline"
          spec={{
            title: 'Отменить выданную команду?',
            text: `${what[0].toUpperCase()}${what.slice(1)} уже у агента: он может выполнить её в Jira, даже если хаб её отменит.`,
            confirm: 'Отменить принудительно',
            danger: true,
            run: () => api.post(`/commands/${c.id}/cancel`, { force: true }),
          }}
        />
        <ConfirmButton
          show={RETRYABLE.includes(c.status)}
          label="Повторить"
          className="btn btn-small"
          spec={{
            title: 'Повторить команду?',
            text: `Хаб создаст новый пакет «Повтор команды #${c.id}» с этой командой и обновлением зеркала.`,
            confirm: 'Повторить',
            run: async () => go(`#/batch/${(await api.post<BatchView>(`/commands/${c.id}/retry`)).id}`),
          }}
        />
    </div>
  );
}

function History({ c }: { c: Command }) {
  if (!c.history?.length) {
    return <div className="muted small">{c.deliveries ? `выдана ${c.deliveries} раз, последний раз ${when(c.claimed_at)}` : 'ещё не выдавалась'}</div>;
  }
  return (
    <table className="table inner">
      <thead>
        <tr>
          <th>Выдача</th>
          <th>Выдана</th>
          <th>Агент</th>
          <th>Итог</th>
          <th>Отчёт</th>
          <th>Вызовов Jira</th>
        </tr>
      </thead>
      <tbody>
        {c.history.map((d) => (
          <tr key={d.n}>
            <td>{d.n}</td>
            <td>{when(d.handed_out_at)}</td>
            <td>{d.agent_version ?? '—'}</td>
            <td>{OUTCOME[d.outcome] ?? d.outcome}</td>
            <td>{when(d.reported_at)}</td>
            <td>{d.jira_calls ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One batch: its commands in words, live; approve, reject, cancel; per command cancel, force-cancel, retry. */
export function BatchPage({ id }: { id: number }) {
  const { settings } = useHub();
  const [batch, setBatch] = useState<BatchView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<Set<number>>(new Set());

  const load = useCallback(async () => {
    try {
      setBatch(await api.get<BatchView>(`/batches/${id}`));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [id]);
  useEffect(() => void load(), [load]);

  useLive((m) => {
    if (m.event === 'resync') return void load();
    if ((m.event !== 'batch' && m.event !== 'command') || m.data?.batch_id !== id) return;
    const summary: BatchSummary | null = m.data.batch;
    const command: Command | null = m.event === 'command' ? m.data.command : null;
    setBatch((b) => {
      if (!b || !summary) return b;
      const commands = command ? b.commands.map((c) => (c.id === command.id ? { ...c, ...command } : c)) : b.commands;
      return { ...b, ...summary, commands };
    });
    // The delivery history is not in the event: read the batch once more for the command that changed.
    if (command && open.has(command.id)) void load();
  });

  if (error && !batch) return <ErrorBox error={error} />;
  if (!batch) return <div className="muted">Загрузка…</div>;
  const finished = batch.status === 'done' || batch.status === 'cancelled';
  const toggle = (cid: number) => setOpen((s) => new Set(s.has(cid) ? [...s].filter((x) => x !== cid) : [...s, cid]));

  return (
    <section>
      <header className="page-head">
        <div>
          <a href="#/queue" className="muted small">
            ← Очередь
          </a>
          <h1>
            {batch.title} <span className="muted">#{batch.id}</span>
          </h1>
        </div>
        <div className="actions">
          <ConfirmButton
            show={batch.status === 'awaiting_approval'}
            label="Одобрить"
            className="btn btn-primary"
            spec={{ title: 'Одобрить пакет?', text: `Пакет «${batch.title}» встанет в очередь после уже готовых к выполнению.`, confirm: 'Одобрить', run: () => api.post(`/batches/${id}/approve`) }}
          />
          <ConfirmButton
            show={batch.status === 'awaiting_approval'}
            label="Отклонить"
            className="btn btn-danger-outline"
            spec={{
              title: 'Отклонить пакет?',
              text: 'Пакет будет отменён; причина сохранится в нём.',
              confirm: 'Отклонить',
              danger: true,
              reason: 'Причина',
              run: (reason) => api.post(`/batches/${id}/reject`, { reason }),
            }}
          />
          <ConfirmButton
            show={!finished && !batch.cancelled_at}
            label="Отменить пакет"
            className="btn btn-danger-outline"
            spec={{
              title: 'Отменить пакет?',
              text: 'Команды в очереди будут отменены; команда, уже выданная агенту, завершится сама.',
              confirm: 'Отменить пакет',
              danger: true,
              run: () => api.post(`/batches/${id}/cancel`),
            }}
          />
        </div>
      </header>
      <ErrorBox error={error} />
      <div className="cards">
        <div className="card">
          <div className="label">Статус</div>
          <BatchChip status={batch.status} />
        </div>
        <div className="card card-wide">
          <div className="label">Ход</div>
          <Progress batch={batch} />
        </div>
        <div className="card">
          <div className="label">Осталось</div>
          {batch.status === 'awaiting_approval' ? 'после одобрения' : eta(batch.remaining_seconds)}
        </div>
        <div className="card">
          <div className="label">Источник и автор</div>
          {batch.source ? `${SOURCE[batch.source] ?? batch.source}, ` : ''}
          {batch.author}
        </div>
        <div className="card">
          <div className="label">Создан</div>
          {when(batch.created_at)}
        </div>
        {(batch.approved_by || batch.rejected_reason) && (
          <div className="card">
            <div className="label">{batch.rejected_reason ? 'Отклонён' : 'Одобрил'}</div>
            {batch.rejected_reason ?? `${batch.approved_by}, ${when(batch.approved_at)}`}
          </div>
        )}
      </div>
      {batch.commands.length === 0 ? (
        <Empty>В пакете нет команд.</Empty>
      ) : (
        <table className="table commands">
          <thead>
            <tr>
              <th>№</th>
              <th>Команда</th>
              <th>Статус</th>
              <th>Выдачи</th>
              <th>Результат</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {batch.commands.map((c) => (
              <Fragment key={c.id}>
                <tr data-command={c.id} className={c.status === 'claimed' ? 'row-active' : undefined}>
                  <td className="muted">{c.seq}</td>
                  <td>
                    <div>{describeCommand(c, settings.link_types)}</div>
                    <div className="muted small">
                      #{c.id} · {COMMAND_TYPE[c.type] ?? c.type}
                      {c.retry_of ? ` · повтор #${c.retry_of}` : ''}
                    </div>
                    {c.error && <div className="cmd-error">{c.error}</div>}
                  </td>
                  <td>
                    <CommandChip status={c.status} />
                    {c.status === 'claimed' && <div className="muted small">выдана {ago(c.claimed_at)}</div>}
                    {FINISHED.includes(c.status) && c.finished_at && <div className="muted small">{when(c.finished_at)}</div>}
                  </td>
                  <td>
                    <button type="button" className="link" onClick={() => toggle(c.id)} aria-expanded={open.has(c.id)}>
                      {c.deliveries} {open.has(c.id) ? '▴' : '▾'}
                    </button>
                  </td>
                  <td>{resultKey(c) ? <a href={`#/mirror/${resultKey(c)}`}>{resultKey(c)}</a> : <span className="muted">—</span>}</td>
                  <td>
                    <CommandActions c={c} />
                  </td>
                </tr>
                {open.has(c.id) && (
                  <tr className="row-detail">
                    <td />
                    <td colSpan={5}>
                      <History c={c} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
