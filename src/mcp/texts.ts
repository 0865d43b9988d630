/**
 * The hub's answers in words for a model (Russian, like every text for people). Pure; the tools put
 * these beside the views themselves (`structuredContent`).
 */
import { TAIL_REFRESH_WORDS } from '@jira-hub/contracts/russian';
import { clip } from '../common/index.js';
import { keyList } from '../packages/index.js';
import { BATCH_STATUS_WORDS, verdictText } from '../queue/index.js';
import { batchChangesText } from './change-texts.js';
import { fenced } from './fence.js';
import type { AgentStatusView, BatchSummary, BatchView, CommandView, IssueDetailView, IssueView, NoteView, PlannedCommandView, PlanView } from './hub-api.js';

/** How much of a text the answers echo (a comment body, a title, a summary): the rest is in the hub. */
export const ECHO_CAP = 200;

export { fenced, FENCE_NOTE } from './fence.js';

/** The dashboard's page of a batch. */
export const batchPage = (dashboard: string, id: number) => `${dashboard}/#/batch/${id}`;

const BATCH_STATUS: Record<string, string> = BATCH_STATUS_WORDS;

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

/**
 * The params that hold free text: a batch's command may carry Jira's own (a revert puts back a description,
 * a comment's body, names a created issue's summary), so a line shows them fenced.
 */
const TEXT_PARAMS = new Set(['summary', 'description', 'body']);

/** The keys and values a command names, shortly: `AURORA-1: duedate=2026-12-01`. */
function commandTarget(c: { type: string; params: Record<string, unknown> }): string {
  const p = c.params ?? {};
  const show = (v: unknown) => clip(typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)), ECHO_CAP);
  // Every value but a key, a number, a date or null may be Jira's words (a status, a sprint, a link type,
  // a field's value, a revert's value put back): fenced as data. Those others have a form no words fit.
  const data = (v: unknown) => (v === null || typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) ? show(v) : fenced(show(v)));
  /** `k=v` of the params but those named */
  const others = (...named: string[]) =>
    Object.entries(p)
      .filter(([k]) => !named.includes(k))
      .map(([k, v]) => `${k}=${data(v)}`)
      .join(', ');
  switch (c.type) {
    case 'ensure_issue': {
      // The type, the parent and the fields a new issue gets are what a person approves, beside its summary.
      const rest = others('temp_key', 'summary');
      return `${show(p.temp_key)} ${data(p.summary)}${rest ? `: ${rest}` : ''}`;
    }
    case 'ensure_link':
    case 'remove_link':
      return `${show(p.source)} —${data(p.link_type)}→ ${show(p.target)}`;
    case 'refresh':
      // A tail refresh names every key of its batch (1,000 and more): the first ones, and how many more.
      return Array.isArray(p.keys) ? keyList(p.keys.map(String)) : p.jql !== undefined ? `JQL ${data(p.jql)}` : 'без keys и jql';
    default: {
      // A command without a key (refresh_catalogue) names no issue: no «undefined» in its place.
      const target = p.key === undefined ? '' : show(p.key);
      return [target, others('key')].filter(Boolean).join(': ');
    }
  }
}

/** A command's type and what it acts on («ensure_fields A-1: duedate=…»; a command on nothing, its type alone). */
const named = (c: { type: string; params: Record<string, unknown> }): string => [c.type, commandTarget(c)].filter(Boolean).join(' ');

/** What a finished command did, in words: the key an ensure_issue created or found. */
function resultFacts(c: CommandView): string {
  const r = c.result ?? {};
  if (c.type === 'ensure_issue' && typeof r.key === 'string') return `${String(c.params?.temp_key ?? '')} → ${r.key}${r.created === true ? ' (создана)' : r.created === false ? ' (уже была)' : ''}`;
  if (Array.isArray(r.changed)) return r.changed.length ? `изменено: ${r.changed.join(', ')}` : 'ничего не пришлось менять';
  return '';
}

export function commandLine(c: CommandView): string {
  const extra = [
    resultFacts(c),
    c.deliveries > 1 ? `выдач ${c.deliveries}` : '',
    c.error ? `причина: ${fenced(clip(c.error, ECHO_CAP * 2))}` : '',
    c.retry_of ? `повтор команды #${c.retry_of}` : '',
  ].filter(Boolean);
  return `#${c.id} (${c.seq}) ${named(c)} — ${word(COMMAND_STATUS, c.status)}${extra.length ? ` (${extra.join('; ')})` : ''}`;
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
    // Waiting for a person, nothing runs: the count starts when it is approved.
    b.status === 'done' || b.status === 'cancelled' ? '' : b.status === 'awaiting_approval' ? `после одобрения ≈ ${duration(b.remaining_seconds)} до завершения` : `до завершения ≈ ${duration(b.remaining_seconds)}`,
    b.approved_by ? `одобрил ${b.approved_by} ${b.approved_at ?? ''}`.trim() : '',
    b.rejected_reason ? `отклонён: ${b.rejected_reason}` : '',
  ].filter(Boolean);
  return `Пакет #${b.id} «${clip(b.title, ECHO_CAP)}» — ${word(BATCH_STATUS, b.status)} (${facts.join('; ')}). Команды: ${counts || 'нет'}.`;
}

