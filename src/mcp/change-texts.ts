/**
 * The change record (SPEC 17.1) and a revert (17.2) in words for a model: compact, one line per change.
 * What Jira held or holds (values, status and sprint names, summaries) is fenced as data.
 */
import type { CatalogueBoard } from '@jira-hub/contracts';
import { boardWords, fieldWords, namesSprintBoard, TAIL_REFRESH_WORDS } from '@jira-hub/contracts/russian';
import { clip, numberRanges } from '../common/index.js';
import { fenced } from './fence.js';
import { HubError, type BatchView, type HubApi, type RevertView } from './hub-api.js';

interface ChangeLike {
  key?: string | null;
  what: string;
  before?: unknown;
  after?: unknown;
  transitions?: string[];
}

/** How much of a value a change line shows (as much as a note's text): the whole value is in the data. */
const VALUE_CAP = 1000;

/** Text from Jira, cut to VALUE_CAP and fenced. */
const jira = (text: string): string => fenced(clip(text, VALUE_CAP));
const value = (v: unknown): string =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)
    ? 'пусто'
    : jira(typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : JSON.stringify(v));
const link = (v: unknown): string => {
  const l = (v ?? {}) as { source?: string; target?: string; link_type?: string };
  return `${l.source} → ${l.target} (${l.link_type === undefined ? '' : fenced(String(l.link_type))})`;
};
/** The catalogue's boards, which name a sprint's board (undefined: not read, or no catalogue yet). */
export type Boards = readonly CatalogueBoard[] | undefined;
/**
 * A sprint of the record: a name (an older agent's), or {id, name, board_id} (decision 1430) — its board said,
 * as names repeat across boards: by its name (Jira's text: fenced) where `boards` know it, else by its id.
 */
const sprint = (v: unknown, boards: Boards): string => {
  if (v === null || v === undefined) return 'бэклог';
  const o = v as { name?: unknown; board_id?: unknown };
  if (typeof v !== 'object' || typeof o.name !== 'string') return jira(String(v));
  return `${jira(o.name)}${typeof o.board_id === 'number' ? ` (${boardWords(o.board_id, boards, jira)})` : ''}`;
};

/**
 * The catalogue's boards when a sprint change of the batch names its board by id (else nothing is read):
 * one GET /catalogue for the whole answer. A hub that does not give it (none yet, an error) leaves the ids.
 */
export async function boardsOfChanges(api: HubApi, b: Pick<BatchView, 'changes'>): Promise<Boards> {
  if (!namesSprintBoard(Object.values(b.changes ?? {}).flat())) return undefined;
  try {
    return (await api.catalogue<{ catalogue: { boards?: CatalogueBoard[] } | null }>('')).catalogue?.boards;
  } catch (err) {
    if (err instanceof HubError) return undefined;
    throw err;
  }
}
const id = (v: unknown): string => String((v as { id?: unknown } | undefined)?.id ?? '?');

/**
 * «срок: пусто → 2026-12-20», «поле «Team»: …», «статус: To Do → Done (Start, Finish)», «связь A-1 → A-2
 * (Blocks) создана»: a field named as Jira shows it in Russian (the list the hub and the dashboard share).
 */
export function changeLine(c: ChangeLike, boards?: Boards): string {
  if (c.what.startsWith('field:')) return `${fieldWords(c.what.slice('field:'.length))}: ${value(c.before)} → ${value(c.after)}`;
  switch (c.what) {
    case 'status':
      return `статус: ${value(c.before)} → ${value(c.after)}${c.transitions?.length ? ` (${c.transitions.map(jira).join(', ')})` : ''}`;
    case 'sprint':
      return `спринт: ${sprint(c.before, boards)} → ${sprint(c.after, boards)}`;
    case 'link':
      return `связь ${link(c.after)} создана`;
    case 'comment':
      return `комментарий #${id(c.after)} добавлен`;
    case 'issue':
      return `задача создана: ${jira(String((c.after as { summary?: unknown } | undefined)?.summary ?? ''))}`;
    case 'link_removed':
      return `связь ${link(c.before)} удалена`;
    case 'comment_removed':
      return `комментарий #${id(c.before)} удалён`;
    case 'issue_deleted':
      return 'задача удалена';
    default:
      return `${c.what}: ${value(c.before)} → ${value(c.after)}`;
  }
}

