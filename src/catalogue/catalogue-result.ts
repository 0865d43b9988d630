/** The result of a `refresh_catalogue` (SPEC 16.1): `{catalogue}`, checked before it is stored. Pure. */
import type { Catalogue } from '@jira-hub/contracts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

/** Each list part of the catalogue and what one entry must be. */
const LISTS: [keyof Catalogue, (v: unknown) => boolean, string][] = [
  ['issue_types', (v) => isObject(v) && isString(v.id) && isString(v.name), 'объекты {id, name, subtask, hierarchy_level}'],
  ['fields', (v) => isObject(v) && isString(v.id) && isString(v.name), 'объекты {id, name, schema?}'],
  ['link_types', (v) => isObject(v) && isString(v.name) && isString(v.inward) && isString(v.outward), 'объекты {id, name, inward, outward}'],
  ['boards', (v) => isObject(v) && typeof v.id === 'number' && isString(v.name), 'объекты {id, name}'],
  ['sprints', (v) => isObject(v) && typeof v.id === 'number' && isString(v.name) && isString(v.state), 'объекты {id, name, state, board_id}'],
  ['priorities', isString, 'строки'],
  ['components', isString, 'строки'],
  ['versions', isString, 'строки'],
  ['assignable', (v) => isObject(v) && isString(v.id), 'объекты {id, display_name}'],
];

/**
 * The catalogue of a `done` report, or a Russian problem (the report is then refused with 422 and
 * nothing changes). Lists left out are empty; `per_type` entries get their missing lists.
 */
export function parseCatalogueResult(raw: unknown): Catalogue | string {
  const c = isObject(raw) ? raw.catalogue : undefined;
  if (!isObject(c)) return 'результат refresh_catalogue должен быть объектом {catalogue: {...}}';
  if (!isString(c.project_key) || c.project_key.trim() === '') return 'catalogue.project_key: нужен ключ проекта Jira';
  if (c.flavor !== 'cloud' && c.flavor !== 'dc') return 'catalogue.flavor: нужно cloud или dc';
  const out: Record<string, unknown> = { ...c };
  for (const [name, ok, what] of LISTS) {
    const value = c[name] ?? [];
    if (!Array.isArray(value) || !value.every(ok)) return `catalogue.${name}: нужен массив (${what})`;
    out[name] = value;
  }
  const perType = c.per_type ?? {};
  if (!isObject(perType) || !Object.values(perType).every(isObject)) return 'catalogue.per_type: нужен объект «id типа задачи» → {create, edit, statuses, transitions}';
  out.per_type = Object.fromEntries(
    Object.entries(perType).map(([id, t]) => {
      const type = t as Record<string, unknown>;
      const list = (v: unknown) => (Array.isArray(v) ? v : []);
      return [id, { ...type, create: list(type.create), edit: Array.isArray(type.edit) ? type.edit : null, statuses: list(type.statuses), transitions: list(type.transitions) }];
    }),
  );
  const permissions = c.permissions ?? {};
  if (!isObject(permissions) || !Object.values(permissions).every((v) => typeof v === 'boolean')) return 'catalogue.permissions: нужен объект «ключ права» → true/false';
  out.permissions = permissions;
  out.transitions_source = c.transitions_source === 'workflow' ? 'workflow' : 'observed';
  out.assignable_truncated = c.assignable_truncated === true;
  return out as unknown as Catalogue;
}
