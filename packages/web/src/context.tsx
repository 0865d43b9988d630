import { createContext, useCallback, useContext, useEffect, useRef } from 'react';
import type { LiveClient, LiveMessage } from './live';
import type { Settings } from './types';

export interface HubContext {
  live: LiveClient;
  settings: Settings;
}

export const Hub = createContext<HubContext | null>(null);

export function useHub(): HubContext {
  const hub = useContext(Hub);
  if (!hub) throw new Error('no hub context');
  return hub;
}

/** Calls `handler` with each live message (the latest handler, without resubscribing). */
export function useLive(handler: (m: LiveMessage) => void): void {
  const { live } = useHub();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => live.subscribe((m) => ref.current(m)), [live]);
}

/** How often at most a page reads again what live events made stale. */
export const RELOAD_MS = 500;

/**
 * `run` at most once per `ms`, for reads that live events ask for: the first request runs at once, the
 * requests made while it waits run it once when the wait ends, and none runs after the page is gone. An
 * agent at pause 0 finishes a command every few milliseconds; each finished command read the whole batch.
 */
export function useCoalesced(run: () => void, ms = RELOAD_MS): () => void {
  const latest = useRef(run);
  latest.current = run;
  const state = useRef<{ timer?: ReturnType<typeof setTimeout>; pending: boolean }>({ pending: false });
  useEffect(
    () => () => {
      clearTimeout(state.current.timer);
      state.current.timer = undefined;
      state.current.pending = false;
    },
    [],
  );
  return useCallback(() => {
    const s = state.current;
    if (s.timer !== undefined) {
      s.pending = true;
      return;
    }
    latest.current();
    const wait = () => {
      s.timer = setTimeout(() => {
        s.timer = undefined;
        if (!s.pending) return;
        s.pending = false;
        latest.current();
        wait();
      }, ms);
    };
    wait();
  }, [ms]);
}
