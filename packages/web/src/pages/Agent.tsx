import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import { CatalogueAge } from '../components/CatalogueAge';
import { ErrorBox } from '../components/ui';
import { useHub, useLive } from '../context';
import { ago, when } from '../format';
import type { AgentStatus, Command } from '../types';
import { COMMAND_TYPE, describeCommand } from '../words';

/** Re-renders every `ms` so that «… назад» stays true (no request is made). */
function useTick(ms: number): void {
  const [, set] = useState(0);
  useEffect(() => {
    const t = setInterval(() => set((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [ms]);
}

export function AgentPage() {
  const { settings } = useHub();
  const [agent, setAgent] = useState<AgentStatus | null>(null);
  const [current, setCurrent] = useState<Command | null>(null);
  const [error, setError] = useState<unknown>(null);
  useTick(15_000);

  const load = useCallback(async () => {
    try {
      setAgent(await api.get<AgentStatus>('/agent'));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const currentId = agent?.current_command_id ?? null;
  useEffect(() => {
    if (currentId === null) return setCurrent(null);
    api.get<Command>(`/commands/${currentId}`).then(setCurrent, () => setCurrent(null));
  }, [currentId]);

  useLive((m) => {
    if (m.event === 'resync') return void load();
    if (m.event === 'agent') setAgent(m.data.agent);
    if (m.event === 'command' && m.data.command?.id === currentId) setCurrent(m.data.command);
  });

  if (!agent) return error ? <ErrorBox error={error} /> : <div className="muted">Загрузка…</div>;
  return (
    <section>
      <header className="page-head">
        <h1>Агент</h1>
      </header>
      {agent.warning && (
        <div className="warning" role="status">
          {agent.warning}
        </div>
      )}
      <div className="cards">
        <div className="card">
          <div className="label">Связь</div>
          <span className={`chip ${agent.online ? 'chip-done' : 'chip-failed'}`}>{agent.online ? 'на связи' : 'не на связи'}</span>
          <div className="muted small">последний раз {ago(agent.last_seen_at)}</div>
        </div>
        <div className="card">
          <div className="label">Версия агента</div>
          {agent.agent_version ?? '—'}
        </div>
        <div className="card">
          <div className="label">Версия настроек</div>
          {agent.settings_version ?? '—'} {agent.settings_stale ? <span className="chip chip-failed">устарела</span> : null}
          <div className="muted small">в хабе — {settings.version}</div>
        </div>
        <div className="card">
          <div className="label">Ответов 429 за 24 ч</div>
          <span className={agent.rate_limited_24h ? 'big warn' : 'big'}>{agent.rate_limited_24h}</span>
        </div>
        <div className="card">
          <div className="label">Последний вызов Jira</div>
          {ago(agent.last_jira_call_at)}
        </div>
        <CatalogueAge />
      </div>
      <h2>Текущая команда</h2>
      {current ? (
        <div className="panel">
          <div className="strong">{describeCommand(current, settings.link_types)}</div>
          <div className="muted small">
            <a href={`#/batch/${current.batch_id}`}>пакет #{current.batch_id}</a> · команда #{current.id} · {COMMAND_TYPE[current.type] ?? current.type} · выдана{' '}
            {ago(current.claimed_at)} ({when(current.claimed_at)}), выдача {current.deliveries}
          </div>
        </div>
      ) : (
        <div className="panel muted">Агент сейчас ничего не выполняет.</div>
      )}
      <h2>Выданы повторно</h2>
      {agent.redelivered.length === 0 ? (
        <div className="panel muted">Повторно выданных команд нет.</div>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Команда</th>
              <th>Тип</th>
              <th>Выдач</th>
              <th>Последняя выдача</th>
            </tr>
          </thead>
          <tbody>
            {agent.redelivered.map((r) => (
              <tr key={r.id}>
                <td>#{r.id}</td>
                <td>{COMMAND_TYPE[r.type] ?? r.type}</td>
                <td>{r.deliveries}</td>
                <td>{ago(r.claimed_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
