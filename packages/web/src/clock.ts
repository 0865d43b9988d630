/**
 * One clock for the whole page: every «… назад», «ещё 24 с» and ETA re-renders from the same tick, once a
 * second, so no time on any page stands still and no two read differently. The timer runs only while
 * something shows a time.
 */
import { useSyncExternalStore } from 'react';

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The page's current time in ms, updated every second (the same value for every component). */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
