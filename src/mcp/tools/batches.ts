/** The tools of batches and commands: plan, submit, follow, cancel, retry. */
import { z } from 'zod';
import { COMMAND_TYPES } from '../../common/command-types.js';
import type { BatchBody } from '../hub-api.js';
import { batchListText, batchText, commandText, planText } from '../texts.js';
import { id, tool, type ToolDef } from '../tool.js';

const COMMANDS_HELP = `Команды идемпотентны («добиться, чтобы…»), агент выполняет их по одной, с паузами:
- ensure_issue {temp_key: "new:N", issue_type, summary, description?, parent?, fields?} — найти задачу с такой темой или создать; temp_key «new:N» — временный ключ, которым следующие команды этого пакета (и более поздних) ссылаются на создаваемую задачу;
- ensure_fields {key, summary?|description?|duedate? (YYYY-MM-DD или null)|labels?|assignee?|priority?|<поле из настройки fields>} — хотя бы одно поле;
- ensure_status {key, path: ["In Progress", "Done"]} — пройти переходы до последнего статуса пути;
- ensure_link {source, target, link_type} — связь направлена от source к target: «source блокирует target» = {source, target, link_type: "Blocks"}; link_type — имя типа связи в Jira (Blocks, Relates, Duplicate…);
- ensure_sprint {key, sprint, board?} — перенести в спринт;
- ensure_comment {key, body, marker?} — добавить комментарий, если комментария с marker ещё нет;
- refresh {keys: [...]} или {jql} — перечитать задачи в зеркало;
- remove_link {source, target, link_type}, remove_comment {key, comment_id}, delete_issue {key, summary} — удалить связь, комментарий, задачу (задача удаляется, только если её тема в Jira всё ещё равна summary).
Названия берите из справочников (инструменты jira_*): тип задачи, статус, спринт, приоритет, исполнитель; link_type можно дать словом («блокирует») или описанием связи — хаб сохранит имя типа в Jira; ensure_status {key, to} — хаб сам найдёт кратчайший путь; ensure_sprint {key, sprint: null} — в бэклог. plan_batch находит все ошибки сразу, с подсказками.
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

export const BATCH_TOOLS: ToolDef[] = [
  tool({
    name: 'plan_batch',
    title: 'Проверить план (без записи)',
    description: `Сухой прогон пакета команд для Jira: ничего не записывает и ничего не ставит в очередь. Возвращает ошибки проверки (те же, что дал бы submit_batch), оценку времени и для каждой команды вердикт по зеркалу Jira в хабе: уже выполнено (holds), изменит Jira (would_change, было → станет), ключа нет в зеркале (unknown_key — сначала нужен refresh) или не оценить (cannot_judge), с возрастом данных зеркала; и вердикт проверок по каталогу Jira (check: will_change, no_change, will_fail — с замечаниями и подсказками, unknown — каталога нет или он устарел). Все замечания всех команд приходят сразу: исправьте их по подсказкам и проверьте план снова. Вызывайте перед submit_batch, чтобы показать человеку, что именно изменится.\n${COMMANDS_HELP}`,
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
];
