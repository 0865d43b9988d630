import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppModule } from './app.module.js';
import { Meter } from './metrics/index.js';
import type { Clock, HubConfig } from './common/index.js';
import {
  answerClientError,
  BadJsonError,
  BadRequestError,
  createValidationPipe,
  errorBody,
  ForbiddenError,
  foreignRequest,
  hasBody,
  HubLogger,
  MAX_JSON_DEPTH,
  NEST_LEVELS,
  nestsDeeperThan,
  PayloadTooLargeError,
  securityHeaders,
  sliceElapsed,
  statusOf,
} from './common/index.js';
import { dashboardServes } from './dashboard.js';
import { assertDatabaseUsable } from './database/index.js';
import { DrainingAdapter } from './drain.js';
import { answerRpcError, assertMcpToolsKnown, INVALID_REQUEST, isMcpRequest, PARSE_ERROR } from './mcp/index.js';

/** Body limits of SPEC 11.1. */
export const BODY_LIMIT = '5mb';
export const LARGE_BODY_LIMIT = '10mb';

/** What a body-parser failure tells the person, by the failure's `type`; too large is its own error. */
const BODY_FAILURES: Record<string, string> = {
  'entity.parse.failed': 'тело запроса не является корректным JSON',
  'charset.unsupported': 'тело запроса должно быть в кодировке UTF-8',
  'encoding.unsupported': 'тело запроса сжато неподдерживаемым способом (Content-Encoding); поддерживаются gzip, deflate, br или без сжатия',
};

/**
 * A body that is JSON but not an object or an array (`null`, `"text"`, `42`), which the strict parser
 * refuses as it refuses malformed JSON: said as what it is, not as broken JSON.
 */
