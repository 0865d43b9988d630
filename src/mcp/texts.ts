/**
 * The hub's answers in words for a model (Russian, like every text for people). Pure; the tools put
 * these beside the views themselves (`structuredContent`).
 */
import { batchChangesText } from './change-texts.js';
import type { AgentStatusView, BatchSummary, BatchView, CommandView, IssueDetailView, IssueView, NoteView, PlannedCommandView, PlanView } from './hub-api.js';

const BATCH_STATUS: Record<string, string> = {
  awaiting_approval: 'ждёт одобрения человека',
  queued: 'в очереди',
  running: 'выполняется',
  done: 'завершён',
  cancelled: 'отменён',
};

const COMMAND_STATUS: Record<string, string> = {
  queued: 'в очереди',
  claimed: 'выдана агенту',
  done: 'выполнена',
  failed: 'ошибка',
  cancelled: 'отменена',
  skipped: 'пропущена',
  confirmed_by_state: 'подтверждена по состоянию зеркала',
};

const OUTCOME: Record<string, string> = {
  pending: 'ждёт отчёта',
  reported_done: 'выполнена',
  reported_failed: 'ошибка',
  lost: 'отчёт потерян, выдана снова',
  expired: 'лимит выдач',
  cancelled: 'отменена во время выполнения',
  confirmed_by_state: 'подтверждена по зеркалу',
};

/** 0 → «0 с», 90 → «1 мин 30 с», 7260 → «2 ч 1 мин». */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const parts = [h ? `${h} ч` : '', m ? `${m} мин` : '', !h && (rest || !m) ? `${rest} с` : ''];
  return parts.filter(Boolean).join(' ');
}

const word = (table: Record<string, string>, code: string | null | undefined) => (code ? (table[code] ?? code) : '—');

/** The keys and values a command names, shortly: `AURORA-1: duedate=2026-12-01`. */
function commandTarget(c: { type: string; params: Record<string, unknown> }): string {
  const p = c.params ?? {};
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  switch (c.type) {
    case 'ensure_issue':
      return `${show(p.temp_key)} «${show(p.summary)}»`;
    case 'ensure_link':
      return `${show(p.source)} —${show(p.link_type)}→ ${show(p.target)}`;
    case 'refresh':
      return Array.isArray(p.keys) ? p.keys.join(', ') : `JQL ${show(p.jql)}`;
    default: {
      const { key, ...rest } = p;
      const detail = Object.entries(rest)
        .map(([k, v]) => `${k}=${show(v)}`)
        .join(', ');
      return `${show(key)}${detail ? `: ${detail}` : ''}`;
    }
  }
}

export function commandLine(c: CommandView): string {
  const extra = [
    c.deliveries > 1 ? `выдач ${c.deliveries}` : '',
    c.error ? `причина: ${c.error}` : '',
    c.retry_of ? `повтор команды #${c.retry_of}` : '',
  ].filter(Boolean);
  return `#${c.id} (${c.seq}) ${c.type} ${commandTarget(c)} — ${word(COMMAND_STATUS, c.status)}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

export function batchHeadline(b: BatchSummary): string {
  const counts = Object.entries(b.counts ?? {})
    .filter(([, n]) => n)
    .map(([status, n]) => `${word(COMMAND_STATUS, status)}: ${n}`)
    .join(', ');
  const facts = [
    `автор ${b.author}${b.source ? `, источник ${b.source}` : ''}`,
    `создан ${b.created_at}`,
    `оценка ${duration(b.estimate_seconds)}`,
    b.status === 'done' || b.status === 'cancelled' ? '' : `до завершения ≈ ${duration(b.remaining_seconds)}`,
    b.approved_by ? `одобрил ${b.approved_by} ${b.approved_at ?? ''}`.trim() : '',
    b.rejected_reason ? `отклонён: ${b.rejected_reason}` : '',
  ].filter(Boolean);
  return `Пакет #${b.id} «${b.title}» — ${word(BATCH_STATUS, b.status)} (${facts.join('; ')}). Команды: ${counts || 'нет'}.`;
}

