/** The tools of batches and commands: plan, submit, follow, cancel, retry. */
import { COMMAND_DESCRIPTIONS, COMMANDS, LIMITS, SCHEMA_COMMAND_TYPES } from '@jira-hub/contracts/commands';
import { z } from 'zod';
import { BATCH_FILTERS, MAX_AUTHOR, MAX_TITLE } from '../../queue/index.js';
import { HubError, type BatchBody, type BatchView, type CommandView, type HubApi } from '../hub-api.js';
import { batchChangesText, boardsOfChanges, type Boards } from '../change-texts.js';
import { batchHeadline, batchListText, batchPage, checksLine, commandLines, commandText, nextStep, planText } from '../texts.js';
import { id, page, tool, type ToolAnswer, type ToolDef } from '../tool.js';

/**
 * Whether an assistant's batch waits for a person is the hub's setting `approval` (SPEC 15.2; on by default):
 * a description never promises it (decision 1471). plan_batch says it of the batch beforehand, every answer
 * that makes a batch by its status.
 */
export const APPROVAL_HELP =
  'Пакет ассистента ждёт одобрения человека (статус awaiting_approval), если так настроен хаб (настройка approval; по умолчанию — ждёт): тогда агент не возьмёт ни одной его команды, пока человек не одобрит пакет. Если человек выключил одобрение, пакет сразу встаёт в очередь и агент начинает менять Jira. Будет ли ждать именно этот пакет, заранее говорит plan_batch, а после отправки — статус в ответе.';
/** The same of a batch a tool makes for the assistant (a retry, a revert, a package's). */
export const APPROVAL_OF_NEW = 'Новый пакет ассистента ждёт одобрения человека, если оно включено в настройках хаба (по умолчанию — да); ответ скажет статус пакета.';

const COMMANDS_HELP = `Команды идемпотентны («добиться, чтобы…»), агент выполняет их по одной, с паузами. Каждая — {type, params}; что нужно каждому типу, говорит схема аргумента commands (по типу — свои параметры и пример):
${SCHEMA_COMMAND_TYPES.map((t) => `- ${t}: ${COMMAND_DESCRIPTIONS[t]}`).join(';\n')}.
Названия берите из справочников (инструменты jira_*): тип задачи, статус, спринт, приоритет, исполнитель; link_type можно дать словом («блокирует») или описанием связи — хаб сохранит имя типа в Jira; ensure_status {key, to} — хаб сам найдёт кратчайший путь; ensure_sprint {key, sprint: null} — в бэклог. plan_batch находит все ошибки сразу, с подсказками.
Ключи — ключи Jira (AURORA-123) или временные new:N, определённые ensure_issue раньше в этом пакете. Две ensure_issue с одной темой в пакете запрещены. Тема — до ${LIMITS.summary} знаков, тексты — до ${LIMITS.text}, как их считает Jira (эмодзи — за два); метки — без пробелов. Хаб сам добавляет в конец refresh всех названных ключей.`;

/**
 * The commands as the hub's checks take them when the tool's schema refuses some (ToolDef.lenient):
 * objects with a type and params, whatever is in them; the hub reports every finding by seq.
 */
const uncheckedCommands = z
  .array(z.looseObject({ type: z.enum(SCHEMA_COMMAND_TYPES), params: z.looseObject({}) }))
  .min(1)
  .max(LIMITS.commands);

const IDEMPOTENCY_KEY = z
  .string()
  .min(1, { error: 'idempotency_key не может быть пустым' })
  .max(1000)
  .optional()
  .describe('ключ идемпотентности: любая строка до 1000 символов (кириллица и пробелы тоже); тот же ключ с тем же телом вернёт уже созданный пакет');

const batchShape = {
  title: z.string().trim().min(1, { error: 'название пакета не может быть пустым' }).max(MAX_TITLE).describe('название пакета для людей, например «Планирование спринта 2»'),
  author: z.string().max(MAX_AUTHOR).optional().describe('от чьего имени план (хаб запишет: «<имя> (со слов ассистента)»); по умолчанию — ассистент'),
  commands: COMMANDS,
};

const toBody = (a: { title: string; author?: string; commands: BatchBody['commands'] }): BatchBody => ({
  title: a.title,
  ...(a.author ? { author: a.author } : {}),
  commands: a.commands,
});

/** Commands a summary names: those that failed, and those handed out or handed out again. */
const ATTENTION = new Set(['failed', 'claimed']);
const ATTENTION_SHOWN = 20;

const batchOutput = z.looseObject({ id: z.number(), title: z.string(), status: z.string(), counts: z.record(z.string(), z.number()) });

/** Where the whole of a batch is, for an answer that had to leave some of it out (answer-size.ts). */
const wholeBatch = (id: number, dashboard: string) =>
  `весь пакет — GET /batches/${id} (REST хаба) или страница ${batchPage(dashboard, id)}; команды по порядку — get_batch {batch_id: ${id}, view: "commands"} с offset и limit`;

