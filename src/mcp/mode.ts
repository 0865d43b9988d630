/**
 * Which MCP tools exist (both transports): HUB_MCP_READ_ONLY (yes/no, strictly) and HUB_MCP_TOOLS (tool
 * names or the groups read, plan, submit, notes; both parsed in common/config.ts). Free of zod and the
 * SDK: the hub's start reads it.
 */
export { readOnlyFrom, toolListFrom } from '../common/index.js';

/** read: looks at the hub; plan: dry runs; submit: batches and commands change; notes: the team's notes change. */
export const TOOL_GROUPS = ['read', 'plan', 'submit', 'notes'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];
/** The groups a read-only server keeps. */
export const READ_ONLY_GROUPS: readonly ToolGroup[] = ['read', 'plan'];

/** What set read-only mode: the variable (the hub, `jira-hub mcp`) or `jira-hub mcp --read-only`. */
export type ReadOnlySource = 'variable' | 'flag';

/** Where read-only mode came from, as the banners and a refused tool name it. */
export const readOnlyOrigin = (from: ReadOnlySource): string => (from === 'flag' ? 'параметр --read-only' : 'HUB_MCP_READ_ONLY');

/** The MCP mode in one line, for the start banners (texts for people: Russian); `from`: what set read-only mode. */
export function mcpModeText(readOnly: boolean, tools: string[] | undefined, from: ReadOnlySource = 'variable'): string {
  const which = tools ? `инструменты ${tools.join(', ')} (HUB_MCP_TOOLS)` : 'все инструменты';
  return readOnly ? `только чтение (${readOnlyOrigin(from)}): ${which}, кроме пишущих` : which;
}
