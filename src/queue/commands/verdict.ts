/** The dry run's verdict on one command against the mirror (SPEC 15.4). Pure. */
import { shownText } from '../../common/index.js';
import { GONE_WHY, goneWhy, type MirrorLookup } from '../../mirror/index.js';
import { comparableText, isTempKey, keysNamed, tempKeysNeeded, type CommandType, type Params } from '@jira-hub/contracts/catalogue';
import { changesAgainstMirror, type Change } from './confirmation.js';
import { substitute, type Resolution } from './temp-keys.js';

export const VERDICTS = ['holds', 'would_change', 'unknown_key', 'cannot_judge'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface CommandVerdict {
  verdict: Verdict;
  /** would_change: each difference, from the mirror's value to the command's */
  changes: Change[];
  /** unknown_key: the Jira keys the mirror does not hold */
  unknown_keys: string[];
  /** cannot_judge: why (Russian) */
  why: string | null;
  /** the oldest `synced_at` of the mirror's issues the verdict read; null when it read none */
  synced_at: string | null;
  age_seconds: number | null;
  /** one short Russian sentence for a person or a model */
  text: string;
}

const NOT_JUDGED: Partial<Record<CommandType, string>> = {
  refresh: 'обновление зеркала только читает Jira',
  refresh_catalogue: 'чтение каталога только читает настройки проекта Jira',
  ensure_issue: 'при создании задачи агент ищет её по теме в самой Jira, зеркало этого не решает',
  ensure_comment: 'комментарии не хранятся в зеркале',
  remove_comment: 'комментарии не хранятся в зеркале',
  delete_issue: 'агент сверяет тему задачи в самой Jira перед удалением',
};

/** «5 с», «3 мин», «2 ч», «4 дн». */
export function ageText(seconds: number): string {
  if (seconds < 60) return `${seconds} с`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} мин`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} ч`;
  return `${Math.floor(seconds / 86400)} дн`;
}

/** A value in a text for a person: «text», пусто for nothing, JSON for lists. */
export const shown = (v: unknown): string =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) ? 'пусто' : typeof v === 'string' ? `«${v}»` : JSON.stringify(v);

/**
 * Shows a value that came from Jira or a command (a status, a sprint, a reason naming them): as it is in the
 * REST answers and the CLI; an MCP answer fences it as data, the hub's own words around it left outside.
 */
export type Quote = (text: string) => string;
const asIs: Quote = (text) => text;

/** A value of a change in words: a sprint's null is the backlog (SPEC 16.2), not an empty value; `quote` shows a value there is. */
export const valueText = (field: string, v: unknown, quote: Quote = asIs): string =>
  field === 'sprint' && (v === null || v === undefined) ? 'бэклог' : shown(v) === 'пусто' ? 'пусто' : quote(shown(v));

export const changeText = (c: Change, quote: Quote = asIs) => `${c.field}: ${valueText(c.field, c.from, quote)} → ${valueText(c.field, c.to, quote)}`;

/** The reasons a verdict gives in the hub's fixed words (no value of a command or of Jira in them). */
const FIXED_REASONS = new Set<string>([...Object.values(NOT_JUDGED), 'зеркало не показывает, что изменит эта команда']);
/** The reason of a command the checks refused (the dry run does not judge it: plan.service.ts). */
export const WITH_FINDINGS_REASON = 'в команде ошибки — см. замечания проверки';
FIXED_REASONS.add(WITH_FINDINGS_REASON);

/**
 * A verdict's sentence (its `text`) from its parts. `quote` shows the values of the changes and a reason
 * that may name a command's values (a sprint, a board); the hub's fixed reasons and words are shown as they are.
 */
export function verdictText(v: Pick<CommandVerdict, 'verdict' | 'changes' | 'unknown_keys' | 'why' | 'age_seconds'>, quote: Quote = asIs): string {
  const when = typeof v.age_seconds === 'number' ? ` (данные зеркала ${ageText(v.age_seconds)} назад)` : '';
  switch (v.verdict) {
    case 'holds':
      return `Уже выполнено${when}: агенту менять нечего.`;
    case 'would_change':
      return `Изменит${when}: ${(v.changes ?? []).map((c) => changeText(c, quote)).join('; ')}.`;
    case 'unknown_key':
      return `В зеркале нет ${(v.unknown_keys ?? []).join(', ')}: обновите эти задачи в зеркале, чтобы судить.`;
    default: {
      const why = v.why ?? '';
      return `Не проверить заранее: ${FIXED_REASONS.has(why) || GONE_WHY.test(why) ? why : quote(why)}.`;
    }
  }
}

/**
 * Why an ensure_sprint with a board is not judged (decision 1430): the mirror row has no sprint id yet (an
 * older agent refreshed it: decision 1423, only Jira tells), or the board is not one the catalogue knows.
 */
