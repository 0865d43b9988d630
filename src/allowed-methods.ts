/**
 * The methods each path takes, as Nest registers its routes through the HTTP adapter (decision 1436).
 * A request no route answered reaches Nest's not-found handler; before it, this adapter asks the table:
 * a path some route has, with another method, is a 405 `method_not_allowed` naming the methods in the
 * `Allow` header and the detail (through the one exception filter), an OPTIONS there a 204 with `Allow`;
 * a path no route has stays Nest's 404. Paths read outside Nest's router (the dashboard's files: `readsOutside`;
 * the docs answer for themselves with `wrongMethod`) take GET and HEAD alike.
 */
import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MethodNotAllowedError } from './common/index.js';

/** A path cut for the detail (a path may be long). */
const shown = (path: string): string => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

/** `Allow` as Express lists it: the methods sorted, HEAD beside GET (Express answers HEAD with the GET route). */
function allowOf(methods: Iterable<string>): string[] {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  return [...all].sort();
}

/** What a path served outside Nest's router (Swagger UI, the OpenAPI document, the dashboard's files) takes. */
export const READS = ['GET', 'HEAD'];

const isRead = (req: Request): boolean => req.method === 'GET' || req.method === 'HEAD';

/**
 * A method `allowed` does not list, on a path that exists: OPTIONS answers 204 with `Allow`, any other method
 * the 405 `method_not_allowed` (through the one exception filter, which sets `Allow`).
 */
export function wrongMethod(req: Request, res: Response, next: NextFunction, allowed: string[]): void {
  if (req.method === 'OPTIONS') return void res.set('Allow', allowed.join(', ')).status(204).end();
  next(new MethodNotAllowedError(req.method, shown(req.originalUrl.split('?')[0]), allowed));
}

/** A file under `root` at the URL path `path` (decoded), as express.static finds one: no dotfile or `..`, no folder. */
export function isFileUnder(root: string, path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  const parts = decoded.split('/').slice(1);
  // A backslash is a separator to join() on Windows: `%5C..%5C` must not reach outside `root` there.
  if (decoded.includes('\0') || parts.some((p) => p === '' || p.startsWith('.') || p.includes('\\'))) return false;
  try {
    return statSync(join(root, ...parts)).isFile();
  } catch {
    return false;
  }
}

export class RouteKnowingAdapter extends ExpressAdapter {
  /** The method of every route Nest registered, by its path (as Express matches it). */
  readonly #routes = new Map<string, Set<string>>();
  /** Express's own matching over those paths, made on the first request no route answered. */
  #probe: express.Router | undefined;
  readonly #found = new WeakMap<Request, Set<string>>();
  /** Paths served outside Nest's router, for reading: each says whether it serves a path. */
  readonly #outside: ((path: string) => boolean)[] = [];

  /** Declares paths a handler outside Nest's router serves for GET and HEAD (the dashboard's files): another method there is a 405. */
  readsOutside(serves: (path: string) => boolean): void {
    this.#outside.push(serves);
  }

  #record(method: string, args: unknown[]): void {
    const path = args.length > 1 && typeof args[0] === 'string' ? args[0] : '/';
    const methods = this.#routes.get(path) ?? new Set<string>();
    methods.add(method);
    this.#routes.set(path, methods);
    this.#probe = undefined;
  }

  override get(...args: unknown[]): unknown {
    this.#record('GET', args);
    return (super.get as (...a: unknown[]) => unknown)(...args);
  }
  override post(...args: unknown[]): unknown {
    this.#record('POST', args);
    return (super.post as (...a: unknown[]) => unknown)(...args);
  }
  override put(...args: unknown[]): unknown {
    this.#record('PUT', args);
    return (super.put as (...a: unknown[]) => unknown)(...args);
  }
  override patch(...args: unknown[]): unknown {
    this.#record('PATCH', args);
    return (super.patch as (...a: unknown[]) => unknown)(...args);
  }
  override delete(...args: unknown[]): unknown {
    this.#record('DELETE', args);
    return (super.delete as (...a: unknown[]) => unknown)(...args);
  }
  override head(...args: unknown[]): unknown {
    this.#record('HEAD', args);
    return (super.head as (...a: unknown[]) => unknown)(...args);
  }
  override options(...args: unknown[]): unknown {
    this.#record('OPTIONS', args);
    return (super.options as (...a: unknown[]) => unknown)(...args);
  }
  override all(...args: unknown[]): unknown {
    this.#record('ALL', args);
    return (super.all as (...a: unknown[]) => unknown)(...args);
  }

  override setNotFoundHandler(handler: RequestHandler, prefix?: string, excludedRoutes?: unknown): unknown {
    const notFound = (req: Request, res: Response, next: NextFunction): void => {
      this.#methodsOf(req, res, (methods) => {
        // Another method on a path read outside the router (a GET or HEAD that got here found nothing there: 404).
        if (methods.size === 0 && !isRead(req) && this.#outside.some((serves) => serves(req.path))) return wrongMethod(req, res, next, READS);
        // A route for every method (/mcp) answers for itself; no route at all: Nest's 404.
        if (methods.size === 0 || methods.has('ALL')) return void handler(req, res, next);
        wrongMethod(req, res, next, allowOf(methods));
      });
    };
    return (super.setNotFoundHandler as (...a: unknown[]) => unknown)(notFound, prefix, excludedRoutes);
  }

  /** The methods of the routes whose path matches the request's, matched by Express as the routes were. */
  #methodsOf(req: Request, res: Response, then: (methods: Set<string>) => void): void {
    if (this.#probe === undefined) {
      const probe = express.Router();
      for (const [path, methods] of this.#routes) {
        probe.all(path, (r: Request, _res: Response, next: NextFunction) => {
          for (const m of methods) this.#found.get(r)?.add(m);
          next();
        });
      }
      this.#probe = probe;
    }
    const found = new Set<string>();
    this.#found.set(req, found);
    this.#probe(req, res, () => {
      this.#found.delete(req);
      then(found);
    });
  }
}
