/**
 * The lookups of Jira's catalogue for an assistant (SPEC 16.1, issue 20 scope 3): names to use in a plan
 * instead of guesses. Each tool reads one route under GET /catalogue through the HubApi port.
 */
import { z } from 'zod';
import { fenced } from '../fence.js';
import type { HubApi } from '../hub-api.js';
import type { ToolAnswer, ToolDef } from '../tool.js';

interface LinkType {
  name: string;
  outward: string;
  inward: string;
  words: string[];
  symmetric: boolean;
}
interface ScreenField {
  field_id: string;
  name: string;
  required: boolean;
  has_default: boolean;
  allowed_values?: string[];
}
interface IssueType {
  name: string;
  subtask: boolean;
  create_fields: ScreenField[];
  edit_fields: ScreenField[] | null;
}
interface Workflow {
  issue_type: string;
  statuses: string[];
  initial_status: string | null;
  transitions: { from: string | null; to: string; name: string; required_fields: string[] }[];
  route?: string[] | null;
  /** the route's first status as Jira writes it (the `from` asked for may differ in letter case) */
  route_from?: string;
}
interface Sprint {
  name: string;
  state: string;
  board_id: number;
  board: string;
}
interface CatalogueState {
  text: string;
  catalogue: object | null;
}

const read = <S extends z.ZodObject>(name: string, title: string, description: string, input: S, run: (api: HubApi, a: z.output<S>) => Promise<ToolAnswer>): ToolDef =>
  ({ name, title, description, writes: false, input, run }) as unknown as ToolDef;

/**
 * The longest name the hub's lookups take (catalogue.dto.ts, @MaxLength written out for the OpenAPI
 * metadata; test/mcp-fuzz.e2e-spec.ts holds the two equal).
 */
export const LOOKUP_MAX = 200;

/** A name to look up, in the URL's query: as long as the hub takes it. */
const lookup = (what: string) => z.string().min(1).max(LOOKUP_MAX).optional().describe(`${what}, до ${LOOKUP_MAX} символов`);

/**
 * The names the catalogue holds come from Jira (its admins and users name statuses, sprints, boards,
 * people, components): each is fenced as data in the text, as search_issues fences a summary; the data
 * keeps them as they are.
 */
const names = (list: readonly string[]) => list.map(fenced).join(', ');
const values = (list: readonly string[] | undefined) => (list?.length ? `: ${names(list)}` : '');
const fieldLine = (f: ScreenField) => `${fenced(f.name)} (${f.field_id})${f.required && !f.has_default ? ' — обязательное' : ''}${values(f.allowed_values)}`;

/** «блокирует (Blocks)»: the words of settings and Jira's name, as every MCP answer shows a link type. */
const bothWords = (t: LinkType) => (t.words.length ? `${t.words.join(', ')} (${fenced(t.name)})` : fenced(t.name));

