/**
 * The command catalogue as schemas (SPEC 4, 16.2, 17.2): one zod schema per command type — its params,
 * their types, enums, patterns (keys, temp keys, dates) and limits, and an example. The MCP tools take
 * `commands` as the discriminated union COMMAND; REST's OpenAPI shows the same union as JSON Schema
 * (commandJsonSchemas). Problems are Russian sentences for whoever wrote the batch.
 *
 * The catalogue's validator (./catalogue.ts, dependency-free) stays the source of the hub's 422s (it loads
 * at the hub's start, zod does not); a table test feeds the same cases to both so they cannot drift.
 * This entry is apart from the package's index (`@jira-hub/contracts/commands`): the index stays
 * types only, and whoever imports it does not load zod.
 */
import { z } from 'zod';
import { isCalendarDate, JIRA_KEY, JQL_MAX, SUMMARY_LIMIT, summaryProblem, TEMP_KEY } from './catalogue.js';

/** SPEC 4: a Jira key and a temp key, as JSON Schema patterns. */
export const JIRA_KEY_PATTERN = JIRA_KEY.source;
export const TEMP_KEY_PATTERN = TEMP_KEY.source;

/** SPEC 16.2: what Jira accepts. */
export const LIMITS = {
  /** a summary, in UTF-16 units as Jira counts it (an emoji counts twice; catalogue.ts SUMMARY_LIMIT) */
  summary: SUMMARY_LIMIT,
  /** a description, a comment body, a marker */
  text: 32_767,
  /** one label (no whitespace) */
  label: 255,
  /** commands in one batch (SPEC 5) */
  commands: 1000,
} as const;

/** A type error's message: «обязательный параметр» when the value is missing, else `message`. */
const need =
  (message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'обязательный параметр' : message;

const KEY_ERROR = 'нужен ключ Jira (ABC-123) или временный ключ (new:N)';
const key = z
  .string({ error: need(KEY_ERROR) })
  .regex(new RegExp(`${JIRA_KEY_PATTERN}|${TEMP_KEY_PATTERN}`), { error: KEY_ERROR })
  .describe('ключ Jira (AURORA-123) или временный ключ new:N из ensure_issue этого или более раннего пакета');
const tempKey = z
  .string({ error: need('нужен временный ключ вида new:N') })
  .regex(new RegExp(TEMP_KEY_PATTERN), { error: 'нужен временный ключ вида new:N' })
  .describe('временный ключ new:N: по нему следующие команды ссылаются на задачу');

/** A string with a letter or digit in it (not blank), at most `max` characters. */
const nonBlank = (max?: number) => {
  const s = z.string({ error: need('нужна непустая строка') }).regex(/\S/, { error: 'нужна непустая строка' });
  return max === undefined ? s : s.max(max, { error: (i) => `не длиннее ${max} символов (сейчас ${(i.input as string).length})` });
};
const text = (max: number) => z.string({ error: need('нужна строка') }).max(max, { error: (i) => `не длиннее ${max} символов (сейчас ${(i.input as string).length})` });

/**
 * A summary: not blank, one line, within Jira's limit in UTF-16 units, as Jira counts it. Not zod's `max`, which counts
 * code points (130 emoji would pass it); JSON Schema's maxLength counts code points too, so it is stated
 * there only as the bound it is, and the description says how Jira counts.
 */
const summary = nonBlank()
  .refine((s) => summaryProblem(s) === null, { error: (i) => summaryProblem(i.input as string) ?? undefined })
  .meta({ maxLength: LIMITS.summary });
const SUMMARY_TEXT = `тема, одна строка до ${LIMITS.summary} знаков (эмодзи — за два, как их считает Jira)`;

const DATE_ERROR = 'нужна дата ГГГГ-ММ-ДД или null';
const date = z
  .string({ error: need(DATE_ERROR) })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: DATE_ERROR })
  .refine(isCalendarDate, { error: 'такой даты нет в календаре' })
  .meta({ format: 'date' });
const label = z
  .string({ error: need('метка — строка') })
  .regex(/^\S+$/, { error: 'метка без пробелов' })
  .max(LIMITS.label, { error: `метка не длиннее ${LIMITS.label} символов` });

/** The standard fields of ensure_fields (any other name must be listed in settings `fields`). */
export const STANDARD_FIELD_SCHEMAS = {
  summary: summary.describe(SUMMARY_TEXT),
  description: text(LIMITS.text).nullable().describe(`описание, до ${LIMITS.text} символов; null стирает`),
  duedate: date.nullable().describe('срок ГГГГ-ММ-ДД; null стирает'),
  labels: z.array(label, { error: need('нужен массив меток') }).describe(`метки: без пробелов, каждая до ${LIMITS.label} символов; весь набор`),
  assignee: z.string({ error: need('нужна строка или null') }).nullable().describe('исполнитель (accountId в Cloud, имя пользователя в DC); null снимает'),
  priority: nonBlank().describe('приоритет по имени, например High'),
};

