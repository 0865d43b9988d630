/**
 * Long synchronous stretches cut into slices (issue 21, decisions 1300 and 1320): the hub has one
 * JavaScript thread, and a stretch that holds it — validating 1,000 commands, checking them, building
 * their view, a SQLite unit's statements — keeps every other request waiting, a search on the read
 * connection included. Work over many items asks `pause()` between items (or SQL statements); once
 * SLICE_MS have passed in this turn of the event loop, the loop gets a turn (setImmediate: sockets are
 * read, other requests run) before the work goes on.
 *
 * One clock for all of it: the stretches of one request follow each other in one turn (the validation,
 * then the unit of work, its statements and its checks), and each must count what the others ran
 * before it. The clock starts at the first look in a turn of the event loop, or when a pause ends; a
 * new turn is seen by the loop's idle time having grown since the last look (Node's
 * `performance.nodeTiming.idleTime`: the loop waited for events in between). What runs in a turn before
 * the first look (parsing the body) is not counted; when the loop is never idle, a turn is not seen and
 * the slice runs on from the last look, which at most lets the loop in earlier than needed.
 */
import { performance } from 'node:perf_hooks';

/**
 * A turn of slicing work lets the event loop in after at most this many milliseconds. A request that
 * arrives meanwhile waits for the rest of the slice: half of it on average (decision 1320 measured 5, 3
 * and 2 ms against a search's latency under a running batch creation).
 */
export const SLICE_MS = 3;

let since = 0;
/** The loop's idle time at the clock's start: more idle time since then means a new turn. */
let idleAt = -1;

function start(now: number): void {
  since = now;
  idleAt = performance.nodeTiming.idleTime;
}

/** Milliseconds of slicing work in this turn of the event loop (0 at the first look in a turn). */
export function sliceElapsed(): number {
  const now = performance.now();
  if (performance.nodeTiming.idleTime !== idleAt) {
    start(now);
    return 0;
  }
  return now - since;
}

/**
 * A turn of the event loop when the slice is used up; else nothing to wait for (no await needed). The
 * turn takes two setImmediate hops: work running in the loop's poll phase (a request's callback) that
 * yielded with one would resume in the check phase of the same iteration, before the loop read any
 * socket; the second hop comes after the next poll phase.
 */
export function pause(sliceMs = SLICE_MS): Promise<void> | undefined {
  return sliceElapsed() < sliceMs ? undefined : nextTurn();
}

/** A turn of the event loop (two setImmediate hops, see `pause`); the slice starts anew after it. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) =>
    setImmediate(() =>
      setImmediate(() => {
        start(performance.now());
        resolve();
      }),
    ),
  );
}

/** `fn` for every item, letting the event loop in between items when the slice is used up. */
export async function eachInSlices<T>(items: readonly T[], fn: (item: T, index: number) => void): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    fn(items[i]!, i);
    const turn = pause();
    if (turn) await turn;
  }
}

/** `items.map(fn)`, letting the event loop in between items when the slice is used up. */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  await eachInSlices(items, (item, i) => (out[i] = fn(item, i)));
  return out;
}