function notAnObject(err: unknown): string | undefined {
  const { type, body } = err as { type?: string; body?: unknown };
  if (type !== 'entity.parse.failed' || typeof body !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return value === null || typeof value !== 'object' ? `тело запроса — JSON, но не объект: нужен объект {…}, а пришло ${value === null ? 'null' : typeof value === 'string' ? 'строка' : typeof value === 'number' ? 'число' : 'true/false'}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A compressed body zlib or brotli could not unpack (corrupt, cut short, or compressed another way than
 * its Content-Encoding says): body-parser passes their error on as it is, with a 400 status and no `type`.
 */
function undecompressed(err: unknown, req: Request): boolean {
  const { status, errno } = (err ?? {}) as { status?: number; errno?: unknown };
  return status === 400 && typeof errno === 'number' && req.headers['content-encoding'] !== undefined;
}

/** Routes taking a batch's commands, where a body too large has a way out: fewer commands per batch. */
const BATCH_ROUTES = /^\/batches(\/plan)?\/?$/i;
/** The agent's report, where a refresh's result too large has a way out: parts (SPEC 15.5). */
const REPORT_ROUTE = /^\/agent\/commands\/[^/]+\/result\/?$/i;

/**
 * A body over the route's limit (BODY_LIMIT or LARGE_BODY_LIMIT, which body-parser passes on in bytes): the 413
 * names it, and for a batch says what to do (an assistant's batch reaches it through `submit_batch` as well).
 */
function tooLarge(err: unknown, req: Request): PayloadTooLargeError {
  const limit = (err as { limit?: unknown }).limit;
  if (typeof limit !== 'number') return new PayloadTooLargeError();
  // POST /mcp: an assistant's submit_batch or plan_batch is the large body there.
  const mb = Math.round(limit / 1024 / 1024);
  const split = BATCH_ROUTES.test(req.path) || isMcpRequest(req)
    ? '; разделите команды на несколько пакетов поменьше'
    : REPORT_ROUTE.test(req.path)
      ? `; большой результат refresh присылайте частями меньше ${mb} МБ: отчёты со status «partial» и part 1, 2, … (в result — issues и links части), затем done`
      : '';
  return new PayloadTooLargeError(`тело запроса больше ${mb} МБ: хаб такие не принимает${split}`);
}

/**
 * Body-parser failures (malformed JSON, too large, an unknown charset or compression) in the spec's
 * error body, before any route runs: past this point Nest would wrap them into generic HTTP errors
 * and their kind would be lost.
 */
function bodyErrors(err: unknown, req: Request, res: Response, next: NextFunction): void {
  const type = (err as { type?: string })?.type ?? (undecompressed(err, req) ? 'encoding.failed' : undefined);
  if (type === undefined) return next(err);
  const encoding = String(req.headers['content-encoding']);
  const failure = type === 'encoding.failed' ? `тело запроса не удалось распаковать (Content-Encoding: ${encoding.slice(0, 100)}): данные повреждены или сжаты другим способом` : BODY_FAILURES[type];
  const known = type === 'entity.too.large' ? tooLarge(err, req) : new BadJsonError(notAnObject(err) ?? failure ?? 'тело запроса не удалось прочитать');
  if (isMcpRequest(req)) return answerRpcError(res, statusOf(known.code), type === 'entity.too.large' ? INVALID_REQUEST : PARSE_ERROR, known.detail);
  res.status(statusOf(known.code)).json(errorBody(known));
}

/**
 * A JSON body nested deeper than MAX_JSON_DEPTH is refused before any route transforms it (its
 * recursion would overflow the stack and answer 500). So is a JSON array where every route takes an
 * object ({…}), as `42` or `null` are (notAnObject), before a route's validation reads its items as
 * fields («0: неизвестное поле»); /mcp takes a list of JSON-RPC messages and answers for itself.
 */
function shallowJsonOnly(req: Request, res: Response, next: NextFunction): void {
  // A large body's walks, validation and unit of work are sliced (common/turns.ts): the turn's slice counts from here.
  sliceElapsed();
  const mcp = isMcpRequest(req);
  const deep = nestsDeeperThan(req.body, MAX_JSON_DEPTH);
  if (!deep && (mcp || !Array.isArray(req.body))) return next();
  const error = new BadJsonError(deep ? `JSON вложен глубже ${MAX_JSON_DEPTH} уровней; хаб такие тела не принимает` : 'тело запроса — JSON, но не объект: нужен объект {…}, а пришёл список […]');
  if (mcp) return answerRpcError(res, statusOf(error.code), INVALID_REQUEST, error.detail);
  res.status(statusOf(error.code)).json(errorBody(error));
}

/** JSON media types the parsers read (SPEC 11.1: JSON in); `application/*+json` too. */
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * A body that is not JSON is refused with 400 `bad_json` (SPEC 11.1) instead of being read as no
 * body at all, which would let a `PATCH /settings` sent as text/plain answer 200 with nothing done.
 * POST /import and POST /packages/plan|apply take multipart/form-data and answer for themselves.
 */
const MULTIPART_ROUTES = /^\/(import|packages\/(plan|apply))\/?$/i;

const isRead = (req: Request): boolean => req.method === 'GET' || req.method === 'HEAD';

/**
 * A GET (or HEAD) with a body is refused with 400 `bad_request`: no route reads it, so a filter sent there
 * (`{"status": "queued"}`) would silently answer the whole list; and a text one would hear «JSON, please».
 * An empty JSON object, which some clients attach to every request, carries nothing and passes.
 */
function noBodyOnReads(req: Request, res: Response, next: NextFunction): void {
  const empty = req.is(JSON_TYPES) && typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) && Object.keys(req.body).length === 0;
  if (!isRead(req) || !hasBody(req) || empty) return next();
  const error = new BadRequestError(`тело у запроса ${req.method} хаб не читает: параметры передают в строке запроса, например GET /batches?status=queued; уберите тело`);
  if (isMcpRequest(req)) return answerRpcError(res, statusOf(error.code), INVALID_REQUEST, error.detail);
  res.status(statusOf(error.code)).json(errorBody(error));
}

function jsonBodiesOnly(req: Request, res: Response, next: NextFunction): void {
  // An empty body (POST /batches/1/cancel without one, say) is no body.
  // A read's body, whatever its type, is noBodyOnReads's to refuse.
  if (!hasBody(req) || isRead(req) || MULTIPART_ROUTES.test(req.path) || req.is(JSON_TYPES)) return next();
  const error = new BadJsonError(`тело запроса должно быть JSON с заголовком Content-Type: application/json, а пришло ${req.headers['content-type'] ?? 'без Content-Type'}`);
  if (isMcpRequest(req)) return answerRpcError(res, statusOf(error.code), PARSE_ERROR, error.detail);
  res.status(statusOf(error.code)).json(errorBody(error));
}

/**
 * A request from a page that is not the hub's own — a foreign Host (DNS rebinding) or a foreign Origin —
 * is refused with 403 before its body is read (issue 27, common/site.ts). `POST /mcp` refuses with the same
 * rule and words as a JSON-RPC error, which MCP clients read (mcp.controller.ts).
 */
function ownPagesOnly(config: HubConfig): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (req.method === 'POST' && /^\/mcp\/?$/i.test(req.path)) return next();
    const detail = foreignRequest(config, req.socket.localPort ?? config.port, req.headers.host, req.headers.origin);
    if (detail === undefined) return next();
    const error = new ForbiddenError(detail);
    res.status(statusOf(error.code)).json(errorBody(error));
  };
}

/** How to write a `%`-escape, said after each refusal of a broken one. */
const ESCAPE_HINT = 'после % идут две шестнадцатеричные цифры байта в UTF-8 (пробел — %20, «А» — %D0%90, сам знак % — %25)';

const decodes = (text: string): boolean => {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};