export const CATALOGUE_TOOLS: ToolDef[] = [
  read(
    'jira_catalogue',
    'Каталог Jira: возраст',
    'Что хаб знает о настройках проекта Jira (каталог, который читает агент): когда он прочитан и не устарел ли. Если каталога нет или он устарел, проверки плана дают вердикт unknown — план пройдёт, но без гарантий; попросите человека обновить каталог (панель хаба или POST /catalogue/refresh).',
    z.object({}),
    async (api) => {
      const state = await api.catalogue<CatalogueState>('');
      const { catalogue: _, ...data } = state;
      void _;
      return { text: state.text, data };
    },
  ),
  read(
    'jira_link_types',
    'Типы связей Jira',
    'Типы связей проекта Jira: имя типа, как читается связь в одну и другую сторону (outward/inward) и слова хаба для него (настройка link_types), например «блокирует (Blocks)». В ensure_link годится любое из них: хаб сохранит имя типа в Jira; описание «обратной» стороны (is blocked by) меняет source и target местами.',
    z.object({}),
    async (api) => {
      const types = await api.catalogue<LinkType[]>('/link-types');
      const lines = types.map((t) => `${bothWords(t)}: source ${fenced(t.outward)} target${t.symmetric ? ' (симметричная)' : `; обратно: ${fenced(t.inward)}`}`);
      return { text: lines.length ? ['Типы связей:', ...lines].join('\n') : 'Типов связей в каталоге нет.', data: { link_types: types } };
    },
  ),
  read(
    'jira_issue_types',
    'Типы задач Jira и поля их экранов',
    'Типы задач проекта Jira с полями экрана создания (что можно задать в ensure_issue; обязательные без значения по умолчанию задать нужно, например Epic Name) и экрана редактирования (что Jira даст изменить; ensure_fields меняет из них свои стандартные поля (summary, description, duedate, labels, priority, assignee) и другие поля из настройки хаба fields, которую задаёт человек), с допустимыми значениями.',
    z.object({ name: lookup('только этот тип задачи, например Task') }),
    async (api, a) => {
      const types = await api.catalogue<IssueType[]>('/issue-types', { name: a.name });
      const lines = types.flatMap((t) => [
        `${fenced(t.name)}${t.subtask ? ' (подзадача: нужен parent)' : ''}`,
        `  экран создания: ${t.create_fields.map(fieldLine).join('; ') || 'неизвестен'}`,
        `  экран редактирования: ${t.edit_fields ? t.edit_fields.map(fieldLine).join('; ') : 'неизвестен'}`,
      ]);
      return { text: lines.join('\n'), data: { issue_types: types } };
    },
  ),
  read(
    'jira_statuses',
    'Статусы и переходы Jira',
    'Статусы процесса каждого типа задачи и известные переходы между ними (с полями, которые требует экран перехода); с issue_type, from и to — кратчайший известный путь для ensure_status. Можно не искать путь самому: ensure_status {key, to} — хаб найдёт его.',
    z.object({
      issue_type: lookup('тип задачи, например Task'),
      from: lookup('начальный статус (с to и issue_type)'),
      to: lookup('конечный статус (с from и issue_type)'),
    }),
    async (api, a) => {
      const flows = await api.catalogue<Workflow[]>('/statuses', { issue_type: a.issue_type, from: a.from, to: a.to });
      const lines = flows.flatMap((w) => [
        `${fenced(w.issue_type)}: статусы ${names(w.statuses)}${w.initial_status ? `; новая задача — в ${fenced(w.initial_status)}` : ''}`,
        ...w.transitions.map(
          (t) =>
            `  ${t.from === null ? 'из любого' : fenced(t.from)} → ${fenced(t.to)} (${fenced(t.name)})${t.required_fields.length ? `, экран перехода требует: ${names(t.required_fields)}` : ''}`,
        ),
        ...(w.route === undefined
          ? []
          : [w.route === null ? `  известного пути из ${fenced(w.route_from ?? a.from ?? '')} в ${fenced(a.to ?? '')} нет` : `  путь: ${[w.route_from ?? a.from ?? '', ...w.route].map(fenced).join(' → ')}`]),
      ]);
      return { text: lines.join('\n'), data: { workflows: flows } };
    },
  ),
  read(
    'jira_sprints',
    'Спринты Jira',
    'Активные и будущие спринты с досками. ensure_sprint берёт имя спринта; если имя повторяется на нескольких досках — добавьте board (имя или id доски). sprint: null — в бэклог.',
    z.object({ board: lookup('только спринты этой доски (имя или id)') }),
    async (api, a) => {
      const sprints = await api.catalogue<Sprint[]>('/sprints', { board: a.board });
      const lines = sprints.map((s) => `${fenced(s.board)}: ${fenced(s.name)} (${s.state === 'active' ? 'активный' : s.state === 'future' ? 'будущий' : 'закрыт'}; доска ${s.board_id})`);
      return { text: lines.length ? lines.join('\n') : 'Активных и будущих спринтов нет.', data: { sprints } };
    },
  ),
  read(
    'jira_values',
    'Приоритеты, компоненты, версии Jira',
    'Допустимые значения проекта Jira: priorities (приоритеты схемы проекта), components, versions — для ensure_fields.priority и полей ensure_issue.',
    z.object({ what: z.enum(['priorities', 'components', 'versions'], { error: 'priorities, components или versions' }) }),
    async (api, a) => {
      const list = await api.catalogue<string[]>(`/${a.what}`);
      return { text: list.length ? `${a.what}: ${names(list)}` : `${a.what}: нет`, data: { [a.what]: list } };
    },
  ),
  read(
    'jira_users',
    'Исполнители Jira',
    'Кому можно назначать задачи проекта (ensure_fields.assignee берёт id): поиск по части имени или id.',
    z.object({
      q: lookup('часть имени, например «иван»'),
      limit: z.number().int().min(1).max(100).default(20),
    }),
    async (api, a) => {
      const found = await api.catalogue<{ users: { id: string; display_name: string }[]; total: number; truncated: boolean }>('/users', { q: a.q, limit: a.limit });
      const lines = found.users.map((u) => `${fenced(u.display_name)} — assignee: ${u.id}`);
      const cut = found.truncated ? ' (список в каталоге неполный: кого-то может не быть)' : '';
      const more = found.total > lines.length ? ` Показаны первые ${lines.length}: уточните q или увеличьте limit (до 100).` : '';
      return { text: lines.length ? [`Найдено: ${found.total}${cut}.${more}`, ...lines].join('\n') : `Никого не найдено${cut}.`, data: found };
    },
  ),
];
