/**
 * The OpenAPI document and Swagger UI (/docs, /docs/json, /docs/yaml), loaded by app.ts on the first
 * request there: the document is built from the controllers' and DTOs' @nestjs/swagger decorators then,
 * not at start. SwaggerModule.setup registers its routes and static files on an Express router here
 * instead of on the app, because the app's routes are fixed once it listens; app.ts mounts the router
 * where setup used to register them, so they answer as before.
 */
import * as swagger from '@nestjs/swagger';
import type { INestApplication } from '@nestjs/common';
import express, { type RequestHandler } from 'express';
import { isFileUnder, READS, wrongMethod } from './allowed-methods.js';
import openApiMetadata from './openapi-metadata.js';
import { withCommandUnion } from './openapi-commands.js';

const { DocumentBuilder, SwaggerModule } = swagger;

/** The routes of SwaggerModule.setup('docs', app, …) on a router: the document is built on its first request. */
export async function docsRouter(app: INestApplication): Promise<express.Router> {
  // Property types, optionality, descriptions and examples of the DTOs and views: src/openapi-metadata.ts,
  // which scripts/openapi-metadata.js generates with @nestjs/swagger's plugin (its transformer does not
  // run in this ESM build); the routes keep their own decorators.
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
  const router = express.Router();
  // What setup registers, to answer another method there (wrongMethod) once its GET routes are all in.
  const pages: string[] = [];
  const assets: { root: string; prefix: string }[] = [];
  // What setup uses of the app: its HTTP adapter's get() and useStaticAssets(), as the Express adapter does them.
  const http = {
    getType: () => 'express',
    get: (path: string, handler: RequestHandler) => {
      pages.push(path);
      return router.get(path, handler);
    },
    getRequestUrl: (req: express.Request) => req.originalUrl,
  };
  const host = {
    getHttpAdapter: () => http,
    useStaticAssets: (root: string, options: { prefix: string }) => {
      assets.push({ root, prefix: options.prefix });
      return router.use(options.prefix, express.static(root, options as object));
    },
  } as unknown as INestApplication;
  SwaggerModule.setup('docs', host, () => withCommandUnion(SwaggerModule.createDocument(app, doc)), { jsonDocumentUrl: 'docs/json', yamlDocumentUrl: 'docs/yaml' });
  // A GET or HEAD is answered above; any other method on a page or an asset of the docs is a 405 (decision 1442).
  router.all(pages, (req, res, next) => wrongMethod(req, res, next, READS));
  for (const { root, prefix } of assets) {
    router.use(prefix, (req, res, next) => (req.method !== 'GET' && req.method !== 'HEAD' && isFileUnder(root, req.path) ? wrongMethod(req, res, next, READS) : next()));
  }
  return router;
}
