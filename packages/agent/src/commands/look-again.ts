import { CommandStopped } from '../command-failure.js';
import { sleep as realSleep } from '../sleep.js';
import type { ExecutorContext } from './context.js';

/** ensure_issue's and ensure_comment's waits before each further look (createRecheckDelaysMs): about a minute in all. */
export const DEFAULT_CREATE_RECHECK_DELAYS_MS = [5000, 10_000, 20_000, 20_000];

/**
 * A write whose answer was lost may still land in Jira: `find` runs again after each of the context's
 * waits (honouring the stop signal) until it finds something; undefined when it never does. `why` is
 * logged once before the first wait, with the time the looks may take; `stopped` is the CommandStopped
 * text when the agent stops meanwhile.
 */
export async function lookAgain<T>(ctx: ExecutorContext, find: () => Promise<T | undefined>, why: (seconds: number) => string, stopped: string): Promise<T | undefined> {
  const delays = ctx.createRecheckDelaysMs ?? DEFAULT_CREATE_RECHECK_DELAYS_MS;
  if (delays.length === 0) return undefined;
  const sleep = ctx.sleep ?? realSleep;
  ctx.log?.(why(Math.round(delays.reduce((sum, ms) => sum + ms, 0) / 1000)));
  for (const delay of delays) {
    await sleep(delay, ctx.stopSignal);
    if (ctx.stopSignal?.aborted) throw new CommandStopped(stopped);
    const found = await find();
    if (found !== undefined) return found;
  }
  return undefined;
}
