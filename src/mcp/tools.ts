/**
 * Every MCP tool, in the order tools/list shows them. Both transports (stdio, Streamable HTTP at /mcp)
 * serve this list through server.ts. A new group of tools: a file in src/mcp/tools/ exporting a
 * `ToolDef[]` (see tool.ts), imported and spread here.
 */
import { ConfigError } from '../common/index.js';
import { READ_ONLY_GROUPS, readOnlyOrigin, TOOL_GROUPS, type ReadOnlySource, type ToolGroup } from './mode.js';
import { groupOf, type ToolDef } from './tool.js';
import { BATCH_TOOLS } from './tools/batches.js';
import { CATALOGUE_TOOLS } from './tools/catalogue.js';
import { ISSUE_TOOLS } from './tools/issues.js';
import { NOTE_TOOLS } from './tools/notes.js';
import { PACKAGE_TOOLS } from './tools/packages.js';
import { REVERT_TOOLS } from './tools/revert.js';

export type { ToolAnswer, ToolContext, ToolDef } from './tool.js';

export const TOOLS: ToolDef[] = [
  ...BATCH_TOOLS,
  ...ISSUE_TOOLS,
  ...NOTE_TOOLS,
  ...CATALOGUE_TOOLS,
  ...PACKAGE_TOOLS,
  ...REVERT_TOOLS,
];

/** What a server serves: its tools, and for each tool it leaves out, why (said when a model calls it). */
export interface ToolSelection {
  enabled: ToolDef[];
  refused: Map<string, string>;
}

/**
 * The tools of a server: HUB_MCP_TOOLS (names and groups; undefined: all), then read-only mode keeps
 * those of the groups read and plan (`from`: what set it, named when a tool is refused). An unknown name
 * stops the start (ConfigError).
 */
export function selectTools(readOnly: boolean, wanted: string[] | undefined, all: ToolDef[] = TOOLS, from: ReadOnlySource = 'variable'): ToolSelection {
  const names = new Set(all.map((t) => t.name));
  const unknown = (wanted ?? []).filter((w) => !names.has(w) && !(TOOL_GROUPS as readonly string[]).includes(w));
  if (unknown.length) {
    throw new ConfigError(`HUB_MCP_TOOLS: неизвестные инструменты или группы: ${unknown.join(', ')}; группы: ${TOOL_GROUPS.join(', ')}; инструменты: ${[...names].join(', ')}`);
  }
  const enabled: ToolDef[] = [];
  const refused = new Map<string, string>();
  for (const t of all) {
    const group: ToolGroup = groupOf(t);
    if (wanted && !wanted.includes(t.name) && !wanted.includes(group)) {
      refused.set(t.name, `инструмент ${t.name} выключен на этом MCP-сервере хаба (настройка HUB_MCP_TOOLS)`);
    } else if (readOnly && !READ_ONLY_GROUPS.includes(group)) {
      refused.set(t.name, `MCP-сервер хаба работает только на чтение (${readOnlyOrigin(from)}): ${t.name} недоступен, ничего не изменено`);
    } else enabled.push(t);
  }
  return { enabled, refused };
}
