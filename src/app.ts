import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppModule } from './app.module.js';
import { Meter } from './metrics/meter.js';
import type { Clock } from './common/clock.js';
import type { HubConfig } from './common/config.js';
import { answerClientError } from './common/client-errors.js';
import { errorBody, statusOf } from './common/error.filter.js';
import { HubLogger, NEST_LEVELS } from './common/hub-logger.js';
import { hasBody, MAX_JSON_DEPTH, nestsDeeperThan } from './common/request-body.js';
import { BadJsonError, PayloadTooLargeError } from './common/errors.js';
import { createValidationPipe } from './common/validation.js';
import { assertWritableDatabase } from './database/writable.js';
import openApiMetadata from './openapi-metadata.js';

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
 * Body-parser failures (malformed JSON, too large, an unknown charset or compression) in the spec's
 * error body, before any route runs: past this point Nest would wrap them into generic HTTP errors
 * and their kind would be lost.
 */
function bodyErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const type = (err as { type?: string })?.type;
  if (type === undefined) return next(err);
  const known = type === 'entity.too.large' ? new PayloadTooLargeError() : new BadJsonError(BODY_FAILURES[type] ?? 'тело запроса не удалось прочитать');
  res.status(statusOf(known.code)).json(errorBody(known));
}

/**
 * A JSON body nested deeper than MAX_JSON_DEPTH is refused before any route transforms it (its
 * recursion would overflow the stack and answer 500).
 */
function shallowJsonOnly(req: Request, res: Response, next: NextFunction): void {
  if (!nestsDeeperThan(req.body, MAX_JSON_DEPTH)) return next();
  const error = new BadJsonError(`JSON вложен глубже ${MAX_JSON_DEPTH} уровней; хаб такие тела не принимает`);
  res.status(statusOf(error.code)).json(errorBody(error));
}

/** JSON media types the parsers read (SPEC 11.1: JSON in); `application/*+json` too. */
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * A body that is not JSON is refused with 400 `bad_json` (SPEC 11.1) instead of being read as no
 * body at all, which would let a `PATCH /settings` sent as text/plain answer 200 with nothing done.
 * POST /import takes multipart/form-data and answers for itself.
 */
function jsonBodiesOnly(req: Request, res: Response, next: NextFunction): void {
  // An empty body (POST /batches/1/cancel without one, say) is no body.
  if (!hasBody(req) || /^\/import\/?$/i.test(req.path) || req.is(JSON_TYPES)) return next();
  const error = new BadJsonError(`тело запроса должно быть JSON с заголовком Content-Type: application/json, а пришло ${req.headers['content-type'] ?? 'без Content-Type'}`);
  res.status(statusOf(error.code)).json(errorBody(error));
}

/**
 * The Swagger document at /docs (JSON at /docs/json), built when first asked. Property types, optionality,
 * descriptions and examples of the DTOs and views come from src/openapi-metadata.ts, which
 * scripts/openapi-metadata.js generates with @nestjs/swagger's plugin (its transformer does not run in this
 * ESM build); the routes keep their own decorators.
 */
async function swagger(app: INestApplication): Promise<void> {
  await SwaggerModule.loadPluginMetadata(openApiMetadata);
  const doc = new DocumentBuilder()
    .setTitle('Jira Hub')
    .setDescription(
      'Queues idempotent Jira commands and hands them, one at a time and at a human pace, to one agent. ' +
        'Client routes take the client token, /agent/* the agent token; the assistant token opens the routes marked assistant ' +
        '(read, plan, submit, cancel queued commands, retry, notes, import) but never approve, reject, settings changes or force-cancel.',
    )
    .setVersion('1')
    // addSecurity, not addBearerAuth: that one adds `bearerFormat: JWT`, and the hub's tokens are opaque strings.
    .addSecurity('client', { type: 'http', scheme: 'bearer', description: 'HUB_CLIENT_TOKEN' })
    .addSecurity('agent', { type: 'http', scheme: 'bearer', description: 'HUB_AGENT_TOKEN' })
    .addSecurity('assistant', { type: 'http', scheme: 'bearer', description: 'HUB_ASSISTANT_TOKEN' })
    .build();
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, doc), { jsonDocumentUrl: 'docs/json' });
}

export interface AppOptions {
  clock?: Clock;
  /** Nest's own logger; tests pass false */
  logger?: boolean;
}

/** The hub as an initialized (not yet listening) Nest application: migrations have run. */
export async function createApp(config: HubConfig, options: AppOptions = {}): Promise<NestExpressApplication> {
  // Before Nest starts: a read-only database folder is one clear line, not a logged stack trace.
  assertWritableDatabase(config.dbPath);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options.clock), {
    bodyParser: false,
    // A failed start (a bad database, say) rejects here instead of ending the process.
    abortOnError: false,
    // Closing must not wait for idle keep-alive connections (an agent's aborted long poll leaves one).
    forceCloseConnections: true,
    logger: options.logger === false ? false : new HubLogger({ logLevels: NEST_LEVELS[config.logLevel] }),
  });
  app.getHttpServer().on('clientError', answerClientError);
  app.use(app.get(Meter).httpTimer());
  // The agent's path stays lean (SPEC 6): no ETag hashing of every JSON answer (nothing here is
  // cached by validators), no X-Powered-By header.
  app.set('etag', false);
  app.disable('x-powered-by');
  app.use(jsonBodiesOnly);
  app.use(['/agent/commands', '/import'], express.json({ limit: LARGE_BODY_LIMIT, type: JSON_TYPES }));
  app.use(express.json({ limit: BODY_LIMIT, type: JSON_TYPES }));
  app.use(bodyErrors);
  app.use(shallowJsonOnly);
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  await swagger(app);
  await app.init();
  return app;
}
