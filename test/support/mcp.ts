import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REGISTER = fileURLToPath(new URL('./ts-register.mjs', import.meta.url));

/** How tests start `jira-hub mcp`: its entry run from source (no build needed). */
export const STDIO_ENTRY = { command: process.execPath, args: ['--import', REGISTER, 'src/mcp/stdio.ts'], cwd: ROOT };

export type Transport = 'stdio' | 'http';

export interface McpUnderTest {
  client: Client;
  /** the tool's answer; fails the test on a protocol error */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: Record<string, any> }>;
  text(result: CallToolResult): string;
  close(): Promise<void>;
}

/**
 * The SDK's own client on a real transport: `stdio` spawns `jira-hub mcp`'s entry (src/mcp/stdio.ts,
 * run from source through test/support/ts-register.mjs) pointed at `hubUrl`; `http` talks to the
 * hub's /mcp.
 */
export async function connect(kind: Transport, hubUrl: string, env: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<McpUnderTest> {
  const transport =
    kind === 'stdio'
      ? new StdioClientTransport({
          ...STDIO_ENTRY,
          env: { HUB_URL: hubUrl, ...env },
          stderr: 'pipe',
        })
      : new StreamableHTTPClientTransport(new URL(`${hubUrl}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'jira-hub-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, any> },
    text: (result) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
    close: () => client.close(),
  };
}
