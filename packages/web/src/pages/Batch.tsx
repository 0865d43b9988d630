import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { plural } from '@jira-hub/contracts/russian';
import { api } from '../api';
import { useNow } from '../clock';
import { useAgent } from '../components/AgentStrip';
import { Eta, timed, type Timed } from '../components/Eta';
import { BatchChecksPanel, type BatchChecks } from '../components/BatchChecks';
import { ApproverField, approver, PlanPanel, planBody } from '../components/PlanView';
import { BatchChip, CommandChip, ConfirmButton, Empty, ErrorBox, Loading, PageError, Progress } from '../components/ui';
import { BatchChanges, commandsNameAssignee, commandsNameBoard, useCatalogueBoards, useCataloguePeople } from '../components/Changes';
import { RevertButton } from '../components/Revert';
import { AuditPage } from './Audit';
import { useCoalesced, useHub, useLive } from '../context';
import { ago, clock, collide, duration, when } from '../format';
import { batchHref, go } from '../router';
import type { BatchSummary, BatchView, Command } from '../types';
import { COMMAND_TYPE, describeCommand, OUTCOME, personName, resultKey, whoMade } from '../words';

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
        spec={{ title: 'Отменить команду?', text: `Отменить ${what}? Агент её не получит.`, confirm: 'Отменить команду', dismiss: 'Не отменять', danger: true, run: () => api.post(`/commands/${c.id}/cancel`) }}
      />
      <ConfirmButton
        show={c.status === 'claimed'}
        label="Отменить принудительно"
        className="btn btn-small btn-danger-outline"
        spec={{
          title: 'Отменить выданную команду?',
          text: `${what[0].toUpperCase()}${what.slice(1)} уже у агента: он может выполнить её в Jira, даже если хаб её отменит.`,
          confirm: 'Отменить принудительно',
          dismiss: 'Не отменять',
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
          dismiss: 'Не повторять',
          run: async () => go(batchHref((await api.post<BatchView>(`/commands/${c.id}/retry`)).id)),
        }}
      />
    </div>
  );
}

