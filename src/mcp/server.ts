/**
 * One MCP server over the tool list (tools.ts), for any transport. The SDK's low-level Server is used
 * instead of McpServer so that bad arguments get a Russian tool error (isError) naming the argument
 * and the known ones, and a malformed request (tools/call, tools/list, initialize) a Russian protocol
 * error (-32602) from the transport's check (CheckedTransport), instead of the SDK's English ones.
 * Every call goes to the hub's audit through HubApi.recordToolCall: the stdio server posts it (POST /audit,
 * channel mcp_stdio), the hub's own endpoint records it in process (channel mcp).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
  type CallToolResult,
  type JSONRPCRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { clip, clipWithin, escapeUnstorable, illFormedStrings, isNonBlank, LONE_SURROGATE_DETAIL, NUL_DETAIL, nulStrings, withUnstorableEscaped } from '../common/index.js';
import { fitAnswer, fitDetail } from './answer-size.js';
import { FENCE_NOTE, fenced } from './fence.js';
import { HubError, type AuditCall, type HubApi } from './hub-api.js';
import type { ToolContext, ToolDef } from './tool.js';
import type { ReadOnlySource } from './mode.js';
import { selectTools, TOOLS, type ToolSelection } from './tools.js';
import { argumentErrors, russian } from './zod-ru.js';

export { argumentErrors } from './zod-ru.js';

export const SERVER_NAME = 'jira-hub';
export const MCP_VERSION = '0.2.0';

export interface McpServerOptions {
  /** list and run only the tools of the groups read and plan (HUB_MCP_READ_ONLY=1) */
  readOnly: boolean;
  /** what set read-only mode (default: HUB_MCP_READ_ONLY), named when a tool is refused */
  readOnlyFrom?: ReadOnlySource;
  /** HUB_MCP_TOOLS: tool names and groups (undefined: every tool) */
  tools?: string[];
  version: string;
  /** told of every tool call in progress (stdio waits for them before it closes) */
  track?: (call: Promise<unknown>) => void;
}

/** What an error answer says when its findings do not all fit: the call again, with those shown fixed. */
const RETRY = 'исправьте показанные и повторите вызов — он назовёт остальные';
const PLAN_PAGES = 'все замечания по командам покажет plan_batch с теми же командами, частями (offset, limit)';
/**
 * The hub's refusals whose detail may repeat Jira's text (catalogue names, a summary): fenced as data. Not
 * `conflict`: those a tool meets (a retry of a command that did not fail, a revert of a batch not finished or
 * reverted already, nothing to revert) are the hub's own words and advice, which a model reads as data
 * inside the fence (decision 1437); the one naming Jira's values, a stale revert's approval, is a person's.
 */
const JIRA_TEXT_ERRORS = new Set(['plan_failed', 'duplicate_summary']);
/** The catalogue lookups' «not found» lists what Jira has (boards, issue types): fenced as data too. */
const isJiraTextError = (tool: string, code: string) => JIRA_TEXT_ERRORS.has(code) || (code === 'not_found' && tool.startsWith('jira_'));
/** How much of a name a model sent an answer repeats. */
const NAME_SHOWN = 100;
/** The longest tool name POST /audit takes (AuditCallDto.tool); a longer one is recorded clipped, saying so. */
const AUDIT_TOOL_CAP = 100;

/** An error answer: its detail under the cap (answer-size.ts), as the text and in the data. */
function failure(error: string, detail: string, how = RETRY, total?: number, extra: Record<string, unknown> = {}, quote?: (text: string) => string): CallToolResult {
  const fitted = fitDetail(detail, how, total, undefined, quote);
  return { isError: true, content: [{ type: 'text', text: fitted }], structuredContent: { error, detail: fitted, ...extra } };
}

/** How many of a refusal's findings its data carries (each a few hundred characters: the answer stays under the cap). */
const FINDINGS_DATA = 50;

/** What an error answer's data looks like (every tool's outputSchema admits it beside its own shape). */
const ERROR_SCHEMA = {
  type: 'object',
  properties: {
    error: { type: 'string' },
    detail: { type: 'string' },
    status: { type: 'number' },
    findings: { type: 'array', items: { type: 'object' }, description: 'a refused plan: its findings (seq, param, code, detail, suggestion), the first 50' },
    findings_total: { type: 'number' },
    batch_id: { type: 'number', description: 'the batch the refused call was about (a refused command\'s), when the hub knows it' },
  },
  required: ['error', 'detail'],
};