/** What a model should tell the person about a batch's next step (never a way around the person). */
export function nextStep(b: BatchSummary, dashboard: string): string {
  if (b.status === 'awaiting_approval') {
    return `Пакет ждёт одобрения человека: агент не возьмёт ни одной его команды, пока человек его не одобрит. Попросите человека одобрить пакет #${b.id} на странице ${batchPage(dashboard, b.id)}; следите за ним инструментом get_batch.`;
  }
  if (b.status === 'queued' || b.status === 'running') return 'Агент выполняет команды по очереди, с паузами; следите за пакетом инструментом get_batch.';
  return '';
}

/** The handouts of a command (SPEC 15.3), one line each. */
const historyLines = (c: CommandView): string[] => (c.history ?? []).map((d) => `  выдача ${d.n} ${d.handed_out_at}: ${word(OUTCOME, d.outcome)}`);

/** A batch's commands, one line each; a command handed out more than once shows its handouts (where a report got lost). */
export const commandLines = (commands: CommandView[]): string[] =>
  commands.flatMap((c) => [commandLine(c), ...((c.history?.length ?? 0) > 1 ? historyLines(c) : [])]);

export function batchText(b: BatchView, dashboard: string, intro = ''): string {
  return [intro, batchHeadline(b), nextStep(b, dashboard), checksLine(b), ...commandLines(b.commands ?? []), batchChangesText(b)].filter(Boolean).join('\n');
}

