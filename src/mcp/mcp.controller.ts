import { All, Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { foreignRequest, HUB_CONFIG, type HubConfig, normalHost, Roles, servedHosts, servedOrigins } from '../common/index.js';
import { AuditService } from '../audit/index.js';
import { HttpHubApi } from './http-hub-api.js';
import { answerRpcError, INVALID_REQUEST, NOT_A_MESSAGE, NOT_ACCEPTABLE, SERVER_ERROR } from './json-rpc.js';
import { selfUrl } from './self-url.js';

/**
 * The MCP tools over Streamable HTTP (stateless: one server and transport per request), for the
 * assistant's token only (in open mode: open, and the tools call as the assistant). The tools
 * reach the hub through its own REST API with the caller's Authorization header, so auth,
 * validation, approval and idempotency are decided where they are for every other client; each tool
 * call is recorded in the audit here (channel mcp), as a call the hub saw.
 * The MCP SDK and the tools (with zod) load on the first MCP request, not at the hub's start (issue 9).
 */
@ApiTags('mcp')
@Roles('assistant')
@Controller('mcp')
export class McpController {
  constructor(
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly audit: AuditService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'MCP Streamable HTTP endpoint (JSON-RPC) for AI assistants: the jira-hub tools' })
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    // A foreign Host (DNS rebinding) or Origin: the hub's own rule and Russian words (common/site.ts), as a
    // JSON-RPC error since MCP clients read errors so. The SDK's transport checks the same lists again below.
    const foreign = foreignRequest(this.config, req.socket.localPort ?? this.config.port, req.headers.host, req.headers.origin);
    if (foreign !== undefined) return answerRpcError(res, 403, SERVER_ERROR, foreign);
    const api = new HttpHubApi({
      baseUrl: selfUrl(this.adapterHost.httpAdapter.getHttpServer().address()),
      authorization: req.headers.authorization,
      // People open the dashboard where the assistant reached the hub.
      dashboardUrl: `${req.protocol}://${req.get('host')}`,
      // The hub served the call: it records it itself (POST /audit is the stdio server's, a report).
      recordToolCall: (call) => this.audit.recordToolCall(call, 'mcp'),
    });
    const [{ StreamableHTTPServerTransport }, { createMcpServer, MCP_VERSION }, { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, isInitializeRequest }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('./server.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    // JSON that is no JSON-RPC message: -32600 in Russian, as over stdio (the transport would answer -32700 in English).
    // An empty list too: JSON-RPC 2.0 calls it an invalid request, not a batch of nothing (the transport answered 202).
    const messages: unknown[] = Array.isArray(req.body) ? req.body : [req.body];
    if (messages.length === 0 || !messages.every((m) => JSONRPCMessageSchema.safeParse(m).success)) return answerRpcError(res, 400, INVALID_REQUEST, NOT_A_MESSAGE);
    // The transport's own refusals, by its rules, in Russian (it answers them in English): an Accept without
    // both answer types, a protocol version it does not speak (not asked of an initialize, which names its own).
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return answerRpcError(res, 406, SERVER_ERROR, NOT_ACCEPTABLE);
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !messages.some((m) => isInitializeRequest(m)) && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return answerRpcError(res, 400, SERVER_ERROR, `версия протокола MCP «${version.slice(0, 100)}» (заголовок mcp-protocol-version) не поддерживается; поддерживаются: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
    }
    const server = createMcpServer(api, { readOnly: this.config.mcpReadOnly, tools: this.config.mcpTools, version: MCP_VERSION });
    // The SDK's DNS-rebinding protection (the MCP transport security rules) with the hub's lists, a second
    // guard behind the hub's own check above: a foreign Host or Origin never reaches a tool.
    // The SDK compares the Host header as sent, the hub its normal form (LOCALHOST:3000 and 127.1:3000 are
    // loopback too): the header as sent joins the list when its normal form is served, else the SDK would
    // refuse a Host the check above served, in English.
    const served = servedHosts(this.config, req.socket.localPort ?? this.config.port);
    const host = req.headers.host;
    const allowedHosts = served && host !== undefined && served.includes(normalHost(host) ?? '') ? [...served, host] : served;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts,
      allowedOrigins: servedOrigins(this.config, allowedHosts, req.headers.host),
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** Stateless: no server-sent stream to open (GET) and no session to end (DELETE). */
  @All()
  @ApiExcludeEndpoint()
  other(@Res() res: Response): void {
    res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: SERVER_ERROR, message: 'метод не поддерживается: MCP-сервер хаба работает без сессий, используйте POST' }, id: null });
  }
}
