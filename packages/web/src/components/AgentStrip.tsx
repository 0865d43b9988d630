/**
 * The agent strip on every page: is the agent there (and since when, in words and local time), the
 * command in hand and its pause counting down, the next command and when it starts. One GET /agent,
 * shared by every page (AgentProvider), kept fresh by the live stream; times tick from the page's clock.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { api } from '../api';
import { useNow } from '../clock';
import { useHub, useLive } from '../context';
import { ago, clock, duration, until } from '../format';
import { batchHref } from '../router';
import type { AgentStatus } from '../types';
import { describeCommand } from '../words';
import { commandsNameAssignee, useCataloguePeople } from './Changes';

const POLL_MS = 10_000;

interface AgentState {
  agent: AgentStatus | null;
  error: unknown;
  reload: () => void;
}

const AgentContext = createContext<AgentState>({ agent: null, error: null, reload: () => {} });

export function useAgent(): AgentState {
  return useContext(AgentContext);
}

export function AgentProvider({ children }: { children: ReactNode }) {
  const [agent, setAgent] = useState<AgentStatus | null>(null);
  const [error, setError] = useState<unknown>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const reload = useCallback(() => {
    api.get<AgentStatus>('/agent').then(
      (a) => (setAgent(a), setError(null)),
      (err) => setError(err),
    );
  }, []);
  useEffect(() => {
    reload();
    // The hub judges whether the agent is on line by its own clock (a browser's may be off): ask it again
    // now and then, since going quiet sends no event.
    const poll = setInterval(reload, POLL_MS);
    return () => {
      clearTimeout(timer.current);
      clearInterval(poll);
    };
  }, [reload]);
  useLive((m) => {
    if (m.event === 'agent' && m.data?.agent) return setAgent(m.data.agent);
    if (m.event === 'resync' || m.event === 'batch' || m.event === 'command' || m.event === 'settings') {
      // The next command moves with batches created, approved or cancelled: read once things settle.
      clearTimeout(timer.current);
      timer.current = setTimeout(reload, 300);
    }
  });
  return <AgentContext.Provider value={{ agent, error, reload }}>{children}</AgentContext.Provider>;
}

/** On line as the hub last said (its clock decides; GET /agent is asked again every 10 s). */
export function isOnline(agent: AgentStatus): boolean {
  return agent.online;
}

export function AgentStrip() {
  const { settings } = useHub();
  const { agent } = useAgent();
  const now = useNow();
  const people = useCataloguePeople(commandsNameAssignee([agent?.current_command, agent?.next_command].filter((c) => c != null)));
  if (!agent) return <div className="strip muted" aria-label="Агент">Агент: загрузка…</div>;
  const online = isOnline(agent);
  const current = agent.current_command ?? null;
  const next = agent.next_command ?? null;
  const pausing = current?.pause_until && Date.parse(current.pause_until) > now;
  const nextAt = next?.starts_at ? Math.max(Date.parse(next.starts_at), now) : null;
  return (
    <div className={`strip ${online ? 'strip-on' : 'strip-off'}`} role="region" aria-label="Агент">
      <span className="strip-item">
        <span className={`dot ${online ? 'dot-on' : 'dot-off'}`} aria-hidden="true" />{' '}
        {online ? (
          <b>Агент на связи</b>
        ) : agent.last_seen_at ? (
          <b>
            Агент не на связи с {clock(agent.last_seen_at)} ({ago(agent.last_seen_at, now)})
          </b>
        ) : (
          <b>Агент ещё не выходил на связь</b>
        )}
      </span>
      <span className="strip-item" data-testid="strip-current">
        {current ? (
          <>
            Сейчас: <a href={batchHref(current.batch_id)}>{describeCommand(current, settings.link_types, undefined, people)}</a>{' '}
            {pausing ? (
              <span className="strip-pause">
                — пауза до {clock(current.pause_until, true)} (ещё {duration((Date.parse(current.pause_until!) - now) / 1000)})
              </span>
            ) : (
              <span className="muted">— выполняется, выдана {ago(current.claimed_at, now)}</span>
            )}
          </>
        ) : (
          <span className="muted">Сейчас ничего не выполняет</span>
        )}
      </span>
      <span className="strip-item" data-testid="strip-next">
        {next ? (
          <>
            Дальше: <a href={batchHref(next.batch_id)}>{describeCommand(next, settings.link_types, undefined, people)}</a>{' '}
            <span className="muted">
              {online && nextAt !== null
                ? `— начнётся ≈ в ${clock(new Date(nextAt).toISOString(), true)} (${until(new Date(nextAt).toISOString(), now)})`
                : '— когда агент вернётся'}
            </span>
          </>
        ) : (
          <span className="muted">Дальше: в очереди пусто</span>
        )}
      </span>
    </div>
  );
}
