import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/index.js';
import type { HubConfig } from '../common/index.js';
import { McpController } from './mcp.controller.js';

/**
 * HUB_MCP_TOOLS names tools: checked before the hub opens its database (createApp), so an unknown name
 * stops the start in one line with nothing made (ConfigError). Only then does the start load the tools
 * (and zod); without the variable they load on the first MCP request.
 */
export async function assertMcpToolsKnown(config: Pick<HubConfig, 'mcpReadOnly' | 'mcpTools'>): Promise<void> {
  if (!config.mcpTools) return;
  const { selectTools } = await import('./tools.js');
  selectTools(config.mcpReadOnly, config.mcpTools);
}

/**
 * The MCP tools (tools.ts) over Streamable HTTP at /mcp. The tools call the hub's REST API
 * (http-hub-api.ts), like the stdio server does from outside; only the record of each tool call goes to
 * the Audit module directly (the hub saw the call).
 */
@Module({ imports: [AuditModule], controllers: [McpController] })
export class McpModule {}
