/**
 * What an awaiting batch will do if approved: the hub's dry run (POST /batches/plan) of the batch's own
 * commands — per command its verdict, each field from → to, keys the mirror lacks, and the findings of the
 * checks (SPEC 16.2) when the hub gives them; the estimate; and the name of who approves (kept in
 * localStorage: typed once).
 */
import { useEffect, useState } from 'react';
import { api } from '../api';
import { useHub } from '../context';
import { day, duration, plural } from '../format';
import type { Finding } from '@jira-hub/contracts';
import { TAIL_REFRESH_WORDS, UNKNOWN_WORD } from '@jira-hub/contracts/russian';
import type { BatchView } from '../types';
import { describeCommand, fieldLabel, paramLabel, personWords } from '../words';
import { errorText, Loading } from './ui';
import { commandsNameAssignee, commandsNameBoard, useCatalogueBoards, useCataloguePeople, type People } from './Changes';

export type { Finding } from '@jira-hub/contracts';

export interface PlannedCommand {
  seq: number;
  type: string;
  params: Record<string, unknown>;
  tail_refresh?: boolean;
  verdict: string;
  /** SPEC 16.2's verdict of the checks against the catalogue */
  check?: string;
  notes?: string[];
  changes?: { field: string; from: unknown; to: unknown }[];
  unknown_keys?: string[];
  why?: string | null;
  text?: string;
  findings?: Finding[];
}

export interface Plan {
  estimate_seconds: number;
  remaining_seconds?: number;
  text?: string;
  commands: PlannedCommand[];
  findings?: Finding[];
  /** the catalogue the checks read; null: none reported yet */
  catalogue?: { synced_at?: string | null } | null;
  /** the batch would wait for a person's approval (the hub's rule for the caller's source) */
  awaiting_approval?: boolean;
}

/** Verdicts of today's dry run and of SPEC 16.2, in words; `alert`: a person should look before approving. */
export const VERDICT: Record<string, { text: string; tone: 'ok' | 'change' | 'alert' | 'muted' }> = {
  would_change: { text: 'изменит Jira', tone: 'change' },
  will_change: { text: 'изменит Jira', tone: 'change' },
  holds: { text: 'уже выполнено', tone: 'ok' },
  no_change: { text: 'ничего не изменит', tone: 'ok' },
  unknown_key: { text: 'ключа нет в зеркале', tone: 'alert' },
  will_fail: { text: 'не выполнится', tone: 'alert' },
  unknown: { text: UNKNOWN_WORD, tone: 'alert' },
  cannot_judge: { text: 'не проверить заранее', tone: 'muted' },
};

/**
 * The dry run in a sentence for a person, from its verdicts and findings. The hub's own `text` is written
 * for the API and the assistant: it names params and JSON fields («см. notes команд»), which the panel
 * shows step by step in words instead.
 */
export function planHeadline(plan: Pick<Plan, 'commands'>, findings: readonly Finding[]): string {
  const total = plan.commands.length;
  const count = (v: string) => plan.commands.filter((c) => c.verdict === v).length;
  const refused = findings.length > 0 ? `Проверка по каталогу Jira нашла замечания: ${findings.length}, они отмечены у команд ниже. ` : '';
  const commands = `${total} ${plural(total, 'команды', 'команд', 'команд')}`;
  if (total > 0 && count('holds') === total) return `${refused}${total === 1 ? 'Команда уже выполнена' : `Все ${total} ${plural(total, 'команда', 'команды', 'команд')} уже выполнены`} по данным зеркала: менять в Jira нечего.`;
  const parts = [
    [count('would_change'), 'изменят Jira'],
    [count('holds'), 'уже выполнены'],
    [count('unknown_key'), 'называют задачи, которых нет в зеркале (сначала обновите зеркало)'],
    [count('cannot_judge'), 'не проверить заранее'],
  ]
    .filter(([n]) => n)
    .map(([n, words]) => `${words} — ${n}`);
  const unknown = plan.commands.filter((c) => c.check === 'unknown').length;
  const catalogue = unknown > 0 && findings.length === 0 ? ` По каталогу Jira не оценить: ${unknown}.` : '';
  return `${refused}Из ${commands}: ${parts.join('; ')}.${catalogue}`;
}

const APPROVER_KEY = 'jira-hub-approver';
export const approver = {
  get: (): string => localStorage.getItem(APPROVER_KEY) ?? '',
  set: (name: string) => localStorage.setItem(APPROVER_KEY, name),
};

function shown(field: string, v: unknown, people?: People): string {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) return field === 'sprint' ? 'бэклог' : 'пусто';
  if (field === 'assignee' && typeof v === 'string') return personWords(v, people);
  if (field === 'duedate' && typeof v === 'string') return day(v);
  if (Array.isArray(v)) return v.join(', ');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The batch as the dry run takes it: its commands without the tail refresh the hub appends again. */
export function planBody(batch: Pick<BatchView, 'title' | 'commands'>) {
  const commands = batch.commands.map((c) => ({ type: c.type, params: c.params }));
  const writes = commands.some((c) => c.type !== 'refresh');
  const last = commands.at(-1);
  return { title: batch.title, commands: writes && last?.type === 'refresh' ? commands.slice(0, -1) : commands };
}

export type PlanBody = ReturnType<typeof planBody>;

/**
 * The dry run of `body`, shown per command; `title`: the panel's heading. `awaiting`: the batch shown already
 * waits for approval (the batch page) — the dry run's own `awaiting_approval` is for a batch its caller, the
 * dashboard, would submit.
 */