const params = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape, { error: (i) => (i.code === 'invalid_type' ? 'нужен объект' : undefined) });

/** Params of each command type. */
export const PARAMS = {
  ensure_issue: params({
    temp_key: tempKey,
    issue_type: nonBlank().describe('тип задачи проекта, например Task'),
    summary: summary.describe(`${SUMMARY_TEXT}; по ней агент находит задачу, если она уже есть`),
    description: text(LIMITS.text).optional().describe(`описание, до ${LIMITS.text} символов`),
    parent: key.optional().describe('родитель: ключ Jira или временный ключ'),
    fields: z.record(z.string(), z.unknown(), { error: 'нужен объект' }).optional().describe('другие поля при создании'),
  }),
  ensure_fields: z
    .object(
      {
        key,
        summary: STANDARD_FIELD_SCHEMAS.summary.optional(),
        description: STANDARD_FIELD_SCHEMAS.description.optional(),
        duedate: STANDARD_FIELD_SCHEMAS.duedate.optional(),
        labels: STANDARD_FIELD_SCHEMAS.labels.optional(),
        assignee: STANDARD_FIELD_SCHEMAS.assignee.optional(),
        priority: STANDARD_FIELD_SCHEMAS.priority.optional(),
      },
      { error: (i) => (i.code === 'invalid_type' ? 'нужен объект' : undefined) },
    )
    .catchall(z.unknown())
    .refine((p) => Object.keys(p).some((k) => k !== 'key'), { error: 'нужно хотя бы одно поле для установки', path: [] })
    .describe('key и хотя бы одно поле; другие поля — только названные в настройке fields'),
  ensure_status: params({
    key,
    path: z.array(nonBlank(), { error: 'нужен непустой массив названий статусов' }).min(1, { error: 'нужен непустой массив названий статусов' }).optional().describe('статусы по порядку; последний — цель'),
    to: nonBlank().optional().describe('целевой статус: хаб сам найдёт кратчайший путь переходов'),
  })
    .refine((p) => (p.path === undefined) !== (p.to === undefined), { error: 'нужно одно из двух: path или to', path: [] })
    .describe('key и либо path (статусы по порядку), либо to (целевой статус)'),
  ensure_link: params({
    source: key.describe('откуда связь: «source блокирует target»'),
    target: key.describe('куда связь'),
    link_type: nonBlank().describe('тип связи Jira (Blocks, Relates…), её описание («блокирует») или слово из настройки link_types'),
  }).refine((p) => p.source !== p.target, { error: 'связь задачи с самой собой', path: ['target'] }),
  ensure_sprint: params({
    key,
    sprint: nonBlank().nullable().describe('название спринта (активного или будущего); null — в бэклог'),
    board: z
      .union([nonBlank(), z.number().int().positive()], { error: 'нужно название доски или её id (целое больше 0)' })
      .optional()
      .describe('доска, когда названия спринтов повторяются'),
  }),
  ensure_comment: params({
    key,
    body: nonBlank(LIMITS.text).describe(`текст комментария, до ${LIMITS.text} символов`),
    marker: nonBlank(LIMITS.text).optional().describe('метка: комментарий не добавится, если уже есть комментарий с ней'),
  }),
  refresh: params({
    keys: z.array(key, { error: need('нужен непустой массив ключей') }).min(1, { error: 'нужен непустой массив ключей' }).optional(),
    jql: nonBlank(JQL_MAX).optional().describe(`запрос JQL, до ${JQL_MAX} символов (много задач — списком в keys)`),
  })
    .refine((p) => (p.keys === undefined) !== (p.jql === undefined), { error: 'нужно одно из двух: keys или jql', path: [] })
    .describe('keys или jql, не оба'),
  refresh_catalogue: params({}).describe('без параметров: перечитать настройки проекта Jira (типы, поля, переходы, спринты…)'),
  remove_link: params({ source: key, target: key, link_type: nonBlank() }).describe('удалить связь source → target этого типа'),
  remove_comment: params({
    key,
    comment_id: z.union([z.string().regex(/^[1-9][0-9]*$/), z.number().int().positive()], { error: 'нужен id комментария Jira' }).describe('id комментария Jira'),
  }),
  delete_issue: params({ key, summary: summary.describe('удалит, только если тема в Jira всё ещё такая') }),
} as const;

