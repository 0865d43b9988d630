/** The mcp module's public surface: what other modules import of it. */
export { INVALID_REQUEST, PARSE_ERROR, answerRpcError, isMcpRequest } from './json-rpc.js';
export { assertMcpToolsKnown, McpModule } from './mcp.module.js';
export { mcpModeText } from './mode.js';

/** `jira-hub mcp`: the stdio server (the MCP SDK and zod) is loaded on the first call, never at start. */
export async function runMcpStdio(...args: Parameters<typeof import('./stdio.js').runMcpStdio>): Promise<void> {
  return (await import('./stdio.js')).runMcpStdio(...args);
}