/** What a model should tell the person about a batch's next step. */
function nextStep(b: BatchSummary): string {
  if (b.status === 'awaiting_approval') {
    return `Пакет ждёт одобрения человека: агент не возьмёт ни одной его команды, пока человек не одобрит пакет (в панели хаба или POST /batches/${b.id}/approve с токеном клиента). Попросите пользователя одобрить или отклонить его; следите за ним инструментом get_batch.`;
  }
  if (b.status === 'queued' || b.status === 'running') return 'Агент выполняет команды по очереди, с паузами; следите за пакетом инструментом get_batch.';
  return '';
}

/** The handouts of a command (SPEC 15.3), one line each. */
const historyLines = (c: CommandView): string[] => (c.history ?? []).map((d) => `  выдача ${d.n} ${d.handed_out_at}: ${word(OUTCOME, d.outcome)}`);

export function batchText(b: BatchView, intro = ''): string {
  // A command handed out more than once shows its handouts: where a report got lost.
  const commands = (b.commands ?? []).flatMap((c) => [commandLine(c), ...((c.history?.length ?? 0) > 1 ? historyLines(c) : [])]);
  return [intro, batchHeadline(b), nextStep(b), checksLine(b), ...commands, batchChangesText(b)].filter(Boolean).join('\n');
}