/**
 * A batch in the summary form: counts, progress, the commands that failed or are out, the keys created, what
 * it changed (`boards`: the catalogue's, which name a sprint's board — boardsOfChanges).
 */
export function batchSummary(b: BatchView, dashboard: string, intro = '', boards?: Boards) {
  const { commands = [], ...rest } = b;
  const finished = commands.filter((c) => !['queued', 'claimed'].includes(c.status)).length;
  // Carried out in Jira (or seen there by a refresh): not every finished command is, and a model reads «готово» as done.
  const carried = commands.filter((c) => c.status === 'done' || c.status === 'confirmed_by_state').length;
  const attention = commands.filter((c) => ATTENTION.has(c.status) || c.deliveries > 1);
  const created = Object.fromEntries(
    commands.filter((c) => c.type === 'ensure_issue' && typeof c.result?.key === 'string').map((c) => [String(c.params.temp_key), String(c.result!.key)]),
  );
  const createdText = Object.entries(created).map(([t, k]) => `${t} → ${k}`);
  const text = [
    intro,
    batchHeadline(b),
    `Выполнено команд: ${carried} из ${commands.length}; завершено: ${finished} из ${commands.length} (${commands.length ? Math.round((finished / commands.length) * 100) : 100}%)` +
      (finished > carried ? `, из них не выполнено (ошибка, отмена или пропуск): ${finished - carried}.` : '.'),
    createdText.length ? `Временные ключи: ${createdText.slice(0, 50).join(', ')}${createdText.length > 50 ? ` и ещё ${createdText.length - 50}` : ''}.` : '',
    nextStep(b, dashboard),
    checksLine(b),
    batchChangesText(b, boards),
    attention.length ? `Требуют внимания (ошибка или выданы агенту):` : '',
    ...commandLines(attention.slice(0, ATTENTION_SHOWN)),
    attention.length > ATTENTION_SHOWN ? `…и ещё ${attention.length - ATTENTION_SHOWN}.` : '',
    `Все команды по порядку: get_batch {batch_id: ${b.id}, view: "commands"} (с offset и limit).`,
  ];
  return {
    text: text.filter(Boolean).join('\n'),
    data: { ...rest, commands_total: commands.length, finished, carried_out: carried, attention: attention.slice(0, ATTENTION_SHOWN), created_keys: created },
    rest: wholeBatch(b.id, dashboard),
  };
}

/** A page of a batch's commands. */
function batchCommands(b: BatchView, offset: number, limit: number, dashboard: string): ToolAnswer {
  const { commands = [], ...rest } = b;
  const shown = commands.slice(offset, offset + limit);
  const end = offset + shown.length;
  // The first n of the page (answer-size.ts keeps fewer when the answer is over the cap).
  const text = (n: number) => {
    const more =
      offset + n < commands.length
        ? `Показаны команды ${offset + 1}–${offset + n} из ${commands.length}; дальше — offset: ${offset + n}.`
        : n === 0 && offset > 0
          ? `С offset ${offset} команд нет: их всего ${commands.length}; начните с offset: 0.`
          : `Команд всего: ${commands.length}.`;
    return [batchHeadline(b), ...commandLines(shown.slice(0, n)), more].join('\n');
  };
  return {
    text: text(shown.length),
    data: { ...rest, commands_total: commands.length, offset, next_offset: end < commands.length ? end : null, commands: shown },
    list: { key: 'commands', text, page: { offset, total: commands.length } },
    rest: wholeBatch(b.id, dashboard),
  };
}

/** cancel_command on a command the agent holds (or that finished): what the assistant can do instead. */
async function cannotCancel(api: HubApi, err: HubError, commandId: number): Promise<never> {
  if (err.status !== 409) throw err;
  let command: CommandView | undefined;
  try {
    command = await api.getCommand(commandId);
  } catch {
    throw err;
  }
  const where = batchPage(api.dashboard, command.batch_id);
  // retry_command takes failed, cancelled and skipped commands only (SPEC 6.7): a done one is not advised to it.
  const retry = ['failed', 'cancelled', 'skipped'].includes(command.status) ? '. Повторить её можно инструментом retry_command' : '';
  const detail =
    command.status === 'claimed'
      ? `Команда #${commandId} уже выдана агенту: ассистент не может её прервать. Если её нужно остановить, попросите человека отменить её на странице ${where}.`
      : `Команда #${commandId} уже завершена (${command.status}): отменять нечего${retry}; пакет — на странице ${where}.`;
  throw new HubError(409, err.code, detail, undefined, undefined, command.batch_id);
}

