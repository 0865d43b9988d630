import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runMcpStdio } from '../../src/mcp/stdio.js';
import { entryArgs } from './cli-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** How tests start `jira-hub mcp` as a process: its entry from the tests' bundle of the sources (no build needed; support/cli-process.ts). */
export const STDIO_ENTRY = { command: process.execPath, args: entryArgs('src/mcp/stdio.ts'), cwd: ROOT };

export type Transport = 'stdio' | 'http';

export interface McpUnderTest {
  client: Client;
  /** the tool's answer; fails the test on a protocol error */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: Record<string, any> }>;
  text(result: CallToolResult): string;
  close(): Promise<void>;
}

/**
 * The client's end of a pipe pair to `runMcpStdio` (src/mcp/stdio.ts) running in this process: the
 * stdio server with its own transport, message framing, buffer size and end-of-input drain, given
 * the environment a spawned `jira-hub mcp` would read. Framed as the SDK's StdioClientTransport
 * frames (one JSON message a line). Closing ends the server's input and waits until it has stopped.
 */
class InProcessStdioTransport implements SdkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly toServer = new PassThrough();
  private readonly fromServer = new PassThrough();
  private readonly buffer = new ReadBuffer();
  private running?: Promise<void>;
  /** Gives console.error back (see start). */
  restoreLog: () => void = () => undefined;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
    // The line the server writes to stderr as it starts (where it serves, its mode) belongs to a
    // process's stderr; here it is kept out of the test's output until the client is connected.
    const log = console.error;
    console.error = () => undefined;
    this.restoreLog = () => {
      console.error = log;
    };
    this.running = runMcpStdio(this.env, { input: this.toServer, output: this.fromServer });
    this.running.catch((err: Error) => this.onerror?.(err));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.toServer.write(serializeMessage(message))) await new Promise((resolve) => this.toServer.once('drain', resolve));
  }

  async close(): Promise<void> {
    this.toServer.end();
    await this.running?.catch(() => undefined);
    this.buffer.clear();
    this.onclose?.();
  }
}

/**
 * The SDK's own client on a real transport: `stdio` runs `jira-hub mcp`'s server (src/mcp/stdio.ts)
 * in this process on a pipe pair, pointed at `hubUrl` with `env` as its environment; `http` talks to
 * the hub's /mcp. The entry as a process of its own: `connectProcess`.
 */
export async function connect(kind: Transport, hubUrl: string, env: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<McpUnderTest> {
  if (kind === 'http') return connected(new StreamableHTTPClientTransport(new URL(`${hubUrl}/mcp`), { requestInit: { headers } }));
  const transport = new InProcessStdioTransport({ HUB_URL: hubUrl, ...env });
  try {
    return await connected(transport);
  } finally {
    transport.restoreLog();
  }
}

/** The SDK's client on `jira-hub mcp` spawned as a process (STDIO_ENTRY). */
export async function connectProcess(hubUrl: string, env: Record<string, string> = {}): Promise<McpUnderTest> {
  return connected(new StdioClientTransport({ ...STDIO_ENTRY, env: { HUB_URL: hubUrl, ...env }, stderr: 'pipe' }));
}

/**
 * The clients' check of each tool's outputSchema, compiled once per schema for all the clients of a test
 * process (each client compiled every tool's schema at its first tools/list: most of an MCP test's CPU
 * besides the hub). The same Ajv check the SDK's client makes by default.
 */
const ajv = new AjvJsonSchemaValidator();
const compiled = new Map<string, JsonSchemaValidator<unknown>>();
const sharedValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const text = JSON.stringify(schema);
    if (!compiled.has(text)) compiled.set(text, ajv.getValidator(schema));
    return compiled.get(text) as JsonSchemaValidator<T>;
  },
};

async function connected(transport: SdkTransport): Promise<McpUnderTest> {
  const client = new Client({ name: 'jira-hub-test', version: '1.0.0' }, { jsonSchemaValidator: sharedValidator });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, any> },
    text: (result) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
    close: () => client.close(),
  };
}