/** What a batch did to Jira, by issue; empty when it changed nothing (or has not run). `boards`: boardsOfChanges. */
export function batchChangesText(b: Pick<BatchView, 'changes'>, boards?: Boards): string {
  const groups = Object.entries(b.changes ?? {});
  if (!groups.length) return '';
  return ['Изменения в Jira:', ...groups.map(([key, list]) => `${key || '—'}: ${list.map((c) => changeLine(c, boards)).join('; ')}`)].join('\n');
}

/** A revert's answer: the commands (or the new batch; the first `shown` of them) and every conflict left alone. */
export function revertText(r: RevertView, shown = r.commands.length): string {
  const head = r.dry_run
    ? `План отката пакета #${r.revert_of} (ничего не записано): команд ${r.commands.length}.`
    : `Создан пакет #${r.batch?.id} «${r.title}»: команд ${r.commands.length} (и ${TAIL_REFRESH_WORDS})${r.batch?.status === 'awaiting_approval' ? '; ждёт одобрения человека' : ''}.`;
  // The params and the conflicts' details carry what Jira held (a description to put back, a summary, a value now).
  const commands = r.commands.slice(0, shown).map((c, i) => `${i + 1}. ${c.type} ${fenced(JSON.stringify(c.params))}`);
  const conflicts = r.conflicts.length
    ? ['Не откатываются (оставлены как есть; почему — у каждого):', ...r.conflicts.map((c) => `- ${c.key ?? '—'}${c.retry_later ? (r.dry_run ? ' (пока)' : ' (оставлено насовсем: leave_pending)') : ''}: ${fenced(c.detail)}`)]
    : ['Конфликтов нет.'];
  // Conflicts that a refresh or another batch's end would lift (decision 1467): the revert is refused while they are listed.
  const later = r.conflicts.filter((c) => c.retry_later).length;
  const notYet =
    r.dry_run && later > 0
      ? [
          `Пока не откатить (помечены «пока»): ${later} — зеркало ещё не видело изменения пакета или его же меняет другой невыполненный пакет. ` +
            'Пока они есть, revert_batch с dry_run: false хаб отклонит (conflict) и ничего не создаст: предложите человеку обновить эти задачи (refresh) или дождаться названных пакетов и запросить откат снова.' +
            (r.commands.length > 0
              ? ` leave_pending: "${r.pending_token}" (pending_token этого плана) создаст откат без них — только если человек согласен, что их тогда через хаб уже не откатить; ` +
                'если к тому времени список изменится, хаб откат не создаст (conflict), и план нужно показать человеку снова.'
              : ''),
        ]
      : [];
  // The checks of every submit (SPEC 16.2): a dry run says beforehand what the revert itself would refuse.
  const findings = r.ok === false ? [`Откат не пройдёт проверку по каталогу Jira — хаб ответит plan_failed и ничего не создаст; замечаний ${r.findings.length}:`, ...r.findings.map((f) => `- шаг ${f.seq}: ${fenced(f.detail)}`)] : [];
  // Nothing to put back: the revert itself is refused (revert.service.ts), which the dry run says beforehand.
  const nothing = r.dry_run && r.commands.length === 0 && later === 0 ? ['Откатывать нечего: revert_batch с dry_run: false хаб отклонит (conflict) и ничего не создаст.'] : [];
  return [head, ...commands, ...conflicts, ...notYet, ...findings, ...uncheckedLines(r), ...nothing].join('\n');
}

/**
 * The inverse commands the checks could not judge, those of the same reasons on one line (a stale
 * catalogue gives every command the same one). The reasons name Jira's statuses and types: fenced.
 */
function uncheckedLines(r: RevertView): string[] {
  const { unchecked } = r;
  if (unchecked.length === 0) return [];
  const byReason = new Map<string, number[]>();
  for (const u of unchecked) {
    const why = u.notes.join('; ');
    byReason.set(why, [...(byReason.get(why) ?? []), u.seq]);
  }
  return [
    `По каталогу Jira не проверить обратных команд: ${unchecked.length} из ${r.commands.length} — хаб примет откат, а выполнимы ли они, агент узнает уже в Jira:`,
    ...[...byReason].map(([why, seqs]) => `- ${seqs.length === 1 ? 'шаг' : 'шаги'} ${numberRanges(seqs)}: ${fenced(why)}`),
  ];
}
