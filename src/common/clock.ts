/** The hub's notion of "now" as SPEC 2's ISO-8601 UTC text; tests may replace it. */
export class Clock {
  now(): Date {
    return new Date();
  }
  iso(): string {
    return this.now().toISOString();
  }
}
