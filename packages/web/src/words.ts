/** Commands, statuses and sources in words (Russian), as the pages show them. */
import type { BatchStatus, Command, CommandStatus } from './types';

export const COMMAND_STATUS: Record<CommandStatus, string> = {
  queued: 'в очереди',
  claimed: 'у агента',
  done: 'выполнена',
  failed: 'ошибка',
  cancelled: 'отменена',
  skipped: 'пропущена',
  confirmed_by_state: 'подтверждена по состоянию',
};

export const BATCH_STATUS: Record<BatchStatus, string> = {
  awaiting_approval: 'ждёт одобрения',
  queued: 'в очереди',
  running: 'выполняется',
  done: 'завершён',
  cancelled: 'отменён',
};

export const SOURCE: Record<string, string> = { client: 'человек', assistant: 'ассистент', hub: 'хаб' };

export const OUTCOME: Record<string, string> = {
  pending: 'ждём отчёт',
  reported_done: 'выполнена',
  reported_failed: 'ошибка',
  released: 'возвращена в очередь (Jira не приняла токен)',
  lost: 'потеряна, выдана снова',
  expired: 'лимит выдач',
  cancelled: 'отменена',
  confirmed_by_state: 'подтверждена по состоянию',
};

export const COMMAND_TYPE: Record<string, string> = {
  ensure_issue: 'задача',
  ensure_fields: 'поля',
  ensure_status: 'статус',
  ensure_link: 'связь',
  ensure_sprint: 'спринт',
  ensure_comment: 'комментарий',
  refresh: 'обновление зеркала',
};

const FIELD: Record<string, string> = {
  summary: 'название',
  description: 'описание',
  duedate: 'срок',
  labels: 'метки',
  assignee: 'исполнитель',
  priority: 'приоритет',
};

const quoted = (s: unknown) => `«${String(s)}»`;
const short = (s: unknown, n = 60) => {
  const t = String(s ?? '');
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

function value(v: unknown): string {
  if (v === null || v === undefined || v === '') return 'пусто';
  if (Array.isArray(v)) return v.length ? v.map(String).join(', ') : 'пусто';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The link type's name in packages for a Jira link type («Blocks» → «блокирует»), from settings `link_types`. */
export function linkWord(jiraType: string, linkTypes: Record<string, string>): string {
  const found = Object.entries(linkTypes).find(([, jira]) => jira.toLowerCase() === jiraType.toLowerCase());
  return found ? found[0] : jiraType;
}

/** One command in words: «AURORA-1 блокирует AURORA-2», «AURORA-7 → «Спринт 2»». */
export function describeCommand(c: Pick<Command, 'type' | 'params'>, linkTypes: Record<string, string> = {}): string {
  const p = c.params as Record<string, any>;
  switch (c.type) {
    case 'ensure_issue':
      return `Задача ${p.temp_key}: ${quoted(short(p.summary))} (${p.issue_type})${p.parent ? ` в ${p.parent}` : ''}`;
    case 'ensure_fields': {
      const changes = Object.entries(p)
        .filter(([k]) => k !== 'key')
        .map(([k, v]) => `${FIELD[k] ?? k} = ${short(value(v), 40)}`);
      return `${p.key}: ${changes.join('; ')}`;
    }
    case 'ensure_status':
      return `${p.key} → статус ${quoted((p.path as string[]).at(-1))}${p.path.length > 1 ? ` (через ${(p.path as string[]).slice(0, -1).join(' → ')})` : ''}`;
    case 'ensure_link':
      return `${p.source} ${linkWord(String(p.link_type), linkTypes)} ${p.target}`;
    case 'ensure_sprint':
      return `${p.key} → ${quoted(p.sprint)}${p.board !== undefined ? ` (доска ${p.board})` : ''}`;
    case 'ensure_comment':
      return `Комментарий к ${p.key}: ${quoted(short(p.body))}`;
    case 'refresh':
      return p.jql ? `Обновить зеркало по JQL: ${short(p.jql)}` : `Обновить зеркало: ${short((p.keys as string[]).join(', '), 80)}`;
    default:
      return `${c.type} ${JSON.stringify(p)}`;
  }
}

/** The key a finished command produced or touched, when its result names one. */
export function resultKey(c: Pick<Command, 'result'>): string | null {
  const key = c.result?.key;
  return typeof key === 'string' ? key : null;
}