function History({ c }: { c: Command }) {
  if (!c.history?.length) {
    return <div className="muted small">{c.deliveries ? `выдана ${c.deliveries} ${plural(c.deliveries, 'раз', 'раза', 'раз')}, последний раз ${when(c.claimed_at, true)}` : 'ещё не выдавалась'}</div>;
  }
  // Deliveries minutes apart read 07:00 / 07:00 without seconds: show them when times collide.
  const seconds = collide(c.history.flatMap((d) => [d.handed_out_at, d.reported_at]));
  return (
    <table className="table inner responsive">
      <caption className="sr-only">История выдач команды #{c.id}</caption>
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
            <td data-label="Выдача">{d.n}</td>
            <td data-label="Выдана">{when(d.handed_out_at, seconds)}</td>
            <td data-label="Агент">{d.agent_version ?? '—'}</td>
            <td data-label="Итог">{OUTCOME[d.outcome] ?? d.outcome}</td>
            <td data-label="Отчёт">{when(d.reported_at, seconds)}</td>
            <td data-label="Вызовов Jira">{d.jira_calls ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Where a command stands, in words that tick: «у агента · пауза до 07:06:35 (ещё 24 с)», «выдана 21 с назад». */
function CommandState({ c }: { c: Command }) {
  const now = useNow();
  const { agent } = useAgent();
  const held = agent?.current_command?.id === c.id ? agent.current_command : null;
  const pause = held?.pause_until && Date.parse(held.pause_until) > now ? held.pause_until : null;
  return (
    <>
      <CommandChip status={c.status} />
      {c.status === 'claimed' && (
        <div className="muted small cmd-when">
          {pause ? `пауза до ${clock(pause, true)} (ещё ${duration((Date.parse(pause) - now) / 1000)})` : `выдана ${ago(c.claimed_at, now)}`}
        </div>
      )}
      {FINISHED.includes(c.status) && c.finished_at && (
        <div className="muted small cmd-when" title={when(c.finished_at, true)}>
          {ago(c.finished_at, now)}
        </div>
      )}
    </>
  );
}

/** One batch: its commands in words, live; the plan, approve, reject, cancel; per command cancel, force-cancel, retry. */
export function BatchPage({ id }: { id: number }) {
  const { settings } = useHub();
  const [batch, setBatch] = useState<Timed<BatchView> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [by, setBy] = useState(approver.get);

  const load = useCallback(async () => {
    try {
      setBatch(timed(await api.get<BatchView>(`/batches/${id}`)));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [id]);
  useEffect(() => void load(), [load]);
  // What approving or rejecting from this page did: the buttons are gone with the batch's new status, so
  // the keyboard focus moves to this line, which says so (else it would fall to <body>).
  const [decided, setDecided] = useState<string | null>(null);
  const decidedLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => setDecided(null), [id]);
  useEffect(() => {
    if (decided) decidedLine.current?.focus();
  }, [decided]);
  /** Read the batch at once (not on the live event) so the dialog closes on the page as it now is. */
  const decide = async (request: Promise<unknown>, text: string) => {
    await request;
    await load();
    setDecided(text);
  };
  const reload = useCoalesced(() => void load());
  // A revert's ensure_sprint names its board by id: by the catalogue's name, as the change record does.
  const boards = useCatalogueBoards(commandsNameBoard(batch?.commands ?? []));
  const people = useCataloguePeople(commandsNameAssignee(batch?.commands ?? []));

  useLive((m) => {
    if (m.event === 'resync') return void load();
    if ((m.event !== 'batch' && m.event !== 'command') || m.data?.batch_id !== id) return;
    // A batch event (cancelled, rejected, approved) changes many rows at once: read the batch again.
    if (m.event === 'batch') return void load();
    const summary: BatchSummary | null = m.data.batch;
    const command: Command | null = m.data.command;
    setBatch((b) => {
      if (!b || !summary) return b;
      const commands = command ? b.commands.map((c) => (c.id === command.id ? { ...c, ...command } : c)) : b.commands;
      return timed({ ...b, ...summary, commands });
    });
    // The delivery history is not in the event: read the batch once more for the command that changed.
    // …nor the change record: read it when a command finishes done (at most twice a second at any pace).
    if (command && (open.has(command.id) || command.status === 'done')) reload();
  });

  if (error && !batch) return <PageError error={error} retry={() => void load()} />;
  if (!batch) return <Loading rows={6} />;
  const finished = batch.status === 'done' || batch.status === 'cancelled';
  const awaiting = batch.status === 'awaiting_approval';
  const toggle = (cid: number) => setOpen((s) => new Set(s.has(cid) ? [...s].filter((x) => x !== cid) : [...s, cid]));

  return (
    <section>
      <header className="page-head">
        <div>
          <a href="#/queue" className="back small">
            ← Очередь
          </a>
          <h1>{batch.title}</h1>
          <div className="muted small">
            пакет #{batch.id}
            {batch.revert_of != null && (
              <>
                {' · откат пакета '}
                <a href={batchHref(batch.revert_of)}>#{batch.revert_of}</a>
              </>
            )}
          </div>
        </div>
        <div className="actions">
          <ConfirmButton
            show={awaiting}
            label="Одобрить"
            className="btn btn-primary"
            spec={{
              title: 'Одобрить пакет?',
              text: `Пакет «${batch.title}» встанет в очередь после уже готовых к выполнению. Одобряет: ${by.trim() || 'не указано'}.`,
              confirm: 'Одобрить',
              dismiss: 'Не одобрять',
              run: () => decide(api.post(`/batches/${id}/approve`, by.trim() ? { by: by.trim() } : {}), 'Пакет одобрен.'),
            }}
          />
          <ConfirmButton
            show={awaiting}
            label="Отклонить"
            className="btn btn-danger-outline"
            spec={{
              title: 'Отклонить пакет?',
              text: 'Пакет будет отменён; причина сохранится в нём.',
              confirm: 'Отклонить',
              dismiss: 'Не отклонять',
              danger: true,
              reason: 'Причина',
              run: (reason) => decide(api.post(`/batches/${id}/reject`, { reason }), 'Пакет отклонён.'),
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
              dismiss: 'Не отменять',
              danger: true,
              run: () => api.post(`/batches/${id}/cancel`),
            }}
          />
          <RevertButton batch={batch} />
        </div>
      </header>
      {decided && (
        <p className="decided" role="status" tabIndex={-1} ref={decidedLine}>
          {decided}
        </p>
      )}
      <ErrorBox error={error} />
      <div className="cards">
        <div className="card">
          <div className="label">Статус</div>
          <BatchChip batch={batch} />
        </div>
        <div className="card card-wide">
          <div className="label">Ход</div>
          <Progress batch={batch} />
        </div>
        <div className="card">
          <div className="label">Осталось</div>
          <Eta batch={batch} />
        </div>
        <div className="card">
          <div className="label">Кто создал</div>
          <span>{whoMade(batch)}</span>
        </div>
        <div className="card">
          <div className="label">Создан</div>
          {when(batch.created_at)}
        </div>
        {(batch.approved_by || batch.rejected_reason) && (
          <div className="card">
            <div className="label">{batch.rejected_reason ? 'Отклонён' : 'Одобрил'}</div>
            {batch.rejected_reason ?? `${personName(batch.approved_by!)}, ${when(batch.approved_at)}`}
          </div>
        )}
      </div>
      {awaiting && (
        <>
          <ApproverField value={by} onChange={setBy} />
          <PlanPanel body={planBody(batch)} awaiting />
        </>
      )}
      <BatchChecksPanel checks={(batch as { checks?: BatchChecks | null }).checks} />
      <BatchChanges changes={batch.changes} />
      <h2>Команды</h2>
      {batch.commands.length === 0 ? (
        <Empty>В пакете нет команд.</Empty>
      ) : (
        <table className="table commands responsive">
          <thead>
            <tr>
              <th>Шаг</th>
              <th>Команда</th>
              <th>Статус</th>
              <th>Выдачи</th>
              <th>Результат</th>
              <th>
                <span className="sr-only">Действия</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {batch.commands.map((c) => (
              <Fragment key={c.id}>
                <tr data-command={c.id} className={c.status === 'claimed' ? 'row-active' : undefined}>
                  <td data-label="Шаг" className="muted">
                    {c.seq}
                  </td>
                  <td data-label="Команда">
                    <div>{describeCommand(c, settings.link_types, boards, people)}</div>
                    <div className="muted small">
                      команда #{c.id} · {COMMAND_TYPE[c.type] ?? c.type}
                      {c.retry_of ? ` · повтор команды #${c.retry_of}` : ''}
                    </div>
                    {c.error && <div className="cmd-error">{c.error}</div>}
                  </td>
                  <td data-label="Статус">
                    <CommandState c={c} />
                  </td>
                  <td data-label="Выдачи">
                    <button
                      type="button"
                      className="link"
                      onClick={() => toggle(c.id)}
                      aria-expanded={open.has(c.id)}
                      aria-label={`История выдач команды #${c.id}: ${c.deliveries}`}
                    >
                      {c.deliveries} {open.has(c.id) ? '▴' : '▾'}
                    </button>
                  </td>
                  <td data-label="Результат">{resultKey(c) ? <a href={`#/mirror/${resultKey(c)}`}>{resultKey(c)}</a> : <span className="muted">—</span>}</td>
                  <td data-label="Действия">
                    <CommandActions c={c} />
                  </td>
                </tr>
                {open.has(c.id) && (
                  <tr className="row-detail">
                    <td colSpan={6}>
                      <History c={c} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {batch.source === 'assistant' && (
        <details className="audit-of-batch">
          <summary>Вызовы ассистента по этому пакету</summary>
          <AuditPage batchId={batch.id} />
        </details>
      )}
    </section>
  );
}
