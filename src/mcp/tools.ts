/**
 * The MCP tools, defined once: name, description for a model, zod input schema, whether it writes,
 * and a handler against the HubApi port. Both transports (stdio, Streamable HTTP at /mcp) serve this
 * list through server.ts.
 */
import { z } from 'zod';
import { COMMAND_TYPES } from '../common/command-types.js';
import { JIRA_KEY, TEMP_KEY } from '../common/keys.js';
import { formatReport } from '../import/report-text.js';
import type { BatchBody, HubApi } from './hub-api.js';
import { agentStatusText, batchListText, batchText, commandText, issueLine, issueLinks, issueText, noteLine, planText } from './texts.js';

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

const tool = <S extends z.ZodObject>(def: ToolDef<S>): ToolDef => def as unknown as ToolDef;

const id = (what: string) => z.number({ error: `${what}: нужно целое положительное число` }).int().positive().describe(what);
const jiraKey = z.string().regex(JIRA_KEY, { error: 'ключ Jira вида AURORA-123' }).describe('ключ задачи Jira, например AURORA-123');
const noteKey = z
  .string()
  .refine((k) => JIRA_KEY.test(k) || TEMP_KEY.test(k), { error: 'ключ Jira (AURORA-123) или временный ключ (new:1)' })
  .describe('ключ Jira (AURORA-123) или временный ключ new:N');

const COMMANDS_HELP = `Команды идемпотентны («добиться, чтобы…»), агент выполняет их по одной, с паузами:
- ensure_issue {temp_key: "new:N", issue_type, summary, description?, parent?, fields?} — найти задачу с такой темой или создать; temp_key «new:N» — временный ключ, которым следующие команды этого пакета (и более поздних) ссылаются на создаваемую задачу;
- ensure_fields {key, summary?|description?|duedate? (YYYY-MM-DD или null)|labels?|assignee?|priority?|<поле из настройки fields>} — хотя бы одно поле;
- ensure_status {key, path: ["In Progress", "Done"]} — пройти переходы до последнего статуса пути;
- ensure_link {source, target, link_type} — связь направлена от source к target: «source блокирует target» = {source, target, link_type: "Blocks"}; link_type — имя типа связи в Jira (Blocks, Relates, Duplicate…);
- ensure_sprint {key, sprint, board?} — перенести в спринт;
- ensure_comment {key, body, marker?} — добавить комментарий, если комментария с marker ещё нет;
- refresh {keys: [...]} или {jql} — перечитать задачи в зеркало.
Ключи — ключи Jira (AURORA-123) или временные new:N, определённые ensure_issue раньше в этом пакете. Две ensure_issue с одной темой в пакете запрещены. Хаб сам добавляет в конец refresh всех названных ключей.`;

const batchShape = {
  title: z.string().trim().min(1, { error: 'название пакета не может быть пустым' }).describe('название пакета для людей, например «Планирование спринта 2»'),
  author: z.string().optional().describe('кто составил план (по умолчанию — ассистент)'),
  commands: z
    .array(
      z.object({
        type: z.enum(COMMAND_TYPES, { error: `тип команды: один из ${COMMAND_TYPES.join(', ')}` }),
        params: z.record(z.string(), z.unknown(), { error: 'params: объект с параметрами команды' }),
      }),
    )
    .min(1, { error: 'нужна хотя бы одна команда' })
    .describe('команды по порядку выполнения'),
};

const toBody = (a: { title: string; author?: string; commands: BatchBody['commands'] }): BatchBody => ({
  title: a.title,
  ...(a.author ? { author: a.author } : {}),
  commands: a.commands,
});

const BATCH_STATUSES = ['awaiting_approval', 'queued', 'running', 'done', 'cancelled'] as const;

