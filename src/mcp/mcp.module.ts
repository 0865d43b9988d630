import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '../common/index.js';
import { McpController } from './mcp.controller.js';

/**
 * The MCP tools (tools.ts) over Streamable HTTP at /mcp. It imports no other module: the tools call
 * the hub's REST API (http-hub-api.ts), like the stdio server does from outside.
 */
@Module({ controllers: [McpController] })
export class McpModule implements OnModuleInit {
  constructor(@Inject(HUB_CONFIG) private readonly config: HubConfig) {}

  /**
   * HUB_MCP_TOOLS names tools: checked at the start (an unknown name stops it, ConfigError). Only then
   * does the start load the tools (and zod); without the variable they load on the first MCP request.
   */
  async onModuleInit(): Promise<void> {
    if (!this.config.mcpTools) return;
    const { selectTools } = await import('./tools.js');
    selectTools(this.config.mcpReadOnly, this.config.mcpTools);
  }
}