const shown = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/**
 * A path with a `%` that does not start a valid escape (`/batches/%ZZ`), or whose escapes are not UTF-8
 * (`%C0%AF`), is refused with 400 `bad_request` saying so, before any route: Express would fail to
 * decode its parameters and Nest would answer a vague 422 (SPEC 11.1: a clear 4xx). So is such a query
 * parameter: the query parser would read `q=%EE%F2%F7` (Windows-1251) as U+FFFD, a search matching every issue.
 */
function decodableUrlOnly(req: Request, res: Response, next: NextFunction): void {
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
  const badPath = req.path.includes('%') && !decodes(req.path);
  const badParameter = badPath || !query.includes('%') ? undefined : query.split('&').find((part) => !decodes(part));
  if (!badPath && badParameter === undefined) return next();
  const where = badPath ? `в пути запроса «${shown(req.path)}»` : `в параметре запроса «${shown(badParameter ?? '')}»`;
  const error = new BadRequestError(`${where} неверная %-последовательность: ${ESCAPE_HINT}`);
  res.status(statusOf(error.code)).json(errorBody(error));
}

/**
 * /docs, /docs/json and /docs/yaml (Swagger UI and the OpenAPI document): src/docs.ts is loaded on the
 * first request there and the document built on the first GET, not at start (issue 9: start < 1.5 s). The
 * middleware stands where SwaggerModule.setup used to register its routes; another method than GET or HEAD
 * on one of them is the docs router's 405.
 */
function lazyDocs(app: INestApplication): (req: Request, res: Response, next: NextFunction) => void {
  let router: Promise<(req: Request, res: Response, next: NextFunction) => void> | undefined;
  return (req, res, next) => {
    if (!/^\/docs(\/|$)/i.test(req.path)) return next();
    router ??= import('./docs.js').then((m) => m.docsRouter(app));
    router.then((handle) => handle(req, res, next), next);
  };
}

/**
 * The OpenAPI YAML's old address, `/docs-yaml` (before it moved beside /docs/json): a permanent redirect
 * (308, the method and body kept; the query too) to `/docs/yaml`, so that scripts written for it go on
 * working. Handled here, not in the docs router, so that a redirect loads no Swagger.
 */
function oldDocsYaml(req: Request, res: Response, next: NextFunction): void {
  if (!/^\/docs-yaml$/i.test(req.path)) return next();
  const query = req.url.indexOf('?');
  res.redirect(308, `/docs/yaml${query < 0 ? '' : req.url.slice(query)}`);
}

export interface AppOptions {
  clock?: Clock;
  /** Nest's own logger; tests pass false */
  logger?: boolean;
  /** How long a stop lets the requests in flight finish (DRAIN_MS); tests pass a short one. */
  drainMs?: number;
}

/** The hub as an initialized (not yet listening) Nest application: migrations have run. */
export async function createApp(config: HubConfig, options: AppOptions = {}): Promise<NestExpressApplication> {
  // Before Nest starts and before the database is opened (or made): a HUB_MCP_TOOLS naming no tool, an
  // odd or read-only database path, an unreachable server, is one clear line, not a logged stack trace.
  await assertMcpToolsKnown(config);
  await assertDatabaseUsable(config);
  // Closing drains the requests in flight, within a bound (drain.ts, decision 1429).
  const adapter = new DrainingAdapter(options.drainMs);
  // The dashboard's files are served outside Nest's router: another method than GET or HEAD there is a 405 too.
  adapter.readsOutside(dashboardServes);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options.clock), adapter, {
    bodyParser: false,
    // A failed start (a bad database, say) rejects here instead of ending the process.
    abortOnError: false,
    logger: options.logger === false ? false : new HubLogger({ logLevels: NEST_LEVELS[config.logLevel] }),
  });
  app.getHttpServer().on('clientError', answerClientError);
  app.use(app.get(Meter).httpTimer());
  app.use(securityHeaders());
  app.use(ownPagesOnly(config));
  app.use(decodableUrlOnly);
  // The agent's path stays lean (SPEC 6): no ETag hashing of every JSON answer (nothing here is
  // cached by validators), no X-Powered-By header.
  app.set('etag', false);
  app.disable('x-powered-by');
  app.use(jsonBodiesOnly);
  app.use(['/agent/commands', '/import', '/packages'], express.json({ limit: LARGE_BODY_LIMIT, type: JSON_TYPES }));
  app.use(express.json({ limit: BODY_LIMIT, type: JSON_TYPES }));
  app.use(bodyErrors);
  app.use(noBodyOnReads);
  app.use(shallowJsonOnly);
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  app.use(oldDocsYaml);
  app.use(lazyDocs(app));
  try {
    await app.init();
  } catch (err) {
    // A module that refuses the start comes after the database's connections and the LISTEN connection
    // were opened: closed here, or they would outlive the refusal.
    await app.close().catch(() => undefined);
    throw err;
  }
  return app;
}
