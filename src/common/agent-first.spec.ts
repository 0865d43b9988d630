import { describe, expect, it } from '@jest/globals';
import { AGENT_GRACE_MS, AgentFirst, BULK_MAX_WAIT_MS, type Ticker } from './agent-first.js';

/** Time moved by hand; its timers fire as it passes them. */
class HandTime implements Ticker {
  t = 1000;
  private timers: { at: number; fn: () => void }[] = [];
  now = () => this.t;
  after = (ms: number, fn: () => void) => {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((x) => x !== timer));
  };
  async advance(ms: number): Promise<void> {
    this.t += ms;
    const due = this.timers.filter((x) => x.at <= this.t);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const x of due) x.fn();
    await settle();
  }
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** Starts a bulk job's turn; `started()` says whether it got it. */
function job(first: AgentFirst) {
  let end: (() => void) | undefined;
  const turn = first.turn().then((e) => (end = e));
  return { started: () => end !== undefined, end: async () => (await turn)(), turn };
}

describe('AgentFirst: bulk work takes turns behind the agent', () => {
  it('with no agent call about, a job starts at once; the next one waits until the first ends', async () => {
    const first = new AgentFirst(new HandTime());
    const a = job(first);
    const b = job(first);
    await settle();
    expect([a.started(), b.started()]).toEqual([true, false]);
    await a.end();
    await settle();
    expect(b.started()).toBe(true);
  });

  it('a job waits while an agent call is served, then the grace after its answer', async () => {
    const time = new HandTime();
    const first = new AgentFirst(time);
    first.enter();
    const a = job(first);
    await time.advance(10);
    expect(a.started()).toBe(false);
    first.leave();
    await settle();
    expect(a.started()).toBe(false);
    await time.advance(AGENT_GRACE_MS - 1);
    expect(a.started()).toBe(false);
    await time.advance(1);
    expect(a.started()).toBe(true);
  });

  it('the agent back within the grace keeps the job waiting, but never past the longest wait', async () => {
    const time = new HandTime();
    const first = new AgentFirst(time);
    const a = job(first);
    await settle();
    await a.end(); // the tail is free again
    first.enter();
    const b = job(first);
    await settle(); // its turn has begun: the longest wait counts from here
    for (let t = 0; t < BULK_MAX_WAIT_MS - 2; t += 2) {
      first.leave();
      await time.advance(1);
      first.enter();
      await time.advance(1);
      expect(b.started()).toBe(false);
    }
    await time.advance(2);
    expect(b.started()).toBe(true);
    first.leave();
  });

  it('a claim parked in its long poll does not hold bulk work back', async () => {
    const time = new HandTime();
    const first = new AgentFirst(time);
    first.enter();
    let wake!: () => void;
    const parked = first.parkedWhile(new Promise<void>((resolve) => (wake = resolve)));
    await time.advance(AGENT_GRACE_MS);
    const a = job(first);
    await settle();
    expect(a.started()).toBe(true);
    wake();
    await parked;
    first.leave();
  });
});
