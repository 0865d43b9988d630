/**
 * The shape of a seed file (JIRA_SIM_SEED), checked before the simulator is made from it: `"links": "x"`
 * crashed the start with Node's English TypeError and `"issues": [1]` with Jira's "You must specify a
 * summary". Pure; the field tables are tied to types.ts at compile time (`Fields<T>`), the problems are
 * texts for people (Russian), each naming its entry (`issues[0].labels`) and the shape expected.
 */
import type {
  SimBoard,
  SimCustomField,
  SimLinkType,
  SimProject,
  SimScreens,
  SimSeed,
  SimSeedIssue,
  SimSeedLink,
  SimSprint,
  SimTransition,
  SimUser,
  SimWorkflow,
} from './types.js';

/** The problem of `value` found at `at` (a path such as `issues[0]`; '' is the file's top level), or undefined. */
type Check = (value: unknown, at: string) => string | undefined;

/** A field the object must have. */
interface Needed {
  needed: Check;
}

/** Every field of T: a required one as `needed(check)`, an optional one as its check (kept in step with types.ts by the compiler). */
type Fields<T> = { [K in keyof Required<T>]: object extends Pick<T, K> ? Check : Needed };

const needed = (check: Check): Needed => ({ needed: check });

/** The value as the file has it, in words: «число 1», «строка «x»», «список». */
function given(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'пустой список' : 'список';
  if (typeof value === 'string') return value === '' ? 'пустая строка' : `строка «${value.length > 40 ? `${value.slice(0, 40)}…` : value}»`;
  if (typeof value === 'number') return `число ${value}`;
  if (typeof value === 'boolean') return String(value);
  return 'объект';
}

/** `at` as the start of a problem's text ('' at the top level). */
const where = (at: string): string => (at === '' ? '' : `${at}: `);
const wrong = (at: string, need: string, value: unknown): string => `${where(at)}${need}, а не ${given(value)}`;

const is =
  (need: string, test: (value: unknown) => boolean): Check =>
  (value, at) =>
    test(value) ? undefined : wrong(at, need, value);

const text = is('нужна строка', (v) => typeof v === 'string');
const filled = is('нужна непустая строка', (v) => typeof v === 'string' && v.trim() !== '');
const whole = is('нужно целое число', (v) => Number.isInteger(v));
const flag = is('нужно true или false', (v) => typeof v === 'boolean');
const anything: Check = () => undefined;
const orNull =
  (check: Check): Check =>
  (value, at) =>
    value === null ? undefined : check(value, at);
