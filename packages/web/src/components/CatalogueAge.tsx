/**
 * The catalogue of Jira's configuration (SPEC 16.1) on the dashboard: how old it is, whether it is stale,
 * and a button that asks the agent to read it again (POST /catalogue/refresh).
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import { useNow } from '../clock';
import { useLive } from '../context';
import { ago, when } from '../format';
import { batchHref } from '../router';
import { ErrorBox } from './ui';

/** What the page reads of GET /catalogue. */
export interface CatalogueState {
  project_key: string | null;
  synced_at: string | null;
  stale: boolean;
  stale_reason: string | null;
  max_age_minutes: number;
  text: string;
}

export function CatalogueAge() {
  const [state, setState] = useState<CatalogueState | null>(null);
  const [asked, setAsked] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    try {
      setState(await api.get<CatalogueState>('/catalogue'));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void load(), [load]);
  const now = useNow();
  // The refresh asked for finishes: the catalogue it stored is read, and it can be asked for again.
  useLive((m) => {
    if (m.event === 'resync') return void load();
    if ((m.event !== 'batch' && m.event !== 'command') || asked === null || m.data?.batch_id !== asked) return;
    const status = m.data?.batch?.status;
    if (status === 'done' || status === 'cancelled') {
      setAsked(null);
      void load();
    }
  });

  const refresh = async () => {
    try {
      setAsked((await api.post<{ id: number }>('/catalogue/refresh')).id);
      setError(null);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <div className="card" aria-label="Каталог Jira">
      <div className="label">Каталог Jira{state?.project_key ? ` · ${state.project_key}` : ''}</div>
      {state?.synced_at ? (
        <>
          <span className={`chip ${state.stale ? 'chip-failed' : 'chip-done'}`}>{state.stale ? 'устарел' : 'свежий'}</span>
          <div className="muted small" title={when(state.synced_at)}>
            прочитан {ago(state.synced_at, now)}
          </div>
          {state.stale_reason && <div className="muted small">{state.stale_reason}</div>}
        </>
      ) : (
        <div className="muted small">{state ? 'ещё не прочитан: проверки планов по нему не выполняются' : 'загрузка…'}</div>
      )}
      <button type="button" onClick={() => void refresh()} disabled={asked !== null}>
        Обновить каталог
      </button>
      {asked !== null && (
        <div className="muted small">
          в очереди: <a href={batchHref(asked)}>пакет #{asked}</a>
        </div>
      )}
      <ErrorBox error={error} />
    </div>
  );
}