/**
 * A refused call on a command (retry_command: it is not failed, cancelled or skipped), said to be about
 * the command's batch: the audit records the call on it, as it records a call that names its batch.
 * A command the hub does not have (or cannot show) leaves the refusal as it is.
 */
async function aboutCommandBatch(api: HubApi, err: unknown, commandId: number): Promise<never> {
  if (!(err instanceof HubError) || err.status === 0 || err.status === 404) throw err;
  const command = await api.getCommand(commandId).catch(() => undefined);
  throw command ? err.about(command.batch_id) : err;
}

export const BATCH_TOOLS: ToolDef[] = [
  tool({
    name: 'plan_batch',
    title: 'Проверить план (без записи)',
    group: 'plan',
    description: `Сухой прогон пакета команд для Jira: ничего не записывает и ничего не ставит в очередь. Возвращает ошибки проверки (те же, что дал бы submit_batch), оценку времени и для каждой команды вердикт по зеркалу Jira в хабе: уже выполнено (holds), изменит Jira (would_change, было → станет), ключа нет в зеркале (unknown_key — сначала нужен refresh) или не оценить (cannot_judge), с возрастом данных зеркала; и вердикт проверок по каталогу Jira (check: will_change, no_change, will_fail — с замечаниями и подсказками, unknown — каталога нет или он устарел). Все замечания всех команд приходят сразу: исправьте их по подсказкам и проверьте план снова. Вызывайте перед submit_batch, чтобы показать человеку, что именно изменится.\n${COMMANDS_HELP}`,
    writes: false,
    input: z.strictObject({ ...batchShape, ...page(200, 50) }),
    lenient: { input: z.strictObject({ ...batchShape, commands: uncheckedCommands, ...page(200, 50) }), under: 'commands' },
    output: z.looseObject({ title: z.string(), commands: z.array(z.looseObject({ seq: z.number(), verdict: z.string() })), commands_total: z.number() }),
    run: async (api, a, context) => {
      const plan = await api.planBatch(toBody(a));
      const all = plan.commands ?? [];
      const shown = all.slice(a.offset, a.offset + a.limit);
      const end = a.offset + shown.length;
      const text = (n: number) => planText(plan, { commands: shown.slice(0, n), total: all.length, offset: a.offset, canSubmit: context.canSubmit });
      return {
        text: text(shown.length),
        data: { ...plan, commands: shown, commands_total: all.length, offset: a.offset, next_offset: end < all.length ? end : null },
        list: { key: 'commands', text, page: { offset: a.offset, total: all.length } },
        rest: 'каждая команда со своими замечаниями — тот же вызов с offset и limit',
      };
    },
  }),
  tool({
    name: 'submit_batch',
    title: 'Отправить пакет команд',
    description: `Ставит пакет команд для Jira в очередь хаба. ${APPROVAL_HELP} Сначала проверьте план инструментом plan_batch и покажите его человеку. Передайте idempotency_key (любая строка до 1000 символов, уникальная на один план), чтобы повторная отправка того же пакета — например, после обрыва связи — вернула первый пакет, а не создала дубликат. Следите за пакетом через get_batch.\n${COMMANDS_HELP}`,
    writes: true,
    input: z.strictObject({ ...batchShape, idempotency_key: IDEMPOTENCY_KEY }),
    lenient: { input: z.strictObject({ ...batchShape, commands: uncheckedCommands, idempotency_key: IDEMPOTENCY_KEY }), under: 'commands' },
    output: batchOutput,
    run: async (api, a, context) => {
      const { batch, replayed } = await api.createBatch(toBody(a), a.idempotency_key);
      const intro = replayed ? `Пакет с ключом идемпотентности «${a.idempotency_key}» уже был отправлен; это он, новый не создан.` : 'Пакет создан.';
      const answer = batchSummary(batch, context.dashboard, intro, await boardsOfChanges(api, batch));
      return { text: answer.text, data: { ...answer.data, replayed } };
    },
  }),
  tool({
    name: 'get_batch',
    title: 'Пакет и его команды',
    description:
      'Состояние пакета: статус (awaiting_approval — ждёт одобрения человека, queued, running, done, cancelled), кто одобрил, оценка и остаток времени. По умолчанию (view: "summary") — сводка: сколько команд готово, какие с ошибкой или у агента, какие ключи созданы (new:1 → AURORA-5). view: "commands" — команды по порядку частями (offset, limit) с результатом или ошибкой каждой.',
    writes: false,
    input: z.strictObject({
      batch_id: id('номер пакета'),
      view: z.enum(['summary', 'commands'], { error: 'summary или commands' }).default('summary').describe('summary — сводка (по умолчанию), commands — команды частями'),
      ...page(100, 50),
    }),
    output: batchOutput,
    run: async (api, a, context) => {
      const batch = await api.getBatch(a.batch_id);
      return a.view === 'commands' ? batchCommands(batch, a.offset, a.limit, context.dashboard) : batchSummary(batch, context.dashboard, '', await boardsOfChanges(api, batch));
    },
  }),
  tool({
    name: 'list_batches',
    title: 'Список пакетов',
    description: 'Пакеты хаба, новые первыми, с фильтром по статусу (awaiting_approval, queued, running, done, cancelled; done_with_errors — завершённые, где команда не удалась или пропущена); листание через before_id (номер последнего пакета предыдущей страницы).',
    writes: false,
    input: z.strictObject({
      status: z.enum(BATCH_FILTERS, { error: `один из: ${BATCH_FILTERS.join(', ')}` }).optional(),
      limit: z.number().int().min(1).max(100).default(20).describe('сколько пакетов, 1..100'),
      before_id: id('показать пакеты с номером меньше этого').optional(),
    }),
    output: z.looseObject({ batches: z.array(z.looseObject({ id: z.number(), status: z.string() })), next_before_id: z.number().nullable() }),
    run: async (api, a) => {
      // One more than asked: a full page says «есть ещё» only when there is.
      const found = await api.listBatches({ ...a, limit: a.limit + 1 });
      const batches = found.slice(0, a.limit);
      // The first n batches (an answer over the cap keeps fewer: text, data and next_before_id alike).
      const next = (n: number) => (n < batches.length || found.length > a.limit ? batches[n - 1].id : null);
      const text = (n: number) => {
        const before = next(n);
        return batchListText(batches.slice(0, n)) + (before === null ? '' : `\nЕсть ещё: list_batches с before_id: ${before}.`);
      };
      return {
        text: text(batches.length),
        data: { batches, next_before_id: next(batches.length) },
        list: { key: 'batches', text, after: (n) => ({ next_before_id: next(n) }) },
        rest: 'следующие — list_batches с before_id из строки «Есть ещё» (в данных — next_before_id)',
      };
    },
  }),
  tool({
    name: 'cancel_batch',
    title: 'Отменить пакет',
    description: 'Отменяет все ещё не выданные агенту команды пакета (в том числе пакета, ждущего одобрения). Команду, которую агент уже выполняет, хаб не прерывает. Повторный вызов безопасен.',
    writes: true,
    input: z.strictObject({ batch_id: id('номер пакета') }),
    output: batchOutput,
    run: async (api, a, context) => {
      const batch = await api.cancelBatch(a.batch_id);
      // What this call did, as the hub counted it (a repeat cancels nothing), and a command at the agent,
      // which runs on: the answer says so, and where a person can stop it.
      const now = batch.cancelled_now ?? 0;
      const cancelled = now > 0 ? `Отменено команд в очереди: ${now}.` : 'Ни одной команды не отменено: в очереди у пакета их не было.';
      const atAgent = (batch.commands ?? []).filter((c) => c.status === 'claimed').map((c) => `#${c.id}`);
      const intro = atAgent.length
        ? `${cancelled} ${atAgent.length === 1 ? `Команда ${atAgent[0]} уже выдана агенту и выполняется` : `Команды ${atAgent.join(', ')} уже выданы агенту и выполняются`}: ассистент не может их прервать. Если нужно остановить, попросите человека отменить на странице ${batchPage(context.dashboard, a.batch_id)}.`
        : now > 0
          ? `Пакет отменён. ${cancelled}`
          : cancelled;
      return batchSummary(batch, context.dashboard, intro, await boardsOfChanges(api, batch));
    },
  }),
  tool({
    name: 'cancel_command',
    title: 'Отменить команду',
    description: 'Отменяет одну команду, пока она в очереди. Команду, уже выданную агенту, ассистент отменить не может — ответ скажет, где человек может это сделать; завершённую отменять нечего.',
    writes: true,
    input: z.strictObject({ command_id: id('номер команды') }),
    output: z.looseObject({ id: z.number(), batch_id: z.number(), status: z.string() }),
    run: async (api, a) => {
      const command = await api.cancelCommand(a.command_id).catch((err) => (err instanceof HubError ? cannotCancel(api, err, a.command_id) : Promise.reject(err)));
      return { text: commandText(command, 'Команда отменена.'), data: command };
    },
  }),
  tool({
    name: 'retry_command',
    title: 'Повторить команду',
    description: `Повторяет команду со статусом failed, cancelled или skipped в новом пакете «Повтор команды #<id>». ${APPROVAL_OF_NEW}`,
    writes: true,
    input: z.strictObject({ command_id: id('номер команды') }),
    output: batchOutput,
    run: async (api, a, context) => {
      const batch = await api.retryCommand(a.command_id).catch((err) => aboutCommandBatch(api, err, a.command_id));
      return batchSummary(batch, context.dashboard, `Команда #${a.command_id} поставлена на повтор.`);
    },
  }),
];