const oneOf = (values: string[]): Check => is(`нужно одно из: ${values.join(', ')}`, (v) => values.includes(v as string));
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const child = (at: string, key: string): string => (at === '' ? key : /^[A-Za-z_]\w*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`);

/** A list whose every item passes `item` (`nonEmpty`: at least one). */
function list(need: string, item: Check, nonEmpty = false): Check {
  return (value, at) => {
    if (!Array.isArray(value) || (nonEmpty && value.length === 0)) return wrong(at, need, value);
    for (const [i, x] of value.entries()) {
      const problem = item(x, `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

const texts = list('нужен список строк', text);

/** An object whose values (under any names) pass `item`. */
function record(need: string, item: Check): Check {
  return (value, at) => {
    if (!isObject(value)) return wrong(at, need, value);
    for (const [key, x] of Object.entries(value)) {
      const problem = item(x, child(at, key));
      if (problem) return problem;
    }
    return undefined;
  };
}

/** An object with the fields of T and no others. */
function object<T>(need: string, fields: Fields<T>): Check {
  const table = fields as Record<string, Check | Needed>;
  const names = Object.keys(table);
  return (value, at) => {
    if (!isObject(value)) return wrong(at, need, value);
    const missing = names.filter((name) => typeof table[name] === 'object' && !(name in value));
    if (missing.length > 0) return `${where(at)}${need}, а в нём нет ${missing.join(', ')}`;
    for (const [key, x] of Object.entries(value)) {
      const field = Object.hasOwn(table, key) ? table[key]! : undefined;
      if (!field) return `${where(at)}${at === '' ? 'неизвестный ключ' : 'неизвестное поле'} «${key}» (бывают: ${names.join(', ')})`;
      const problem = (typeof field === 'function' ? field : field.needed)(x, child(at, key));
      if (problem) return problem;
    }
    return undefined;
  };
}

const issue = object<SimSeedIssue>('нужен объект задачи с summary', {
  project: text,
  summary: needed(filled),
  issueType: text,
  status: text,
  description: orNull(text),
  assignee: orNull(text),
  priority: orNull(text),
  duedate: orNull(text),
  labels: texts,
  parent: orNull(text),
  sprintIds: list('нужен список номеров спринтов', whole),
  custom: record('нужен объект «id поля: значение»', anything),
  createdAtMs: is('нужно целое число миллисекунд с 1970 года', (v) => Number.isInteger(v)),
});

const link = object<SimSeedLink>('нужен объект связи с source, target и type', { source: needed(filled), target: needed(filled), type: needed(filled) });

const transition = object<SimTransition>('нужен объект перехода с id, name, from и to', {
  id: needed(text),
  name: needed(text),
  from: needed((value, at) => (value === '*' ? undefined : list('нужен список статусов или «*»', text)(value, at))),
  to: needed(text),
  requiredFields: texts,
  validator: object<NonNullable<SimTransition['validator']>>('нужен объект с field и message', {
    field: needed(oneOf(['assignee', 'duedate', 'labels'])),
    message: needed(text),
  }),
});

const transitions = list('нужен список переходов', transition);

const customField = object<SimCustomField>('нужен объект поля с id, name, custom и type', {
  id: needed(text),
  name: needed(text),
  custom: needed(text),
  type: needed(text),
  items: text,
  options: texts,
  scope: object<NonNullable<SimCustomField['scope']>>('нужен объект {"type": "PROJECT", "project": {"id": …}}', {
    type: needed(oneOf(['PROJECT'])),
    project: needed(object<{ id: string }>('нужен объект проекта с id', { id: needed(text) })),
  }),
});

/** Each top-level key of a seed file (each replaces the default seed's key of that name). */
const seed = object<Partial<SimSeed>>('нужен JSON-объект с частями начальных данных', {
  projects: list(
    'нужен непустой список проектов',
    object<SimProject>('нужен объект проекта с id, key и name', { id: needed(text), key: needed(filled), name: needed(text), priorities: texts }),
    true,
  ),
  issueTypes: texts,
  statuses: texts,
  initialStatus: text,
  transitions,
  linkTypes: list(
    'нужен список типов связей',
    object<SimLinkType>('нужен объект типа связи с id, name, inward и outward', { id: needed(text), name: needed(text), inward: needed(text), outward: needed(text) }),
  ),
  boards: list(
    'нужен список досок',
    object<SimBoard>('нужен объект доски с id, name, type и projectKey', {
      id: needed(whole),
      name: needed(text),
      type: needed(oneOf(['scrum', 'kanban', 'simple'])),
      projectKey: needed(text),
    }),
  ),
  sprints: list(
    'нужен список спринтов',
    object<SimSprint>('нужен объект спринта с id, name, state и boardId', {
      id: needed(whole),
      name: needed(text),
      state: needed(oneOf(['active', 'future', 'closed'])),
      boardId: needed(whole),
      goal: text,
    }),
  ),
  users: list(
    'нужен непустой список пользователей (первый — тот, от чьего имени работают)',
    object<SimUser>('нужен объект пользователя с accountId, name, displayName и emailAddress', {
      accountId: needed(text),
      name: needed(text),
      displayName: needed(text),
      emailAddress: needed(text),
    }),
    true,
  ),
  priorities: texts,
  defaultPriority: text,
  customFields: list('нужен список полей', customField),
  resolutions: texts,
  deniedPermissions: texts,
  components: texts,
  versions: texts,
  epicLinkFieldId: text,
  sprintFieldId: text,
  epicNameFieldId: text,
  workflows: record(
    'нужен объект «тип задачи: процесс»',
    object<SimWorkflow>('нужен объект процесса со statuses, initialStatus и transitions', { statuses: needed(texts), initialStatus: needed(text), transitions: needed(transitions) }),
  ),
  screens: record('нужен объект «тип задачи: экраны»', object<SimScreens>('нужен объект экранов (create, edit, required)', { create: texts, edit: texts, required: texts })),
  assignable: texts,
  legacyCreateMeta: flag,
  workflowsReadable: flag,
  issues: list('нужен список задач', issue),
  links: list('нужен список связей', link),
});

/**
 * The first problem of a parsed seed file (`issues[0]: нужен объект задачи с summary, а не число 1`), or
 * undefined when the simulator can be made from it. Values Jira would refuse (an unknown issue type, a
 * link to no issue) are the store's to find, as it creates the entries.
 */
export function seedProblem(value: unknown): string | undefined {
  return seed(value, '');
}