export type SchemaCommandType = keyof typeof PARAMS;
export const SCHEMA_COMMAND_TYPES = Object.keys(PARAMS) as SchemaCommandType[];

/** What each command does, for a model (one line). */
export const COMMAND_DESCRIPTIONS: Record<SchemaCommandType, string> = {
  ensure_issue: 'найти задачу с такой темой или создать; temp_key new:N — её временный ключ для следующих команд',
  ensure_fields: 'установить поля, которые отличаются',
  ensure_status: 'перевести задачу по переходам до статуса',
  ensure_link: 'связь от source к target: «source блокирует target» = {source, target, link_type: "Blocks"}',
  ensure_sprint: 'перенести в спринт (null — в бэклог)',
  ensure_comment: 'добавить комментарий, если комментария с marker ещё нет',
  refresh: 'перечитать задачи в зеркало',
  refresh_catalogue: 'перечитать настройки проекта Jira',
  remove_link: 'удалить связь',
  remove_comment: 'удалить комментарий',
  delete_issue: 'удалить задачу, если её тема не изменилась',
};

/** One example per type. */
export const COMMAND_EXAMPLES: { [T in SchemaCommandType]: { type: T; params: Record<string, unknown> } } = {
  ensure_issue: { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт о продажах', parent: 'AURORA-10' } },
  ensure_fields: { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-01', labels: ['backend'] } },
  ensure_status: { type: 'ensure_status', params: { key: 'AURORA-1', path: ['In Progress', 'Done'] } },
  ensure_link: { type: 'ensure_link', params: { source: 'AURORA-1', target: 'new:1', link_type: 'Blocks' } },
  ensure_sprint: { type: 'ensure_sprint', params: { key: 'AURORA-1', sprint: 'Спринт 2' } },
  ensure_comment: { type: 'ensure_comment', params: { key: 'AURORA-1', body: 'Срок перенесён по просьбе заказчика', marker: 'срок-2026-12' } },
  refresh: { type: 'refresh', params: { keys: ['AURORA-1', 'AURORA-2'] } },
  refresh_catalogue: { type: 'refresh_catalogue', params: {} },
  remove_link: { type: 'remove_link', params: { source: 'AURORA-1', target: 'AURORA-2', link_type: 'Blocks' } },
  remove_comment: { type: 'remove_comment', params: { key: 'AURORA-1', comment_id: '10001' } },
  delete_issue: { type: 'delete_issue', params: { key: 'AURORA-5', summary: 'Отчёт о продажах' } },
};

const commandOf = <T extends SchemaCommandType>(type: T) =>
  z
    .strictObject({ type: z.literal(type), params: PARAMS[type] }, { error: (i) => (i.code === 'invalid_type' ? 'команда: объект {type, params}' : undefined) })
    .describe(`${type}: ${COMMAND_DESCRIPTIONS[type]}`)
    .meta({ title: type, examples: [COMMAND_EXAMPLES[type]] });

const TYPES_LIST = SCHEMA_COMMAND_TYPES.join(', ');

/** One command `{type, params}`: a discriminated union on `type`. */
export const COMMAND = z.discriminatedUnion(
  'type',
  [
    commandOf('ensure_issue'),
    commandOf('ensure_fields'),
    commandOf('ensure_status'),
    commandOf('ensure_link'),
    commandOf('ensure_sprint'),
    commandOf('ensure_comment'),
    commandOf('refresh'),
    commandOf('refresh_catalogue'),
    commandOf('remove_link'),
    commandOf('remove_comment'),
    commandOf('delete_issue'),
  ],
  {
    error: (i) =>
      i.code === 'invalid_union'
        ? `тип команды: один из ${TYPES_LIST}${typeof (i.input as { type?: unknown })?.type === 'string' ? ` (а не «${String((i.input as { type: string }).type).slice(0, 100)}»)` : ''}`
        : i.code === 'invalid_type'
          ? 'команда: объект {type, params}'
          : undefined,
  },
);
export type Command = z.output<typeof COMMAND>;

/** A batch's commands: 1..1000, in order of execution. */
export const COMMANDS = z
  .array(COMMAND, { error: 'нужен массив команд' })
  .min(1, { error: 'нужна хотя бы одна команда' })
  .max(LIMITS.commands, { error: `не больше ${LIMITS.commands} команд в пакете` })
  .describe('команды по порядку выполнения');

/** The union as JSON Schema (draft 2020-12, no `$schema`), for OpenAPI and any client. */
export function commandJsonSchema(): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(COMMAND, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}
