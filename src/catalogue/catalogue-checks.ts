/** The checks of issue types, screens and values against the catalogue (SPEC 16.2). Pure. */
import type { Catalogue, CatalogueField, CatalogueIssueType, CatalogueScreenField, CatalogueTypeConfig } from '@jira-hub/contracts';
import { isCalendarDate } from '@jira-hub/contracts/catalogue';
import { isTempKey, shownText } from '../common/index.js';
import type { MirrorLookup } from '../mirror/index.js';
import { addFinding, TEXT_MAX, type CommandCheck } from './content-checks.js';
import { listed, lower, match, maybe } from './match.js';
import { initialStatus } from './routes.js';

/** What the checks know of the issues a batch names: types from the mirror or the batch, statuses as the batch moves them. */
export class TypeContext {
  private readonly newTypes = new Map<string, CatalogueIssueType>();
  /** the parent an ensure_issue of this batch gives its new issue (a Jira key or a temp key) */
  private readonly newParents = new Map<string, string>();
  private readonly statusAfter = new Map<string, string>();

  constructor(
    readonly catalogue: Catalogue | null,
    private readonly mirror: MirrorLookup,
    private readonly resolved: ReadonlyMap<string, string>,
  ) {}

  /** An ensure_issue of this batch creates the issue of a temp key (under `parent`, when it names one). */
  created(tempKey: string, type: CatalogueIssueType, parent?: string): void {
    this.newTypes.set(tempKey, type);
    if (parent !== undefined) this.newParents.set(tempKey, parent);
  }

  private jiraKey(key: string): string {
    return this.resolved.get(key) ?? key;
  }

  isNew(key: string): boolean {
    return this.newTypes.has(key);
  }

  /** The issue type of a key, or a Russian reason why it is not known. */
  typeOf(key: string): CatalogueIssueType | string {
    const created = this.newTypes.get(key);
    if (created) return created;
    if (isTempKey(key) && !this.resolved.has(key)) return `тип задачи ${key} неизвестен`;
    const issue = this.mirror.issue(this.jiraKey(key));
    if (!issue?.issue_type) return `в зеркале нет ${this.jiraKey(key)}: тип задачи неизвестен (сначала обновите её в зеркале)`;
    const type = this.catalogue?.issue_types.find((t) => t.name === issue.issue_type);
    return type ?? `тип задачи «${issue.issue_type}» (${this.jiraKey(key)}) в каталоге не найден`;
  }

  /** The parent of a key as far as the checks know it: the ensure_issue's, or the mirror's (`fields.parent`); null when unknown. */
  parentOf(key: string): string | null {
    if (this.newTypes.has(key)) return this.newParents.get(key) ?? null;
    const parent = this.mirror.issue(this.jiraKey(key))?.fields?.parent;
    return typeof parent === 'string' && parent !== '' ? parent : null;
  }

  config(type: CatalogueIssueType): CatalogueTypeConfig | undefined {
    return this.catalogue?.per_type[type.id];
  }

  /** The status the key is in when the command comes: as an earlier command of the batch leaves it, the mirror's, or a new issue's initial one. */
  statusOf(key: string, type: CatalogueIssueType): string | null {
    const moved = this.statusAfter.get(key);
    if (moved) return moved;
    if (this.newTypes.has(key)) {
      const config = this.config(type);
      return config ? initialStatus(config) : null;
    }
    return this.mirror.issue(this.jiraKey(key))?.status ?? null;
  }

  moved(key: string, status: string): void {
    this.statusAfter.set(key, status);
  }
}

/** The standard params of ensure_fields and their Jira field ids. */
const STANDARD: Record<string, string> = { summary: 'summary', description: 'description', duedate: 'duedate', labels: 'labels', assignee: 'assignee', priority: 'priority' };
/** Required fields a create always carries (the hub and the agent set them), and `parent`, which has its own finding. */
const IMPLIED = new Set(['summary', 'issuetype', 'project', 'reporter', 'parent']);

/**
 * A field as the agent looks it up (packages/agent JiraApi.lookupField): a standard name, else by its id, else
 * by its name trimmed, letter case aside — the fields several share (Jira allows two «Team» fields) as
 * `ambiguous`, since the agent then refuses to choose. The catalogue's fields are those seen from the
 * agent's project (another team-managed project's own fields left out), as the agent's lookup sees them.
 */
