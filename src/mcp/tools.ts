/**
 * Every MCP tool, in the order tools/list shows them. Both transports (stdio, Streamable HTTP at /mcp)
 * serve this list through server.ts. A new group of tools: a file in src/mcp/tools/ exporting a
 * `ToolDef[]` (see tool.ts), imported and spread here.
 */
import type { ToolDef } from './tool.js';
import { BATCH_TOOLS } from './tools/batches.js';
import { CATALOGUE_TOOLS } from './tools/catalogue.js';
import { ISSUE_TOOLS } from './tools/issues.js';
import { NOTE_TOOLS } from './tools/notes.js';
import { PACKAGE_TOOLS } from './tools/packages.js';
import { REVERT_TOOLS } from './tools/revert.js';

export type { ToolAnswer, ToolDef } from './tool.js';

export const TOOLS: ToolDef[] = [
  ...BATCH_TOOLS,
  ...ISSUE_TOOLS,
  ...NOTE_TOOLS,
  ...CATALOGUE_TOOLS,
  ...PACKAGE_TOOLS,
  ...REVERT_TOOLS,
];

/** The tools a server lists: all, or in read-only mode only those that write nothing. */
export const toolsFor = (readOnly: boolean): ToolDef[] => TOOLS.filter((t) => !readOnly || !t.writes);
