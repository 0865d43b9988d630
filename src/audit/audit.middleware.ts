import { Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { roleOf } from '../common/index.js';
import { BatchesService } from '../queue/index.js';
import { AuditService } from './audit.service.js';

/** The header the MCP server sends with the tool a REST call is made for (src/mcp/http-hub-api.ts). */
const TOOL_HEADER = 'x-hub-mcp-tool';
/** Routes the audit leaves out: its own, and /mcp (each tool call is recorded whole, channel mcp: McpController). */
const SKIPPED = /^\/(audit|mcp)(\/|$)/i;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** POST routes that change nothing (the dry runs): reads, as a GET is, for the rule of the tool header. */
const DRY_RUNS = /^\/(batches\/plan|packages\/plan|packages\/\d+\/plan)\/?$/i;

/**
 * A call that changes nothing: a GET or HEAD, or a dry run (`POST /batches/plan`, a revert's `?dry_run=true`…),
 * or an import without a notes file (`files`: the uploaded fields) — links are only compared with the mirror
 * (compare_package).
 */
export function readsOnly(method: string, path: string, query: Record<string, unknown>, files?: Record<string, unknown>): boolean {
  if (method === 'GET' || method === 'HEAD') return true;
  if (method !== 'POST') return false;
  if (/^\/import\/?$/i.test(path)) return files !== undefined && files.notes === undefined;
  return DRY_RUNS.test(path) || (/^\/batches\/\d+\/revert\/?$/i.test(path) && String(query.dry_run) === 'true');
}

/**
 * The batch a REST call touched: the one it made (a revert's, a package's apply: `batch` in the answer),
 * else the one in its path, or the one its answer is or belongs to.
 */
export function batchTouched(path: string, answer: unknown): number | null {
  const a = (answer ?? {}) as Record<string, unknown>;
  const made = num((a.batch as Record<string, unknown> | null | undefined)?.id);
  if (made !== null) return made;
  const inPath = /^\/batches\/(\d+)/i.exec(path);
  if (inPath) return Number(inPath[1]);
  return num(a.batch_id) ?? (/^\/batches\/?$/i.test(path) || /^\/commands\/\d+\/retry/i.test(path) ? num(a.id) : null);
}

/** The command a path is about (`/commands/5/retry`, `/commands/5/cancel`, `/commands/5`), else null. */
export function commandInPath(path: string): number | null {
  const found = /^\/commands\/(\d+)(\/|$)/i.exec(path);
  return found ? num(Number(found[1])) : null;
}

/**
 * Records every REST call with the assistant's role (issue 22) once its answer is sent: route, query and
 * body cut to a size, status and error code, the batch touched. A read made for an MCP tool (header
 * X-Hub-Mcp-Tool) — a GET, or a dry run (readsOnly) — is left to the tool call's own record; a write never is.
 */
@Injectable()
export class AuditMiddleware implements NestMiddleware {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly audit: AuditService,
    private readonly batches: BatchesService,
  ) {}

  /**
   * The batch a call touched (batchTouched); for a refused call on a command, whose answer is only
   * `{error, detail}`, the command's batch (as the MCP tools record a refused retry_command or cancel_command).
   */
  private async batchOf(path: string, answer: unknown, refused: boolean): Promise<number | null> {
    const touched = batchTouched(path, answer);
    const command = refused && touched === null ? commandInPath(path) : null;
    return command === null ? touched : ((await this.batches.batchOfCommand(command)) ?? null);
  }

  use(req: Request, res: Response, next: NextFunction): void {
    // The whole path (a middleware mounted on a path sees `req.path` relative to it).
    const path = req.originalUrl.split('?')[0];
    if (SKIPPED.test(path)) return next();
    let answer: unknown;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      answer = body;
      return json(body);
    };
    res.once('finish', () => {
      if (roleOf(req) !== 'assistant') return;
      const tool = typeof req.headers[TOOL_HEADER] === 'string' ? (req.headers[TOOL_HEADER] as string) : null;
      const files = (req as { files?: Record<string, unknown> }).files;
      if (tool && readsOnly(req.method, path, req.query as Record<string, unknown>, files)) return;
      const error = res.statusCode >= 400 ? ((answer ?? {}) as { error?: string; detail?: string }) : undefined;
      const route = `${req.method} ${(req.route as { path?: string } | undefined)?.path ?? path}`;
      this.batchOf(path, answer, error !== undefined)
        .then((batchId) =>
          this.audit.record({
            channel: 'rest',
            tool,
            route,
            arguments: { path, query: req.query, body: req.body },
            outcome: error ? (error.error ?? String(res.statusCode)) : 'ok',
            status: res.statusCode,
            detail: error?.detail ?? null,
            batch_id: batchId,
          }),
        )
        .catch((err: unknown) => this.logger.error(`the audit could not record ${route}: ${err instanceof Error ? err.message : String(err)}`));
    });
    next();
  }
}
