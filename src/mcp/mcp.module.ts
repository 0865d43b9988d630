import { Module } from '@nestjs/common';
import { McpController } from './mcp.controller.js';

/**
 * The MCP tools (tools.ts) over Streamable HTTP at /mcp. It imports no other module: the tools call
 * the hub's REST API (http-hub-api.ts), like the stdio server does from outside.
 */
@Module({ controllers: [McpController] })
export class McpModule {}