export function lookupField(catalogue: Catalogue, name: string): CatalogueField | { ambiguous: CatalogueField[] } | undefined {
  if (Object.hasOwn(STANDARD, name)) return catalogue.fields.find((f) => f.id === STANDARD[name]) ?? { id: STANDARD[name]!, name };
  const byId = catalogue.fields.find((f) => f.id === name);
  if (byId) return byId;
  const wanted = name.trim().toLowerCase();
  const named = catalogue.fields.filter((f) => f.name.trim().toLowerCase() === wanted);
  return named.length > 1 ? { ambiguous: named } : named[0];
}

/** A field by its id, else by its name (any letter case, when one field has it). */
export function fieldOf(catalogue: Catalogue, name: string): CatalogueField | undefined {
  const found = lookupField(catalogue, name);
  return found && 'ambiguous' in found ? undefined : found;
}

/** Jira Software's Epic Link field (Data Center: how an issue is put into an epic), by its schema as the agent finds it. */
const EPIC_LINK_SCHEMA = 'com.pyxis.greenhopper.jira:gh-epic-link';

/** Jira's single-line text field: at most 255 characters (a paragraph field, textarea, takes 32,767). */
const TEXT_FIELD = 'com.atlassian.jira.plugin.system.customfieldtypes:textfield';
const TEXT_FIELD_MAX = 255;

/**
 * A custom field's value against its type, as the agent sends it (packages/agent/src/field-values.ts): a
 * number field takes a number or a numeric string, a date field a calendar date, a single-line text field
 * 255 characters; a user picker takes a person's id, so a display name of someone the catalogue knows is
 * refused as for the assignee. An object is sent as given: Jira's own shape, not judged here.
 */
function checkValueType(c: CommandCheck, catalogue: Catalogue, param: string, fieldId: string, value: unknown, screen: CatalogueScreenField | undefined): void {
  if (!fieldId.startsWith('customfield_') || value === null || value === undefined || value === '' || isObject(value)) return;
  const field = catalogue.fields.find((f) => f.id === fieldId);
  const schema = field?.schema;
  if (!schema) return;
  const what = `«${screen?.name ?? field.name}»`;
  // One value fields (a select list, a user picker, a single-line text): the agent sends a list of several as
  // one text («High,Low»), which Jira refuses.
  const single = schema.type === 'option' || schema.type === 'user' || (schema.type === 'string' && schema.custom === TEXT_FIELD);
  if (single && Array.isArray(value) && (value.length > 1 || schema.type === 'string')) {
    return addFinding(c, param, 'value_type', `поле ${what} принимает одно значение, а задан список ${shownValue(value)}`, value.length > 0 ? `одно значение, например ${shownValue(value[0])}` : 'одно значение или null');
  }
  if (schema.type === 'number') {
    // Finite only: JSON has no Infinity, and the agent would send «Infinity» as null, clearing the field.
    const ok = (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value.trim())));
    if (!ok) addFinding(c, param, 'value_type', `поле ${what} числовое, а значение ${shownValue(value)} не число`, 'число, например 5 или 2.5');
  } else if (schema.type === 'date') {
    if (typeof value !== 'string' || !isCalendarDate(value)) addFinding(c, param, 'value_type', `поле ${what} — дата, а значение ${shownValue(value)} не дата ГГГГ-ММ-ДД`, 'дата вида 2026-12-20, которая есть в календаре');
  } else if (schema.type === 'string' && schema.custom === TEXT_FIELD && typeof value === 'string' && value.length > TEXT_FIELD_MAX && value.length <= TEXT_MAX) {
    // (past TEXT_MAX every text field's own finding says it)
    // Counted as Jira counts (UTF-16 units, decision 1411).
    addFinding(c, param, 'too_long', `поле ${what} — однострочный текст: Jira принимает не больше ${TEXT_FIELD_MAX} символов, а здесь ${value.length}`, `сократите до ${TEXT_FIELD_MAX} символов`);
  } else if (schema.type === 'user' || (schema.type === 'array' && schema.items === 'user')) {
    for (const v of (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string')) {
      if (catalogue.assignable.some((u) => u.id === v)) continue;
      const named = catalogue.assignable.filter((u) => lower(u.display_name) === lower(v.trim()));
      if (named.length) addFinding(c, param, 'unknown_user', `«${shownText(v)}» — имя человека, а поле ${what} ждёт его id (accountId в Cloud, имя пользователя в Data Center)`, maybe(named.map((u) => `${u.id} (${u.display_name})`)));
    }
  }
}