/** SPEC 16.2: what the checks could not judge, and the warnings a client kept, so the person approving knows. */
function checksLine(b: BatchView): string {
  const checks = b.checks;
  if (!checks) return '';
  const unknown = checks.commands.filter((c) => c.verdict === 'unknown').map((c) => c.seq);
  const warned = checks.commands.filter((c) => c.findings.length > 0).map((c) => c.seq);
  return [
    unknown.length ? `По каталогу Jira не оценить команды ${unknown.join(', ')}${checks.catalogue ? '' : ' (каталога нет)'}.` : '',
    warned.length ? `Сохранены с предупреждениями проверок: команды ${warned.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export function batchListText(list: BatchSummary[]): string {
  if (!list.length) return 'Пакетов нет.';
  return [`Пакетов: ${list.length} (новые первыми).`, ...list.map(batchHeadline)].join('\n');
}

export function commandText(c: CommandView, intro = ''): string {
  const history = historyLines(c);
  return [intro, commandLine(c), ...(history.length ? ['История выдач:', ...history] : [])].filter(Boolean).join('\n');
}

/** SPEC 10 in words; always «онлайн» or «офлайн», and `#<id> … выдач <n>` for each re-delivered command. */
export function agentStatusText(a: AgentStatusView): string {
  const seen = a.last_seen_at ? `последний контакт ${a.last_seen_at}` : 'ни разу не выходил на связь';
  const lines = [
    `Агент ${a.online ? 'онлайн' : 'офлайн'} (${seen}; версия ${a.agent_version ?? 'неизвестна'}; настройки v${a.settings_version ?? '?'}${a.settings_stale ? ', устарели' : ''}).`,
    a.current_command_id ? `Сейчас у агента команда #${a.current_command_id}.` : 'Сейчас у агента нет команды.',
    a.redelivered.length
      ? `Выданы повторно (отчёт не пришёл): ${a.redelivered.map((r) => `#${r.id} ${r.type} — выдач ${r.deliveries}, последняя выдача ${r.claimed_at}`).join('; ')}.`
      : 'Повторно выданных команд нет.',
    `Ответов 429 (лимит Jira) за 24 ч: ${a.rate_limited_24h}.`,
    a.last_jira_call_at ? `Последнее обращение к Jira: ${a.last_jira_call_at}.` : '',
    a.warning ? `Внимание: ${a.warning}` : '',
  ];
  return lines.filter(Boolean).join('\n');
}

/** A Jira link type in Russian where settings `link_types` name it (their reverse), else Jira's own name. */
export function linkName(linkType: string, linkTypes: Record<string, string>): string {
  const entry = Object.entries(linkTypes).find(([, jira]) => jira.toLowerCase() === linkType.toLowerCase());
  return entry ? entry[0] : linkType;
}

/** A link type in both words (issue 20): «блокирует (Blocks)», so a plan can name it either way; Jira's name alone when no word names it. */
export function linkWords(linkType: string, linkTypes: Record<string, string>): string {
  const word = linkName(linkType, linkTypes);
  return word === linkType ? linkType : `${word} (${linkType})`;
}

/** Every link of an issue in words, both directions: «AURORA-1 блокирует (Blocks) AURORA-2». */
export function issueLinks(i: IssueDetailView, linkTypes: Record<string, string>): string[] {
  return [
    ...i.links_out.map((l) => `${i.key} ${linkWords(l.link_type, linkTypes)} ${l.target_key}`),
    ...i.links_in.map((l) => `${l.source_key} ${linkWords(l.link_type, linkTypes)} ${i.key}`),
  ];
}

export function issueLine(i: IssueView): string {
  const facts = [
    i.issue_type,
    i.status ? `статус ${i.status}` : '',
    i.sprint ? `спринт ${i.sprint}` : '',
    i.assignee ? `исполнитель ${i.assignee}` : '',
    i.priority ? `приоритет ${i.priority}` : '',
    i.duedate ? `срок ${i.duedate}` : '',
    i.labels?.length ? `метки ${i.labels.join(', ')}` : '',
  ].filter(Boolean);
  return `${i.key} «${i.summary ?? ''}» — ${facts.join(', ')}; в зеркале с ${i.synced_at ?? '—'}`;
}

export function noteLine(n: NoteView | null): string {
  if (!n) return 'Заметки нет.';
  return `Заметка ${n.key}: факт. статус ${n.fact_status ?? '—'}; комментарий ${n.comment ?? '—'} (источник ${n.source ?? '—'}, изменена ${n.updated_at ?? '—'}).`;
}

export function issueText(i: IssueDetailView, linkTypes: Record<string, string>): string {
  const links = issueLinks(i, linkTypes);
  return [issueLine(i), links.length ? `Связи: ${links.join('; ')}.` : 'Связей в зеркале нет.', noteLine(i.note)].join('\n');
}

const VERDICT: Record<string, string> = {
  holds: 'уже выполнено',
  would_change: 'изменит Jira',
  unknown_key: 'ключа нет в зеркале',
  cannot_judge: 'не оценить по зеркалу',
};

const CHECK: Record<string, string> = {
  will_change: 'проверки: изменит Jira',
  no_change: 'проверки: Jira не изменится',
  will_fail: 'проверки: Jira откажет',
  unknown: 'проверки: по каталогу Jira не оценить',
};

/**
 * The plan in words: the hub's own sentences (the plan's and each command's), else the verdict's name;
 * under each command its findings with their suggestions («✗ link_type: … → может быть, Blocks?») and
 * what the checks did («· link_type: блокирует → Blocks»).
 */
export function planText(p: PlanView): string {
  const commands = p.commands ?? [];
  const line = (c: PlannedCommandView) => {
    const what = c.text || word(VERDICT, c.verdict);
    const tail = c.tail_refresh ? ' (завершающий refresh, хаб добавляет его сам)' : '';
    const check = c.check && !c.tail_refresh ? ` [${word(CHECK, c.check)}]` : '';
    return [
      `(${c.seq}) ${c.type} ${commandTarget(c)}${tail} — ${what}${check}`,
      ...(c.findings ?? []).map((f) => `  ✗ ${f.param}: ${f.detail}${f.suggestion ? ` → ${f.suggestion}` : ''}`),
      ...(c.notes ?? []).map((n) => `  · ${n}`),
    ].join('\n');
  };
  const estimate = `Оценка времени: ${duration(p.estimate_seconds)}.`;
  const approval = p.awaiting_approval ? 'Отправленный пакет будет ждать одобрения человека.' : 'Отправленный пакет сразу встанет в очередь.';
  return [
    `Проверка пакета, ничего не записано. ${p.text}`,
    ...commands.map(line),
    `${estimate} ${approval}`,
    p.ok === false
      ? 'submit_batch с такими командами хаб отклонит (422 plan_failed): исправьте каждую команду с «✗» по подсказке после «→» и проверьте план снова.'
      : 'Чтобы отправить пакет, вызовите submit_batch с тем же телом.',
  ]
    .filter(Boolean)
    .join('\n');
}
