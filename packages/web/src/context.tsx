import { createContext, useContext, useEffect, useRef } from 'react';
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
