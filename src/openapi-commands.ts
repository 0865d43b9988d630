/**
 * REST's OpenAPI shows the command union the MCP tools take (issue 22): the `CommandDto` schema is
 * replaced by @jira-hub/contracts/commands' discriminated union on `type`, one branch per command type
 * with its params, patterns, limits and an example. Loaded with the docs only (it loads zod).
 */
import { commandJsonSchema } from '@jira-hub/contracts/commands';

/** JSON Schema 2020-12 as OpenAPI 3.0 reads it: `const` → `enum`, `examples` → `example`, no `propertyNames`. */
export function toOpenApi30(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toOpenApi30);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$schema' || k === 'propertyNames') continue;
    if (k === 'const') out.enum = [v];
    else if (k === 'examples' && Array.isArray(v)) out.example = v[0];
    else out[k] = toOpenApi30(v);
  }
  return out;
}

export function withCommandUnion<T extends { components?: { schemas?: Record<string, unknown> } }>(doc: T): T {
  const schemas = doc.components?.schemas;
  if (schemas && 'CommandDto' in schemas) {
    schemas.CommandDto = {
      description: 'One command {type, params}: a union on `type` (SPEC 4, 16.2, 17.2); the same schema the MCP tools plan_batch and submit_batch take.',
      ...(toOpenApi30(commandJsonSchema()) as object),
    };
  }
  return doc;
}
