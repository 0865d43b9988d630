/**
 * Checks recorded Jira exchanges against Atlassian's OpenAPI descriptions (platform.json: Cloud REST v3,
 * software.json: Agile REST 1.0): the operation exists, every query parameter is declared, the request body fits
 * the operation's request schema, the answer fits the schema of its status, and an error answer is Jira's
 * ErrorCollection with both `errorMessages` and `errors`. `$ref`s resolve into each document's components.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: under Node's ESM loader its default import is module.exports itself.
const addFormats = ((formats as unknown as { default?: unknown }).default ?? formats) as unknown as (ajv: Ajv) => Ajv;

/** One request the agent sent and the answer it got. */
export interface Exchange {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  status: number;
  response?: unknown;
}

interface Operation {
  parameters?: Array<{ name: string; in: string } | { $ref: string }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>;
}

interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; parameters?: Record<string, { name: string; in: string }> };
}

interface Template {
  docId: string;
  doc: OpenApiDoc;
  template: string;
  pattern: RegExp;
  literals: number;
}

const DOCS = ['platform.json', 'software.json'];

/**
 * The folder of the descriptions: JIRA_OPENAPI_DIR, else the first `shared/jira-openapi` found walking up from the
 * working directory (the project lives beside `shared/`). Throws when there is none: the contract test must not
 * pass by not running.
 */
export function openApiDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.JIRA_OPENAPI_DIR) return env.JIRA_OPENAPI_DIR;
  for (let dir = resolve(process.cwd()); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'jira-openapi');
    if (existsSync(join(candidate, 'platform.json'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error('Atlassian OpenAPI descriptions not found: set JIRA_OPENAPI_DIR to the folder with platform.json and software.json');
}

/** `#/components/…` refs of a schema taken out of its document, pointed back at the document. */
function anchorRefs(schema: unknown, docId: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => anchorRefs(s, docId));
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${docId}${value}` : anchorRefs(value, docId)]),
  );
}

export class OpenApiContract {
  private readonly ajv: Ajv;
  private readonly templates: Template[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(dir: string = openApiDir()) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    for (const file of DOCS) {
      const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as OpenApiDoc;
      const docId = `https://jira-openapi.local/${file}`;
      this.ajv.addSchema(doc as object, docId);
      for (const template of Object.keys(doc.paths)) {
        const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
        this.templates.push({ docId, doc, template, pattern: new RegExp(`^${source}$`), literals: template.split('/').filter((s) => s && !s.startsWith('{')).length });
      }
    }
  }

  /** The problems of one exchange (empty when it fits the description). */
  check(exchange: Exchange): string[] {
    const where = `${exchange.method} ${exchange.path}`;
    const matches = this.templates.filter((t) => t.pattern.test(exchange.path) && t.doc.paths[t.template]![exchange.method.toLowerCase()]);
    if (matches.length === 0) return [`${where}: no such operation in the descriptions`];
    const t = matches.sort((a, b) => b.literals - a.literals)[0]!;
    const op = t.doc.paths[t.template]![exchange.method.toLowerCase()]!;
    const problems: string[] = [];
    const label = `${exchange.method} ${t.template}`;

    const declared = new Set((op.parameters ?? []).map((p) => ('$ref' in p ? t.doc.components.parameters?.[p.$ref.split('/').pop()!] : p)).filter((p) => p?.in === 'query').map((p) => p!.name));
    for (const name of Object.keys(exchange.query)) if (!declared.has(name)) problems.push(`${label}: query parameter "${name}" is not declared`);

    const requestSchema = op.requestBody?.content?.['application/json']?.schema;
    if (exchange.body !== undefined) {
      if (!requestSchema) problems.push(`${label}: the request has a body the operation does not take`);
      else problems.push(...this.validate(t.docId, requestSchema, exchange.body, `${label} request`));
    }

    const status = String(exchange.status);
    if (exchange.status >= 400) {
      const schema = { allOf: [{ $ref: '#/components/schemas/ErrorCollection' }, { type: 'object', required: ['errorMessages', 'errors'] }] };
      problems.push(...this.validate(DOCS_ID_PLATFORM, schema, exchange.response, `${label} ${status} error body`));
      return problems;
    }
    const response = op.responses?.[status] ?? op.responses?.default;
    if (!response) return [...problems, `${label}: status ${status} is not documented`];
    const media = response.content?.['application/json'];
    if (media?.schema) problems.push(...this.validate(t.docId, media.schema, exchange.response, `${label} ${status} response`));
    else if (media?.example !== undefined && exchange.response !== undefined) {
      // Some operations (e.g. a board's sprints) are described by an example only: the answer may use only its properties.
      const example: unknown = typeof media.example === 'string' ? JSON.parse(media.example) : media.example;
      problems.push(...beyondExample(exchange.response, example, '').map((path) => `${label} ${status} response: ${path} is not in the description's example`));
    } else if (exchange.response !== undefined) problems.push(`${label}: status ${status} has a body the description does not define`);
    return problems;
  }

  private validate(docId: string, schema: unknown, value: unknown, label: string): string[] {
    const key = `${docId} ${JSON.stringify(schema)}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(anchorRefs(schema, docId) as object) as ValidateFunction;
      this.compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${label}: ${e.instancePath || '(root)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : ''}`);
  }
}

/** Property paths of `value` that `example` does not have (objects by key, arrays by their first item). */
function beyondExample(value: unknown, example: unknown, path: string): string[] {
  if (Array.isArray(value)) return Array.isArray(example) && example.length > 0 ? value.flatMap((v, i) => beyondExample(v, example[0], `${path}/${i}`)) : [];
  if (!value || typeof value !== 'object' || !example || typeof example !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key in example ? beyondExample(v, (example as Record<string, unknown>)[key], `${path}/${key}`) : [`${path}/${key}`],
  );
}

const DOCS_ID_PLATFORM = 'https://jira-openapi.local/platform.json';
