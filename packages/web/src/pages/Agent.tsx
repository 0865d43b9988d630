import { AGENT_QUIET_WARNING, agentQuietWarning } from '@jira-hub/contracts/russian';
import { useNow } from '../clock';
import { isOnline, useAgent } from '../components/AgentStrip';
import { CatalogueAge } from '../components/CatalogueAge';
import { commandsNameAssignee, useCataloguePeople } from '../components/Changes';
import { Loading, PageError } from '../components/ui';
import { useHub } from '../context';
import { ago, clock, duration, until, when } from '../format';
import { batchHref } from '../router';
import type { AgentStatus } from '../types';
import { COMMAND_TYPE, describeCommand } from '../words';

/**
 * The hub's warning with its «не выходил на связь уже 5 мин» counted from last_seen_at on the page's
 * clock: it ticks as «последний раз … назад» beside it does, not only when GET /agent is asked again.
 */
export function tickingWarning(agent: Pick<AgentStatus, 'warning' | 'last_seen_at' | 'online'>, now: number): string | null {
  if (!agent.warning || !agent.last_seen_at || agent.online) return agent.warning;
  return agent.warning.replace(AGENT_QUIET_WARNING, agentQuietWarning(duration((now - Date.parse(agent.last_seen_at)) / 1000)));
}

/** The agent: on line or not (since when), its versions, the command in hand and its pause, the next one, re-deliveries. */
export function AgentPage() {
  const { settings } = useHub();
  const { agent, error, reload } = useAgent();
  const now = useNow();
  const people = useCataloguePeople(commandsNameAssignee([agent?.current_command, agent?.next_command].filter((c) => c != null)));
  if (!agent) return error ? <PageError error={error} retry={reload} /> : <Loading rows={3} />;
  const online = isOnline(agent);
  const current = agent.current_command ?? null;
  const next = agent.next_command ?? null;
  const pause = current?.pause_until && Date.parse(current.pause_until) > now ? current.pause_until : null;
  return (
    <section>
      <header className="page-head">
        <h1>Агент</h1>
      </header>
      {agent.warning && (
        <div className="warning" role="status">
          {tickingWarning(agent, now)}
        </div>
      )}
      <div className="cards">
        <div className="card">
          <div className="label">Связь</div>
          <span className={`chip ${online ? 'chip-done' : 'chip-failed'}`}>{online ? 'на связи' : 'не на связи'}</span>
          <div className="muted small">
            {agent.last_seen_at ? `последний раз ${ago(agent.last_seen_at, now)} (${when(agent.last_seen_at, true)})` : 'ещё не выходил на связь'}
          </div>
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
          {ago(agent.last_jira_call_at, now)}
        </div>
        <CatalogueAge />
      </div>
      <h2>Текущая команда</h2>
      {current ? (
        <div className="panel">
          <div className="strong">{describeCommand(current, settings.link_types, undefined, people)}</div>
          {pause && (
            <div className="strip-pause">
              пауза до {clock(pause, true)} (ещё {duration((Date.parse(pause) - now) / 1000)}): агент выдерживает темп между вызовами Jira
            </div>
          )}
          <div className="muted small">
            <a href={batchHref(current.batch_id)}>пакет #{current.batch_id}</a>, шаг {current.seq} · команда #{current.id} · {COMMAND_TYPE[current.type] ?? current.type} · выдана{' '}
            {ago(current.claimed_at, now)} ({when(current.claimed_at, true)}), выдача {current.deliveries}
          </div>
        </div>
      ) : (
        <div className="panel muted">Агент сейчас ничего не выполняет.</div>
      )}
      <h2>Следующая команда</h2>
      {next ? (
        <div className="panel">
          <div className="strong">{describeCommand(next, settings.link_types, undefined, people)}</div>
          <div className="muted small">
            <a href={batchHref(next.batch_id)}>пакет #{next.batch_id}</a>, шаг {next.seq} · команда #{next.id} ·{' '}
            {online && next.starts_at ? `начнётся ≈ в ${clock(next.starts_at, true)} (${until(next.starts_at, now)})` : 'начнётся, когда агент вернётся'}
          </div>
        </div>
      ) : (
        <div className="panel muted">В очереди нет команд, готовых к выполнению.</div>
      )}
      <h2>Выданы повторно</h2>
      {agent.redelivered.length === 0 ? (
        <div className="panel muted">Повторно выданных команд нет.</div>
      ) : (
        <table className="table responsive">
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
                <td data-label="Команда">#{r.id}</td>
                <td data-label="Тип">{COMMAND_TYPE[r.type] ?? r.type}</td>
                <td data-label="Выдач">{r.deliveries}</td>
                <td data-label="Последняя выдача">{ago(r.claimed_at, now)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
