/** Commands, statuses and sources in words (Russian), as the pages show them. */
import type { CatalogueBoard, CatalogueUser } from '@jira-hub/contracts';
import { boardWords, FIELD_LABELS, fieldLabel as sharedFieldLabel, paramLabel as sharedParamLabel } from '@jira-hub/contracts/russian';
import { day, plural } from './format';
import type { BatchStatus, BatchSummary, Command, CommandStatus } from './types';

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

/**
 * What a batch's chip says: its derived status, told honestly — a finished batch with a failed or skipped
 * command is «завершён с ошибками», a cancelled batch a person rejected is «отклонён».
 */
export type Outcome = BatchStatus | 'done_with_errors' | 'rejected';

export const OUTCOME_TEXT: Record<Outcome, string> = {
  ...BATCH_STATUS,
  done_with_errors: 'завершён с ошибками',
  rejected: 'отклонён',
};

export function outcomeOf(b: Pick<BatchSummary, 'status' | 'rejected_reason'> & { counts: Partial<BatchSummary['counts']> }): Outcome {
  if (b.status === 'cancelled' && b.rejected_reason) return 'rejected';
  if (b.status === 'done' && (b.counts.failed ?? 0) + (b.counts.skipped ?? 0) > 0) return 'done_with_errors';
  return b.status;
}

/** «4 ✓ · 1 ✗ · 1 пропущена · 2 отменены · 3 в очереди»: what happened to a batch's commands, zeros left out. */
export function countsText(counts: Partial<Record<CommandStatus, number>>): string {
  const n = (s: CommandStatus) => counts[s] ?? 0;
  const ok = n('done') + n('confirmed_by_state');
  const parts = [
    ok && `${ok} ✓`,
    n('failed') && `${n('failed')} ✗`,
    n('skipped') && `${n('skipped')} ${plural(n('skipped'), 'пропущена', 'пропущены', 'пропущено')}`,
    n('cancelled') && `${n('cancelled')} ${plural(n('cancelled'), 'отменена', 'отменены', 'отменено')}`,
    n('claimed') && `${n('claimed')} у агента`,
    n('queued') && `${n('queued')} в очереди`,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'команд нет';
}

export const SOURCE: Record<string, string> = { client: 'человек', assistant: 'ассистент', hub: 'хаб' };

/** Authors that only repeat the source (the hub's default caller names): «ассистент», not «ассистент, assistant». */
const GENERIC_AUTHORS = new Set(['api', 'client', 'assistant', 'hub', 'agent']);

/** The author's name unless it only repeats the source ('' then). */
export const authorName = (author: string | null | undefined): string => (author && !GENERIC_AUTHORS.has(author.toLowerCase()) ? author : '');

/** A person's or role's name as the hub stores it (`approved_by`, `author`), in words: a role's default id is its word («api» → «человек»). */
const ROLE_WORDS: Record<string, string> = { api: 'человек', client: 'человек', assistant: 'ассистент', hub: 'хаб', agent: 'агент' };
export const personName = (name: string): string => ROLE_WORDS[name.toLowerCase()] ?? name;

/** Who made a batch, in words: «ассистент», «человек · Анна». */
export function whoMade(b: Pick<BatchSummary, 'source' | 'author'>): string {
  const source = b.source ? (SOURCE[b.source] ?? b.source) : '';
  const author = authorName(b.author);
  return [source, author].filter(Boolean).join(' · ') || '—';
}

/** Who last changed a note: «импорт», «человек», «ассистент». */
export const NOTE_SOURCE: Record<string, string> = { import: 'импорт', client: 'человек', api: 'человек', assistant: 'ассистент', hub: 'хаб' };

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
  remove_link: 'удаление связи',
  remove_comment: 'удаление комментария',
  delete_issue: 'удаление задачи',
};

/** A field as a column or a row names it (the list the hub and the MCP share): «Срок» for duedate; a custom field by its own name. */
export const fieldLabel = (field: string): string => sharedFieldLabel(field);

/** A param of a command as a person reads it in a finding (the list the hub shares): «Тип связи» for link_type, «Срок» for duedate; a custom field by its own name. */
export const paramLabel = (param: string): string => sharedParamLabel(param);

/** A field inside a sentence: «срок = 2 дек.». */
const fieldWord = (field: string): string => (Object.hasOwn(FIELD_LABELS, field) ? FIELD_LABELS[field]!.toLowerCase() : field);

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

