/**
 * One MCP server over the tool list (tools.ts), for any transport. The SDK's low-level Server is used
 * instead of McpServer so that bad arguments get a Russian tool error (isError) naming the argument,
 * instead of the SDK's English protocol error.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { HubError, type HubApi } from './hub-api.js';
import { toolsFor, type ToolDef } from './tools.js';

export const SERVER_NAME = 'jira-hub';
export const MCP_VERSION = '0.1.0';

export interface McpServerOptions {
  /** list and run only the tools that write nothing (HUB_MCP_READ_ONLY=1) */
  readOnly: boolean;
  version: string;
  /** told of every tool call in progress (stdio waits for them before it closes) */
  track?: (call: Promise<unknown>) => void;
}

const RU = z.locales.ru().localeError;

/** zod's issues in Russian, one per argument: `commands.0.type: …`. */
export function argumentErrors(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.join('.') : 'аргументы';
      const message = i.code === 'invalid_type' && i.input === undefined ? 'обязательный аргумент не передан' : i.message;
      return `${where}: ${message}`;
    })
    .join('; ');
}

const failure = (text: string, data: Record<string, unknown>): CallToolResult => ({ isError: true, content: [{ type: 'text', text }], structuredContent: data });

function describe(t: ToolDef): Tool {
  const { $schema: _, ...schema } = z.toJSONSchema(t.input, { io: 'input' }) as Record<string, unknown>;
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: schema as Tool['inputSchema'],
    annotations: { title: t.title, readOnlyHint: !t.writes, destructiveHint: t.name.startsWith('cancel_'), openWorldHint: false },
  };
}

export async function callTool(api: HubApi, tools: ToolDef[], name: string, args: unknown): Promise<CallToolResult> {
  const t = tools.find((x) => x.name === name);
  if (!t) {
    return failure(`инструмента ${name} нет; доступны: ${tools.map((x) => x.name).join(', ')}`, { error: 'unknown_tool', detail: name });
  }
  const parsed = t.input.safeParse(args ?? {}, { error: RU, reportInput: true });
  if (!parsed.success) {
    const detail = `неверные аргументы ${name}: ${argumentErrors(parsed.error)}`;
    return failure(detail, { error: 'invalid_arguments', detail });
  }
  try {
    const answer = await t.run(api, parsed.data);
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.data as Record<string, unknown> };
  } catch (err) {
    if (err instanceof HubError) return failure(err.detail, { error: err.code, detail: err.detail, status: err.status });
    const detail = `внутренняя ошибка MCP-сервера хаба: ${err instanceof Error ? err.message : String(err)}`;
    return failure(detail, { error: 'internal', detail });
  }
}

/** A server answering tools/list and tools/call over `api`; connect it to a transport. */
export function createMcpServer(api: HubApi, options: McpServerOptions): Server {
  const tools = toolsFor(options.readOnly);
  const server = new Server(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Jira Hub: очередь идемпотентных команд для Jira. Ассистент смотрит зеркало Jira (search_issues, get_issue), проверяет план (plan_batch), отправляет пакет (submit_batch) и следит за ним (get_batch). Пакеты ассистента ждут одобрения человека; в Jira их пишет агент по одной команде с паузами.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(describe) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const call = callTool(api, tools, request.params.name, request.params.arguments);
    options.track?.(call);
    return call;
  });
  return server;
}