const jsonSchema = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/**
 * Once per tool for the process: a server is made for every request over HTTP (mcp.controller.ts), and
 * each tools/list described every tool's schemas anew.
 */
function perTool<T>(make: (t: ToolDef) => T): (t: ToolDef) => T {
  const made = new WeakMap<ToolDef, T>();
  return (t) => {
    if (!made.has(t)) made.set(t, make(t));
    return made.get(t)!;
  };
}

/** A tool's arguments as a strict object, whatever its file wrote: an unknown argument is refused naming the known ones. */
const inputOf = perTool((t) => t.input.strict());
/** A tool that does not say what its data is still has an outputSchema: an object. */
const ANY_OBJECT = z.looseObject({});

const describe = perTool((t): Tool => {
  const output = { type: 'object' as const, anyOf: [jsonSchema(t.output ?? ANY_OBJECT), ERROR_SCHEMA] };
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(inputOf(t)) as Tool['inputSchema'],
    outputSchema: output as Tool['outputSchema'],
    annotations: { title: t.title, readOnlyHint: !t.writes, destructiveHint: t.name.startsWith('cancel_'), openWorldHint: false },
  };
});

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** The batch a call touched: the one it names, or the one its answer is (or holds the command). */
function batchOf(args: unknown, data: unknown): number | null {
  const a = (args ?? {}) as Record<string, unknown>;
  const d = (data ?? {}) as Record<string, unknown>;
  // A call that made a batch (revert_batch, apply_package: `batch` in the answer) touched that one.
  const made = num(((d.batch ?? null) as Record<string, unknown> | null)?.id);
  return made ?? num(a.batch_id) ?? num(d.batch_id) ?? (typeof d.title === 'string' ? num(d.id) : null);
}