/** A person Jira knows by account id, by the name the catalogue's assignable people give; the id where they do not know it. */
export function personWords(id: string, people?: readonly CatalogueUser[]): string {
  return people?.find((p) => p.id === id)?.display_name ?? id;
}

/** The link type's name in packages for a Jira link type («Blocks» → «блокирует»), from settings `link_types`. */
export function linkWord(jiraType: string, linkTypes: Record<string, string>): string {
  const found = Object.entries(linkTypes).find(([, jira]) => jira.toLowerCase() === jiraType.toLowerCase());
  return found ? found[0] : jiraType;
}

/** Jira's link types as verbs; a type not here is shown by its name in the plan, in quotes. */
const LINK_VERB: Record<string, string> = {
  blocks: 'блокирует',
  relates: 'связана с',
  duplicate: 'дублирует',
  cloners: 'клонирует',
};

/** A link in words: «AURORA-1 блокирует AURORA-2», «AURORA-2 связана с AURORA-1», «A-1 —«зависит»→ A-2». */
export function linkPhrase(source: string, jiraType: string, target: string, linkTypes: Record<string, string> = {}): string {
  const verb = LINK_VERB[jiraType.toLowerCase()];
  return verb ? `${source} ${verb} ${target}` : `${source} —«${linkWord(jiraType, linkTypes)}»→ ${target}`;
}

/**
 * One command in words: «AURORA-1 блокирует AURORA-2», «AURORA-7 → «Спринт 2» (доска «Команда А»)» (a board by
 * id named as `boards` name it), «AURORA-1: исполнитель = Анна Петрова» (an account id as `people` name it).
 */
export function describeCommand(
  c: { type: string; params: Record<string, unknown> },
  linkTypes: Record<string, string> = {},
  boards?: readonly CatalogueBoard[],
  people?: readonly CatalogueUser[],
): string {
  const p = c.params as Record<string, any>;
  switch (c.type) {
    case 'ensure_issue':
      return `Задача ${p.temp_key}: ${quoted(short(p.summary))} (${p.issue_type})${p.parent ? ` в ${p.parent}` : ''}`;
    case 'ensure_fields': {
      const changes = Object.entries(p)
        .filter(([k]) => k !== 'key')
        .map(([k, v]) => `${fieldWord(k)} = ${short(k === 'duedate' && typeof v === 'string' ? day(v) : k === 'assignee' && typeof v === 'string' ? personWords(v, people) : value(v), 40)}`);
      return `${p.key}: ${changes.join('; ')}`;
    }
    case 'ensure_status': {
      // As submitted: `{key, to}` (a revert, a package); as stored: `{key, path}`, the route the hub chose.
      const path = Array.isArray(p.path) ? (p.path as unknown[]).map(String) : [];
      const to = typeof p.to === 'string' ? p.to : path.at(-1);
      const via = path.length > 1 ? path.slice(0, -1) : [];
      return `${p.key} → статус ${to === undefined ? '—' : quoted(to)}${via.length ? ` (через ${via.join(' → ')})` : ''}`;
    }
    case 'ensure_link':
      return linkPhrase(String(p.source), String(p.link_type), String(p.target), linkTypes);
    case 'ensure_sprint':
      return `${p.key} → ${p.sprint === null ? 'бэклог' : quoted(p.sprint)}${p.board !== undefined && p.board !== null ? ` (${boardWords(p.board, boards)})` : ''}`;
    case 'remove_link':
      return `Удалить связь: ${p.source} ${linkWord(String(p.link_type), linkTypes)} ${p.target}`;
    case 'remove_comment':
      return `Удалить комментарий #${p.comment_id} у ${p.key}`;
    case 'delete_issue':
      return `Удалить задачу ${p.key} ${quoted(short(p.summary))}`;
    case 'ensure_comment':
      return `Комментарий к ${p.key}: ${quoted(short(p.body))}`;
    case 'refresh':
      return p.jql ? `Обновить зеркало по JQL: ${short(p.jql)}` : `Обновить зеркало: ${short(Array.isArray(p.keys) ? p.keys.join(', ') : '—', 80)}`;
    default:
      return `${c.type} ${JSON.stringify(p)}`;
  }
}

/** The key a finished command produced or touched, when its result names one. */
export function resultKey(c: Pick<Command, 'result'>): string | null {
  const key = c.result?.key;
  return typeof key === 'string' ? key : null;
}
