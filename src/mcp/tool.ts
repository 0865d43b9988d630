/**
 * What one MCP tool is: name, description for a model, zod input schema, its group and a handler
 * against the HubApi port. The tools themselves live in src/mcp/tools/*.ts; src/mcp/tools.ts lists them.
 */
import { z } from 'zod';
import { JIRA_KEY, TEMP_KEY } from '../common/keys.js';
import type { HubApi } from './hub-api.js';

/** What a tool gives back: words for the model and the data itself. */
export interface ToolAnswer {
  text: string;
  /** the hub's view (an object; lists are wrapped) */
  data: object;
}

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** false: the tool changes nothing in the hub (listed in read-only mode) */
  writes: boolean;
  input: S;
  run(api: HubApi, args: z.output<S>): Promise<ToolAnswer>;
}

export const tool = <S extends z.ZodObject>(def: ToolDef<S>): ToolDef => def as unknown as ToolDef;

export const id = (what: string) => z.number({ error: `${what}: нужно целое положительное число` }).int().positive().describe(what);
export const jiraKey = z.string().regex(JIRA_KEY, { error: 'ключ Jira вида AURORA-123' }).describe('ключ задачи Jira, например AURORA-123');
export const noteKey = z
  .string()
  .refine((k) => JIRA_KEY.test(k) || TEMP_KEY.test(k), { error: 'ключ Jira (AURORA-123) или временный ключ (new:1)' })
  .describe('ключ Jira (AURORA-123) или временный ключ new:N');