async function run(api: HubApi, selection: ToolSelection, name: string, args: unknown, context: ToolContext): Promise<CallToolResult> {
  const t = selection.enabled.find((x) => x.name === name);
  if (!t) {
    const reason = selection.refused.get(name);
    if (reason) return failure('tool_unavailable', reason);
    return failure('unknown_tool', `инструмента ${clip(name, NAME_SHOWN)} нет; доступны: ${selection.enabled.map((x) => x.name).join(', ')}`);
  }
  const unstorable = unstorableStrings(args);
  let parsed = unstorable.length ? undefined : inputOf(t).safeParse(args ?? {}, { error: russian, reportInput: false });
  // Only the commands' params refused (each command an object of a known type): the hub's checks name
  // every finding of every command at once, by seq (ToolDef.lenient).
  if (parsed && !parsed.success && t.lenient && parsed.error.issues.every((i) => i.path[0] === t.lenient!.under && i.path[2] === 'params')) {
    const lenient = t.lenient.input.safeParse(args ?? {}, { error: russian, reportInput: false });
    if (lenient.success) parsed = lenient;
  }
  if (!parsed?.success) {
    const problems = parsed ? argumentErrors(parsed.error) : unstorable;
    return failure('invalid_arguments', `неверные аргументы ${name}: ${problems.join('; ')}`, RETRY, problems.length);
  }
  try {
    const answer = fitAnswer(await t.run(api.forTool(name), parsed.data as never, context));
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.data as Record<string, unknown> };
  } catch (err) {
    if (err instanceof HubError) {
      // A refused batch: its dry run lists the same findings, command by command, page by page.
      const how = name === 'submit_batch' && selection.enabled.some((x) => x.name === 'plan_batch') ? PLAN_PAGES : RETRY;
      // The findings as data too (seq, param, code, suggestion), the first FINDINGS_DATA of them: the text lists them within the cap.
      const findings = err.items ? { findings: err.items.slice(0, FINDINGS_DATA), findings_total: err.items.length } : {};
      // The batch a refused call on a command was about (HubError.about): the audit records the call on it (batchOf).
      const batch = err.batchId === undefined ? {} : { batch_id: err.batchId };
      return failure(err.code, err.detail, how, err.findings, { status: err.status, ...findings, ...batch }, isJiraTextError(name, err.code) ? fenced : undefined);
    }
    return failure('internal', `внутренняя ошибка MCP-сервера хаба: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The strings of a call's arguments no database can hold (a lone UTF-16 surrogate, U+0000), refused for
 * every tool alike, with the REST validation's words: the hub's JSON routes refuse them, and a CSV text,
 * a query or a header would otherwise carry them changed (U+FFFD) or as they are.
 */
function unstorableStrings(args: unknown): string[] {
  const found = new Map<string, string>();
  for (const path of illFormedStrings(args)) found.set(path, LONE_SURROGATE_DETAIL);
  for (const path of nulStrings(args)) if (!found.has(path)) found.set(path, NUL_DETAIL);
  return [...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, detail]) => `${path || 'аргументы'}: ${detail}`);
}

/**
 * A tool call as the audit records it. POST /audit refuses a lone surrogate and U+0000 as every route
 * does (decision 0102), and a call refused for them is audited like any other: such characters are
 * written as \uXXXX in its name, arguments and detail (decision 0110). A name longer than the route takes
 * (an unknown tool's) is recorded clipped, the note of what was left out within the cap.
 */
function auditCall(name: string, args: unknown, result: CallToolResult): AuditCall {
  const data = result.structuredContent as Record<string, unknown> | undefined;
  const code = String(data?.error ?? '');
  return {
    // POST /audit refuses a blank name: a blank one a model called is recorded as its JSON string (" \t").
    tool: clipWithin(escapeUnstorable(isNonBlank(name) ? name : JSON.stringify(name)), AUDIT_TOOL_CAP),
    arguments: withUnstorableEscaped(args ?? {}),
    outcome: result.isError ? (isNonBlank(code) ? code : 'error') : 'ok',
    detail: result.isError ? escapeUnstorable(String(data?.detail ?? '')) : undefined,
    batch_id: batchOf(args, data),
  };
}

/**
 * A tool call: its answer, reported to the hub's audit (a failing report never fails the call). Not
 * through forTool: the tool's header is for the REST calls a tool makes, and a header cannot carry every
 * name a model may call (an unknown tool's Cyrillic name made the report fail before it was sent).
 */
export async function callTool(api: HubApi, selection: ToolSelection, name: string, args: unknown, context: ToolContext): Promise<CallToolResult> {
  const result = await run(api, selection, name, args, context);
  await Promise.resolve()
    .then(() => api.recordToolCall(auditCall(name, args, result)))
    .catch(() => undefined);
  return result;
}

/** What the server tells a model first: only about the tools it serves. */
export function instructions(enabled: ToolDef[]): string {
  const has = (n: string) => enabled.some((t) => t.name === n);
  const parts = ['Jira Hub: очередь идемпотентных команд для Jira; в Jira их пишет агент по одной команде с паузами.'];
  const look = ['search_issues', 'get_issue', 'get_batch', 'list_batches', 'agent_status'].filter(has);
  if (look.length) parts.push(`Смотреть зеркало Jira и пакеты: ${look.join(', ')}.`);
  if (has('plan_batch')) parts.push('Проверить план пакета без записи: plan_batch.');
  if (has('submit_batch')) parts.push('Отправить пакет: submit_batch; пакеты ассистента ждут одобрения человека в панели хаба, если оно включено в настройках хаба (по умолчанию — да), а plan_batch заранее говорит, будет ли ждать пакет.');
  if (!enabled.some((t) => t.writes)) parts.push('Этот сервер работает только на чтение: ничего в хабе он не меняет.');
  parts.push(FENCE_NOTE);
  return parts.join(' ');
}

/** tools/call as it arrives (checked by CheckedTransport): registered past Server's own check, which answers in English. */
const RawCallRequest = z.object({ method: z.literal('tools/call'), params: z.object({ name: z.string(), arguments: z.unknown().optional() }) });

/** The SDK's schemas of the other requests the server answers, checked before the SDK's own parse (-32603 with zod's English). */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = { initialize: InitializeRequestSchema, 'tools/list': ListToolsRequestSchema, ping: PingRequestSchema };

/** What is wrong with a request's params, in Russian (undefined: nothing this server checks). */
function requestProblem(request: JSONRPCRequest): string | undefined {
  if (request.method === 'tools/call') {
    const p = (request.params ?? {}) as { name?: unknown; arguments?: unknown };
    if (typeof p.name !== 'string' || p.name === '') return 'tools/call: не передано имя инструмента (params.name); список инструментов — tools/list';
    if (p.arguments !== undefined && (typeof p.arguments !== 'object' || p.arguments === null || Array.isArray(p.arguments))) {
      return `tools/call ${clip(p.name, NAME_SHOWN)}: params.arguments — объект с аргументами инструмента`;
    }
    return undefined;
  }
  const schema = REQUEST_SCHEMAS[request.method];
  const parsed = schema?.safeParse(request, { error: russian, reportInput: false });
  return parsed && !parsed.success ? fitDetail(`${request.method}: неверные параметры: ${argumentErrors(parsed.error).join('; ')}`, RETRY) : undefined;
}

/** The requests this server answers (the rest would get the SDK's English «Method not found»). */
const ANSWERED = ['initialize', 'ping', 'tools/list', 'tools/call'];

/** A request refused before the server reads it, as its JSON-RPC error: a method the server has not (-32601), malformed params (-32602). */
function requestRefusal(request: JSONRPCRequest): { code: number; message: string } | undefined {
  if (!ANSWERED.includes(request.method)) {
    return { code: ErrorCode.MethodNotFound, message: `метода ${clip(request.method, NAME_SHOWN)} у этого MCP-сервера нет: он отвечает на ${ANSWERED.join(', ')} (только инструменты, без ресурсов и подсказок)` };
  }
  const problem = requestProblem(request);
  return problem === undefined ? undefined : { code: ErrorCode.InvalidParams, message: problem };
}

/**
 * A transport whose requests are checked before the server reads them: a method the server has not is
 * answered -32601, a malformed request (tools/call without a name, tools/list with a cursor that is not
 * a string, initialize without its params) -32602, in Russian here, on either transport.
 */
class CheckedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    // A handler the transport already had goes on being called, as the SDK's Protocol.connect keeps it.
    const before = inner.onerror;
    inner.onerror = (error) => {
      before?.(error);
      this.onerror?.(error);
    };
    inner.onmessage = (message, extra) => {
      const refusal = isJSONRPCRequest(message) ? requestRefusal(message) : undefined;
      if (refusal === undefined) return this.onmessage?.(message, extra);
      const id = (message as JSONRPCRequest).id;
      inner.send({ jsonrpc: '2.0', id, error: refusal }, { relatedRequestId: id }).catch((error: Error) => this.onerror?.(error));
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion = (version: string): void => this.inner.setProtocolVersion?.(version);
  start = (): Promise<void> => this.inner.start();
  send: Transport['send'] = (message, options) => this.inner.send(message, options);
  close = (): Promise<void> => this.inner.close();
}

/** The SDK's Server with every transport it connects to checked (CheckedTransport). */
class HubServer extends Server {
  override connect(transport: Transport): Promise<void> {
    return super.connect(new CheckedTransport(transport));
  }
}

/**
 * The SDK's Server checks JSON Schemas only for elicitation, which the hub never asks for, yet each
 * server made its own Ajv (milliseconds of CPU per HTTP request): one for the process, made on first use.
 */
let ajv: AjvJsonSchemaValidator | undefined;
const SCHEMA_VALIDATOR: jsonSchemaValidator = { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };

/** A server answering tools/list and tools/call over `api`; connect it to a transport. */
export function createMcpServer(api: HubApi, options: McpServerOptions): Server {
  const selection = selectTools(options.readOnly, options.tools, TOOLS, options.readOnlyFrom);
  const context: ToolContext = { canSubmit: selection.enabled.some((t) => t.name === 'submit_batch'), dashboard: api.dashboard };
  const server = new HubServer(
    { name: SERVER_NAME, version: options.version },
    { capabilities: { tools: {} }, instructions: instructions(selection.enabled), jsonSchemaValidator: SCHEMA_VALIDATOR },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: selection.enabled.map(describe) }));
  Protocol.prototype.setRequestHandler.call(server, RawCallRequest as never, ((request: z.output<typeof RawCallRequest>) => {
    const call = callTool(api, selection, request.params.name, request.params.arguments, context);
    options.track?.(call);
    return call;
  }) as never);
  return server;
}