/** A value a command gave, as a finding quotes it: a text in «…», anything else as JSON; by its first characters (decision 1464). */
const shownValue = (v: unknown) => (typeof v === 'string' ? `«${shownText(v)}»` : shownText(JSON.stringify(v)));

/** The values a field value names: a string, `{value}`, `{name}`, a list of them. */
function namesIn(v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (typeof v === 'string' || typeof v === 'number') return [String(v)];
  if (Array.isArray(v)) return v.flatMap(namesIn);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const named = o.value ?? o.name ?? o.key;
    return typeof named === 'string' ? [named] : [];
  }
  return [];
}

function allowedValues(catalogue: Catalogue, fieldId: string, screen: CatalogueScreenField | undefined): string[] | undefined {
  if (fieldId === 'priority') return catalogue.priorities.length ? catalogue.priorities : screen?.allowed_values;
  if (fieldId === 'components') return catalogue.components;
  if (fieldId === 'fixVersions' || fieldId === 'versions') return catalogue.versions;
  return screen?.allowed_values;
}

function checkValue(c: CommandCheck, catalogue: Catalogue, param: string, fieldId: string, value: unknown, screen: CatalogueScreenField | undefined): void {
  if (fieldId === 'assignee') {
    if (typeof value !== 'string' || catalogue.assignable_truncated) return;
    // Jira takes the id (Cloud: accountId; DC: the user name); a display name is refused there, so here too.
    if (catalogue.assignable.some((u) => u.id === value)) return;
    const named = catalogue.assignable.filter((u) => lower(u.display_name) === lower(value.trim()));
    if (named.length) {
      return addFinding(c, param, 'unknown_assignee', `«${shownText(value)}» — имя человека, а Jira ждёт его id (accountId в Cloud, имя пользователя в Data Center)`, maybe(named.map((u) => `${u.id} (${u.display_name})`)));
    }
    const m = match(value, catalogue.assignable, (u) => [u.id, u.display_name]);
    if (m.kind === 'exact') return; // an id or a display name as it is: both taken above
    if (m.kind === 'case') return addFinding(c, param, 'unknown_assignee', `исполнитель «${shownText(value)}» записан не так, как в Jira`, `может быть, ${m.item.id} (${m.item.display_name})?`);
    return addFinding(
      c,
      param,
      'unknown_assignee',
      `«${shownText(value)}» нет среди тех, кому можно назначать задачи проекта ${catalogue.project_key}`,
      maybe(m.close.map((u) => `${u.id} (${u.display_name})`)) ?? 'найдите человека: GET /catalogue/users?q=…',
    );
  }
  checkValueType(c, catalogue, param, fieldId, value, screen);
  const allowed = allowedValues(catalogue, fieldId, screen);
  if (!allowed || allowed.length === 0) return;
  for (const v of namesIn(value)) {
    const m = match(v, allowed, (a) => [a]);
    if (m.kind === 'exact') continue;
    const what = screen?.name ?? fieldId;
    if (m.kind === 'case') addFinding(c, param, 'value_not_allowed', `значение «${shownText(v)}» поля ${what} записано не так, как в Jira`, `может быть, ${m.item}?`);
    else addFinding(c, param, 'value_not_allowed', `значения «${shownText(v)}» нет среди допустимых для поля ${what}: ${listed(allowed)}`, maybe(m.close) ?? `одно из: ${listed(allowed, 8)}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields a command sets, with their Jira ids (an unknown field becomes a finding). */
function fieldsSet(c: CommandCheck, catalogue: Catalogue, given: [string, string, unknown][]): [string, string, unknown][] {
  const out: [string, string, unknown][] = [];
  for (const [param, name, value] of given) {
    const field = lookupField(catalogue, name);
    if (field && 'ambiguous' in field) {
      const ids = field.ambiguous.map((f) => f.id);
      const settings = c.type === 'ensure_fields' ? ' и его же — в настройку fields' : '';
      addFinding(c, param, 'ambiguous_field', `поле «${shownText(name)}» неоднозначно: в Jira несколько полей с таким названием (${ids.join(', ')}), и агент не станет выбирать между ними`, `укажите вместо названия id нужного поля${settings}: ${ids.join(' или ')}`);
    } else if (field) out.push([param, field.id, value]);
    else {
      const close = match(name, catalogue.fields, (f) => [f.name]);
      addFinding(c, param, 'unknown_field', `поля «${shownText(name)}» в Jira нет`, maybe(close.kind === 'none' ? close.close.map((f) => `${f.name} (${f.id})`) : []) ?? 'поля экранов каждого типа: GET /catalogue/issue-types');
    }
  }
  return out;
}

/** The issue type of an ensure_issue, its create screen, required fields and values. */
export function checkIssue(c: CommandCheck, types: TypeContext): void {
  const catalogue = types.catalogue;
  const name = String(c.params.issue_type);
  if (!catalogue) return;
  const m = match(name, catalogue.issue_types, (t) => [t.name]);
  if (m.kind === 'none') {
    return addFinding(c, 'issue_type', 'unknown_issue_type', `типа задачи «${shownText(name)}» в проекте ${catalogue.project_key} нет; есть: ${listed(catalogue.issue_types.map((t) => t.name))}`, maybe(m.close.map((t) => t.name)) ?? `одно из: ${listed(catalogue.issue_types.map((t) => t.name), 8)}`);
  }
  const type = m.item;
  types.created(String(c.params.temp_key), type, typeof c.params.parent === 'string' ? c.params.parent : undefined);
  if (m.kind === 'case') addFinding(c, 'issue_type', 'issue_type_case', `тип задачи в Jira пишется «${type.name}»`, `может быть, ${type.name}?`);
  if (type.subtask && c.params.parent === undefined) addFinding(c, 'parent', 'parent_required', `подзадача (${type.name}) создаётся только с parent — ключом родительской задачи`, 'укажите parent');
  if (typeof c.params.parent === 'string') checkParent(c, types, type, c.params.parent);
  const config = types.config(type);
  if (!config || config.create.length === 0) return void c.unknown.push(`в каталоге нет экрана создания типа ${type.name}`);
  // Data Center puts an issue into an epic through the Epic Link field, which the agent sets: it must be on the create screen.
  const epicLink = catalogue.flavor === 'dc' && !type.subtask && typeof c.params.parent === 'string' ? catalogue.fields.find((f) => f.schema?.custom === EPIC_LINK_SCHEMA) : undefined;
  if (epicLink && !config.create.some((f) => f.field_id === epicLink.id)) {
    addFinding(
      c,
      'parent',
      'field_not_on_screen',
      `на Data Center задачу в эпик ставит поле ${epicLink.name} (${epicLink.id}), а его нет на экране создания типа ${type.name}: Jira ответит «Field '${epicLink.id}' cannot be set. It is not on the appropriate screen»`,
      'уберите parent и поставьте задачу в эпик потом, или попросите администратора Jira добавить поле на экран',
    );
  }
  const fields = isObject(c.params.fields) ? c.params.fields : {};
  const given: [string, string, unknown][] = [
    ...(c.params.description !== undefined ? [['description', 'description', c.params.description] as [string, string, unknown]] : []),
    ...Object.entries(fields).map(([k, v]) => [`fields.${k}`, k, v] as [string, string, unknown]),
  ];
  const set = fieldsSet(c, catalogue, given);
  for (const [param, id, value] of set) {
    const screen = config.create.find((f) => f.field_id === id);
    if (!screen) addFinding(c, param, 'field_not_on_screen', `поля ${id} нет на экране создания типа ${type.name}: Jira ответит «Field '${id}' cannot be set. It is not on the appropriate screen»`, 'уберите поле или попросите администратора Jira добавить его на экран');
    else checkValue(c, catalogue, param, id, value, screen);
  }
  // A required field given empty is not set: Jira answers «… is required» for null, "" and [] alike.
  const setIds = new Set([...set.filter(([, , value]) => !isEmptyValue(value)).map(([, id]) => id), ...(c.params.parent !== undefined ? ['parent'] : [])]);
  const givenEmpty = new Set(set.filter(([, , value]) => isEmptyValue(value)).map(([, id]) => id));
  for (const f of config.create.filter((f) => f.required && !f.has_default && !IMPLIED.has(f.field_id) && !setIds.has(f.field_id))) {
    const how = givenEmpty.has(f.field_id) ? 'задано пустым: Jira не создаст задачу без его значения' : 'не задано';
    const fill = givenEmpty.has(f.field_id) ? 'заполните' : 'добавьте';
    addFinding(c, `fields.${f.field_id}`, 'required_field_missing', `обязательное поле «${f.name}» (${f.field_id}) типа ${type.name} ${how}`, `${fill} fields.${f.field_id}${f.allowed_values?.length ? `: одно из ${listed(f.allowed_values, 5)}` : ''}`);
  }
}

/** A value Jira reads as no value for a required field: null, a blank text, an empty list. */
const isEmptyValue = (value: unknown): boolean => value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/**
 * SPEC 16.2: a sub-task's parent is a standard issue; a standard issue's parent is an epic (Cloud: the
 * `parent` field; Data Center: the agent sets the Epic Link field). An epic has no parent here.
 */
function checkParent(c: CommandCheck, types: TypeContext, type: CatalogueIssueType, parentKey: string): void {
  const parent = types.typeOf(parentKey);
  if (typeof parent === 'string') return void c.unknown.push(`тип родителя ${parentKey}: ${parent}`);
  // A parent is one level up: a sub-task's a standard issue (0), a standard issue's an epic (1), an epic's a
  // type above it where the project has one (Jira Cloud Premium's plans: «Initiative», level 2; its `parent`
  // field takes it as for an epic — Data Center's Advanced Roadmaps use a «Parent Link» field the agent does not set).
  const above = types.catalogue?.issue_types.filter((t) => !t.subtask && t.hierarchy_level === type.hierarchy_level + 1) ?? [];
  const higher = type.hierarchy_level >= 1 && above.length > 0 && types.catalogue?.flavor !== 'dc';
  const wanted = type.subtask ? 0 : type.hierarchy_level === 0 ? 1 : higher ? type.hierarchy_level + 1 : null;
  if (wanted === null) {
    return addFinding(c, 'parent', 'parent_type', `у задачи типа ${type.name} не бывает родителя parent в этом проекте`, 'уберите parent');
  }
  if (parent.hierarchy_level === wanted && !parent.subtask) return;
  const need =
    wanted === 0
      ? 'обычная задача (не эпик и не подзадача)'
      : wanted === 1
        ? `эпик${types.catalogue?.flavor === 'dc' ? ' (на Data Center агент заполнит поле Epic Link)' : ''}`
        : `задача типа ${listed(above.map((t) => t.name))}`;
  addFinding(c, 'parent', 'parent_type', `${parentKey} — ${parent.name}, а родителем ${type.subtask ? 'подзадачи' : `задачи типа ${type.name}`} может быть только ${need}`, 'укажите другого родителя или другой тип задачи');
}

/** The fields of an ensure_fields on the edit screen of its issue's type, and their values. */
export function checkFields(c: CommandCheck, types: TypeContext, customFields: readonly string[]): void {
  const catalogue = types.catalogue;
  if (!catalogue) return;
  void customFields;
  const type = types.typeOf(String(c.params.key));
  if (typeof type === 'string') return void c.unknown.push(type);
  const config = types.config(type);
  const given = Object.entries(c.params).filter(([k]) => k !== 'key').map(([k, v]) => [k, k, v] as [string, string, unknown]);
  const set = fieldsSet(c, catalogue, given);
  if (!config?.edit) {
    c.unknown.push(`в каталоге нет экрана редактирования типа ${type.name}`);
    for (const [param, id, value] of set) checkValue(c, catalogue, param, id, value, undefined);
    return;
  }
  for (const [param, id, value] of set) {
    const screen = config.edit.find((f) => f.field_id === id);
    if (!screen) addFinding(c, param, 'field_not_on_screen', `поля ${id} нет на экране редактирования типа ${type.name}: Jira не даст его изменить`, 'уберите поле или попросите администратора Jira добавить его на экран');
    else checkValue(c, catalogue, param, id, value, screen);
  }
}
