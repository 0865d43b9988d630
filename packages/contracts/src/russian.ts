/**
 * Russian grammar and wording the hub's and the dashboard's texts share (`@jira-hub/contracts/russian`): one
 * rule for the API's and MCP's answers and for the dashboard, so the two never word a count or a board
 * differently. Dependency-free, like the catalogue.
 */

/** The Russian form of a noun after the number `n`: 1 команда, 2 команды, 5 команд, 21 команда, 11 команд, 112 команд. */
export function plural(n: number | bigint, one: string, few: string, many: string): string {
  const a = Math.abs(Number(typeof n === 'bigint' ? n % 100n : n % 100));
  const b = a % 10;
  if (a > 10 && a < 20) return many;
  if (b === 1) return one;
  if (b >= 2 && b <= 4) return few;
  return many;
}

/**
 * A sprint's board in words (a change record's `board_id`, a package row's `Доска`): «доска «Команда А»» by
 * the name the catalogue's `boards` give it, «доска 2» when they do not know it (no catalogue yet, an
 * unknown id). A board given by a name (as ensure_sprint takes it) is that name. `quote` puts the name in
 * quotation marks («…»; the MCP fences it instead: a board's name is Jira's text).
 */
export function boardWords(board: number | string, boards: readonly { id: number; name: string }[] | null | undefined, quote = (name: string) => `«${name}»`): string {
  const name = typeof board === 'string' ? board : boards?.find((b) => b.id === board)?.name;
  return `доска ${name === undefined ? board : quote(name)}`;
}

/**
 * Whether changes of the record (SPEC 17.1) name a sprint's board by its id: only then are the catalogue's
 * boards worth reading to word them (boardWords).
 */
export function namesSprintBoard(changes: readonly { what: string; before?: unknown; after?: unknown }[]): boolean {
  const board = (v: unknown) => typeof (v as { board_id?: unknown } | null | undefined)?.board_id === 'number';
  return changes.some((c) => c.what === 'sprint' && (board(c.before) || board(c.after)));
}

/**
 * The agent status's warning that the agent has gone quiet while commands wait (GET /agent `warning`):
 * «Агент не выходил на связь уже 5 мин, а в очереди есть команды.» The hub words the age at the moment it
 * answers; the dashboard finds the sentence by AGENT_QUIET_WARNING and words it again every second, so the
 * age counts up while the page stays open, like every other time on it.
 */
export function agentQuietWarning(age: string): string {
  return `Агент не выходил на связь уже ${age}, а в очереди есть команды.`;
}

/** agentQuietWarning's sentence, whatever its age, inside a `warning` that may carry other sentences too. */
export const AGENT_QUIET_WARNING = /Агент не выходил на связь уже [^,]+, а в очереди есть команды\./;

/**
 * Jira's fields and the other subjects of a change or a plan, as Jira shows them in Russian, by their
 * names in the API: «Срок» for duedate, «Приоритет» for priority. Capitalised, as a column or a row names
 * them; in a sentence see fieldWords. The one list the hub, the MCP and the dashboard name fields by.
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  summary: 'Тема',
  description: 'Описание',
  duedate: 'Срок',
  labels: 'Метки',
  assignee: 'Исполнитель',
  priority: 'Приоритет',
  status: 'Статус',
  sprint: 'Спринт',
  parent: 'Родитель',
  issue_type: 'Тип',
  issue: 'Задача',
  link: 'Связь',
};

/** A field of the catalogue (`fields`): what Jira calls it. */
export interface NamedField {
  id: string;
  name: string;
}

const own = (field: string): string | undefined => (Object.hasOwn(FIELD_LABELS, field) ? FIELD_LABELS[field] : undefined);

/**
 * A custom field (a name of settings `fields`: an id such as customfield_10020, or a display name in any
 * letter case) by the name the catalogue's `fields` give it, as the agent finds it: by its id, else by its
 * name trimmed and letter case aside when one field only has it. Undefined when they do not know it.
 */
export function catalogueFieldName(field: string, fields: readonly NamedField[] | null | undefined): string | undefined {
  if (!fields?.length) return undefined;
  const byId = fields.find((f) => f.id === field);
  if (byId) return byId.name;
  const wanted = field.trim().toLowerCase();
  const byName = fields.filter((f) => f.name.trim().toLowerCase() === wanted);
  return byName.length === 1 ? byName[0]!.name : undefined;
}

/**
 * A field as a column or a row names it: «Срок» for duedate; a custom field by the name the catalogue's
 * `fields` give it (catalogueFieldName), else by its own name.
 */
export function fieldLabel(field: string, fields?: readonly NamedField[] | null): string {
  return own(field) ?? catalogueFieldName(field, fields) ?? field;
}

/**
 * A field inside a sentence: «срок», «приоритет»; a custom field «поле «Story Points»», by the name the
 * catalogue's `fields` give it when they know it, else by its own name. `quote` puts that name in
 * quotation marks («…»; the MCP fences it instead: a field's name is Jira's text).
 */
export function fieldWords(field: string, fields?: readonly NamedField[] | null, quote = (name: string) => `«${name}»`): string {
  const label = own(field);
  return label === undefined ? `поле ${quote(catalogueFieldName(field, fields) ?? field)}` : label.toLowerCase();
}

/**
 * The params of commands that are not fields of an issue, as a finding of the checks or a revert's conflict
 * names them: «Тип связи» for link_type. Capitalised, as a column names them; in a sentence see paramWords.
 */
export const PARAM_LABELS: Readonly<Record<string, string>> = {
  key: 'Ключ',
  keys: 'Ключи',
  temp_key: 'Временный ключ',
  board: 'Доска',
  body: 'Текст комментария',
  marker: 'Метка комментария',
  comment_id: 'Комментарий',
  fields: 'Поля',
  jql: 'JQL',
  link_type: 'Тип связи',
  source: 'Откуда',
  target: 'Куда',
  to: 'Целевой статус',
  path: 'Путь по статусам',
};

/** A param of a command as a column or a row names it: «Тип связи» for link_type, «Срок» for duedate; a custom field as fieldLabel names it. */
export function paramLabel(param: string, fields?: readonly NamedField[] | null): string {
  return Object.hasOwn(PARAM_LABELS, param) ? PARAM_LABELS[param]! : fieldLabel(param, fields);
}

/** A param of a command inside a sentence: «тип связи», «срок», «поле «Story Points»» (an abbreviation stays as it is: JQL). */
export function paramWords(param: string, fields?: readonly NamedField[] | null, quote?: (name: string) => string): string {
  if (!Object.hasOwn(PARAM_LABELS, param)) return fieldWords(param, fields, quote);
  const label = PARAM_LABELS[param]!;
  return label === label.toUpperCase() ? label : label.toLowerCase();
}

/**
 * The command `refresh` in words for people (its type stays `refresh` in the API): the hub's plans, the MCP's
 * answers and the dashboard say what it does, not its name. `refreshWords(3)`: «обновить зеркало: 3 ключа».
 */
export function refreshWords(keys: number): string {
  return `обновить зеркало: ${keys} ${plural(keys, 'ключ', 'ключа', 'ключей')}`;
}

/** The refresh the hub adds at the end of every batch that writes, in words: «…: 2 команды и обновление зеркала в конце». */
export const TAIL_REFRESH_WORDS = 'обновление зеркала в конце';

/** What a check could not tell (no catalogue, a stale one), in one word as Russian writes it. */
export const UNKNOWN_WORD = 'неизвестно';