/** SPEC 16.2: what the checks could not judge, and the warnings a client kept, so the person approving knows. */
export function checksLine(b: BatchView): string {
  const checks = b.checks;
  if (!checks) return '';
  const unknown = checks.commands.filter((c) => c.verdict === 'unknown').map((c) => c.seq);
  const warned = checks.commands.filter((c) => c.findings.length > 0).map((c) => c.seq);
  return [
    unknown.length ? `По каталогу Jira не оценить ${unknown.length === 1 ? 'шаг' : 'шаги'} ${unknown.join(', ')}${checks.catalogue ? '' : ' (каталога нет)'}.` : '',
    warned.length ? `Сохранены с предупреждениями проверок: ${warned.length === 1 ? 'шаг' : 'шаги'} ${warned.join(', ')}.` : '',
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

/** How many of an issue's links get_issue's text names (an epic may have thousands): the rest are counted. */
export const LINKS_SHOWN = 100;

/**
 * An issue's links for an answer's text: one fence around them all (a link type's name is Jira's text),
 * the first `shown` of them and how many more, outside the fence.
 */
export const linksText = (links: readonly string[], shown = links.length): string =>
  `${fenced(links.slice(0, shown).join('; '))}${links.length > shown ? ` и ещё ${links.length - shown}` : ''}`;

export function issueLine(i: IssueView): string {
  const facts = [
    i.issue_type,
    i.status ? `статус ${i.status}` : '',
    // a closed sprint only: the issue is in the backlog (decision 1434)
    i.sprint ? (i.sprint_state === 'closed' ? `бэклог (спринт ${i.sprint} закрыт)` : `спринт ${i.sprint}`) : '',
    i.assignee ? `исполнитель ${i.assignee}` : '',
    i.priority ? `приоритет ${i.priority}` : '',
    i.duedate ? `срок ${i.duedate}` : '',
    i.labels?.length ? `метки ${i.labels.join(', ')}` : '',
  ].filter(Boolean);
  // The summary and every value are Jira's text (a status or a sprint name can carry words too): one fence around them.
  return `${i.key} ${fenced(`${clip(i.summary ?? '', ECHO_CAP)} — ${facts.join(', ')}`)}; в зеркале с ${i.synced_at ?? '—'}`;
}

export function noteLine(n: NoteView | null): string {
  if (!n) return 'Заметки нет.';
  const text = (v: string | null) => (v === null ? '—' : fenced(clip(v, ECHO_CAP * 5)));
  return `Заметка ${n.key}: факт. статус ${text(n.fact_status)}; комментарий ${text(n.comment)} (источник ${n.source ?? '—'}, изменена ${n.updated_at ?? '—'}).`;
}

export function issueText(i: IssueDetailView, linkTypes: Record<string, string>): string {
  const links = issueLinks(i, linkTypes);
  const all = links.length > LINKS_SHOWN ? ` (всего ${links.length}; все — GET /issues/${i.key} в REST хаба)` : '';
  return [issueLine(i), links.length ? `Связи: ${linksText(links, LINKS_SHOWN)}${all}.` : 'Связей в зеркале нет.', noteLine(i.note)].join('\n');
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

/** A page of a plan's commands, as an answer shows them. */
export interface PlanShown {
  /** the commands shown (a page of the plan's) */
  commands: PlannedCommandView[];
  /** every command of the plan, the tail refresh included */
  total: number;
  offset: number;
  /** submit_batch is served */
  canSubmit: boolean;
}

/** How much of a refused plan's sentence an answer repeats above its commands. */
const REFUSAL_SHOWN = 1_500;

/**
 * The plan in words: the hub's own sentences (the plan's and each command's, its values fenced), else the verdict's name;
 * under each command its findings with their suggestions («✗ link_type: … → может быть, Blocks?») and
 * what the checks did («· тип связи «блокирует» записан как «Blocks»»). `shown`: the page of commands shown.
 */
export function planText(p: PlanView, shown: PlanShown = { commands: p.commands ?? [], total: p.commands?.length ?? 0, offset: 0, canSubmit: true }): string {
  const commands = shown.commands;
  const line = (c: PlannedCommandView) => {
    // The hub's sentence, only its values fenced (a status, a sprint, a reason naming them): its own words stay outside.
    const what = c.text ? verdictText(c, (value) => fenced(clip(value, ECHO_CAP))) : word(VERDICT, c.verdict);
    const tail = c.tail_refresh ? ` (${TAIL_REFRESH_WORDS}, хаб добавляет его сам)` : '';
    const check = c.check && !c.tail_refresh ? ` [${word(CHECK, c.check)}]` : '';
    return [
      `(${c.seq}) ${named(c)}${tail} — ${what}${check}`,
      // a finding's words name Jira's catalogue (statuses, sprints, boards, values): fenced as data
      ...(c.findings ?? []).map((f) => `  ✗ ${f.param}: ${fenced(f.detail)}${f.suggestion ? ` → ${fenced(f.suggestion)}` : ''}`),
      // The checks' notes name Jira's statuses, sprints and link types: fenced as data.
      ...(c.notes ?? []).map((n) => `  · ${fenced(n)}`),
    ].join('\n');
  };
  const estimate = `Оценка времени: ${duration(p.estimate_seconds)}.`;
  const approval = p.awaiting_approval ? 'Отправленный пакет будет ждать одобрения человека.' : 'Отправленный пакет сразу встанет в очередь.';
  // The body's commands, as the headline and `counts` count them: the tail refresh the hub adds aside.
  const verdicts = Object.entries(
    (p.commands ?? []).filter((c) => !c.tail_refresh).reduce<Record<string, number>>((n, c) => ({ ...n, [c.verdict]: (n[c.verdict] ?? 0) + 1 }), {}),
  ).map(([v, n]) => `${word(VERDICT, v)}: ${n}`);
  const end = shown.offset + commands.length;
  const paging = end < shown.total ? `Показаны команды ${shown.offset + 1}–${end} из ${shown.total}; остальные — тот же вызов с offset: ${end}.` : '';
  return [
    // A refused plan's sentence lists every finding with Jira's names: fenced, and short — the commands below carry them one by one.
    `Проверка пакета, ничего не записано. ${p.ok === false ? fenced(clip(p.text, REFUSAL_SHOWN)) : p.text}`,
    verdicts.length ? `Вердикты: ${verdicts.join(', ')}.` : '',
    ...commands.map(line),
    paging,
    `${estimate} ${approval}`,
    p.ok === false
      ? 'submit_batch с такими командами хаб отклонит (422; код — plan_failed, а validation_failed, если нарушены только правила параметров команд): исправьте каждую команду с «✗» по подсказке после «→» и проверьте план снова.'
      : p.all_hold
        ? '' // the headline says there is nothing to send
        : shown.canSubmit
          ? 'Чтобы отправить пакет, вызовите submit_batch с тем же телом.'
        : 'Этот MCP-сервер работает только на чтение: покажите план человеку — отправить пакет может он сам или ассистент с правом записи.',
  ]
    .filter(Boolean)
    .join('\n');
}