function sprintWhy(sprint: string, board: string, idKnown: boolean): string {
  // The command's own values, by their first characters (decision 1464).
  [sprint, board] = [shownText(sprint), shownText(board)];
  return idKnown
    ? `доски «${board}» нет в каталоге Jira хаба: в спринте ли «${sprint}» этой доски задача, покажет только Jira`
    : `зеркало знает у задачи только имя спринта, не его id (задачу обновлял агент старой версии): есть ли она уже в спринте «${sprint}» доски «${board}», покажет только Jira`;
}

/**
 * The issues a command names (an earlier batch's temp key as the issue it made; an ensure_issue's own temp key
 * is no issue yet) that Jira no longer has, each with the run that found it gone; none for the refreshes, which
 * read Jira.
 */
function goneNamed(type: CommandType, params: Params, mirror: MirrorLookup, tempKey: (t: string) => Resolution): { key: string; run: number }[] {
  if (type === 'refresh' || type === 'refresh_catalogue' || !mirror.gone) return [];
  const named = keysNamed(type, params).slice(type === 'ensure_issue' ? 1 : 0);
  const keys = named.map((k) => {
    if (!isTempKey(k)) return k;
    const r = tempKey(k);
    return r.state === 'resolved' ? r.key : undefined;
  });
  return [...new Set(keys.filter((k): k is string => k !== undefined))].flatMap((key) => {
    const run = mirror.gone!(key);
    return run === undefined ? [] : [{ key, run }];
  });
}

function judged(verdict: Verdict, extra: Partial<Omit<CommandVerdict, 'text'>>): CommandVerdict {
  const parts = { verdict, changes: [], unknown_keys: [], why: null, synced_at: null, age_seconds: null, ...extra };
  return { ...parts, text: verdictText(parts) };
}

/**
 * The verdict of one command: `holds` (confirmation by state would confirm it now), `would_change`,
 * `unknown_key` (the mirror lacks a key it names: refresh first) or `cannot_judge` (with why; also when it
 * names an issue Jira no longer has, `mirror.gone`: the mirror's last copy of it says nothing).
 * `tempKey` says what a temp key stands for: `pending` when this batch's own ensure_issue defines it
 * (nothing to look at before it runs), `resolved` when an earlier batch created it. `sameSummary` gives
 * the mirror's issues with exactly a summary (an ensure_issue's hint).
 */
export function verdictOf(
  type: CommandType,
  params: Params,
  mirror: MirrorLookup,
  tempKey: (t: string) => Resolution,
  now: Date,
  sameSummary: (summary: string) => string[] = () => [],
): CommandVerdict {
  // The mirror keeps an issue Jira no longer has (SPEC 7): its last copy says nothing of what the command would
  // do — whatever the command (a comment on it, a new issue under it as the parent), as the checks say (decision 1453).
  const gone = goneNamed(type, params, mirror, tempKey);
  if (gone.length > 0) return judged('cannot_judge', { why: goneWhy(gone, type) });
  const notJudged = NOT_JUDGED[type];
  if (type === 'ensure_issue' && typeof params.summary === 'string') {
    // The agent reuses an issue of the project with exactly this summary: say so when the mirror holds one.
    const found = sameSummary(comparableText(params.summary));
    const why = found.length ? `${notJudged}; в зеркале уже есть задача с такой темой: ${found.join(', ')} — агент возьмёт её, если она в том же проекте` : notJudged;
    return judged('cannot_judge', { why });
  }
  if (notJudged) return judged('cannot_judge', { why: notJudged });
  const s = substitute(type, params, tempKey);
  if (s.kind !== 'ready') {
    const t = tempKeysNeeded(type, params).find((k) => tempKey(k).state !== 'resolved') ?? '';
    const why = `задача ${t} появится, только когда этот пакет её создаст`;
    return judged('cannot_judge', { why });
  }
  const keys = keysNamed(type, s.params);
  const unknown = keys.filter((k) => !mirror.issue(k));
  if (unknown.length > 0) {
    return judged('unknown_key', { unknown_keys: unknown });
  }
  const synced = keys.map((k) => mirror.issue(k)?.synced_at).filter((t): t is string => typeof t === 'string').sort()[0] ?? null;
  const age = synced === null ? null : Math.max(0, Math.floor((now.getTime() - Date.parse(synced)) / 1000));
  const changes = changesAgainstMirror(type, s.params, mirror);
  if (changes === undefined) {
    const why =
      type === 'ensure_sprint' && s.params.board !== undefined
        ? sprintWhy(String(s.params.sprint), String(s.params.board), mirror.issue(String(s.params.key))?.sprint_id != null)
        : 'зеркало не показывает, что изменит эта команда';
    return judged('cannot_judge', { why, synced_at: synced, age_seconds: age });
  }
  if (changes.length === 0) return judged('holds', { synced_at: synced, age_seconds: age });
  return judged('would_change', { changes, synced_at: synced, age_seconds: age });
}
