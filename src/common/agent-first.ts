import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { concatMap, from, Observable, switchMap, finalize } from 'rxjs';
import { nextTurn } from './turns.js';

/**
 * How long after the agent's last answer bulk work still holds back: the agent's turnaround between an
 * answer and its next call. With no pacing that is a millisecond or two, but several on a loaded machine
 * (5 ms let most batches in between: the agent kept 15–40 % of its idle rate under 8 posting clients,
 * 20 ms keeps 67–95 %); with pacing the agent is away for seconds and the bulk work goes after 20 ms.
 */
export const AGENT_GRACE_MS = 20;
/**
 * The longest bulk work holds back for a busy agent: past it, it runs anyway, so it is never starved
 * (with the agent at full speed and no pacing, about ten 100-command batches a second still go).
 */
export const BULK_MAX_WAIT_MS = 100;

/** Real time in milliseconds, and a timer on it; tests give their own. */
export interface Ticker {
  now(): number;
  after(ms: number, fn: () => void): () => void;
}

const REAL_TIME: Ticker = {
  now: () => performance.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/**
 * The agent's calls go before bulk work (issue 9, item 6). One Node process serves both, and a
 * 100-command batch costs several milliseconds of CPU (validation, a hundred inserts, its view): with
 * eight clients posting batches, each claim and report queued behind up to eight of them. Here bulk
 * work (creating batches, plans, imports) takes its turn one job at a time, and a job waits while an
 * agent call is being served or the agent has just been answered — at most BULK_MAX_WAIT_MS, so a busy
 * agent slows batch creation down but never stops it. A claim parked in its long poll does not count
 * as busy.
 *
 * Its waits are in real time, not on the hub's Clock: they share out the process's CPU over a few
 * milliseconds, they are not the hub's business time (which tests move by hand, and which would then
 * hold every batch posted after an agent call until the test moved it).
 */
export class AgentFirst {
  private serving = 0;
  private parked = 0;
  private lastAnswerAt = Number.NEGATIVE_INFINITY;
  private tail: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;

  constructor(private readonly time: Ticker = REAL_TIME) {}

  /** An agent call arrived. */
  enter(): void {
    this.serving += 1;
  }

  /** An agent call was answered. */
  leave(): void {
    this.serving -= 1;
    this.lastAnswerAt = this.now();
    this.wake?.();
  }

  /** A claim parks in its long poll (it costs nothing while it waits), and wakes again. */
  async parkedWhile<T>(wait: Promise<T>): Promise<T> {
    this.parked += 1;
    this.wake?.();
    try {
      return await wait;
    } finally {
      this.parked -= 1;
    }
  }

  /** Waits for a bulk job's turn; the answer ends the turn. */
  async turn(): Promise<() => void> {
    const before = this.tail;
    let end!: () => void;
    this.tail = new Promise<void>((resolve) => (end = resolve));
    await before;
    const deadline = this.now() + BULK_MAX_WAIT_MS;
    for (;;) {
      const now = this.now();
      if (now >= deadline) break;
      const busy = this.serving > this.parked;
      if (!busy && now >= this.lastAnswerAt + AGENT_GRACE_MS) break;
      await this.until(busy ? deadline : Math.min(deadline, this.lastAnswerAt + AGENT_GRACE_MS));
    }
    return end;
  }

  private until(at: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        cancel();
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const cancel = this.time.after(Math.max(0, at - this.now()), done);
      this.wake = done;
    });
  }

  private now(): number {
    return this.time.now();
  }
}

/** On the agent's routes: the call counts as the agent's while it is served. */
@Injectable()
export class AgentCallInterceptor implements NestInterceptor {
  constructor(private readonly first: AgentFirst) {}
  intercept(_: ExecutionContext, next: CallHandler): Observable<unknown> {
    this.first.enter();
    return next.handle().pipe(finalize(() => this.first.leave()));
  }
}

/**
 * On bulk routes: the job (its validation included) waits for its turn behind the agent. Its answer (a
 * batch of 1,000 commands is a quarter of a megabyte of JSON) is serialized in a turn of the event loop
 * of its own, not at the end of the job's last slice (decision 1320).
 */
@Injectable()
export class BulkTurnInterceptor implements NestInterceptor {
  constructor(private readonly first: AgentFirst) {}
  intercept(_: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(this.first.turn()).pipe(switchMap((end) => next.handle().pipe(concatMap(afterTurn), finalize(end))));
  }
}

/** The value, after a turn of the event loop. */
const afterTurn = async <T>(value: T): Promise<T> => {
  await nextTurn();
  return value;
};

/** An agent call: bulk work holds back while it is served. */
export const AgentCall = () => UseInterceptors(AgentCallInterceptor);
/** Bulk work: it takes its turn behind the agent's calls. */
export const BulkWork = () => UseInterceptors(BulkTurnInterceptor);
