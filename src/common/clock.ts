/**
 * The hub's notion of "now" as SPEC 2's ISO-8601 UTC text, and its timers (the long poll's
 * deadline); tests replace it with a clock they move by hand, so no test waits for wall time.
 */
export class Clock {
  now(): Date {
    return new Date();
  }
  iso(): string {
    return this.now().toISOString();
  }
  /** Calls `fn` once `ms` milliseconds have passed on this clock; the answer cancels it. */
  after(ms: number, fn: () => void): () => void {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  }
}