export const TOOLS: ToolDef[] = [
  tool({
    name: 'plan_batch',
    title: 'Проверить план (без записи)',
    description: `Сухой прогон пакета команд для Jira: ничего не записывает и ничего не ставит в очередь. Возвращает ошибки проверки (те же, что дал бы submit_batch), оценку времени и для каждой команды вердикт по зеркалу Jira в хабе: уже выполнено (holds), изменит Jira (would_change, было → станет), ключа нет в зеркале (unknown_key — сначала нужен refresh) или не оценить (cannot_judge), с возрастом данных зеркала. Вызывайте перед submit_batch, чтобы показать человеку, что именно изменится.\n${COMMANDS_HELP}`,
    writes: false,
    input: z.object(batchShape),
    run: async (api, a) => {
      const plan = await api.planBatch(toBody(a));
      return { text: planText(plan), data: plan };
    },
  }),
  tool({
    name: 'submit_batch',
    title: 'Отправить пакет команд',
    description: `Ставит пакет команд для Jira в очередь хаба. Пакеты ассистента ждут одобрения человека (статус awaiting_approval): агент не выполнит ни одной команды, пока человек не одобрит пакет; ничего не уходит в Jira сразу. Сначала проверьте план инструментом plan_batch. Передайте idempotency_key (любая уникальная строка на один план), чтобы повторная отправка того же пакета — например, после обрыва связи — вернула первый пакет, а не создала дубликат. Следите за пакетом через get_batch.\n${COMMANDS_HELP}`,
    writes: true,
    input: z.object({
      ...batchShape,
      idempotency_key: z.string().min(1, { error: 'idempotency_key не может быть пустым' }).optional().describe('ключ идемпотентности: тот же ключ с тем же телом вернёт уже созданный пакет'),
    }),
    run: async (api, a) => {
      const { batch, replayed } = await api.createBatch(toBody(a), a.idempotency_key);
      const intro = replayed ? `Пакет с ключом идемпотентности «${a.idempotency_key}» уже был отправлен; это он, новый не создан.` : 'Пакет создан.';
      return { text: batchText(batch, intro), data: { ...batch, replayed } };
    },
  }),
  tool({
    name: 'get_batch',
    title: 'Пакет и его команды',
    description: 'Состояние пакета: статус (awaiting_approval — ждёт одобрения человека, queued, running, done, cancelled), кто одобрил, оценка и остаток времени, каждая команда с её статусом, результатом или ошибкой. Используйте, чтобы следить за отправленным пакетом.',
    writes: false,
    input: z.object({ batch_id: id('номер пакета') }),
    run: async (api, a) => {
      const batch = await api.getBatch(a.batch_id);
      return { text: batchText(batch), data: batch };
    },
  }),
  tool({
    name: 'list_batches',
    title: 'Список пакетов',
    description: 'Пакеты хаба, новые первыми, с фильтром по статусу (awaiting_approval, queued, running, done, cancelled); листание через before_id (номер последнего пакета предыдущей страницы).',
    writes: false,
    input: z.object({
      status: z.enum(BATCH_STATUSES, { error: `статус: один из ${BATCH_STATUSES.join(', ')}` }).optional(),
      limit: z.number().int().min(1).max(100).default(20).describe('сколько пакетов, 1..100'),
      before_id: id('показать пакеты с номером меньше этого').optional(),
    }),
    run: async (api, a) => {
      const batches = await api.listBatches(a);
      return { text: batchListText(batches), data: { batches } };
    },
  }),
  tool({
    name: 'cancel_batch',
    title: 'Отменить пакет',
    description: 'Отменяет все ещё не выданные агенту команды пакета (в том числе пакета, ждущего одобрения). Команду, которую агент уже выполняет, хаб не прерывает. Повторный вызов безопасен.',
    writes: true,
    input: z.object({ batch_id: id('номер пакета') }),
    run: async (api, a) => {
      const batch = await api.cancelBatch(a.batch_id);
      return { text: batchText(batch, 'Пакет отменён.'), data: batch };
    },
  }),
  tool({
    name: 'cancel_command',
    title: 'Отменить команду',
    description: 'Отменяет одну команду, пока она в очереди. Команду, уже выданную агенту, ассистент отменить не может (это решает человек); завершённую — тоже.',
    writes: true,
    input: z.object({ command_id: id('номер команды') }),
    run: async (api, a) => {
      const command = await api.cancelCommand(a.command_id);
      return { text: commandText(command, 'Команда отменена.'), data: command };
    },
  }),
  tool({
    name: 'retry_command',
    title: 'Повторить команду',
    description: 'Повторяет команду со статусом failed, cancelled или skipped в новом пакете «Повтор команды #<id>». Новый пакет ассистента тоже ждёт одобрения человека.',
    writes: true,
    input: z.object({ command_id: id('номер команды') }),
    run: async (api, a) => {
      const batch = await api.retryCommand(a.command_id);
      return { text: batchText(batch, `Команда #${a.command_id} поставлена на повтор.`), data: batch };
    },
  }),
  tool({
    name: 'agent_status',
    title: 'Состояние агента',
    description: 'Агент, который пишет в Jira: онлайн или офлайн, версия, текущая команда, команды, выданные повторно (отчёт не пришёл) с числом выдач и временем последней выдачи, ответы 429 от Jira за 24 ч и предупреждение для человека. Используйте, когда пакет долго не движется.',
    writes: false,
    input: z.object({}),
    run: async (api) => {
      const status = await api.agentStatus();
      return { text: agentStatusText(status), data: status };
    },
  }),
  tool({
    name: 'search_issues',
    title: 'Поиск задач в зеркале',
    description: 'Ищет задачи в зеркале Jira в хабе (копия, которую обновляют команды refresh; не сама Jira) по ключам, статусу, спринту или тексту в теме. Для каждой задачи — поля, связи в обе стороны словами («AURORA-1 блокирует AURORA-2» значит: связь от AURORA-1 к AURORA-2) и время, когда данные прочитаны из Jira. Задачи, которых нет в зеркале, прочитайте командой refresh в пакете.',
    writes: false,
    input: z.object({
      keys: z.array(jiraKey).optional().describe('ключи задач'),
      q: z.string().optional().describe('текст в теме задачи, без учёта регистра'),
      status: z.string().optional(),
      sprint: z.string().optional(),
      limit: z.number().int().min(1).max(50).default(20).describe('сколько задач, 1..50'),
      offset: z.number().int().min(0).default(0),
    }),
    run: async (api, a) => {
      const [issues, linkTypes] = await Promise.all([api.listIssues(a), api.linkTypes()]);
      const details = await Promise.all(issues.map((i) => api.getIssue(i.key)));
      const lines = details.map((d) => {
        const links = issueLinks(d, linkTypes);
        return `${issueLine(d)}${links.length ? `; связи: ${links.join('; ')}` : ''}`;
      });
      return {
        text: details.length ? [`Найдено задач: ${details.length}.`, ...lines].join('\n') : 'В зеркале таких задач нет (если они есть в Jira — прочитайте их командой refresh).',
        data: { issues: details.map((d) => ({ ...d, links: issueLinks(d, linkTypes) })) },
      };
    },
  }),
  tool({
    name: 'get_issue',
    title: 'Задача из зеркала',
    description: 'Одна задача из зеркала Jira в хабе: поля, все связи в обе стороны словами («AURORA-1 блокирует AURORA-2» значит: связь от AURORA-1 к AURORA-2; в ensure_link это source=AURORA-1, target=AURORA-2), внутренняя заметка команды и время чтения из Jira.',
    writes: false,
    input: z.object({ key: jiraKey }),
    run: async (api, a) => {
      const [issue, linkTypes] = await Promise.all([api.getIssue(a.key), api.linkTypes()]);
      return { text: issueText(issue, linkTypes), data: { ...issue, links: issueLinks(issue, linkTypes) } };
    },
  }),
  tool({
    name: 'get_note',
    title: 'Заметка команды',
    description: 'Внутренняя заметка команды о задаче (фактический статус, комментарий), по ключу Jira или временному ключу new:N. Заметки никогда не уходят в Jira.',
    writes: false,
    input: z.object({ key: noteKey }),
    run: async (api, a) => {
      const note = await api.getNote(a.key);
      return { text: noteLine(note), data: note };
    },
  }),
  tool({
    name: 'put_note',
    title: 'Записать заметку',
    description: 'Создаёт или меняет внутреннюю заметку команды о задаче (fact_status, comment; null стирает поле). Заметки хранятся только в хабе и никогда не уходят в Jira, одобрение не нужно.',
    writes: true,
    input: z
      .object({
        key: noteKey,
        fact_status: z.string().nullable().optional().describe('фактический статус своими словами'),
        comment: z.string().nullable().optional().describe('внутренний комментарий'),
      })
      .refine((a) => a.fact_status !== undefined || a.comment !== undefined, { error: 'передайте fact_status и/или comment' }),
    run: async (api, a) => {
      const note = await api.putNote(a.key, { fact_status: a.fact_status, comment: a.comment });
      return { text: `Заметка записана. ${noteLine(note)}`, data: note };
    },
  }),
  tool({
    name: 'compare_package',
    title: 'Сравнить пакет планирования с Jira',
    description: 'Импортирует пакет планирования — CSV-тексты notes.csv (Ключ, Факт. статус, Комментарий (внутр.)) и/или links.csv (Откуда, Тип, Куда, Пояснение (внутр.)), разделитель «,» или «;» — и сравнивает связи с зеркалом Jira: каких нет, какие направлены наоборот, каких ключей нет в зеркале. Строки notes записываются как заметки команды (в Jira ничего не уходит). Связь в строке идёт от «Откуда» к «Куда».',
    writes: true,
    input: z
      .object({
        notes_csv: z.string().optional().describe('текст notes.csv с заголовком'),
        links_csv: z.string().optional().describe('текст links.csv с заголовком'),
      })
      .refine((a) => a.notes_csv !== undefined || a.links_csv !== undefined, { error: 'передайте notes_csv и/или links_csv' }),
    run: async (api, a) => {
      const report = await api.importPackage({ notes: a.notes_csv, links: a.links_csv });
      return { text: formatReport(report), data: report };
    },
  }),
];

/** The tools a server lists: all, or in read-only mode only those that write nothing. */
export const toolsFor = (readOnly: boolean): ToolDef[] => TOOLS.filter((t) => !readOnly || !t.writes);