export function PlanPanel({ body, title = 'Что сделает пакет, если его одобрить', awaiting }: { body: PlanBody; title?: string; awaiting?: boolean }) {
  const { settings } = useHub();
  const [plan, setPlan] = useState<Plan | null>(null);
  const [error, setError] = useState<unknown>(null);
  const key = JSON.stringify(body);
  useEffect(() => {
    setPlan(null);
    setError(null);
    api.post<Plan>('/batches/plan', JSON.parse(key)).then(setPlan, setError);
  }, [key]);
  // A revert's ensure_sprint names its board by id: by the catalogue's name, as the change record does.
  const boards = useCatalogueBoards(commandsNameBoard(plan?.commands ?? []));
  // An assignee is an account id: by the name the catalogue gives, in the command and in its from → to.
  const people = useCataloguePeople(commandsNameAssignee(plan?.commands ?? []) || Boolean(plan?.commands.some((c) => c.changes?.some((ch) => ch.field === 'assignee'))));
  if (error) return <div className="panel warning-panel" role="alert">План не удалось построить: {errorText(error)}</div>;
  if (!plan) return <Loading rows={3} label="Строим план…" />;
  // The plan's findings are every command's (SPEC 16.2); an older hub gives them per command only.
  const findings = plan.findings ?? plan.commands.flatMap((c) => c.findings ?? []);
  const alerts = plan.commands.filter((c) => [c.verdict, c.check].some((v) => v && VERDICT[v]?.tone === 'alert') || (c.unknown_keys?.length ?? 0) > 0).length;
  return (
    <section className="panel plan" aria-label="План пакета">
      <h2>{title}</h2>
      <p>
        {planHeadline(plan, findings)} Оценка: {duration(plan.estimate_seconds)} пауз агента
        {plan.remaining_seconds !== undefined ? `, вместе с очередью ≈ ${duration(plan.remaining_seconds)}` : ''}.
      </p>
      {plan.catalogue === null && <p className="muted small">Каталог Jira от агента ещё не получен: проверки по каталогу не выполнены, их итог — «{UNKNOWN_WORD}».</p>}
      {(alerts > 0 || findings.length > 0) && (
        <p className="plan-alert" role="note">
          Проверьте {(awaiting ?? plan.awaiting_approval !== false) ? 'перед одобрением' : 'перед отправкой'}: {alerts > 0 ? `команд с неизвестным исходом или ключом — ${alerts}` : ''}
          {alerts > 0 && findings.length > 0 ? '; ' : ''}
          {findings.length > 0 ? `замечаний проверки — ${findings.length}` : ''}.
        </p>
      )}
      <ol className="plan-list">
        {plan.commands.map((c) => {
          const verdict = VERDICT[c.verdict] ?? { text: c.verdict, tone: 'alert' as const };
          const check = c.check ? (VERDICT[c.check] ?? { text: c.check, tone: 'alert' as const }) : null;
          const tone = check?.tone === 'alert' ? 'alert' : verdict.tone;
          const own = findings.filter((f) => f.seq === c.seq);
          return (
            <li key={c.seq} className={`plan-item tone-${tone}`} data-seq={c.seq}>
              <div className="plan-head">
                <span className="muted small">шаг {c.seq}</span> <span className="strong">{describeCommand(c, settings.link_types, boards, people)}</span>{' '}
                {check && (
                  <span className={`chip verdict-${check.tone}`} title="проверка по каталогу Jira">
                    проверка: {check.text}
                  </span>
                )}{' '}
                <span className={`chip verdict-${verdict.tone}`} title="сравнение с зеркалом">
                  {verdict.text}
                </span>
                {c.tail_refresh && <span className="muted small"> ({TAIL_REFRESH_WORDS})</span>}
              </div>
              {(c.changes?.length ?? 0) > 0 && (
                <table className="changes">
                  <caption className="sr-only">Изменения шага {c.seq}</caption>
                  <thead>
                    <tr>
                      <th>Поле</th>
                      <th>Сейчас</th>
                      <th>Станет</th>
                    </tr>
                  </thead>
                  <tbody>
                    {c.changes!.map((ch) => (
                      <tr key={ch.field}>
                        <td>{fieldLabel(ch.field)}</td>
                        <td className="from">{shown(ch.field, ch.from, people)}</td>
                        <td className="to">→ {shown(ch.field, ch.to, people)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {(c.unknown_keys?.length ?? 0) > 0 && (
                <div className="unknown-keys">
                  Нет в зеркале: {c.unknown_keys!.map((k) => <mark key={k}>{k}</mark>)} — сначала обновите зеркало.
                </div>
              )}
              {c.why && <div className="muted small">{c.why}</div>}
              {(c.notes?.length ?? 0) > 0 && <div className="muted small">{c.notes!.join('; ')}</div>}
              {own.length > 0 && (
                <ul className="findings">
                  {own.map((f, i) => (
                    <li key={i}>
                      <mark>{paramLabel(f.param)}</mark> {f.detail}
                      {f.suggestion ? <span className="muted"> Предложение: {f.suggestion}</span> : null}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Who approves: typed once, remembered in this browser. */
export function ApproverField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <label className="field approver">
      <span>Кто одобряет (имя запомнится в этом браузере)</span>
      <input
        value={value}
        autoComplete="name"
        onChange={(e) => {
          onChange(e.target.value);
          approver.set(e.target.value.trim());
        }}
      />
    </label>
  );
}
