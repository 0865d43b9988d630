/**
 * The hub's HTTP server as it stops: Nest's Express adapter (knowing its routes' methods: allowed-methods.ts)
 * with a bounded drain (decision 1429).
 *
 * - The stop begins (`beforeClose`, which `app.close()` and the shutdown signals run before any shutdown
 *   hook): the server takes no new connection and closes the idle kept-alive ones; a request that comes
 *   later on a kept-alive connection is answered 503 `unavailable` with `Connection: close`, and the
 *   requests in flight will be answered with `Connection: close`.
 * - Then the shutdown hooks end the event streams (LiveService) and answer the held claims (ClaimService).
 * - `close` (after those hooks, before the database closes) lets the requests still in flight finish, up to
 *   DRAIN_MS after the stop began, and then closes every connection left: a stop never waits for ever.
 */
import { Logger, type NestApplicationOptions } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { RouteKnowingAdapter } from './allowed-methods.js';
import { errorBody, HubStoppingError, statusOf } from './common/index.js';

/** How long after a stop began the requests in flight may still finish; then their connections are closed. */
export const DRAIN_MS = 10_000;

export class DrainingAdapter extends RouteKnowingAdapter {
  readonly #drainMs: number;
  /** The answers not yet done (a pipelined one whose connection died never is: the bound ends its wait). */
  readonly #inFlight = new Set<ServerResponse>();
  readonly #logger = new Logger('Http');
  #stopping = false;
  #deadline = 0;
  #closed: Promise<void> = Promise.resolve();
  #drained: Promise<void> | undefined;
  /** Called when the last request in flight ends. */
  #idle = (): void => undefined;

  /** `drainMs`: DRAIN_MS; tests pass a short one. */
  constructor(drainMs = DRAIN_MS) {
    super();
    this.#drainMs = drainMs;
  }

  override initHttpServer(options: NestApplicationOptions): void {
    super.initHttpServer(options);
    // Before Express's own listener: a request is counted before any of it runs.
    this.#server().prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.#inFlight.add(res);
      res.once('close', () => {
        this.#inFlight.delete(res);
        if (this.#inFlight.size === 0) this.#idle();
      });
    });
    // The first middleware: a request that comes after the stop began runs nothing of the hub.
    this.use((_req: Request, res: Response, next: NextFunction) => {
      if (!this.#stopping) return next();
      const error = new HubStoppingError();
      res.set('Connection', 'close').status(statusOf(error.code)).json(errorBody(error));
    });
  }

  override beforeClose(): void {
    if (this.#stopping) return;
    super.beforeClose();
    this.#stopping = true;
    this.#deadline = Date.now() + this.#drainMs;
    const server = this.#server();
    // No new connections; Node's close() also closes the idle kept-alive ones (said again here, as meant).
    this.#closed = new Promise((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Answered, a request in flight closes its connection: the client does not send the next one on it.
    for (const res of this.#inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  override close(): Promise<void> {
    this.beforeClose();
    this.#drained ??= this.#drain();
    return this.#drained;
  }

  async #drain(): Promise<void> {
    if (this.#inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.#idle = resolve;
        timer = setTimeout(resolve, Math.max(0, this.#deadline - Date.now()));
      });
      clearTimeout(timer);
    }
    if (this.#inFlight.size > 0) this.#logger.warn(`${this.#inFlight.size} request(s) still running ${this.#drainMs} ms after the stop began: their connections are closed`);
    // Whatever is left is idle, half-sent, or past the bound.
    this.#server().closeAllConnections();
    await this.#closed;
  }

  #server(): Server {
    return this.getHttpServer() as Server;
  }
}
