/**
 * `jira-hub mcp`: the MCP server over stdio, for an assistant that starts it as a local process. It
 * talks to a running hub over HTTP: HUB_URL (default http://127.0.0.1:3000), HUB_ASSISTANT_TOKEN
 * (none in open mode), HUB_MCP_READ_ONLY=1 for the tools that write nothing, HUB_MCP_TOOLS for a list of
 * tools or groups; a bad value of any of them stops the start. Every request carries
 * `X-Hub-Source: assistant`. stdout is the protocol's: logs go to stderr only.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { headerTokenProblem } from '@jira-hub/contracts/catalogue';
import { clip, ConfigError, readOnlyFrom, toolListFrom } from '../common/index.js';
import { HttpHubApi } from './http-hub-api.js';
import { mcpModeText, type ReadOnlySource } from './mode.js';
import { createMcpServer, MCP_VERSION } from './server.js';
import { lineLimit, unreadableLineAnswer } from './stdio-lines.js';

export const DEFAULT_HUB_URL = 'http://127.0.0.1:3000';
/** The longest message (one line of JSON) the stdio server reads. */
export const STDIO_BUFFER_BYTES = 64 * 1024 * 1024;


/** HUB_URL as the stdio server takes it: the hub's http(s) address, without credentials (ConfigError otherwise). */
export function hubUrlFrom(value: string | undefined): string {
  const url = value?.trim() || DEFAULT_HUB_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`HUB_URL: «${clip(url, 200)}» — не адрес; укажите адрес хаба, например ${DEFAULT_HUB_URL}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`HUB_URL: адрес ${clip(parsed.protocol, 50)}//… не подходит: хаб отвечает по http:// или https://, например ${DEFAULT_HUB_URL}`);
  }
  if (parsed.username || parsed.password) throw new ConfigError('HUB_URL: адрес хаба без имени и пароля; токен задаёт HUB_ASSISTANT_TOKEN');
  // The tools append their routes to the address: a query or a fragment (even an empty `?` or `#`) would swallow them.
  if (/[?#]/.test(url)) {
    throw new ConfigError(`HUB_URL: «${clip(url, 200)}» — адрес хаба без запроса (?…) и фрагмента (#…), например ${DEFAULT_HUB_URL} или ${DEFAULT_HUB_URL}/mcp`);
  }
  return url;
}

/** HUB_ASSISTANT_TOKEN as the stdio server sends it (undefined: open mode); a character a header cannot carry is a ConfigError. */
export function assistantTokenFrom(value: string | undefined): string | undefined {
  const token = value?.trim();
  const problem = headerTokenProblem(token ?? '');
  if (problem) throw new ConfigError(`HUB_ASSISTANT_TOKEN: ${problem}`);
  return token || undefined;
}

/** Told to the model when the hub refuses this server's token: only a person can change its environment. */
const TOKEN_HINT =
  'MCP-сервер передаёт хабу токен из переменной HUB_ASSISTANT_TOKEN в своих настройках (env клиента): попросите человека указать в ней токен ассистента хаба и перезапустить ассистента';

export interface StdioOptions {
  input?: Readable;
  output?: Writable;
  /** `jira-hub mcp --read-only`: read-only whatever HUB_MCP_READ_ONLY says (the banner names the flag) */
  readOnlyFlag?: boolean;
}

/** Serves the tools on stdin/stdout until the input closes. */
export async function runMcpStdio(env: NodeJS.ProcessEnv, options: StdioOptions = {}): Promise<void> {
  const baseUrl = hubUrlFrom(env.HUB_URL);
  const token = assistantTokenFrom(env.HUB_ASSISTANT_TOKEN);
  const api = new HttpHubApi({ baseUrl, authorization: token ? `Bearer ${token}` : undefined, tokenHint: TOKEN_HINT });
  // The flag wins over the variable (which is then not read): the banner and a refused tool name what set the mode.
  const readOnlySource: ReadOnlySource = options.readOnlyFlag ? 'flag' : 'variable';
  const readOnly = options.readOnlyFlag === true || readOnlyFrom(env.HUB_MCP_READ_ONLY);
  const tools = toolListFrom(env.HUB_MCP_TOOLS);
  const calls = new Set<Promise<unknown>>();
  const track = (call: Promise<unknown>) => {
    calls.add(call);
    void call.finally(() => calls.delete(call));
  };
  const server = createMcpServer(api, { readOnly, readOnlyFrom: readOnlySource, tools, version: MCP_VERSION, track });
  const output = options.output ?? process.stdout;
  // Lines up to STDIO_BUFFER_BYTES: room for any body the hub takes (10 MB at most), so an oversized plan
  // gets a tool error; a longer line is answered -32600 and dropped here, before the SDK's buffer (which
  // would close the server on it) sees it.
  const input = (options.input ?? process.stdin).pipe(lineLimit(STDIO_BUFFER_BYTES, (line) => output.write(line)));
  const transport = new StdioServerTransport(input, output, { maxBufferSize: 2 * STDIO_BUFFER_BYTES });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // The input ended (the assistant quit, or a script piped its requests): answer what is in progress, then stop.
  input.once('end', async () => {
    // Each turn: the messages read reach their handlers, the answers of finished calls are written.
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    for (await turn(); calls.size; await turn()) await Promise.allSettled([...calls]);
    await server.close();
  });
  // A line the SDK could not read is reported to onerror only: answered here (-32700 or -32600).
  transport.onerror = (error) => {
    const answer = unreadableLineAnswer(error);
    if (answer) output.write(answer);
  };
  await server.connect(transport);
  console.error(`jira-hub mcp: MCP-сервер на stdio для хаба ${baseUrl}${token ? '' : ' (без HUB_ASSISTANT_TOKEN: открытый режим)'}; ${mcpModeText(readOnly, tools, readOnlySource)}`);
  await closed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await runMcpStdio(process.env);
  } catch (err) {
    // A bad HUB_URL, HUB_ASSISTANT_TOKEN, HUB_MCP_READ_ONLY or HUB_MCP_TOOLS: one line, no stack (the CLI does the same through cli.ts).
    if (!(err instanceof ConfigError)) throw err;
    console.error(`jira-hub mcp: ${err.message}`);
    process.exitCode = 2;
  }
}
