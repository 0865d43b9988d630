/**
 * What one MCP tool is: name, description for a model, zod input schema (a strict object: an unknown
 * argument is refused naming the known ones), its group, the shape of its data (outputSchema) and a
 * handler against the HubApi port. The tools live in src/mcp/tools/*.ts; src/mcp/tools.ts lists them.
 */
import { z } from 'zod';
import { JIRA_KEY, MAX_INTEGER, TEMP_KEY } from '../common/index.js';
import type { HubApi } from './hub-api.js';
import type { ToolGroup } from './mode.js';

/** What a tool gives back: words for the model and the data itself. */
export interface ToolAnswer {
  text: string;
  /** the hub's view (an object; lists are wrapped) */
  data: object;
  /** the list the answer is about, when it may be too long for the cap (answer-size.ts) */
  list?: AnswerList;
  /** where the whole of what a cut leaves out can be read, in words for the model («весь пакет — GET /batches/5 …») */
  rest?: string;
  /**
   * Collections of the data (by their path, as the notes name them: findings) that the hub's view already
   * holds only the first of, with how many there are in all: a cut counts against that whole.
   */
  totals?: Record<string, number>;
}

/**
 * The main list of an answer (a plan's commands, a page of a batch's): over the cap, the answer keeps its
 * first items only, the text rendered again for them, so text and data show the same items.
 */
export interface AnswerList {
  /** the key of the data that holds the list */
  key: string;
  /** the answer's text with only the first `n` items of the list */
  text(n: number): string;
  /** the tool pages the list (offset, limit): the data's next_offset follows the items kept */
  page?: { offset: number; total: number };
  /** the data's fields that follow the first `n` items (a cursor such as list_batches' next_before_id), set again when fewer are kept */
  after?: (n: number) => Record<string, unknown>;
  /** the list's whole length when the hub's view holds only its first items (an over-cap plan's `over_cap.commands`): a cut counts against it */
  total?: number;
}

/** What a tool knows of the server it runs in. */
export interface ToolContext {
  /** submit_batch is served: a plan may end with «вызовите submit_batch» */
  canSubmit: boolean;
  /** where a person opens the hub's dashboard, e.g. http://127.0.0.1:3000 (no trailing slash) */
  dashboard: string;
}

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** false: the tool changes nothing in the hub (listed in read-only mode) */
  writes: boolean;
  /** HUB_MCP_TOOLS group; default: `submit` for a tool that writes, else `read` */
  group?: ToolGroup;
  input: S;
  /**
   * When `input` refuses only the params of commands under `under` (a batch's `commands`: each an object
   * of a known type), the call is read with this schema instead and the hub checks the params: its checks
   * (SPEC 16.2) report every finding of every command, syntax and catalogue, in one answer, by seq —
   * where the tool's schema named the first syntax errors alone. `input` still describes the tool (its
   * JSON Schema) for the model.
   */
  lenient?: { input: z.ZodObject; under: string };
  /** the shape of `data` (outputSchema); loose objects: the hub's views may grow */
  output?: z.ZodObject;
  run(api: HubApi, args: z.output<S>, context: ToolContext): Promise<ToolAnswer>;
}

export const tool = <S extends z.ZodObject>(def: ToolDef<S>): ToolDef => def as unknown as ToolDef;

export const groupOf = (t: ToolDef): ToolGroup => t.group ?? (t.writes ? 'submit' : 'read');

export const id = (what: string) =>
  z
    .number({ error: (i) => (i.input === undefined ? 'обязательный аргумент не передан' : `${what}: нужно целое положительное число`) })
    .int()
    .positive()
    // No id above what the tables hold (decision 0104): refused here in the tool's words, not by the hub.
    .max(MAX_INTEGER, { error: `не больше ${MAX_INTEGER}` })
    .describe(what);
/**
 * The longest key a tool takes (Jira's project keys have up to 10 characters on Cloud). Keys go into the
 * URL: a search of 100 keys with every other filter at its longest stays inside the 16 KB the hub takes
 * for a request line and its headers.
 */
/** The CSV text a tool takes, each file (the hub takes 10 MB a request; a model's answer should stay far below). */
export const CSV_MAX = 1_000_000;
/** A CSV text argument; `instead` says where a larger file goes. */
export const csvText = (instead: string) => z.string().max(CSV_MAX, { error: `не больше ${CSV_MAX} символов; ${instead}` });

export const KEY_MAX = 50;

export const jiraKey = z.string().max(KEY_MAX).regex(JIRA_KEY, { error: 'ключ Jira вида AURORA-123' }).describe('ключ задачи Jira, например AURORA-123');
export const noteKey = z
  .string()
  .max(KEY_MAX)
  .refine((k) => JIRA_KEY.test(k) || TEMP_KEY.test(k), { error: 'ключ Jira (AURORA-123) или временный ключ (new:1)' })
  .describe('ключ Jira (AURORA-123) или временный ключ new:N');

/** Paging of a long list inside an answer. */
export const page = (max: number, fallback: number) => ({
  offset: z.number().int().min(0).default(0).describe('с какой записи показывать (0 — с первой)'),
  limit: z.number().int().min(1).max(max).default(fallback).describe(`сколько записей показать, 1..${max}`),
});
